import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportRefusal } from '../../local/import/importErrors.ts';
import type { ImportReport } from '../../local/import/report.ts';
import { type ImportOptions, runImport } from '../../local/import/runImport.ts';
import { verifyTarget } from '../../local/import/verifyTarget.ts';
import {
  type AppProcess,
  copyInstallation,
  freshStorage,
  startAppProcess,
  testAppStorage,
} from '../support/appProcess.ts';
import { seedInstallation } from '../support/seededInstallation.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';
import { dynamodbEndpoint } from '../support/testEngines.ts';

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

/** Items in a table: "nothing written" is "the same number of items". */
async function itemCount(table: string): Promise<number> {
  const client = new DynamoDBClient({
    endpoint: dynamodbEndpoint(),
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
  const seeded = await seedInstallation(seededApp, { fillers: 3 });
  bugs.push(...seeded.bugs);
  hiddenBug = seeded.hiddenBug;
  plainKey = seeded.plainKey;
  sourceKey = seededApp.admin.apiKey;
  await seededApp.close();
  const storage = freshStorage();
  await copyInstallation(testAppStorage(), storage);
  source = await startAppProcess(storage);
  // The target: a new installation whose administrator has the source administrator's login.
  target = await startTestApp();
});

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
    expect(report.written).toEqual({ items: 0, attachmentBytes: 0 });
    expect(await itemCount(testAppStorage().table)).toBe(before);
  });
});

describe('an import', () => {
  it('stops after a batch, leaving a checkpoint, and a rerun resumes', async () => {
    const before = await itemCount(testAppStorage().table);
    const first = await importInto({ stopAfterBatches: 1 });
    reports.push(first);
    expect(first).toMatchObject({ mode: 'fresh', interrupted: true, checkpoint: 2 });
    // The writer's own count (the benchmark's items/s) covers at least every item the run added.
    const added = (await itemCount(testAppStorage().table)) - before;
    expect(added).toBeGreaterThan(0);
    expect(first.written.items).toBeGreaterThanOrEqual(added);
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

  it('verifies equal through both REST APIs (--verify), the target served from this process', async () => {
    const check = await verifyTarget({
      from: `${source.url}/rest`,
      apiKey: sourceKey,
      connections: 4,
      account: target.admin.login,
    });
    expect(check.result.compared).toBeGreaterThanOrEqual(bugs.length);
    expect(check.text).toContain('No differences');
    expect(check.equal).toBe(true);
    const sample = await verifyTarget({
      from: `${source.url}/rest`,
      apiKey: sourceKey,
      connections: 4,
      sample: 2,
      account: target.admin.login,
    });
    expect(sample.result.compared).toBe(2);
    // The key made for the check is revoked when it ends.
    const keys = await ok(
      call(target, 'GET', `/rest/user/${target.admin.login}/api_key`, { apiKey: target.admin.apiKey }),
    );
    const checkKeys = keys.api_keys.filter((key: { description: string }) =>
      key.description.startsWith('Import verification'),
    );
    expect(checkKeys.length).toBe(2);
    expect(checkKeys.every((key: { revoked: boolean }) => key.revoked)).toBe(true);
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
