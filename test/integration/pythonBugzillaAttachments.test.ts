import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClient } from '../support/clientProcess.ts';
import { DEBIAN_PYTHON } from '../support/python.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Comments and attachments through Debian's unmodified python-bugzilla and `bugzilla` command
 * (skipped without them, like pythonBugzilla.test.ts).
 */
const CLI = '/usr/bin/bugzilla';
const hasClients = existsSync(CLI) && existsSync(DEBIAN_PYTHON);
const clientScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pythonBugzillaAttachments.py');

let app: TestApp;
let home: string;
let work: string;

/** Runs a client; a failure rejects with its standard error. */
async function run(command: string, args: string[], input = '', cwd = work): Promise<string> {
  const { code, stdout, stderr } = await runClient(command, args, { cwd, home, input });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`);
  return stdout;
}

const cli = (args: string[], input = '', cwd = work) =>
  run(CLI, ['--bugzilla', `${app.url}/rest`, ...args], input, cwd);

async function fileBug(): Promise<number> {
  const body = {
    product: 'TestProduct',
    component: 'TestComponent',
    version: 'unspecified',
    summary: 'Attach here',
    description: 'Steps.',
    op_sys: 'Linux',
    platform: 'PC',
  };
  return (await call(app, 'POST', '/rest/bug', { apiKey: app.admin.apiKey, body })).body.id;
}

beforeAll(async () => {
  if (!hasClients) return;
  app = await startTestApp();
  home = mkdtempSync(join(tmpdir(), 'tracker-bugzilla-home-'));
  work = mkdtempSync(join(tmpdir(), 'tracker-bugzilla-work-'));
  const host = new URL(app.url).host;
  mkdirSync(join(home, '.config', 'python-bugzilla'), { recursive: true });
  writeFileSync(join(home, '.config', 'python-bugzilla', 'bugzillarc'), `[${host}]\napi_key = ${app.admin.apiKey}\n`);
  const flagType = await call(app, 'POST', '/rest/flag_type', {
    apiKey: app.admin.apiKey,
    body: { name: 'review', description: 'Code review', target_type: 'attachment' },
  });
  expect(flagType.status, flagType.text).toBe(200);
});
afterAll(async () => {
  await app?.close();
  for (const dir of [home, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasClients)('comments and attachments with python-bugzilla and the bugzilla CLI', () => {
  it('adds comments, attaches and downloads a binary file, sets a flag and obsoletes it through the library', async () => {
    const bug = await fileBug();
    const file = join(work, 'blob.bin');
    writeFileSync(file, randomBytes(50_000));
    const results = JSON.parse(
      await run(DEBIAN_PYTHON, [clientScript, `${app.url}/rest`, app.admin.apiKey, String(bug), file, app.admin.login]),
    );
    expect(results.comments).toEqual([
      [0, 'Steps.', false],
      [1, 'Added by python-bugzilla', false],
      [2, 'Only for insiders', true],
    ]);
    expect(results.download_identical).toBe(true);
    expect(results.flags).toEqual([['review', '?', app.admin.login]]);
    expect(results.obsolete_changes).toEqual({ is_obsolete: { removed: '0', added: '1' } });
    expect(results.attachment_ids).toEqual([results.attachment_id]);
  });

  it('attaches with `bugzilla attach` and gets the very same bytes back with --get and --getall', async () => {
    const bug = await fileBug();
    const content = 'line one\nline two: ünïcödé\n\ttabbed\n';
    const created = await cli(
      ['attach', '--file=notes.txt', '--desc=Build notes', '--type=text/plain', '--comment=see the notes', String(bug)],
      content,
    );
    const id = Number(/Created attachment (\d+) on bug (\d+)/.exec(created)?.[1]);
    expect(created).toContain(`on bug ${bug}`);

    const download = mkdtempSync(join(work, 'get-'));
    expect(await cli(['attach', `--get=${id}`], '', download)).toContain('Wrote');
    expect(readFileSync(join(download, 'notes.txt'))).toEqual(Buffer.from(content));

    const patchContent = 'diff --git a/x b/x\n+fixed\n';
    await cli(['attach', '--file=fix.patch', '--desc=The fix', '--type=text/x-patch', String(bug)], patchContent);
    const attachment = await call(app, 'GET', `/rest/bug/attachment/${id}`, {
      apiKey: app.admin.apiKey,
      query: { exclude_fields: 'data' },
    });
    expect(attachment.body.attachments[id]).toMatchObject({
      file_name: 'notes.txt',
      summary: 'Build notes',
      content_type: 'text/plain',
      is_patch: false,
    });
    expect(
      (await call(app, 'PUT', `/rest/bug/attachment/${id}`, { apiKey: app.admin.apiKey, body: { is_obsolete: true } }))
        .status,
    ).toBe(200);

    const all = mkdtempSync(join(work, 'getall-'));
    const wrote = await cli(['attach', `--getall=${bug}`, '--ignore-obsolete'], '', all);
    expect(wrote).toContain('fix.patch');
    expect(wrote).not.toContain('notes.txt');
    expect(readFileSync(join(all, 'fix.patch'), 'utf8')).toBe(patchContent);
    const comments = (await call(app, 'GET', `/rest/bug/${bug}/comment`, { apiKey: app.admin.apiKey })).body.bugs[bug]
      .comments;
    expect(comments[1].text).toBe(`Created attachment ${id}\nBuild notes\n\nsee the notes`);
  });
});
