import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientOutcome, runClient } from '../support/clientProcess.ts';
import { DEBIAN_PYTHON } from '../support/python.ts';
import { fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Debian's python-bugzilla 3.2 and its `bugzilla` command, unmodified, in XML-RPC mode: given a URL
 * ending in /xmlrpc.cgi (or told force_xmlrpc), they call Bug.get, Bug.search, Bug.create,
 * Bug.update, Bug.add_attachment, Bug.attachments, User.login and the rest as XML-RPC methods on
 * that URL. Skipped without them, like pythonBugzilla.test.ts.
 */
const CLI = '/usr/bin/bugzilla';
const hasClients = existsSync(CLI) && existsSync(DEBIAN_PYTHON);
const clientScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pythonBugzillaXmlRpc.py');
const CC_LOGIN = 'watcher@tracker.test';

let app: TestApp;
let home: string;
let work: string;

const run = (command: string, args: string[], input = '', cwd = work): Promise<ClientOutcome> =>
  runClient(command, args, { cwd, home, input });

async function succeeded(outcome: Promise<ClientOutcome>): Promise<string> {
  const { code, stdout, stderr } = await outcome;
  expect(code, `${stdout}${stderr}`).toBe(0);
  return stdout;
}

/** The `bugzilla` command on a URL; by default Tracker's XML-RPC endpoint. */
const cli = (args: string[], options: { input?: string; cwd?: string; url?: string } = {}) =>
  run(CLI, ['--bugzilla', options.url ?? `${app.url}/xmlrpc.cgi`, ...args], options.input, options.cwd);

const getBug = async (id: number) =>
  (await ok(call(app, 'GET', `/rest/bug/${id}`, { apiKey: app.admin.apiKey }))).bugs[0];

beforeAll(async () => {
  if (!hasClients) return;
  app = await startTestApp();
  await userWithKey(app, 'watcher');
  home = mkdtempSync(join(tmpdir(), 'tracker-bugzilla-xmlrpc-home-'));
  work = mkdtempSync(join(tmpdir(), 'tracker-bugzilla-xmlrpc-work-'));
  // python-bugzilla picks the bugzillarc section by host, whatever the path.
  const host = new URL(app.url).host;
  mkdirSync(join(home, '.config', 'python-bugzilla'), { recursive: true });
  writeFileSync(join(home, '.config', 'python-bugzilla', 'bugzillarc'), `[${host}]\napi_key = ${app.admin.apiKey}\n`);
});
afterAll(async () => {
  await app?.close();
  for (const dir of [home, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasClients)('python-bugzilla over XML-RPC', () => {
  it('files, finds, changes, attaches and downloads through the library, with XML-RPC types', async () => {
    const file = join(work, 'blob.bin');
    writeFileSync(file, randomBytes(30_000));
    const results = JSON.parse(
      await succeeded(
        run(DEBIAN_PYTHON, [
          clientScript,
          `${app.url}/xmlrpc.cgi`,
          app.admin.apiKey,
          file,
          app.admin.login,
          app.admin.password,
          CC_LOGIN,
        ]),
      ),
    );
    expect(results.backend).toEqual({ xmlrpc: true, url: `${app.url}/xmlrpc.cgi` });
    expect(results.logged_in).toBe(true);
    expect(results.version).toEqual([5, 2]);
    const id = results.created.id;
    expect(results.created).toEqual({
      id: expect.any(Number),
      summary: 'Python xmlrpcword bug',
      status: 'CONFIRMED',
      severity: 'major',
      priority: 'High',
      creator: app.admin.login,
      creation_time_type: 'DateTime',
      creation_time: expect.stringMatching(/^\d{8}T\d{2}:\d{2}:\d{2}$/),
    });
    expect(results.query).toEqual([id]);
    expect(results.query_resolved).toEqual([]);
    expect(results.quicksearch).toEqual([id]);
    expect(results.changes).toEqual({
      status: { removed: 'CONFIRMED', added: 'IN_PROGRESS' },
      cc: { removed: '', added: CC_LOGIN },
    });
    expect(results.after).toEqual({
      status: 'IN_PROGRESS',
      cc: [CC_LOGIN],
      comments: ['Filed over XML-RPC', 'Working over XML-RPC'],
    });
    expect(results.download).toEqual({ name: 'blob.bin', identical: true });
    expect(results.attachment).toEqual({
      bug_id: id,
      file_name: 'blob.bin',
      summary: 'Binary over XML-RPC',
      content_type: 'application/octet-stream',
      is_patch: false,
    });
    expect(results.history_fields).toEqual(['cc', 'status']);
    // Bug.get's fault for a bug that does not exist: code 101, as Bugzilla 5.2.
    expect(results.missing).toEqual([101, 'Bug #99999999 does not exist.']);
    expect(results.token_logged_in).toBe(true);
    expect(results.token_comment).toBe('Sent with a token');
    expect(results.bad_login).toMatch(/^Login failed: The username or password you entered is not valid\./);

    // What the library did is what REST sees.
    expect(await getBug(id)).toMatchObject({ status: 'IN_PROGRESS', cc: [CC_LOGIN], priority: 'High' });
  });

  it('files, queries and modifies with the bugzilla command on /xmlrpc.cgi', async () => {
    const created = await succeeded(
      cli([
        'new',
        '--product=TestProduct',
        '--component=TestComponent',
        '--version=unspecified',
        '--summary=CLI cliword bug',
        '--comment=Filed by the bugzilla command',
        '--os=Linux',
        '--arch=PC',
        '--severity=minor',
        '--priority=Low',
      ]),
    );
    const id = Number(/^#(\d+) +CONFIRMED +- admin@tracker\.test - CLI cliword bug$/m.exec(created)?.[1]);
    expect(id, created).toBeGreaterThan(0);
    expect(await getBug(id)).toMatchObject({ summary: 'CLI cliword bug', severity: 'minor', priority: 'Low' });

    const queried = await succeeded(
      cli(['query', '--product=TestProduct', '--status=CONFIRMED', '--summary=cliword', '--outputformat=%{id}']),
    );
    expect(queried.trim().split('\n')).toEqual([String(id)]);
    expect((await succeeded(cli(['query', '--quicksearch=cliword', '--outputformat=%{id}']))).trim()).toBe(String(id));
    expect((await succeeded(cli(['query', '--summary=cliword', '--status=RESOLVED']))).trim()).toBe('');

    await succeeded(
      cli(['modify', String(id), '--status=IN_PROGRESS', '--comment=Changed by the command', `--cc=${CC_LOGIN}`]),
    );
    expect(await getBug(id)).toMatchObject({ status: 'IN_PROGRESS', cc: [CC_LOGIN] });
    const after = await succeeded(cli(['query', `--bug_id=${id}`, '--outputformat=%{id} %{status} %{priority} %{cc}']));
    expect(after.trim()).toBe(`${id} IN_PROGRESS Low ${CC_LOGIN}`);
    const comments = (await ok(call(app, 'GET', `/rest/bug/${id}/comment`, { apiKey: app.admin.apiKey }))).bugs[id]
      .comments;
    expect(comments.map((comment: { text: string }) => comment.text)).toEqual([
      'Filed by the bugzilla command',
      'Changed by the command',
    ]);
  });

  it('attaches with `bugzilla attach` and gets the very same bytes back with --get', async () => {
    const id = await fileTestBug(app, app.admin.apiKey, { summary: 'Attach over XML-RPC' });
    const content = 'line one\nline two: ünïcödé\n\ttabbed\r\nwindows line\n';
    const created = await succeeded(
      cli(['attach', '--file=notes.txt', '--desc=Build notes', '--type=text/plain', String(id)], { input: content }),
    );
    const attachmentId = Number(/Created attachment (\d+) on bug (\d+)/.exec(created)?.[1]);
    expect(created).toContain(`on bug ${id}`);
    const download = mkdtempSync(join(work, 'get-'));
    expect(await succeeded(cli(['attach', `--get=${attachmentId}`], { cwd: download }))).toContain('Wrote notes.txt');
    expect(readFileSync(join(download, 'notes.txt'))).toEqual(Buffer.from(content));
  });

  it("shows Bugzilla's fault, code and text, for a bug that does not exist", async () => {
    const outcome = await cli(['modify', '99999999', '--comment=Nowhere']);
    expect(outcome.code).toBe(3);
    expect(outcome.stdout + outcome.stderr).toContain("Server error: <Fault 101: 'Bug #99999999 does not exist.'>");
  });

  it('speaks XML-RPC to <base>/xmlrpc.cgi when given the base URL alone, its default form', async () => {
    // python-bugzilla completes a URL without a path to <base>/xmlrpc.cgi (Bugzilla.fix_url) and,
    // after probing it with HEAD, speaks XML-RPC there.
    const id = await fileTestBug(app, app.admin.apiKey, { summary: 'Found from the base URL' });
    const outcome = await cli(['--debug', 'query', `--bug_id=${id}`, '--outputformat=%{id} %{summary}'], {
      url: app.url,
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout.trim()).toBe(`${id} Found from the base URL`);
    expect(outcome.stderr).toContain(`Connecting with URL ${app.url}/xmlrpc.cgi`);
    expect(outcome.stderr).toContain('XMLRPC call: Bug.search');
  });

  it("speaks XML-RPC to the base URL itself when given it with a trailing slash, as the issue's user did", async () => {
    // A URL with a path is kept as it is (fix_url): the calls go to POST /, which Tracker serves
    // as XML-RPC too, rather than answering that the body is not JSON.
    const id = await fileTestBug(app, app.admin.apiKey, { summary: 'Found from the root' });
    const outcome = await cli(['--debug', 'query', `--bug_id=${id}`, '--outputformat=%{id} %{summary}'], {
      url: `${app.url}/`,
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout.trim()).toBe(`${id} Found from the root`);
    expect(outcome.stderr).toContain(`Connecting with URL ${app.url}/`);
  });
});
