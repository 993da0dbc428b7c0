import { defineConfig } from 'vitest/config';

/**
 * The stress step of `npm test`: floods, giant events, a million events and the heap-retention
 * checks (`*.stress.test.ts`, which vitest.config.ts leaves out). Files one at a time, so that
 * what one measures of memory is its own.
 */
export default defineConfig({
  test: {
    include: ['**/*.stress.test.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 30_000,
  },
});
