import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_PYTHON } from '../support/python.ts';
import { jsonRpc, rpc } from '../support/rpcCalls.ts';
import { createHiddenAndLockedProducts, expectError, fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Saved searches (Bugzilla's namedqueries): saved, listed, shared with a group, replaced and
 * forgotten over REST, and run by name from GET /rest/bug, JSON-RPC and XML-RPC Bug.search and
 * python-bugzilla's `bugzilla query --savedsearch`, only by those who may; an unknown name is an
 * error, never every bug.
 */
let app: TestApp;
let admin: string;
let alice: string;
let aliceId: number;
let bob: string;
let carol: string;
/** Bugs whose summary has "alpha": two everyone sees, one only the `secret` group sees. */
let alphas: number[];
let hiddenAlpha: number;
let beta: number;

const bugIds = (answer: { bugs: Array<{ id: number }> }) => answer.bugs.map((bug) => bug.id).sort((a, b) => a - b);
const search = (apiKey: string | undefined, query: Record<string, string | number>) =>
  call(app, 'GET', '/rest/bug', { apiKey, query: { include_fields: 'id', ...query } });
const save = (apiKey: string, body: Record<string, unknown>) =>
  call(app, 'POST', '/rest/saved_search', { apiKey, body });
const listed = async (apiKey: string) => (await ok(call(app, 'GET', '/rest/saved_search', { apiKey }))).saved_searches;

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await createHiddenAndLockedProducts(app);
  for (const name of ['triagers', 'sharers'])
    await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name, description: name } }));
  // Only members of the `querysharegroup` parameter's group share (editbugs by default, as in
  // 5.2): alice may share, bob may not.
  await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { querysharegroup: 'sharers' } }));
  alice = await userWithKey(app, 'alice', ['sharers', 'triagers', 'secret']);
  bob = await userWithKey(app, 'bob', ['triagers']);
  carol = await userWithKey(app, 'carol');
  aliceId = (await ok(call(app, 'GET', '/rest/whoami', { apiKey: alice }))).id;
  alphas = [
    await fileTestBug(app, admin, { summary: 'alpha one' }),
    await fileTestBug(app, admin, { summary: 'alpha two' }),
  ];
  beta = await fileTestBug(app, admin, { summary: 'beta' });
  hiddenAlpha = await fileTestBug(app, admin, {
    product: 'Hidden',
    component: 'Core',
    version: '1.0',
    summary: 'alpha hidden',
  });
});
afterAll(async () => {
  await app?.close();
});

describe('saving and running a search by name', () => {
  it('saves a buglist query string and runs it from GET /rest/bug, whatever the case of the name', async () => {
    const saved = await ok(
      save(alice, { name: ' Alphas ', query: 'short_desc=alpha&short_desc_type=allwordssubstr&bug_status=&api_key=x' }),
    );
    // Trimmed; the empty parameter and the credential are not kept (clean_search_url).
    expect(saved).toMatchObject({
      name: 'Alphas',
      query: 'short_desc=alpha&short_desc_type=allwordssubstr',
      owner: 'alice@tracker.test',
      owner_id: aliceId,
      is_own: true,
      shared_with_group: null,
    });
    expect(saved.id).toBeGreaterThan(0);
    expect(bugIds(await ok(search(alice, { savedsearch: 'Alphas' })))).toEqual(
      [...alphas, hiddenAlpha].sort((a, b) => a - b),
    );
    expect(bugIds(await ok(search(alice, { savedsearch: 'alphas' })))).toEqual(
      [...alphas, hiddenAlpha].sort((a, b) => a - b),
    );
    // The request's page and count apply to the saved criteria; its own criteria do not.
    expect(await ok(search(alice, { savedsearch: 'Alphas', count_only: 1, product: 'Locked' }))).toEqual({
      bug_count: 3,
    });
    expect((await ok(search(alice, { savedsearch: 'Alphas', limit: 1 }))).bugs).toHaveLength(1);
    // A buglist.cgi address's way of saying it.
    expect(bugIds(await ok(search(alice, { cmdtype: 'runnamed', namedcmd: 'Alphas' })))).toEqual(
      [...alphas, hiddenAlpha].sort((a, b) => a - b),
    );
    expect(bugIds(await ok(search(alice, { cmdtype: 'dorem', remaction: 'run', namedcmd: 'Alphas' })))).toHaveLength(3);
    // Get User lists them on one's own account only, as 5.2 does.
    const own = await ok(call(app, 'GET', '/rest/user/alice@tracker.test', { apiKey: alice }));
    expect(own.users[0].saved_searches).toEqual([{ id: saved.id, name: 'Alphas', query: saved.query }]);
    const seen = await ok(call(app, 'GET', '/rest/user/alice@tracker.test', { apiKey: bob }));
    expect(seen.users[0].saved_searches).toBeUndefined();
  });

  it('keeps the saved order unless none was saved', async () => {
    await ok(save(alice, { name: 'newest alphas', query: 'summary=alpha&order=bug_id%20DESC' }));
    const ordered = await ok(search(alice, { savedsearch: 'newest alphas', order: 'bug_id' }));
    expect(ordered.bugs.map((bug: { id: number }) => bug.id)).toEqual([hiddenAlpha, ...alphas].sort((a, b) => b - a));
  });

  it('refuses an unknown name, and never answers every bug', async () => {
    const answer = await search(alice, { savedsearch: 'nosuch' });
    expectError(answer, 32000, 400);
    expect(answer.body.message).toBe('The search named nosuch does not exist.');
    expectError(await search(alice, { savedsearch: '' }), 32000, 400);
    expectError(await search(alice, { cmdtype: 'runnamed', namedcmd: 'nosuch' }), 32000, 400);
    // Another person's search of the name is not the caller's.
    expectError(await search(bob, { savedsearch: 'Alphas' }), 32000, 400);
    // Logged out: Bugzilla's LOGIN_REQUIRED.
    expectError(await search(undefined, { savedsearch: 'Alphas' }), 410, 401);
    expectError(await search(alice, { savedsearch: 'Alphas', sharer_id: 'alice' }), 32000, 400);
  });

  it('replaces a search saved again under its name, whatever the case, keeping its id', async () => {
    const first = await ok(save(alice, { name: 'Betas', query: 'summary=nothing' }));
    const again = await ok(save(alice, { name: 'BETAS', query: 'https://bugs.example.com/buglist.cgi?summary=beta' }));
    expect(again).toMatchObject({ id: first.id, name: 'BETAS', query: 'summary=beta' });
    expect(bugIds(await ok(search(alice, { savedsearch: 'betas' })))).toEqual([beta]);
    const names = (await listed(alice)).map((entry: { name: string }) => entry.name);
    expect(names.filter((name: string) => name.toLowerCase() === 'betas')).toEqual(['BETAS']);
  });

  it("checks names and queries with Bugzilla's errors", async () => {
    expectError(await save(alice, { name: '  ', query: 'summary=x' }), 32000, 400);
    const illegal = await save(alice, { name: 'a<b', query: 'summary=x' });
    expectError(illegal, 32000, 400);
    expect(illegal.body.message).toContain('<, >, &');
    expectError(await save(alice, { name: 'x'.repeat(65), query: 'summary=x' }), 32000, 400);
    expect((await ok(save(alice, { name: 'x'.repeat(64), query: 'summary=x' }))).name).toHaveLength(64);
    const empty = await save(alice, { name: 'empty', query: 'bug_status=&token=abc&limit=' });
    expectError(empty, 1000, 400);
    expect(empty.body.message).toBe('You may not search, or create saved searches, without any search terms.');
    expectError(
      await call(app, 'POST', '/rest/saved_search', { body: { name: 'anon', query: 'summary=x' } }),
      410,
      401,
    );
  });
});

describe('sharing a search with a group', () => {
  it('lets the group, and only the group, run it with sharer_id; visibility stays the runner’s', async () => {
    // bob is not in querysharegroup: he may not share.
    await ok(save(bob, { name: 'mine', query: 'summary=alpha' }));
    expectError(
      await call(app, 'PUT', '/rest/saved_search/mine', { apiKey: bob, body: { shared_with_group: 'triagers' } }),
      304,
      401,
    );
    // alice may share only with a group she is in.
    expectError(
      await call(app, 'PUT', '/rest/saved_search/Alphas', { apiKey: alice, body: { shared_with_group: 'admin' } }),
      32000,
      400,
    );
    expectError(
      await call(app, 'PUT', '/rest/saved_search/Alphas', { apiKey: alice, body: { shared_with_group: 'nosuch' } }),
      51,
      404,
    );
    const shared = await ok(
      call(app, 'PUT', '/rest/saved_search/Alphas', { apiKey: alice, body: { shared_with_group: 'triagers' } }),
    );
    expect(shared).toMatchObject({ name: 'Alphas', shared_with_group: 'triagers' });

    // bob, in triagers, runs it: the bugs he may see (not the one in `secret`).
    expect(bugIds(await ok(search(bob, { savedsearch: 'Alphas', sharer_id: aliceId })))).toEqual(alphas);
    const viaRpc = await jsonRpc(
      app,
      'Bug.search',
      { savedsearch: 'alphas', sharer_id: aliceId, include_fields: ['id'] },
      bob,
    );
    expect(bugIds(viaRpc.result)).toEqual(alphas);
    // carol is not in triagers: the same answer as for a search that does not exist.
    const refused = await search(carol, { savedsearch: 'Alphas', sharer_id: aliceId });
    expectError(refused, 32000, 400);
    expect(refused.body.message).toBe('The search named Alphas has not been made visible to you.');
    const unknown = await search(carol, { savedsearch: 'nosuch', sharer_id: aliceId });
    expect(unknown.body.message).toBe('The search named nosuch has not been made visible to you.');
    // A search alice did not share stays hers.
    expectError(await search(bob, { savedsearch: 'betas', sharer_id: aliceId }), 32000, 400);

    // bob's list has alice's shared search (not her others); carol's has none of hers.
    await expect
      .poll(async () =>
        (await listed(bob)).map((entry: { name: string; owner: string }) => `${entry.owner}:${entry.name}`),
      )
      .toEqual(['bob@tracker.test:mine', 'alice@tracker.test:Alphas']);
    expect(await listed(carol)).toEqual([]);
    const theirs = (await listed(bob)).find((entry: { is_own: boolean }) => !entry.is_own);
    expect(theirs).toMatchObject({
      owner_id: aliceId,
      shared_with_group: 'triagers',
      query: 'short_desc=alpha&short_desc_type=allwordssubstr',
    });

    // Unshared: bob can no longer run it.
    await ok(call(app, 'PUT', '/rest/saved_search/Alphas', { apiKey: alice, body: { shared_with_group: null } }));
    expectError(await search(bob, { savedsearch: 'Alphas', sharer_id: aliceId }), 32000, 400);
    await ok(call(app, 'PUT', `/rest/saved_search/Alphas`, { apiKey: alice, body: { shared_with_group: 'triagers' } }));
  });
});

describe('Bug.search over JSON-RPC and XML-RPC', () => {
  it.each(['json', 'xml'] as const)(
    'runs a saved search by name over %s-RPC and refuses an unknown one',
    async (protocol) => {
      const found = await rpc(protocol)(app, 'Bug.search', { savedsearch: 'Alphas', include_fields: ['id'] }, alice);
      expect(bugIds(found.result)).toEqual([...alphas, hiddenAlpha].sort((a, b) => a - b));
      const unknown = await rpc(protocol)(app, 'Bug.search', { savedsearch: 'nosuch' }, alice);
      expect(unknown.fault).toEqual({ code: 32000, message: 'The search named nosuch does not exist.' });
      const hidden = await rpc(protocol)(app, 'Bug.search', { savedsearch: 'Alphas', sharer_id: aliceId }, carol);
      expect(hidden.fault?.code).toBe(32000);
    },
  );
});

const CLI = '/usr/bin/bugzilla';
const hasClients = existsSync(CLI) && existsSync(DEBIAN_PYTHON);
describe.skipIf(!hasClients)('python-bugzilla and `bugzilla query --savedsearch`', () => {
  let home: string;
  const run = async (command: string, args: string[], env: Record<string, string> = {}) =>
    (
      await promisify(execFile)(command, args, {
        env: { ...process.env, HOME: home, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      })
    ).stdout;
  /** `bugzilla query` as the person whose API key is in their own ~/.config/python-bugzilla/bugzillarc. */
  const cli = (key: string, ...args: string[]) => {
    const own = join(home, key);
    mkdirSync(join(own, '.config', 'python-bugzilla'), { recursive: true });
    writeFileSync(
      join(own, '.config', 'python-bugzilla', 'bugzillarc'),
      `[${new URL(app.url).host}]\napi_key = ${key}\n`,
    );
    return run(CLI, ['--bugzilla', `${app.url}/rest`, 'query', '--outputformat', '%{id}', ...args], { HOME: own });
  };
  const idsOf = (output: string) =>
    output
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .sort((a, b) => a - b);

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'tracker-saved-search-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('runs the caller’s search, and a shared one with --savedsearch-sharer-id', async () => {
    expect(idsOf(await cli(alice, '--savedsearch', 'Alphas'))).toEqual([...alphas, hiddenAlpha].sort((a, b) => a - b));
    expect(idsOf(await cli(bob, '--savedsearch', 'Alphas', '--savedsearch-sharer-id', String(aliceId)))).toEqual(
      alphas,
    );
  });

  it('fails on an unknown name or a search not shared with the caller, listing no bug', async () => {
    for (const args of [
      [alice, '--savedsearch', 'nosuch'],
      [carol, '--savedsearch', 'Alphas', '--savedsearch-sharer-id', String(aliceId)],
    ]) {
      // The command fails (python-bugzilla's REST backend reports the HTTP 400, not the message).
      const failed = await cli(args[0], ...args.slice(1)).then(
        (stdout) => ({ failed: false, output: stdout }),
        (error: { stdout: string; stderr: string }) => ({ failed: true, output: `${error.stdout}${error.stderr}` }),
      );
      expect(failed.failed, failed.output).toBe(true);
      expect(failed.output).toContain('400 Client Error');
      expect(failed.output.split('\n').filter((line) => /^\d+$/.test(line.trim()))).toEqual([]);
    }
  });

  it('python-bugzilla runs a buglist.cgi address of a shared search (url_to_query)', async () => {
    const script = [
      'import bugzilla, json, sys',
      'bz = bugzilla.Bugzilla(sys.argv[1], api_key=sys.argv[2])',
      'query = bz.url_to_query(sys.argv[3])',
      'query["include_fields"] = ["id"]',
      'print(json.dumps(sorted(bug.id for bug in bz.query(query))))',
    ].join('\n');
    const address = `${app.url}/buglist.cgi?cmdtype=dorem&remaction=run&namedcmd=Alphas&sharer_id=${aliceId}`;
    expect(JSON.parse(await run(DEBIAN_PYTHON, ['-c', script, `${app.url}/rest`, bob, address]))).toEqual(alphas);
  });
});

describe('forgetting a search', () => {
  it('deletes by name or id; then nobody can run it', async () => {
    const saved = await ok(save(alice, { name: 'gone soon', query: 'summary=beta' }));
    expect(await ok(call(app, 'DELETE', `/rest/saved_search/${saved.id}`, { apiKey: alice }))).toEqual({
      id: saved.id,
      name: 'gone soon',
    });
    expectError(await search(alice, { savedsearch: 'gone soon' }), 32000, 400);
    expectError(await call(app, 'DELETE', '/rest/saved_search/gone%20soon', { apiKey: alice }), 32000, 400);
    // Only one's own: bob cannot forget alice's shared search.
    expectError(await call(app, 'DELETE', '/rest/saved_search/Alphas', { apiKey: bob }), 32000, 400);

    expect(await ok(call(app, 'DELETE', '/rest/saved_search/alphas', { apiKey: alice }))).toMatchObject({
      name: 'Alphas',
    });
    expectError(await search(bob, { savedsearch: 'Alphas', sharer_id: aliceId }), 32000, 400);
    expectError(await search(alice, { savedsearch: 'Alphas' }), 32000, 400);
  });
});
