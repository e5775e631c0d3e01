import { beforeEach } from 'vitest';

/**
 * A test that times out is failed, but its work goes on in the background: its requests still
 * reach the app while the next test runs. The tests of a file share one installation, so what
 * follows would fail on the leftovers with messages that point away from the cause. Once a test
 * of this file has timed out, the rest of the file is skipped, naming the test that did.
 */
let timedOut: string | undefined;

beforeEach((context) => {
  if (timedOut) context.skip(`"${timedOut}" timed out earlier in this file, and its work may still be running`);
  context.onTestFailed(({ task }) => {
    if (task.result?.errors?.some((error) => /timed out in \d+ ?ms/i.test(error.message ?? ''))) timedOut = task.name;
  });
});
