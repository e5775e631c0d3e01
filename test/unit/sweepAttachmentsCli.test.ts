import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** `npm run sweep:attachments` answers --help, and says what is missing, without a stack trace. */
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'local', 'sweepAttachments.ts');

function run(args: string[], env: Record<string, string | undefined> = {}) {
  const environment = { ...process.env, ...env };
  for (const name of ['TRACKER_TABLE', 'TRACKER_BUCKET']) if (env[name] === undefined) delete environment[name];
  return spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { encoding: 'utf8', env: environment });
}

describe('sweep:attachments', () => {
  it('answers --help', () => {
    const result = run(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run sweep:attachments/);
    expect(result.stdout).toContain('TRACKER_TABLE');
  });

  it('says which settings are missing, with exit code 2 and no stack trace', () => {
    const result = run([]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Set TRACKER_TABLE and TRACKER_BUCKET');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
