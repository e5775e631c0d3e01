import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ImportRefusal } from '../../local/import/importErrors.ts';
import type { ImportReport } from '../../local/import/report.ts';
import { type ImportOptions, runImport } from '../../local/import/runImport.ts';
import {
  type AppProcess,
  copyInstallation,
  freshStorage,
  startAppProcess,
  testAppStorage,
} from '../support/appProcess.ts';
import { createHiddenAndLockedProducts, fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The importer end to end: a Tracker seeded over HTTP (served from a process of its own) is
 * imported into a fresh installation in this process, through the programmatic entry. The first
 * run is stopped after one batch and resumed; then every bug, comment, attachment (body
 * included), flag and history entry reads the same through the API of both, ids included.
 * After changes on the source, an update brings exactly those. A bad URL, a bad key, a target
 * with another source's import or with bugs of its own are refused with nothing written.
 */

let source: AppProcess;
let sourceKey = '';
let target: TestApp;
let plainKey = '';
const bugs: number[] = [];
let hiddenBug = 0;
const reports: ImportReport[] = [];

const BINARY = Buffer.from([0, 1, 2, 254, 255, 10, 13, 0x89, 0x50, 0x4e, 0x47]);

async function seedSource(app: TestApp): Promise<void> {
  const key = app.admin.apiKey;
  const post = (path: string, body: unknown, apiKey = key) => ok(call(app, 'POST', path, { apiKey, body }));
  const put = (path: string, body: unknown, apiKey = key) => ok(call(app, 'PUT', path, { apiKey, body }));
  await post('/rest/classification', { name: 'Hardware', description: 'Things you can touch', sort_key: 7 });
  await post('/rest/group', { name: 'testers', description: 'Test team', user_regexp: '^qa-.*@tracker\\.test$' });
  await post('/rest/product', {
    name: 'Widget',
    description: 'Widgets & gadgets',
    version: '1.0',
    classification: 'Hardware',
    has_unconfirmed: false,
  });
  await post('/rest/product/Widget/version', { name: '2.0', sort_key: 2 });
  await post('/rest/product/Widget/milestone', { name: 'M1', sort_key: 10 });
  await post('/rest/product/Widget/milestone', { name: 'M2', sort_key: 20, is_active: false });
  await put('/rest/product/Widget', { default_milestone: 'M1' });
  const users: Record<string, number> = {};
  for (const name of ['dev', 'qa-lead', 'gone'])
    users[name] = (
      await post('/rest/user', {
        email: `${name}@tracker.test`,
        full_name: `${name} person`,
        password: `${name}-pw-123`,
      })
    ).id;
  await put(`/rest/user/${users.dev}`, { groups: { add: ['editbugs', 'testers'] } });
  await put(`/rest/user/${users.gone}`, { login_denied_text: 'Left the company' });
  await post('/rest/component', {
    product: 'Widget',
    name: 'Gears',
    description: 'Turning parts',
    default_assignee: 'dev@tracker.test',
    default_qa_contact: 'qa-lead@tracker.test',
  });
  await post('/rest/component', {
    product: 'Widget',
    name: 'Springs',
    description: 'Bouncy',
    default_assignee: app.admin.login,
  });
  await post('/rest/keyword', { name: 'regression', description: 'It used to work' });
  await post('/rest/field/bug', {
    name: 'cf_browser',
    display_name: 'Browser',
    type: 2,
    values: ['Firefox', 'Chrome'],
  });
  await post('/rest/field/bug', { name: 'cf_notes', display_name: 'Notes', type: 4 });
  await post('/rest/flag_type', {
    name: 'review',
    description: 'Code review',
    target_type: 'attachment',
    inclusions: ['Widget:Gears'],
    is_requesteeble: true,
  });
  await post('/rest/flag_type', {
    name: 'needinfo',
    description: 'More information needed',
    inclusions: ['Widget'],
    is_multiplicable: true,
    is_requesteeble: true,
    sort_key: 3,
  });

  const first = await fileTestBug(app, key, {
    product: 'Widget',
    component: 'Gears',
    version: '2.0',
    summary: 'Gears grind',
    description: 'Steps:\n1. turn\n2. listen',
    alias: 'grinding',
    priority: 'High',
    severity: 'major',
    type: 'defect',
    op_sys: 'Windows',
    platform: 'PC',
    target_milestone: 'M1',
    url: 'https://example.com/grind',
    whiteboard: '[triage]',
    keywords: ['regression'],
    cc: ['dev@tracker.test'],
    see_also: ['https://bugs.example.org/show_bug.cgi?id=3'],
    deadline: '2030-01-31',
    estimated_time: 6.5,
    cf_browser: 'Firefox',
    cf_notes: 'Only on Mondays',
    flags: [{ name: 'needinfo', status: '?', requestee: 'dev@tracker.test' }],
  });
  const second = await fileTestBug(app, key, {
    product: 'Widget',
    component: 'Springs',
    version: '1.0',
    summary: 'Springs too bouncy',
    depends_on: [first],
  });
  const third = await fileTestBug(app, key, { summary: 'Same as the first' });
  await put(`/rest/bug/${first}`, {
    status: 'IN_PROGRESS',
    priority: 'Highest',
    comment: { body: 'Working on it, **really**.', is_markdown: true },
    remaining_time: 3,
    cc: { add: ['qa-lead@tracker.test'] },
  });
  const privateComment = await post(`/rest/bug/${first}/comment`, { comment: 'Insiders only', is_private: true });
  await put(`/rest/bug/comment/${privateComment.id}/tags`, { add: ['spam', 'needinfo'] });
  const patch = Buffer.from('diff --git a/gear b/gear\n+oil\n');
  const attached = await post(`/rest/bug/${first}/attachment`, {
    file_name: 'oil.patch',
    summary: 'Oil the gears',
    is_patch: true,
    data: patch.toString('base64'),
    comment: 'Here is a fix',
    flags: [{ name: 'review', status: '?', requestee: 'dev@tracker.test' }],
  });
  await post(`/rest/bug/${first}/attachment`, {
    file_name: 'screenshot.png',
    summary: 'What it looks like',
    content_type: 'image/png',
    data: BINARY.toString('base64'),
    is_private: true,
  });
  await put(`/rest/bug/attachment/${attached.ids[0]}`, { is_obsolete: true, comment: 'Superseded' });
  await put(`/rest/bug/${third}`, { dupe_of: first, comment: { body: 'Same thing.' } });
  await put(`/rest/bug/${first}/tags`, { add: ['mine', 'later'] });
  await put(`/rest/bug/${second}`, { status: 'RESOLVED', resolution: 'FIXED', keywords: { add: ['regression'] } });
  bugs.push(first, second, third);

  await createHiddenAndLockedProducts(app);
  const insiderKey = await userWithKey(app, 'keeper', ['secret']);
  hiddenBug = await fileTestBug(app, insiderKey, { product: 'Hidden', component: 'Core', version: '1.0' });
  bugs.push(hiddenBug);
  for (let n = 0; n < 3; n++) bugs.push(await fileTestBug(app, key, { summary: `Filler ${n}` }));
  plainKey = await userWithKey(app, 'plain');
}

/** Items in a table: "nothing written" is "the same number of items". */
async function itemCount(table: string): Promise<number> {
  const client = new DynamoDBClient({
    endpoint: inject('dynamodbEndpoint'),
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let count = 0;
  let start: Record<string, any> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: table, Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  client.destroy();
  return count;
}

const importInto = (options: Partial<ImportOptions> = {}) =>
  runImport({
    from: `${source.url}/rest`,
    apiKey: sourceKey,
    connections: 4,
    batchSize: 2,
    target: testAppStorage(),
    ...options,
  });

const sourceApp = (): TestApp => ({
  url: source.url,
  admin: { ...target.admin, apiKey: sourceKey },
  close: async () => {},
});

/** One resource read from both, as the same administrator; update tokens differ by design (per installation secret). */
async function both(path: string, query: Record<string, any> = {}) {
  const [from, to] = await Promise.all([
    ok(call(sourceApp(), 'GET', path, { apiKey: sourceKey, query })),
    ok(call(target, 'GET', path, { apiKey: target.admin.apiKey, query })),
  ]);
  const strip = (value: any) =>
    JSON.parse(JSON.stringify(value, (key, inner) => (key === 'update_token' ? undefined : inner)));
  return { from: strip(from), to: strip(to) };
}

async function expectSameBugs(): Promise<void> {
  const listed = await both('/rest/bug', {
    f1: 'bug_id',
    o1: 'greaterthan',
    v1: 0,
    include_fields: 'id',
    order: 'bug_id',
  });
  expect(listed.to).toEqual(listed.from);
  expect(listed.from.bugs.map((bug: { id: number }) => bug.id)).toEqual(bugs);
  for (const id of bugs) {
    const bug = await both(`/rest/bug/${id}`, { include_fields: '_all' });
    expect(bug.to, `bug ${id}`).toEqual(bug.from);
    for (const part of ['comment', 'history', 'attachment']) {
      const read = await both(`/rest/bug/${id}/${part}`);
      expect(read.to, `bug ${id} ${part}`).toEqual(read.from);
    }
  }
}

beforeAll(async () => {
  const seededApp = await startTestApp();
  await seedSource(seededApp);
  sourceKey = seededApp.admin.apiKey;
  await seededApp.close();
  const storage = freshStorage();
  await copyInstallation(testAppStorage(), storage);
  source = await startAppProcess(storage);
  // The target: a new installation whose administrator has the source administrator's login.
  target = await startTestApp();
}, 180_000);

afterAll(async () => {
  await target?.close();
  await source?.close();
});

describe('refusals, with nothing written', () => {
  it('refuses a URL that is not a Bugzilla, and a bad key', async () => {
    const before = await itemCount(testAppStorage().table);
    const notBugzilla = await importInto({ from: `${source.url}/nothing` }).catch((error) => error);
    expect(notBugzilla).toBeInstanceOf(ImportRefusal);
    expect(notBugzilla.message).toMatch(/not a Bugzilla REST API/);
    const badKey = await importInto({ apiKey: 'x'.repeat(40) }).catch((error) => error);
    expect(badKey).toBeInstanceOf(ImportRefusal);
    expect(badKey.message).toMatch(/API key is not valid/);
    const notAdmin = await importInto({ apiKey: plainKey }).catch((error) => error);
    expect(notAdmin).toMatchObject({ reason: 'not-admin', message: expect.stringMatching(/--allow-partial/) });
    expect(await itemCount(testAppStorage().table)).toBe(before);
  });

  it('reports the bugs a plain account cannot see, by id, in a dry run that writes nothing', async () => {
    const before = await itemCount(testAppStorage().table);
    const report = await importInto({ apiKey: plainKey, allowPartial: true, dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.hiddenBugs).toMatchObject({ count: 1, ranges: [String(hiddenBug)] });
    expect(report.counts.bugs).toBe(bugs.length - 1);
    expect(await itemCount(testAppStorage().table)).toBe(before);
  });
});

describe('an import', () => {
  it('stops after a batch, leaving a checkpoint, and a rerun resumes', async () => {
    const first = await importInto({ stopAfterBatches: 1 });
    reports.push(first);
    expect(first).toMatchObject({ mode: 'fresh', interrupted: true, checkpoint: 2 });
    expect((await call(target, 'GET', `/rest/bug/${bugs[2]}`, { apiKey: target.admin.apiKey })).status).toBe(404);
    const second = await importInto();
    reports.push(second);
    expect(second).toMatchObject({ mode: 'resume', interrupted: false });
    expect(first.counts.bugs + second.counts.bugs).toBe(bugs.length);
    expect(second.usersWithoutPassword).toBeGreaterThan(0);
  });

  it('gives the same bugs, comments, attachments, flags and history, ids included', async () => {
    await expectSameBugs();
  });

  it('gives the same catalogue, users and legal values', async () => {
    const products = await both('/rest/product', { type: 'accessible', include_fields: '_all' });
    expect(products.to).toEqual(products.from);
    const users = await both('/rest/user', {
      ids: [1, 2, 3, 4, 5, 6],
      include_fields: 'id,name,real_name,can_login,groups',
    });
    expect(users.to).toEqual(users.from);
    const fields = await both('/rest/field/bug');
    expect(fields.to).toEqual(fields.from);
  });

  it('finds imported bugs by search (the snapshot holds them)', async () => {
    const found = await both('/rest/bug', { quicksearch: 'grind', include_fields: 'id' });
    expect(found.to.bugs).toEqual([{ id: bugs[0] }]);
  });

  it('brings exactly what changed on the source with a rerun after it finished', async () => {
    const sourceCall = (method: string, path: string, body: unknown) =>
      ok(call(sourceApp(), method, path, { apiKey: sourceKey, body }));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await sourceCall('PUT', `/rest/bug/${bugs[1]}`, { summary: 'Springs far too bouncy' });
    await sourceCall('POST', `/rest/bug/${bugs[4]}/comment`, { comment: 'Still there.' });
    // Source times have whole seconds: the update starts reading in a later second than the changes.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const update = await importInto();
    expect(update).toMatchObject({ mode: 'update', interrupted: false });
    expect(update.counts.bugs).toBe(2);
    expect(update.counts.comments).toBe(
      (await ok(call(target, 'GET', `/rest/bug/${bugs[1]}/comment`, { apiKey: target.admin.apiKey }))).bugs[bugs[1]]
        .comments.length +
        (await ok(call(target, 'GET', `/rest/bug/${bugs[4]}/comment`, { apiKey: target.admin.apiKey }))).bugs[bugs[4]]
          .comments.length,
    );
    await expectSameBugs();
    const again = await importInto();
    expect(again.counts.bugs ?? 0).toBe(0);
  });

  it('refuses another source once it holds an import', async () => {
    const before = await itemCount(testAppStorage().table);
    const other = await importInto({ from: `${target.url}/rest`, apiKey: target.admin.apiKey }).catch((error) => error);
    expect(other).toMatchObject({ reason: 'other-source' });
    expect(await itemCount(testAppStorage().table)).toBe(before);
  });
});

describe('a target with bugs of its own', () => {
  it('is refused, with nothing written', async () => {
    await target.close();
    target = await startTestApp();
    await fileTestBug(target, target.admin.apiKey);
    const before = await itemCount(testAppStorage().table);
    const refused = await importInto().catch((error) => error);
    expect(refused).toMatchObject({ reason: 'target-not-empty' });
    expect(await itemCount(testAppStorage().table)).toBe(before);
  });
});
