import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Every `new App()` without an `outdir` makes a directory of its own under the system's temporary
 * directory and leaves it there (about a hundred per run of the unit tests). Here each test file's
 * apps share one, removed when the file ends.
 */
const outdir = mkdtempSync(join(tmpdir(), 'tracker-cdk-app-'));
process.env.CDK_OUTDIR = outdir;
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
