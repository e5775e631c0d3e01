import { defineConfig } from 'vitest/config';
import { TEST_ENGINE_JVM_OPTIONS } from './test/support/engineJvmOptions.ts';
import LongestFilesFirst from './test/support/longestFilesFirst.ts';

// Set here, in the process that runs the global setups and forks the workers, so every engine of
// the run has them: the global setup's, and those a test starts itself.
process.env.TRACKER_DYNAMODB_JVM_OPTIONS ??= TEST_ENGINE_JVM_OPTIONS;

const env = {
  TRACKER_REQUEST_LOG: 'off',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  // Passwords hashed at scrypt's cost 1024 instead of 16384 (shared/domain/identity/credentials.ts):
  // every test installation's administrator, most test accounts and every password login hash
  // one, a fifth of a second of CPU each at full cost on a busy two-core machine.
  TRACKER_PASSWORD_HASH_COST: '1024',
};

/**
 * The setup files of a project whose files share a worker's process: the environment put back
 * first (its end hook runs last), then the project's own, then the guard that skips the rest of a
 * file after a timeout and ends the worker before another file starts there (its end hook first).
 */
const sharedProcessSetup = (...own: string[]) => [
  'test/support/restoreEnvAfterFile.ts',
  ...own,
  'test/support/skipRestAfterTimeout.ts',
];

export default defineConfig({
  test: {
    reporters: ['default', './test/support/plainSummaryReporter.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // The longest files first, so that none runs alone at the end (test/support/longestFilesFirst.ts).
    sequence: { sequencer: LongestFilesFirst },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each worker runs its files one after another in one process, not a process per file:
    // forking and importing the code afresh for every file took a third of the suite's time.
    // Each project alone (2026-11-30), isolated → shared: integration 412 s → 266 s (777 s →
    // 495 s of CPU), browser 261 s → 214 s (505 s → 414 s), unit 103 s → 64 s. What a file leaves
    // behind is put back or dropped by the setup files (sharedProcessSetup: the environment, the
    // tables, a worker in which something timed out); a file that needs the modules evaluated
    // afresh says so with vi.resetModules().
    isolate: false,
    projects: [
      {
        extends: true,
        // Pure code and the CDK stack: no engines, no Java (`npm run test:unit`).
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: sharedProcessSetup('test/support/cdkOutdirPerFile.ts'),
          // Limits for a hung test, not speed targets: a CDK synthesis or a Python child doing
          // bounded work waits its turn for the CPU on a busy two-core machine (CI).
          testTimeout: 120_000,
          hookTimeout: 300_000,
          env,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // A DynamoDB Local per worker and one s3rver, started once for this project and the
          // browser one; each test file gets its own tables, dropped when it ends
          // (test/support/testEngines.ts).
          globalSetup: ['test/support/globalSetup.ts'],
          setupFiles: sharedProcessSetup('test/support/dropTablesAfterFile.ts'),
          // A limit for a hung test, not a speed target: on a busy two-core machine (CI) a file's
          // requests wait their turn for the CPU, and a test doing bounded work must not fail for it.
          testTimeout: 120_000,
          hookTimeout: 300_000,
          // DynamoDB Local can stall for seconds on a loaded machine (JVM collections while many
          // files create tables): a longer attempt than production's 2 s keeps that from failing a
          // file's setup. The budget itself is tested in test/unit/sdkTimeouts.test.ts.
          env: { ...env, TRACKER_SDK_REQUEST_TIMEOUT_MS: '6000' },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // The web app in headless Chromium against the test app (test/support/browserApp.ts):
          // each step waits for what a person would see, so a test gets minutes, not seconds.
          globalSetup: ['test/support/globalSetup.ts', 'test/support/browserGlobalSetup.ts'],
          // The engines are the integration project's (test/support/globalSetup.ts): a file's
          // tables are dropped when it ends there too.
          setupFiles: sharedProcessSetup('test/support/dropTablesAfterFile.ts'),
          testTimeout: 180_000,
          env: { ...env, TRACKER_SDK_REQUEST_TIMEOUT_MS: '6000' },
        },
      },
    ],
  },
});
