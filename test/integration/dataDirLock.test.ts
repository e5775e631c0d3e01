import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUse, LOCK_FILE, lockDataDir } from '../../local/dataDirLock.ts';
import { openLocalTarget, TargetInUse } from '../../local/import/destination/localTarget.ts';

/**
 * One program at a time on a data directory (local/dataDirLock.ts): while a program holds it,
 * `npm start`, `npm run seed` and `npm run import` into it are refused, each naming the holder's
 * pid and command, before they start anything; once the holder is killed (kill -9, no clean-up),
 * the next program takes the lock over.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tracker-lock-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

function holdLock(dataDir: string, command: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/dataDirLockHolder.ts', dataDir, command]);
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      if (String(chunk).includes('locked')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
}

function run(script: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ status: number | null; stderr: string; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      env: { ...process.env, TRACKER_REQUEST_LOG: 'off', ...env },
    });
    children.push(child);
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('close', (status) => resolve({ status, stderr, stdout }));
  });
}

describe('the lock of a data directory', () => {
  it('refuses npm start, a seed and an import while another program holds it, naming it', async () => {
    const dataDir = join(scratch, 'held');
    const holder = await holdLock(dataDir, 'npm start');
    const named = new RegExp(`in use by npm start \\(pid ${holder.pid}, since [^)]+\\): stop it first`);

    const seed = await run('bench/seed.ts', ['--data-dir', dataDir, '--bugs', '1']);
    expect(seed.status).toBe(1);
    expect(seed.stderr).toMatch(named);

    const start = await run('local/start.ts', [], { TRACKER_DATA_DIR: dataDir, PORT: '0' });
    expect(start.status).toBe(1);
    expect(start.stderr).toMatch(named);

    const target = await openLocalTarget(dataDir, { create: true }).catch((error) => error);
    expect(target).toBeInstanceOf(TargetInUse);
    expect(target.message).toMatch(named);

    expect(() => lockDataDir(dataDir, 'this test')).toThrow(DataDirInUse);
    // Nothing else ran on it: no engine created its directories.
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
    expect(existsSync(join(dataDir, 's3'))).toBe(false);
  });

  it('is taken over from a holder that was killed, and released by its new holder', async () => {
    const dataDir = join(scratch, 'stale');
    const holder = await holdLock(dataDir, 'npm run seed');
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: holder.pid });
    const lock = lockDataDir(dataDir, 'this test');
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
      command: 'this test',
    });
    expect(() => lockDataDir(dataDir, 'a second one')).toThrow(/in use by this test/);
    lock.release();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    lockDataDir(dataDir, 'again').release();
  });
});
