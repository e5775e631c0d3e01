import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

/**
 * The files of a project share a worker's process (vitest.config.ts), so a test that times out
 * could leave work running into the next file. test/support/skipRestAfterTimeout.ts ends such a
 * worker before the next file starts in it. Here a small project of eight files runs on two
 * workers in name order: b times out at once and its leftover work marks its process a second
 * later; the next file in that worker would wait long enough to see the mark, and so would any
 * file after it that ran in that process.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Inside the repository, where the fixture files resolve `vitest` from its node_modules.
const scratch = mkdtempSync(join(ROOT, 'test', '.timedOutWorker-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const fixture = (name: string, body: string) => writeFileSync(join(scratch, name), body);

it('ends a worker in which a test timed out, so that its leftover work reaches no later file', () => {
  writeFileSync(
    join(scratch, 'vitest.config.mjs'),
    `class ByName {
  async shard(files) { return files; }
  async sort(files) { return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId)); }
}
export default {
  test: {
    include: ['*.test.mjs'],
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    sequence: { sequencer: ByName },
    setupFiles: [${JSON.stringify(join(ROOT, 'test', 'support', 'skipRestAfterTimeout.ts'))}],
  },
};
`,
  );
  const marks = `import { expect, it } from 'vitest';
it('finds no leftover work', async () => {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(globalThis.leftover, 'pid ' + process.pid).toBeUndefined();
});
`;
  fixture('a.test.mjs', marks);
  fixture(
    'b.test.mjs',
    `import { it } from 'vitest';
it('times out', async () => {
  setTimeout(() => { globalThis.leftover = 'from b'; }, 1_000);
  await new Promise((resolve) => setTimeout(resolve, 5_000));
}, 300);
it('is skipped after it', () => {});
`,
  );
  for (const name of ['c', 'd', 'e', 'f', 'g', 'h']) fixture(`${name}.test.mjs`, marks);

  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', scratch, '--reporter', 'json'],
    { cwd: scratch, encoding: 'utf8', timeout: 90_000, env: { ...process.env, NO_COLOR: '1' } },
  );
  const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
    testResults: Array<{ name: string; assertionResults: Array<{ title: string; status: string }> }>;
  };
  const states = Object.fromEntries(
    report.testResults.flatMap((file) =>
      file.assertionResults.map((test) => [`${file.name.split('/').pop()}: ${test.title}`, test.status]),
    ),
  );
  expect(run.status, run.stderr).not.toBe(0);
  // The timeout is the run's failure, and no file fails on its leftover work. The file that was to
  // start next in that worker (which one depends on how fast the workers start) is not run, and
  // the worker's end names it; the rest run in a new worker or the other one.
  const notRun = run.stderr.match(/cannot reach the next file, (\w)\.test\.mjs, which is not run/)?.[1];
  expect(notRun, run.stderr).toMatch(/^[c-h]$/);
  const later = ['c', 'd', 'e', 'f', 'g', 'h']
    .filter((name) => name !== notRun)
    .map((name) => [`${name}.test.mjs: finds no leftover work`, 'passed']);
  expect(states).toEqual({
    'a.test.mjs: finds no leftover work': 'passed',
    'b.test.mjs: times out': 'failed',
    'b.test.mjs: is skipped after it': 'skipped',
    ...Object.fromEntries(later),
  });
  expect(run.stderr).toContain('"times out" of b.test.mjs timed out in this worker');
}, 120_000);
