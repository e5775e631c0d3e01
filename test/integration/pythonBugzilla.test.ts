import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The real clients, unmodified: Debian's python3-bugzilla library and its `bugzilla` command.
 * .ci/run installs them (apt-get install bugzilla-cli); without them this file is skipped.
 */
const PYTHON = '/usr/bin/python3';
const CLI = '/usr/bin/bugzilla';
const hasClients = existsSync(CLI) && existsSync(PYTHON);
const clientScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pythonBugzillaClient.py');

let app: TestApp;
let home: string;

beforeAll(async () => {
  if (!hasClients) return;
  app = await startTestApp();
  home = mkdtempSync(join(tmpdir(), 'tracker-bugzilla-home-'));
  const host = new URL(app.url).host;
  mkdirSync(join(home, '.config', 'python-bugzilla'), { recursive: true });
  writeFileSync(join(home, '.config', 'python-bugzilla', 'bugzillarc'), `[${host}]\napi_key = ${app.admin.apiKey}\n`);
});
afterAll(async () => {
  await app?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Asynchronous on purpose: the API answers from this same process, so a blocking call would deadlock. */
const run = async (command: string, args: string[], homeDir = home) =>
  (await promisify(execFile)(command, args, { env: { ...process.env, HOME: homeDir }, encoding: 'utf8', timeout: 60_000 })).stdout;

const cli = (...args: string[]) => run(CLI, ['--bugzilla', `${app.url}/rest`, ...args]);

describe.skipIf(!hasClients)('python-bugzilla and the bugzilla CLI', () => {
  it('works through the python-bugzilla library', async () => {
    const output = await run(PYTHON, [clientScript, `${app.url}/rest`, app.admin.apiKey]);
    const results = JSON.parse(output);
    expect(results).toMatchObject({
      logged_in: true,
      version: [5, 2],
      products: ['TestProduct'],
      components: ['TestComponent'],
      // bz_canusewhines comes with editbugs, as in Bugzilla 5.2.
      user_groups: ['bz_canusewhines', 'canconfirm', 'editbugs'],
      component_owner: 'py-user@tracker.test',
      component_changes: { description: { removed: 'Made by python-bugzilla', added: 'Edited by python-bugzilla' } },
      token_logged_in: true,
    });
    expect(results.created_user_id).toBeGreaterThan(1);
    expect(results.bad_login).toMatch(/Login failed: 401/);
  });

  it('lists products, components and versions with the bugzilla command', async () => {
    expect((await cli('--ensure-logged-in', 'info', '--products')).trim().split('\n')).toContain('TestProduct');
    expect(await cli('info', '--components', 'TestProduct')).toContain('TestComponent');
    expect((await cli('info', '--versions', 'TestProduct')).trim()).toBe('unspecified');
    expect(await cli('info', '--component_owners', 'TestProduct')).toContain(`TestComponent: ${app.admin.login}`);
  });

  it('logs in with a password and caches a token', async () => {
    const tokenHome = mkdtempSync(join(tmpdir(), 'tracker-bugzilla-token-'));
    try {
      const output = await run(CLI, ['--bugzilla', `${app.url}/rest`, '--username', app.admin.login, '--password', app.admin.password, 'login'], tokenHome);
      expect(output).toMatch(/Login successful/);
    } finally {
      rmSync(tokenHome, { recursive: true, force: true });
    }
  });
});
