import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_PYTHON } from '../support/python.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Searching with the real clients: python-bugzilla's build_query()/query() and `bugzilla query`
 * (Debian's python3-bugzilla and bugzilla-cli, unmodified). Skipped when they are not installed.
 */
const CLI = '/usr/bin/bugzilla';
const hasClients = existsSync(CLI) && existsSync(DEBIAN_PYTHON);

let app: TestApp;
let home: string;
const bugs: Array<{
  id: number;
  product: string;
  component: string;
  summary: string;
  status: string;
  assignee: string;
}> = [];

const run = async (command: string, args: string[]) =>
  (await promisify(execFile)(command, args, { env: { ...process.env, HOME: home }, encoding: 'utf8', timeout: 60_000 }))
    .stdout;
const cli = (...args: string[]) => run(CLI, ['--bugzilla', `${app.url}/rest`, ...args]);

/** Runs build_query(**kwargs) then query() and prints the ids found, sorted. */
async function pythonQuery(kwargs: Record<string, unknown>): Promise<number[]> {
  const script = [
    'import bugzilla, json, sys',
    `bz = bugzilla.Bugzilla(sys.argv[1], api_key=sys.argv[2])`,
    `query = bz.build_query(**json.loads(sys.argv[3]))`,
    `print(json.dumps(sorted(bug.id for bug in bz.query(query))))`,
  ].join('\n');
  return JSON.parse(
    await run(DEBIAN_PYTHON, ['-c', script, `${app.url}/rest`, app.admin.apiKey, JSON.stringify(kwargs)]),
  );
}

const ids = (predicate: (bug: (typeof bugs)[number]) => boolean) => bugs.filter(predicate).map((bug) => bug.id);

beforeAll(async () => {
  if (!hasClients) return;
  app = await startTestApp();
  home = mkdtempSync(join(tmpdir(), 'tracker-bugzilla-search-'));
  mkdirSync(join(home, '.config', 'python-bugzilla'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'python-bugzilla', 'bugzillarc'),
    `[${new URL(app.url).host}]\napi_key = ${app.admin.apiKey}\n`,
  );
  const admin = app.admin.apiKey;
  const helper = (
    await call(app, 'POST', '/rest/user', { apiKey: admin, body: { email: 'helper@search.test', full_name: 'Helper' } })
  ).body.id;
  expect(helper).toBeGreaterThan(0);
  for (const [name, components] of [
    ['Garden', ['Seeds', 'Tools']],
    ['Kitchen', ['Oven']],
  ] as const) {
    await call(app, 'POST', '/rest/product', {
      apiKey: admin,
      body: { name, description: name, version: 'unspecified' },
    });
    for (const component of components)
      await call(app, 'POST', '/rest/component', {
        apiKey: admin,
        body: { product: name, name: component, description: component, default_assignee: app.admin.login },
      });
  }
  const plan: Array<[string, string, string, string]> = [
    ['Garden', 'Seeds', 'Tomato seeds do not sprout', app.admin.login],
    ['Garden', 'Tools', 'Rake handle snaps in the cold', 'helper@search.test'],
    ['Garden', 'Seeds', 'Seed packets mislabelled', 'helper@search.test'],
    ['Kitchen', 'Oven', 'Oven timer beeps forever', app.admin.login],
    ['Kitchen', 'Oven', 'Oven light flickers', 'helper@search.test'],
  ];
  for (const [product, component, summary, assignee] of plan) {
    const { body } = await call(app, 'POST', '/rest/bug', {
      apiKey: admin,
      body: {
        product,
        component,
        summary,
        version: 'unspecified',
        op_sys: 'Linux',
        platform: 'PC',
        description: summary,
        assigned_to: assignee,
      },
    });
    bugs.push({ id: body.id, product, component, summary, status: 'CONFIRMED', assignee });
  }
  await call(app, 'PUT', `/rest/bug/${bugs[3].id}`, {
    apiKey: admin,
    body: { status: 'RESOLVED', resolution: 'FIXED' },
  });
  bugs[3].status = 'RESOLVED';
});
afterAll(async () => {
  await app?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe.skipIf(!hasClients)('searching with python-bugzilla and the bugzilla command', () => {
  it('build_query() + query() find the right bugs', async () => {
    expect(await pythonQuery({ product: 'Garden' })).toEqual(ids((bug) => bug.product === 'Garden'));
    expect(await pythonQuery({ product: 'Kitchen', status: 'CONFIRMED' })).toEqual(
      ids((bug) => bug.product === 'Kitchen' && bug.status === 'CONFIRMED'),
    );
    expect(await pythonQuery({ component: 'Seeds' })).toEqual(ids((bug) => bug.component === 'Seeds'));
    expect(await pythonQuery({ assigned_to: 'helper@search.test' })).toEqual(
      ids((bug) => bug.assignee === 'helper@search.test'),
    );
    expect(await pythonQuery({ assigned_to: 'helper', emailtype: 'substring' })).toEqual(
      ids((bug) => bug.assignee === 'helper@search.test'),
    );
    expect(await pythonQuery({ short_desc: 'oven' })).toEqual(ids((bug) => /oven/i.test(bug.summary)));
    expect(await pythonQuery({ quicksearch: 'ALL seed' })).toEqual(
      ids((bug) => /seed/i.test(bug.summary) || bug.component === 'Seeds'),
    );
    expect(await pythonQuery({ status_whiteboard: 'nothing-has-this' })).toEqual([]);
  });

  it('bugzilla query filters by product, component, status, assignee, summary and quicksearch', async () => {
    const lines = async (...args: string[]) =>
      (await cli('query', '--outputformat', '%{id}|%{status}|%{summary}', ...args)).trim().split('\n').filter(Boolean);
    const idsOf = (output: string[]) => output.map((line) => Number(line.split('|')[0])).sort((a, b) => a - b);
    expect(idsOf(await lines('--product', 'Garden'))).toEqual(ids((bug) => bug.product === 'Garden'));
    expect(idsOf(await lines('--product', 'Garden', '--component', 'Seeds'))).toEqual(
      ids((bug) => bug.component === 'Seeds'),
    );
    expect(idsOf(await lines('--status', 'RESOLVED'))).toEqual(ids((bug) => bug.status === 'RESOLVED'));
    expect(idsOf(await lines('--assigned_to', 'helper@search.test'))).toEqual(
      ids((bug) => bug.assignee === 'helper@search.test'),
    );
    expect(idsOf(await lines('--summary', 'flickers'))).toEqual(ids((bug) => bug.summary.includes('flickers')));
    expect(idsOf(await lines('--quicksearch', 'oven'))).toEqual(
      ids((bug) => /oven/i.test(bug.summary) && bug.status !== 'RESOLVED'),
    );
    const [line] = await lines('--summary', 'flickers');
    const bug = bugs.find((candidate) => candidate.summary === 'Oven light flickers')!;
    expect(line).toBe(`${bug.id}|CONFIRMED|Oven light flickers`);
  });
});
