import { defineConfig } from 'vitest/config';

/** The unit suite. Stress tests (`*.stress.test.ts`) run as their own step: vitest.stress.config.ts. */
export const UNIT_INCLUDE = ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'src-renderer/**/*.test.ts', 'scripts/**/*.test.ts'];
export const STRESS_PATTERN = '**/*.stress.test.ts';

export default defineConfig({
  test: {
    include: UNIT_INCLUDE,
    exclude: ['**/node_modules/**', STRESS_PATTERN],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
