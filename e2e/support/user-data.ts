/**
 * The browser host of an e2e run keeps its user data (recent files) in a temp folder named
 * with this prefix (playwright.config.ts creates it, the global teardown removes it).
 */
export const E2E_USER_DATA_PREFIX = 'agent-stream-inspector-e2e-';
