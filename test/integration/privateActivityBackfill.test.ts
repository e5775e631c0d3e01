import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accounts from '../support/testAccounts.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Bugs stored before bugs listed their private attachments (`privateAttachments`; docs/data-model.md
 * §3, "What an outsider learns"): an upgraded installation's bug items, change-log entries and
 * search snapshot lack the list. Such bugs are written here the old way, directly through the
 * storage client (the attachments themselves are real), then read by outsiders before and after
 * the backfill that the search compactor runs (privateActivityBackfill.ts).
 */
let app: TestApp;
let admin: string;
let member: string;
let memberId: number;
let bob: string;
/** A public bug with a public attachment (renamed) and a private one (renamed to SECRET). */
let bug: number;
let readme: number;
let secret: number;
/** Old bugs with attachments but none private, and without attachments. */
let plainBug: number;
let bareBug: number;

const SUMMARY = 'Old public bug with a private attachment';
const SECRET = 'Customer passwords';
const INSTALLATION = { pk: 'INSTANCE', sk: 'INSTALLATION' };

const storage = async () => ({
  ...(await import('@aws-sdk/lib-dynamodb')),
  ...(await import('../../shared/storage/dynamoClient.ts')),
});

const attach = (key: string, bugId: number, body: Record<string, unknown>) =>
  ok(
    call(app, 'POST', `/rest/bug/${bugId}/attachment`, {
      apiKey: key,
      body: { content_type: 'text/plain', data: Buffer.from('data').toString('base64'), ...body },
    }),
  ).then((answer) => Number(answer.ids[0]));
const rename = (id: number, summary: string, key: string) =>
  ok(call(app, 'PUT', `/rest/bug/attachment/${id}`, { apiKey: key, body: { summary } }));

interface Change {
  field_name: string;
  added: string;
  attachment_id?: number;
}
const history = async (key?: string): Promise<Change[]> =>
  (await ok(call(app, 'GET', `/rest/bug/${bug}/history`, { apiKey: key }))).bugs[0].history.flatMap(
    (entry: { changes: Change[] }) => entry.changes,
  );
const getBug = async (key: string | undefined, fields: string) =>
  (await ok(call(app, 'GET', `/rest/bug/${bug}`, { apiKey: key, query: { include_fields: fields } }))).bugs[0];
const found = async (key: string | undefined, field: string, op: string, value: string) =>
  (
    await ok(
      call(app, 'GET', '/rest/bug', { apiKey: key, query: { f1: field, o1: op, v1: value, include_fields: 'id' } }),
    )
  ).bugs.map((hit: { id: number }) => hit.id);
const searchPage = async (key: string | undefined, fields: string) =>
  (
    await ok(
      call(app, 'GET', '/rest/bug', {
        apiKey: key,
        query: { f1: 'short_desc', o1: 'equals', v1: SUMMARY, include_fields: fields },
      }),
    )
  ).bugs[0];

/** The bug item as stored. */
async function bugItem(id: number) {
  const { documentClient, tableName, GetCommand } = await storage();
  return (await documentClient().send(new GetCommand({ TableName: tableName(), Key: { pk: `BUG#${id}`, sk: 'BUG' } })))
    .Item!;
}

/**
 * Makes the installation look as one upgraded from before the list: no list on these bug items
 * nor on their change-log entries, no backfill progress, and a search index that must be read
 * again from the (empty) snapshot and the change log.
 */
async function storeTheOldWay(bugIds: number[]): Promise<void> {
  const { documentClient, tableName, ScanCommand, UpdateCommand } = await storage();
  const client = documentClient();
  const TableName = tableName();
  for (const id of bugIds) {
    await client.send(
      new UpdateCommand({
        TableName,
        Key: { pk: `BUG#${id}`, sk: 'BUG' },
        UpdateExpression: 'REMOVE privateAttachments',
      }),
    );
  }
  const log = await client.send(
    new ScanCommand({
      TableName,
      FilterExpression: 'begins_with(pk, :log)',
      ExpressionAttributeValues: { ':log': 'SEARCHLOG#' },
    }),
  );
  for (const entry of log.Items ?? []) {
    if (!bugIds.includes(Number(entry.bug.id))) continue;
    await client.send(
      new UpdateCommand({
        TableName,
        Key: { pk: entry.pk, sk: entry.sk },
        UpdateExpression: 'REMOVE #bug.privateAttachments',
        ExpressionAttributeNames: { '#bug': 'bug' },
      }),
    );
  }
  await client.send(
    new UpdateCommand({ TableName, Key: INSTALLATION, UpdateExpression: 'REMOVE privateAttachmentsBackfill' }),
  );
  (await import('../../shared/application/search/searchIndexHolder.ts')).dropSearchIndex();
}

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'insiders', description: 'Insiders' } }));
  await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { insidergroup: 'insiders' } }));
  member = await accounts.userWithKey(app, 'member', ['insiders']);
  memberId = (await ok(call(app, 'GET', '/rest/whoami', { apiKey: member }))).id;
  bob = await accounts.userWithKey(app, 'bob');

  bug = await fileTestBug(app, admin, { summary: SUMMARY });
  readme = await attach(bob, bug, { file_name: 'readme.txt', summary: 'readme' });
  await rename(readme, 'readme v2', bob);
  secret = await attach(member, bug, { file_name: 'dump.txt', summary: 'Dump 7f3', is_private: true });
  await rename(secret, SECRET, member);
  plainBug = await fileTestBug(app, admin, { summary: 'Old bug with a public attachment' });
  await attach(bob, plainBug, { file_name: 'notes.txt', summary: 'notes' });
  bareBug = await fileTestBug(app, admin, { summary: 'Old bug without attachments' });

  await storeTheOldWay([bug, plainBug, bareBug]);
  expect(await bugItem(bug)).not.toHaveProperty('privateAttachments');
});

afterAll(() => app?.close());

/** What outsiders may learn of the bug, whatever the state of the backfill. */
async function expectOutsidersToSeeNothingPrivate(): Promise<void> {
  for (const key of [undefined, bob]) {
    const changes = await history(key);
    expect(JSON.stringify(changes)).not.toContain(SECRET);
    expect(JSON.stringify(changes)).not.toContain('Dump 7f3');
    expect(changes.map((change) => change.attachment_id).filter((id) => id !== undefined)).toEqual([readme]);
    expect((await getBug(key, 'id,history')).history).toEqual(
      (await ok(call(app, 'GET', `/rest/bug/${bug}/history`, { apiKey: key }))).bugs[0].history,
    );
    expect((await getBug(key, 'counts')).counts.attachments).toBe(1);
    expect((await searchPage(key, 'id,counts')).counts.attachments).toBe(1);
    expect(await found(key, '*', 'changedto', SECRET)).toEqual([]);
    expect(await found(key, '*', 'changedfrom', 'Dump 7f3')).toEqual([]);
    expect(await found(key, '*', 'changedby', 'member@tracker.test')).toEqual([]);
  }
  // Insiders see and find it all along.
  expect((await history(member)).map((change) => change.added)).toContain(SECRET);
  expect(await found(member, '*', 'changedto', SECRET)).toEqual([bug]);
  expect((await getBug(member, 'counts')).counts.attachments).toBe(2);
}

describe('an old bug with a private attachment', () => {
  it('leaks nothing before the backfill: its list is derived on read, and search hides every attachment change', async () => {
    await expectOutsidersToSeeNothingPrivate();
    // Search cannot tell which attachments are private yet: it hides the public one's changes too,
    // and counts no attachment for outsiders.
    expect(await found(bob, '*', 'changedto', 'readme v2')).toEqual([]);
    expect(await found(bob, 'attachments.count', 'equals', '1')).toEqual([]);
    expect(await found(member, 'attachments.count', 'equals', '2')).toEqual([bug]);
  });

  it('gets its list from the backfill that the search compactor runs, and search is exact again', async () => {
    const { compactSearchIndex } = await import('../../shared/application/search/searchCompactor.ts');
    const before = await bugItem(bug);
    await compactSearchIndex();
    expect((await bugItem(bug)).privateAttachments).toEqual([{ id: secret, creatorId: memberId }]);
    // Only bugs with attachments needed the list: an empty one says none of them is private.
    expect((await bugItem(plainBug)).privateAttachments).toEqual([]);
    expect(await bugItem(bareBug)).not.toHaveProperty('privateAttachments');
    // Nothing else moved, not even the revision: the bug did not change, it now says what its attachments said.
    expect(await bugItem(bug)).toEqual({ ...before, privateAttachments: [{ id: secret, creatorId: memberId }] });
    const { documentClient, tableName, GetCommand } = await storage();
    const marker = (await documentClient().send(new GetCommand({ TableName: tableName(), Key: INSTALLATION }))).Item;
    expect(marker?.privateAttachmentsBackfill).toMatchObject({ done: true });

    await expectOutsidersToSeeNothingPrivate();
    expect(await found(bob, '*', 'changedto', 'readme v2')).toEqual([bug]);
    // The old bug with one public attachment counts it for everyone again too.
    expect(await found(bob, 'attachments.count', 'equals', '1')).toEqual([bug, plainBug]);
  });

  it('keeps the list in the snapshot a new search instance starts from', async () => {
    (await import('../../shared/application/search/searchIndexHolder.ts')).dropSearchIndex();
    expect(await found(bob, '*', 'changedto', 'readme v2')).toEqual([bug]);
    expect(await found(bob, '*', 'changedto', SECRET)).toEqual([]);
    // The old bug with one public attachment counts it for everyone again too.
    expect(await found(bob, 'attachments.count', 'equals', '1')).toEqual([bug, plainBug]);
  });

  it('is not done twice', async () => {
    const { backfillPrivateAttachments } = await import('../../shared/application/bug/privateActivityBackfill.ts');
    expect(await backfillPrivateAttachments()).toEqual({ done: true, stored: [] });
  });
});

describe('the backfill and the writes around it', () => {
  it('never overwrites a write that came first: the list is stored only at the revision it was derived at', async () => {
    const { storePrivateAttachments } = await import('../../shared/storage/bug/privateAttachmentsBackfillStore.ts');
    const old = await fileTestBug(app, admin, { summary: 'Old bug written meanwhile' });
    const hidden = await attach(member, old, { file_name: 'x.txt', summary: 'x', is_private: true });
    await storeTheOldWay([old]);
    const { rev } = await bugItem(old);
    // A user's write in between: it reads the bug with its list derived, and stores it with the change.
    await ok(call(app, 'POST', `/rest/bug/${old}/comment`, { apiKey: bob, body: { comment: 'Still there?' } }));
    const written = await bugItem(old);
    expect(written.rev).toBe(rev + 1);
    expect(written.privateAttachments).toEqual([{ id: hidden, creatorId: memberId }]);
    // The backfill's write for the revision it read is refused and changes nothing.
    expect(await storePrivateAttachments(old, rev, [])).toBe(false);
    expect(await bugItem(old)).toEqual(written);
    expect(await storePrivateAttachments(old, written.rev, [])).toBe(false);
  });
});
