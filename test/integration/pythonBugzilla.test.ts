import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_PYTHON } from '../support/python.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The real clients, unmodified: Debian's python3-bugzilla library and its `bugzilla` command.
 * .ci/run installs them (apt-get install bugzilla-cli); without them this file is skipped.
 */
const CLI = '/usr/bin/bugzilla';
const hasClients = existsSync(CLI) && existsSync(DEBIAN_PYTHON);
const clientScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pythonBugzillaClient.py');
const bugScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pythonBugzillaBugs.py');

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
  (
    await promisify(execFile)(command, args, {
      env: { ...process.env, HOME: homeDir },
      encoding: 'utf8',
      timeout: 60_000,
    })
  ).stdout;

const cli = (...args: string[]) => run(CLI, ['--bugzilla', `${app.url}/rest`, ...args]);

describe.skipIf(!hasClients)('python-bugzilla and the bugzilla CLI', () => {
  it('works through the python-bugzilla library', async () => {
    const output = await run(DEBIAN_PYTHON, [clientScript, `${app.url}/rest`, app.admin.apiKey]);
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

  it('files, reads, changes and traces bugs through the python-bugzilla library', async () => {
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${app.url}/rest${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-BUGZILLA-API-KEY': app.admin.apiKey },
        body: JSON.stringify(body),
      });
    await api('POST', '/keyword', { name: 'py-keyword', description: 'Set by python-bugzilla' });
    await api('POST', '/flag_type', {
      name: 'py-flag',
      description: 'Asked by python-bugzilla',
      target_type: 'bug',
      is_requestable: true,
    });
    const results = JSON.parse(await run(DEBIAN_PYTHON, [bugScript, `${app.url}/rest`, app.admin.apiKey]));
    expect(results.created).toEqual({
      summary: 'Python bug',
      status: 'CONFIRMED',
      severity: 'major',
      creator: app.admin.login,
    });
    expect(results.changes).toMatchObject({
      status: { removed: 'CONFIRMED', added: 'IN_PROGRESS' },
      keywords: { removed: '', added: 'py-keyword' },
      'flagtypes.name': { removed: '', added: 'py-flag?' },
    });
    expect(results.after).toEqual({
      status: 'RESOLVED',
      resolution: 'FIXED',
      cc: [app.admin.login],
      depends_on: [expect.any(Number)],
      keywords: ['py-keyword'],
      whiteboard: 'py',
      flags: [['py-flag', '?']],
    });
    expect(results.blocks).toHaveLength(1);
    expect(results.history_fields).toEqual([
      'cc',
      'depends_on',
      'flagtypes.name',
      'keywords',
      'resolution',
      'status',
      'whiteboard',
    ]);
    expect(results.getbugs).toHaveLength(2);
  });

  it('files, queries by id and modifies bugs with the bugzilla command', async () => {
    const filed = await cli(
      'new',
      '-p',
      'TestProduct',
      '-c',
      'TestComponent',
      '-v',
      'unspecified',
      '-t',
      'CLI bug',
      '-l',
      'Filed by the CLI',
      '--os',
      'Linux',
      '--arch',
      'PC',
    );
    const id = Number(/^#(\d+)/.exec(filed.trim())?.[1]);
    expect(id).toBeGreaterThan(0);
    const blocker = Number(
      /^#(\d+)/.exec(
        (
          await cli(
            'new',
            '-p',
            'TestProduct',
            '-c',
            'TestComponent',
            '-v',
            'unspecified',
            '-t',
            'Blocker',
            '-l',
            'x',
            '--os',
            'Linux',
            '--arch',
            'PC',
          )
        ).trim(),
      )?.[1],
    );
    await cli(
      'modify',
      String(id),
      '--status',
      'IN_PROGRESS',
      '--cc',
      app.admin.login,
      '--dependson',
      String(blocker),
      '--comment',
      'Taking it',
    );
    const format = '%{id}|%{status}|%{resolution}|%{cc}|%{depends_on}';
    expect((await cli('query', '-b', String(id), '--outputformat', format)).trim()).toBe(
      `${id}|IN_PROGRESS||${app.admin.login}|${blocker}`,
    );
    // The CLI closes bugs with Bugzilla 3's status name CLOSED, which Tracker reads as RESOLVED.
    await cli('modify', String(id), '--close', 'WONTFIX');
    expect((await cli('query', '-b', String(id), '--outputformat', format)).trim()).toBe(
      `${id}|RESOLVED|WONTFIX|${app.admin.login}|${blocker}`,
    );
    await cli('modify', String(blocker), '--dupeid', String(id));
    expect(
      (await cli('query', '-b', String(blocker), '--outputformat', '%{status}|%{resolution}|%{dupe_of}')).trim(),
    ).toBe(`RESOLVED|DUPLICATE|${id}`);
  });

  it('logs in with a password and caches a token', async () => {
    const tokenHome = mkdtempSync(join(tmpdir(), 'tracker-bugzilla-token-'));
    try {
      const output = await run(
        CLI,
        ['--bugzilla', `${app.url}/rest`, '--username', app.admin.login, '--password', app.admin.password, 'login'],
        tokenHome,
      );
      expect(output).toMatch(/Login successful/);
    } finally {
      rmSync(tokenHome, { recursive: true, force: true });
    }
  });
});
