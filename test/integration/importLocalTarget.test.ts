import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEngines } from '../../local/engines.ts';
import { dynamodbServing, openLocalTarget, TargetInUse } from '../../local/import/destination/localTarget.ts';

/**
 * The local target of `npm run import` (issue 36): a refused source leaves no new installation
 * behind (the target is opened only once the source is accepted), the engines run in a process
 * group of their own (so Ctrl-C in a terminal reaches only the importer, which stops after its
 * batch), and a data directory that a running DynamoDB Local (npm start) serves is refused.
 */

const scratch = mkdtempSync(join(tmpdir(), 'tracker-import-local-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The process group of a process, from /proc (field 5 of stat, after the command in parentheses). */
const processGroup = (pid: number) =>
  Number(
    readFileSync(`/proc/${pid}/stat`, 'utf8')
      .slice(readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2)
      .split(' ')[2],
  );

describe('npm run import into a data directory', () => {
  it('refuses a source that is not a Bugzilla without creating anything in the directory', async () => {
    const dataDir = join(scratch, 'never');
    const notBugzilla = createServer((_request, response) => response.end('<html>hello</html>'));
    await new Promise<void>((resolve) => notBugzilla.listen(0, '127.0.0.1', resolve));
    const { port } = notBugzilla.address() as AddressInfo;
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [
        '--import',
        'tsx',
        'local/import/cli.ts',
        '--from',
        `http://127.0.0.1:${port}/rest`,
        '--api-key',
        'k'.repeat(20),
        '--data-dir',
        dataDir,
      ]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    await new Promise<void>((resolve) => notBugzilla.close(() => resolve()));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/not a Bugzilla REST API/);
    expect(run.stderr).toMatch(/Nothing was written/);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/new installation was created|\n\s+at /);
    expect(existsSync(dataDir)).toBe(false);
  }, 150_000);

  it('runs DynamoDB Local in a process group of its own, and refuses a directory another one serves', async () => {
    const dataDir = join(scratch, 'busy');
    const engines = await startEngines({ dataDir, ownProcessGroup: true });
    try {
      const java = dynamodbServing(join(dataDir, 'dynamodb'));
      expect(java).not.toBeNull();
      expect(processGroup(java!)).toBe(java);
      expect(processGroup(java!)).not.toBe(processGroup(process.pid));
      const refused = await openLocalTarget(dataDir, { create: true }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TargetInUse);
      expect((refused as Error).message).toMatch(new RegExp(`in use by a running DynamoDB Local \\(pid ${java}`));
    } finally {
      await engines.stop();
    }
    expect(dynamodbServing(join(dataDir, 'dynamodb'))).toBeNull();
  });
});
