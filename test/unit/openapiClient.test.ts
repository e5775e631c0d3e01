import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The typed client's types (local/client/trackerApi.ts) are what openapi-typescript, the kept
 * generator, makes of docs/openapi.json today, laid out by Biome as `npm run docs:client` does.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const CLIENT = join(ROOT, 'local', 'client', 'trackerApi.ts');

describe('the generated typed client', () => {
  it('is up to date with docs/openapi.json (npm run docs:client)', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'tracker-client-'));
    try {
      const generated = join(scratch, 'trackerApi.ts');
      const generator = spawnSync(
        join(ROOT, 'node_modules', '.bin', 'openapi-typescript'),
        [join(ROOT, 'docs', 'openapi.json'), '-o', generated],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(generator.status, generator.stderr).toBe(0);
      const formatted = spawnSync(
        join(ROOT, 'node_modules', '.bin', 'biome'),
        ['format', `--stdin-file-path=${relative(ROOT, CLIENT)}`],
        { cwd: ROOT, input: readFileSync(generated, 'utf8'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      );
      expect(formatted.status, formatted.stderr).toBe(0);
      expect(formatted.stdout === readFileSync(CLIENT, 'utf8'), 'run npm run docs:client').toBe(true);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 300_000);
});
