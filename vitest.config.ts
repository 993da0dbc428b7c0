import { defineConfig } from 'vitest/config';

/** The unit suite. Stress tests (`*.stress.test.ts`) run as their own step: vitest.stress.config.ts. */
export default defineConfig({
  test: {
    include: ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'src-renderer/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.stress.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
