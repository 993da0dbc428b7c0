import { defineConfig } from 'vitest/config';
import { STRESS_PATTERN } from './vitest.config';

/**
 * The stress step of `npm test`: floods, giant events, a million events and the heap-retention
 * checks. Files one at a time, so that what one measures of memory is its own.
 */
export default defineConfig({
  test: {
    include: [STRESS_PATTERN],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 30_000,
  },
});
