import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamodbServing } from '../../local/import/destination/localTarget.ts';

/**
 * The engines die with the process that started them, however it ends: `kill -9` of `npm start`
 * or of the importer used to leave DynamoDB Local running on its port and data directory, so the
 * next start found the directory in use. The launcher stops when its parent's end of its standard
 * input closes (local/DynamoDbLocalOnLoopback.java).
 */
const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'enginesProcessMain.ts');
const scratch = mkdtempSync(join(tmpdir(), 'tracker-engine-lifetime-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function startAndKill(mode: 'same-group' | 'own-group'): Promise<number | null> {
  const dataDir = join(scratch, mode);
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, dataDir, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the engines' process ended with ${code} before they served`)));
  });
  const dbPath = join(dataDir, 'dynamodb');
  const java = dynamodbServing(dbPath);
  expect(java, 'DynamoDB Local serves the data directory').not.toBeNull();
  child.kill('SIGKILL');
  // Bounded wait for the engine to notice: polls, not a time limit on how fast it must be.
  for (let attempt = 0; attempt < 600 && dynamodbServing(dbPath) !== null; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return dynamodbServing(dbPath);
}

describe('DynamoDB Local after its parent is killed with SIGKILL', () => {
  it('stops, in the parent’s process group (npm start)', async () => {
    expect(await startAndKill('same-group')).toBeNull();
  });

  it('stops, in a process group of its own (the importer)', async () => {
    expect(await startAndKill('own-group')).toBeNull();
  });
});
