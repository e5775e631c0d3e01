import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientOutcome, runClient } from '../support/clientProcess.ts';
import { fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Debian's `bugz` (pybugz 0.13), unmodified, against Tracker's XML-RPC endpoint: it speaks only
 * XML-RPC (Python's xmlrpc.client to the `base` URL it is given), sends the API key as
 * `Bugzilla_api_key` or the login and password as `Bugzilla_login`/`Bugzilla_password` in every
 * call, and shows a fault as `Bugzilla error: <faultString>`. Skipped where bugz is not installed
 * (.ci/run installs it with apt-get install bugz).
 */
const BUGZ = '/usr/bin/bugz';
const hasBugz = existsSync(BUGZ);

let app: TestApp;
let home: string;
let work: string;
let xmlRpcUrl: string;
const CC_LOGIN = 'watcher@tracker.test';

/** Runs bugz with no input: a command that would prompt (a missing flag) fails instead of waiting. */
const bugz = (args: string[], options: { cwd?: string; home?: string } = {}): Promise<ClientOutcome> =>
  runClient(BUGZ, args, { cwd: options.cwd ?? work, home: options.home ?? home });

/** A command that must succeed; its standard output. */
async function bugzOk(args: string[], options: { cwd?: string; home?: string } = {}): Promise<string> {
  const outcome = await bugz(args, options);
  expect(outcome.code, `bugz ${args.join(' ')}\n${outcome.stdout}${outcome.stderr}`).toBe(0);
  return outcome.stdout;
}

/** A command that must fail with Bugzilla's fault, as bugz shows it. */
async function bugzError(args: string[], options: { cwd?: string; home?: string } = {}): Promise<string> {
  const outcome = await bugz(args, options);
  expect(outcome.code, `bugz ${args.join(' ')}\n${outcome.stdout}${outcome.stderr}`).toBe(1);
  const error = /^ # Error: (.*)$/m.exec(outcome.stdout);
  expect(error, outcome.stdout).not.toBeNull();
  return error![1]!;
}

const getBug = async (id: number) =>
  (await ok(call(app, 'GET', `/rest/bug/${id}`, { apiKey: app.admin.apiKey }))).bugs[0];
const commentsOf = async (id: number): Promise<string[]> =>
  (await ok(call(app, 'GET', `/rest/bug/${id}/comment`, { apiKey: app.admin.apiKey }))).bugs[id].comments.map(
    (comment: { text: string }) => comment.text,
  );

/** The ids bugz lists, one bug a line (`<id> [status] [priority] <assignee> <summary>`). */
const listed = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => /^\d+ /.test(line))
    .map((line) => Number(line.split(' ')[0]));

/** An XML-RPC dateTime.iso8601 value as xmlrpc.client prints it: `20261124T21:48:24`. */
const XML_RPC_TIME = /\d{8}T\d{2}:\d{2}:\d{2}/;

beforeAll(async () => {
  if (!hasBugz) return;
  app = await startTestApp();
  xmlRpcUrl = `${app.url}/xmlrpc.cgi`;
  await userWithKey(app, 'watcher');
  home = mkdtempSync(join(tmpdir(), 'tracker-bugz-home-'));
  work = mkdtempSync(join(tmpdir(), 'tracker-bugz-work-'));
  // ~/.bugzrc as pybugz's documentation has it: one section a tracker, picked by `connection`
  // (this one replaces the packaged default, Gentoo). Without a terminal bugz would cut lines at 80
  // columns.
  writeFileSync(
    join(home, '.bugzrc'),
    [
      '[default]',
      'connection = Tracker',
      'columns = 200',
      '',
      '[Tracker]',
      `base = ${xmlRpcUrl}`,
      `key = ${app.admin.apiKey}`,
      'search_statuses = CONFIRMED, IN_PROGRESS, UNCONFIRMED',
      '',
      '[TrackerByPassword]',
      `base = ${xmlRpcUrl}`,
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await app?.close();
  for (const dir of [home, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasBugz)('bugz (pybugz) over XML-RPC', () => {
  it('files a bug with `bugz post --batch`, every field from flags', async () => {
    const stdout = await bugzOk([
      'post',
      '--batch',
      '--product=TestProduct',
      '--component=TestComponent',
      '--version=unspecified',
      '--title=Crash on start',
      '--description=It crashes when started.',
      '--op-sys=Linux',
      '--platform=PC',
      '--priority=High',
      '--severity=major',
      `--cc=${CC_LOGIN}`,
      '--url=https://example.com/crash',
    ]);
    const id = Number(/Bug (\d+) submitted/.exec(stdout)?.[1]);
    expect(id, stdout).toBeGreaterThan(0);
    expect(await getBug(id)).toMatchObject({
      summary: 'Crash on start',
      product: 'TestProduct',
      component: 'TestComponent',
      version: 'unspecified',
      op_sys: 'Linux',
      platform: 'PC',
      priority: 'High',
      severity: 'major',
      cc: [CC_LOGIN],
      url: 'https://example.com/crash',
      creator: app.admin.login,
      status: 'CONFIRMED',
    });
    expect(await commentsOf(id)).toEqual(['It crashes when started.']);
  });

  it('shows a bug with its attachments and comments with `bugz get`, by id and by alias', async () => {
    const id = await fileTestBug(app, app.admin.apiKey, {
      summary: 'Shown by bugz',
      description: 'First line.\nSecond line.',
      alias: 'bugz-shown',
      priority: 'Low',
    });
    await ok(
      call(app, 'POST', `/rest/bug/${id}/comment`, { apiKey: app.admin.apiKey, body: { comment: 'A follow-up.' } }),
    );
    const attachment = await ok(
      call(app, 'POST', `/rest/bug/${id}/attachment`, {
        apiKey: app.admin.apiKey,
        body: {
          data: Buffer.from('log').toString('base64'),
          file_name: 'log.txt',
          summary: 'The log',
          content_type: 'text/plain',
        },
      }),
    );

    const stdout = await bugzOk(['get', String(id)]);
    expect(stdout).toMatch(/^Title {7}: Shown by bugz$/m);
    expect(stdout).toMatch(/^Alias {7}: bugz-shown$/m);
    expect(stdout).toMatch(/^Status {6}: CONFIRMED$/m);
    expect(stdout).toMatch(/^Priority {4}: Low$/m);
    expect(stdout).toMatch(new RegExp(`^Reporter {4}: ${app.admin.login}$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^Reported {4}: ${XML_RPC_TIME.source}$`, 'm'));
    expect(stdout).toMatch(/^Attachments : 1$/m);
    expect(stdout).toContain(`[Attachment] [${attachment.ids[0]}] [The log]`);
    expect(stdout).toMatch(/^Comments {4}: 3$/m);
    expect(stdout).toMatch(new RegExp(`^\\[Comment #0\\] ${app.admin.login} : ${XML_RPC_TIME.source}$`, 'm'));
    expect(stdout).toContain('First line.\nSecond line.\n');
    expect(stdout).toContain(`Created attachment ${attachment.ids[0]}\nThe log`);

    const byAlias = await bugzOk(['get', '--no-comments', '--no-attachments', 'bugz-shown']);
    expect(byAlias).toMatch(/^Title {7}: Shown by bugz$/m);
    expect(byAlias).not.toContain('[Comment #0]');
  });

  it('searches words in summaries with `bugz search`, with the status, product and other filters', async () => {
    const open = await fileTestBug(app, app.admin.apiKey, { summary: 'zebra stripes', priority: 'High' });
    const fixed = await fileTestBug(app, app.admin.apiKey, { summary: 'zebra crossing' });
    const other = await fileTestBug(app, app.admin.apiKey, { summary: 'zebra food', severity: 'minor' });
    await ok(
      call(app, 'PUT', `/rest/bug/${fixed}`, {
        apiKey: app.admin.apiKey,
        body: { status: 'RESOLVED', resolution: 'FIXED' },
      }),
    );

    // The connection's search_statuses leave the resolved bug out.
    const byDefault = await bugzOk(['search', 'zebra']);
    expect(listed(byDefault)).toEqual([open, other]);
    expect(byDefault).toContain('2 bug(s) found.');
    expect(byDefault).toMatch(new RegExp(`^${open} admin +zebra stripes$`, 'm'));

    const all = await bugzOk(['search', 'zebra', '--status=all', '--show-status', '--show-priority']);
    expect(listed(all)).toEqual([open, fixed, other]);
    expect(all).toMatch(new RegExp(`^${fixed} RESOLVED +--- +admin +zebra crossing$`, 'm'));
    expect(all).toMatch(new RegExp(`^${open} CONFIRMED +High +admin +zebra stripes$`, 'm'));

    expect(listed(await bugzOk(['search', 'zebra', '--status=RESOLVED']))).toEqual([fixed]);
    expect(listed(await bugzOk(['search', 'zebra', '--product=TestProduct', '--priority=High']))).toEqual([open]);
    expect(listed(await bugzOk(['search', 'zebra', '--component=TestComponent', '--severity=minor']))).toEqual([other]);
    expect(listed(await bugzOk(['search', 'zebra', '--status=all', `--assigned-to=${app.admin.login}`]))).toEqual([
      open,
      fixed,
      other,
    ]);
    expect(listed(await bugzOk(['search', 'zebra', '--limit=1']))).toHaveLength(1);
    expect(await bugzOk(['search', 'okapi'])).toContain('No bugs found.');
  });

  it('changes status, priority, whiteboard and CC and adds a comment with `bugz modify`', async () => {
    const id = await fileTestBug(app, app.admin.apiKey, { summary: 'To modify' });
    const stdout = await bugzOk([
      'modify',
      String(id),
      '--status=IN_PROGRESS',
      '--comment=Working on it',
      `--add-cc=${CC_LOGIN}`,
      '--priority=Low',
      '--whiteboard=triaged',
    ]);
    expect(stdout).toContain(`Modified the following fields in bug ${id}`);
    expect(stdout).toMatch(/status {6}: removed CONFIRMED\n.*status {6}: added IN_PROGRESS/);
    expect(stdout).toMatch(new RegExp(`cc {10}: added ${CC_LOGIN}`));
    expect(await getBug(id)).toMatchObject({
      status: 'IN_PROGRESS',
      priority: 'Low',
      whiteboard: 'triaged',
      cc: [CC_LOGIN],
    });

    expect(await bugzOk(['modify', String(id), '--comment=Only a note'])).toContain(`Added comment to bug ${id}`);
    expect((await commentsOf(id)).slice(1)).toEqual(['Working on it', 'Only a note']);

    const blocker = await fileTestBug(app, app.admin.apiKey, { summary: 'Blocker' });
    await bugzOk([
      'modify',
      String(id),
      `--add-dependson=${blocker}`,
      '--add-see-also=https://bugs.example.com/show_bug.cgi?id=5',
      `--remove-cc=${CC_LOGIN}`,
      '--title=Modified by bugz',
    ]);
    expect(await getBug(id)).toMatchObject({
      depends_on: [blocker],
      see_also: ['https://bugs.example.com/show_bug.cgi?id=5'],
      cc: [],
      summary: 'Modified by bugz',
    });

    await bugzOk(['modify', String(id), '--fixed']);
    expect(await getBug(id)).toMatchObject({ status: 'RESOLVED', resolution: 'FIXED' });
    await bugzOk(['modify', String(blocker), `--duplicate=${id}`]);
    expect(await getBug(blocker)).toMatchObject({ status: 'RESOLVED', resolution: 'DUPLICATE', dupe_of: id });
  });

  it('attaches files with `bugz attach` and downloads them with `bugz attachment`, bytes intact', async () => {
    const id = await fileTestBug(app, app.admin.apiKey, { summary: 'Attach here' });
    const notes = 'line one\nline two: ünïcödé\n';
    writeFileSync(join(work, 'notes.txt'), notes);
    const attached = await bugzOk([
      'attach',
      String(id),
      join(work, 'notes.txt'),
      '--title=Build notes',
      '--description=see the notes',
    ]);
    const textId = Number(/\((\d+)\) has been attached to bug (\d+)/.exec(attached)?.[1]);
    expect(attached).toContain(`has been attached to bug ${id}`);

    const blob = randomBytes(40_000);
    writeFileSync(join(work, 'blob.bin'), blob);
    const binaryId = Number(
      /\((\d+)\) has been attached/.exec(
        await bugzOk(['attach', String(id), join(work, 'blob.bin'), '--description=binary']),
      )?.[1],
    );
    const patch = 'diff --git a/x b/x\n+fixed\n';
    writeFileSync(join(work, 'fix.patch'), patch);
    await bugzOk([
      'attach',
      String(id),
      join(work, 'fix.patch'),
      '--patch',
      '--content-type=text/plain',
      '--description=the fix',
    ]);

    const attachments = (
      await ok(
        call(app, 'GET', `/rest/bug/${id}/attachment`, { apiKey: app.admin.apiKey, query: { exclude_fields: 'data' } }),
      )
    ).bugs[id];
    expect(attachments.map((a: any) => [a.id, a.file_name, a.summary, a.content_type, a.is_patch, a.size])).toEqual([
      // pybugz guesses the content type from the name (Python's mimetypes) and titles it by the name.
      [textId, 'notes.txt', 'Build notes', 'text/plain', false, Buffer.byteLength(notes)],
      [binaryId, 'blob.bin', 'blob.bin', 'application/octet-stream', false, blob.length],
      [expect.any(Number), 'fix.patch', 'fix.patch', 'text/plain', true, patch.length],
    ]);
    expect((await commentsOf(id))[1]).toBe(`Created attachment ${textId}\nBuild notes\n\nsee the notes`);

    const download = mkdtempSync(join(work, 'download-'));
    expect(await bugzOk(['attachment', String(binaryId)], { cwd: download })).toContain(
      'Saving attachment: "blob.bin"',
    );
    expect(readFileSync(join(download, 'blob.bin'))).toEqual(blob);
    expect(await bugzOk(['attachment', '--view', String(textId)])).toContain(notes);
  });

  it('logs in with a login and password, or calls without credentials', async () => {
    const id = await fileTestBug(app, app.admin.apiKey, { summary: 'Seen by all' });
    const asUser = await bugzOk([
      '--connection=TrackerByPassword',
      `--user=${app.admin.login}`,
      `--password=${app.admin.password}`,
      'modify',
      String(id),
      '--comment=By password',
    ]);
    expect(asUser).toContain(`Added comment to bug ${id}`);
    expect((await commentsOf(id)).at(-1)).toBe('By password');

    const anonymous = await bugzOk([
      '--connection=TrackerByPassword',
      '--skip-auth',
      'get',
      '--no-comments',
      String(id),
    ]);
    expect(anonymous).toMatch(/^Title {7}: Seen by all$/m);
    expect(
      await bugzError(['--connection=TrackerByPassword', '--skip-auth', 'modify', String(id), '--comment=Anonymous']),
    ).toMatch(/^Bugzilla error: You must log in before using this part of /);
  });

  it('takes the URL and key from the command line alone, as the issue tried it', async () => {
    const id = await fileTestBug(app, app.admin.apiKey, { summary: 'From flags' });
    const bare = mkdtempSync(join(tmpdir(), 'tracker-bugz-bare-'));
    try {
      // No ~/.bugzrc: the packaged default connection (Gentoo) is used, its base replaced by -b.
      const stdout = await bugzOk(['-b', xmlRpcUrl, '-k', app.admin.apiKey, 'get', '-n', '-a', String(id)], {
        home: bare,
      });
      expect(stdout).toContain(`Using [Gentoo] (${xmlRpcUrl})`);
      expect(stdout).toMatch(/^Title {7}: From flags$/m);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("shows Bugzilla's fault text for what fails", async () => {
    const id = await fileTestBug(app, app.admin.apiKey, { summary: 'For errors' });
    expect(await bugzError(['get', '99999999'])).toBe('Bugzilla error: Bug #99999999 does not exist.');
    expect(await bugzError(['get', 'no-such-alias'])).toBe(
      "Bugzilla error: 'no-such-alias' is not a valid bug number nor an alias to a bug.",
    );
    expect(await bugzError(['modify', String(id), '--status=NOSUCH'])).toBe(
      "Bugzilla error: There is no status named 'NOSUCH'.",
    );
    expect(
      await bugzError([
        'post',
        '--batch',
        '--product=NoSuchProduct',
        '--component=TestComponent',
        '--title=t',
        '--description=d',
      ]),
    ).toMatch(/^Bugzilla error: .*'NoSuchProduct'/);
    expect(await bugzError(['--key=WrongKeyWrongKeyWrongKeyWrongKey00', 'get', String(id)])).toMatch(
      /^Bugzilla error: The API key you specified is invalid\./,
    );
    expect(
      await bugzError([
        '--connection=TrackerByPassword',
        `--user=${app.admin.login}`,
        '--password=wrong',
        'get',
        String(id),
      ]),
    ).toMatch(/^Bugzilla error: The username or password you entered is not valid\./);
    // Nothing was changed by the failed calls.
    expect(await getBug(id)).toMatchObject({ status: 'CONFIRMED', summary: 'For errors' });
  });

  it('fails in the client on an attachment id that does not exist, as against Bugzilla', async () => {
    // Bug.attachments leaves out ids it does not find (5.2's Attachment->new_from_list), and
    // pybugz looks the id up in the answer without checking: a KeyError, whatever the server.
    const outcome = await bugz(['attachment', '99999999']);
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain("KeyError: '99999999'");
  });
});
