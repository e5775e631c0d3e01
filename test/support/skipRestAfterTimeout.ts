import { writeSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeEach, expect } from 'vitest';

/**
 * A test that times out is failed, but its work goes on in the background: its requests still
 * reach the app while the next test runs. The tests of a file share one installation, so what
 * follows would fail on the leftovers with messages that point away from the cause. Once a test
 * of this file has timed out, the rest of the file is skipped, naming the test that did.
 *
 * The files of a project also share a worker's process, one after another (vitest.config.ts), so
 * the leftovers could reach the next file too, whose tables the process's environment then names.
 * A file in which a test or hook timed out leaves its worker marked; the next file to start there
 * ends the worker before it does anything, saying why. Vitest reports the worker's exit as an
 * error, does not run that one file, and runs the files after it in a new worker: the run fails
 * on the timeout, reported before, and on nothing the leftovers did.
 */
const POISONED = Symbol.for('tracker.test.workerTimedOut');
const worker = globalThis as { [POISONED]?: string };
if (worker[POISONED]) {
  writeSync(
    2,
    `\n${worker[POISONED]} timed out in this worker (pid ${process.pid}): ending it, so that the leftover work cannot reach the next file, ${relative(process.cwd(), expect.getState().testPath ?? '?')}, which is not run.\n`,
  );
  process.kill(process.pid, 'SIGKILL');
}

let timedOut: string | undefined;

const isTimeout = (errors: ReadonlyArray<{ message?: string }> | undefined) =>
  errors?.some((error) => /timed out in \d+ ?ms/i.test(error.message ?? '')) ?? false;

beforeEach((context) => {
  if (timedOut) context.skip(`"${timedOut}" timed out earlier in this file, and its work may still be running`);
  context.onTestFailed(({ task }) => {
    if (isTimeout(task.result?.errors)) timedOut = task.name;
  });
});

// biome-ignore lint/correctness/noEmptyPattern: Vitest reads a hook's fixtures from its first argument, which must be a pattern; the file is the second.
afterAll(({}, file) => {
  if (timedOut) worker[POISONED] = `"${timedOut}" of ${file.name}`;
  else if (isTimeout(file.result?.errors)) worker[POISONED] = `A hook of ${file.name}`;
});
