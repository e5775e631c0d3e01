import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Every `new App()` without an `outdir` makes a `cdk.out*` directory under the system's temporary
 * directory and leaves it there (about a hundred per run of the unit tests). Here each test file
 * gets a temporary directory of its own (TMPDIR, which os.tmpdir() reads on every call), removed
 * when the file ends. Not CDK_OUTDIR: with it set, every App synthesizes itself again as the
 * process exits, into a directory already removed.
 */
const previous = process.env.TMPDIR;
const scratch = mkdtempSync(join(tmpdir(), 'tracker-unit-'));
process.env.TMPDIR = scratch;
afterAll(() => {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  rmSync(scratch, { recursive: true, force: true });
});
