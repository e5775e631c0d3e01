import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/plainSummaryReporter.ts'],
    // Starts DynamoDB Local and s3rver once; each integration test file gets its own table.
    globalSetup: ['test/support/globalSetup.ts'],
    env: {
      TRACKER_REQUEST_LOG: 'off',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
