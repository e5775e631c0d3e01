import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackerEvent } from '../../shared/domain/notification/bugEvents.ts';
import { bugChangesOf, type RecordedChange } from '../../shared/storage/notification/bugChangeRecords.ts';
import type { TableStreamRecord } from '../../shared/storage/notification/streamRecords.ts';
import { TableStreamReader } from '../../shared/storage/notification/tableStream.ts';
import { ENV } from '../../shared/storage/tableSchema.ts';
import { type NotificationHarness, notificationHarness, type Person, person } from '../support/notificationHarness.ts';
import { createHiddenAndLockedProducts, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Events from the table's real stream: one for every kind of change, in the documented shape
 * (docs/events.md), numbered by revision and kind, kept as `.json` files; what the public
 * audience is not told; a stream handed over again from its start publishing nothing twice; and
 * the same changes read whole or one record at a time.
 */
let app: TestApp;
let harness: NotificationHarness;
let reporter: Person;
let dev: Person;
let bug: number;
/** The events of each step, by step name. */
const published = new Map<string, TrackerEvent[]>();

const BUG_FACTS = [
  'alias',
  'assigned_to',
  'classification',
  'component',
  'creator',
  'id',
  'is_private',
  'priority',
  'product',
  'resolution',
  'severity',
  'status',
  'summary',
  'type',
];
const FLAG_FACTS = [
  'attachment_id',
  'id',
  'name',
  'previous_status',
  'requestee',
  'requester',
  'setter',
  'status',
  'type_id',
];
const ATTACHMENT_FACTS = [
  'content_type',
  'creation_time',
  'creator',
  'file_name',
  'id',
  'is_obsolete',
  'is_patch',
  'is_private',
  'size',
  'summary',
];
const COMMENT_FACTS = ['count', 'creation_time', 'creator', 'id', 'is_markdown', 'is_private', 'text'];

async function step(name: string, action: () => Promise<unknown>): Promise<TrackerEvent[]> {
  await action();
  harness.reset();
  await harness.drain();
  published.set(name, [...harness.events]);
  return [...harness.events];
}

const kinds = (events: readonly TrackerEvent[]) => events.map((event) => event.id.replace(/^\d+-\d+-/, ''));
const put = (key: string, path: string, body: unknown) => ok(call(app, 'PUT', path, { apiKey: key, body }));
const post = (key: string, path: string, body: unknown) => ok(call(app, 'POST', path, { apiKey: key, body }));
const attach = (key: string, body: Record<string, unknown>) =>
  post(key, `/rest/bug/${bug}/attachment`, {
    content_type: 'text/plain',
    data: Buffer.from('patch body').toString('base64'),
    ...body,
  }).then((answer) => Number(answer.ids[0]));
const flagsOf = async (path: string, pick: (body: any) => any[]) =>
  pick(await ok(call(app, 'GET', path, { apiKey: app.admin.apiKey })));

beforeAll(async () => {
  app = await startTestApp({ changeStream: true });
  const admin = app.admin.apiKey;
  await createHiddenAndLockedProducts(app);
  await put(admin, '/rest/parameters', { urlbase: 'https://bugs.example.com/', insidergroup: 'admin' });
  reporter = await person(app, 'reporter', ['editbugs']);
  dev = await person(app, 'dev', ['editbugs']);
  for (const [name, target] of [
    ['review', 'attachment'],
    ['qa', 'bug'],
  ])
    await post(admin, '/rest/flag_type', {
      name,
      description: name,
      target_type: target,
      is_requestable: true,
      is_requesteeble: true,
    });
  harness = notificationHarness();
  await harness.drain();
});

afterAll(async () => {
  await harness?.close();
  await app?.close();
});

describe('events', () => {
  it('publishes an event for every kind of change, numbered by revision and kind', async () => {
    await step('created', async () => {
      bug = (
        await post(reporter.key, '/rest/bug', {
          product: 'TestProduct',
          component: 'TestComponent',
          version: 'unspecified',
          summary: 'Frobnicator drops frames',
          description: 'Every second frame is dropped.',
          op_sys: 'Linux',
          platform: 'PC',
          assigned_to: dev.login,
        })
      ).id;
    });
    await step('changed', () => put(dev.key, `/rest/bug/${bug}`, { priority: 'High', status: 'IN_PROGRESS' }));
    await step('commented', () => post(dev.key, `/rest/bug/${bug}/comment`, { comment: 'Fixed in r1234.' }));
    let first = 0;
    await step('attached', async () => {
      first = await attach(reporter.key, {
        file_name: 'fix.patch',
        summary: 'First try',
        flags: [{ name: 'review', status: '?', requestee: dev.login }],
      });
    });
    const review = (await flagsOf(`/rest/bug/attachment/${first}`, (body) => body.attachments[first].flags))[0];
    await step('granted', () =>
      put(dev.key, `/rest/bug/attachment/${first}`, { flags: [{ id: review.id, status: '+' }] }),
    );
    await step('obsoleted', () =>
      attach(reporter.key, { file_name: 'fix2.patch', summary: 'Second try', obsoletes: [first] }),
    );
    await step('requested', () =>
      put(dev.key, `/rest/bug/${bug}`, { flags: [{ name: 'qa', status: '?', requestee: reporter.login }] }),
    );
    const qa = (await flagsOf(`/rest/bug/${bug}`, (body) => body.bugs[0].flags))[0];
    await step('denied', () => put(reporter.key, `/rest/bug/${bug}`, { flags: [{ id: qa.id, status: '-' }] }));
    await step('cleared', () => put(dev.key, `/rest/bug/${bug}`, { flags: [{ id: qa.id, status: 'X' }] }));

    expect(Object.fromEntries([...published].map(([name, events]) => [name, kinds(events)]))).toEqual({
      created: ['bug-created-0'],
      changed: ['bug-changed-0'],
      commented: ['comment-added-0'],
      attached: ['comment-added-0', 'attachment-added-0', 'flag-requested-0'],
      granted: ['attachment-changed-0', 'flag-granted-0'],
      // Attachments by id: the one made obsolete first, then the new one.
      obsoleted: ['comment-added-0', 'attachment-changed-0', 'attachment-added-0'],
      requested: ['bug-changed-0', 'flag-requested-0'],
      denied: ['bug-changed-0', 'flag-denied-0'],
      cleared: ['bug-changed-0', 'flag-cleared-0'],
    });
    const all = [...published.values()].flat();
    // One revision per step, in order; every event names itself, its bug and its revision.
    expect([...new Set(all.map((event) => event.detail.revision))]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const event of all) {
      expect(event.source).toBe('tracker');
      expect(event.id).toBe(`${bug}-${event.detail.revision}-${event.kind}-0`);
      expect(event.detail.event_id).toBe(event.id);
      expect(event.detail.when).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(event.time).toBe(event.detail.when);
      expect(Object.keys(event.detail.bug as object).sort()).toEqual(BUG_FACTS);
    }
  });

  it('gives each kind the documented detail', () => {
    const only = (name: string, kind: string) => published.get(name)!.find((event) => event.kind === kind)!.detail;
    const created = only('created', 'bug-created');
    expect(created).toMatchObject({
      who: reporter.login,
      bug: {
        id: bug,
        summary: 'Frobnicator drops frames',
        product: 'TestProduct',
        component: 'TestComponent',
        classification: 'Unclassified',
        status: 'CONFIRMED',
        assigned_to: dev.login,
        creator: reporter.login,
        is_private: false,
      },
      comment: { count: 0, creator: reporter.login, is_private: false, text: 'Every second frame is dropped.' },
    });
    expect(Object.keys(created.comment as object).sort()).toEqual(COMMENT_FACTS);
    expect(only('changed', 'bug-changed')).toMatchObject({
      who: dev.login,
      bug: { status: 'IN_PROGRESS', priority: 'High' },
      changes: expect.arrayContaining([
        { field_name: 'priority', removed: '---', added: 'High' },
        { field_name: 'status', removed: 'CONFIRMED', added: 'IN_PROGRESS' },
      ]),
    });
    expect(only('commented', 'comment-added').comment).toMatchObject({ count: 1, text: 'Fixed in r1234.' });
    const added = only('attached', 'attachment-added');
    expect(Object.keys(added.attachment as object).sort()).toEqual(ATTACHMENT_FACTS);
    expect(added.attachment).toMatchObject({ file_name: 'fix.patch', summary: 'First try', is_obsolete: false });
    const attachmentId = (added.attachment as { id: number }).id;
    expect(only('attached', 'comment-added').comment).toMatchObject({ count: 2, attachment_id: attachmentId });
    const requested = only('attached', 'flag-requested').flag as Record<string, unknown>;
    expect(Object.keys(requested).sort()).toEqual(FLAG_FACTS);
    expect(requested).toMatchObject({
      name: 'review',
      status: '?',
      previous_status: null,
      setter: reporter.login,
      requestee: dev.login,
      requester: null,
      attachment_id: attachmentId,
    });
    expect(only('granted', 'flag-granted').flag).toMatchObject({
      status: '+',
      previous_status: '?',
      setter: dev.login,
      requester: reporter.login,
      attachment_id: attachmentId,
    });
    expect(only('granted', 'attachment-changed').changes).toEqual([
      {
        field_name: 'flagtypes.name',
        removed: `review?(${dev.login})`,
        added: 'review+',
        attachment_id: attachmentId,
      },
    ]);
    expect(only('obsoleted', 'attachment-changed')).toMatchObject({
      attachment: { id: attachmentId, is_obsolete: true },
      changes: [{ field_name: 'attachments.isobsolete', removed: '0', added: '1', attachment_id: attachmentId }],
    });
    expect(only('requested', 'flag-requested').flag).toMatchObject({ name: 'qa', requestee: reporter.login });
    expect(only('denied', 'flag-denied').flag).toMatchObject({ status: '-', requester: dev.login });
    expect(only('cleared', 'flag-cleared').flag).toMatchObject({ status: 'X', setter: null, previous_status: '-' });
  });

  it('keeps each event as a .json file, as EventBridge hands it to a consumer', () => {
    const files = harness.eventFiles();
    const all = [...published.values()].flat();
    expect([...files.keys()].sort()).toEqual(all.map((event) => event.id).sort());
    const changed = published.get('changed')![0]!;
    expect(files.get(changed.id)).toEqual({
      id: changed.id,
      source: 'tracker',
      'detail-type': 'Bug Changed',
      time: changed.time,
      detail: changed.detail,
    });
  });

  it('tells the public audience no private text, and no more than the id of a restricted bug', async () => {
    const hidden = await step('private comment', () =>
      post(app.admin.apiKey, `/rest/bug/${bug}/comment`, { comment: 'Customer: ACME', is_private: true }),
    );
    expect(hidden.map((event) => event.detailType)).toEqual(['Comment Added']);
    expect(hidden[0]!.detail.comment).toEqual({
      id: expect.any(Number),
      count: expect.any(Number),
      creator: app.admin.login,
      creation_time: hidden[0]!.time,
      is_private: true,
      redacted: true,
    });
    let secret = 0;
    const restricted = await step('restricted', async () => {
      secret = (
        await post(app.admin.apiKey, '/rest/bug', {
          product: 'Hidden',
          component: 'Core',
          version: '1.0',
          summary: 'Secret plans',
          description: 'Only for the secret group.',
          op_sys: 'Linux',
          platform: 'PC',
        })
      ).id;
    });
    expect(restricted.map((event) => event.detail)).toEqual([
      {
        bug: { id: secret, is_private: true },
        event_id: `${secret}-1-bug-created-0`,
        when: restricted[0]!.time,
        revision: 1,
      },
    ]);
    expect(JSON.stringify([...harness.eventFiles().values()])).not.toMatch(/Secret plans|ACME/);
  });

  it('publishes nothing twice when the whole stream is handed over again', async () => {
    const again = notificationHarness();
    try {
      const drained = await again.drain();
      expect(drained.records).toBeGreaterThan(50);
      expect(again.events).toEqual([]);
      expect(again.mails).toEqual([]);
      const alreadyDelivered = drained.reports.reduce((sum, report) => sum + report.alreadyDelivered, 0);
      expect(alreadyDelivered).toBe([...published.values()].flat().length);
    } finally {
      await again.close();
    }
  });

  it('reads the same changes from a whole batch as one record at a time (the rest from the table)', async () => {
    const reader = new TableStreamReader(process.env[ENV.table]!);
    const records: TableStreamRecord[] = [];
    try {
      const arn = (await reader.streamArn())!;
      for (const { shardId } of await reader.shards(arn)) {
        let iterator = await reader.iterator(arn, shardId, { type: 'TRIM_HORIZON' });
        while (iterator) {
          const page = await reader.read(iterator);
          records.push(...page.records);
          if (page.records.length === 0) break;
          iterator = page.next;
        }
      }
    } finally {
      reader.close();
    }
    const whole = await bugChangesOf(records);
    const single: RecordedChange[] = [];
    for (const record of records) single.push(...(await bugChangesOf([record])).changes);
    // Attachments read from the table are as they are now (their flags left out): compare which they are.
    const comparable = (changes: typeof single) =>
      changes.map(({ change }) => ({ ...change, attachments: change.attachments.map(({ after }) => after.id) }));
    expect(whole.changes).toHaveLength(11);
    expect(comparable(single)).toEqual(comparable(whole.changes));
    expect(whole.changes.every((recorded) => recorded.attachmentsReadLater.length === 0)).toBe(true);
    expect(single.filter((recorded) => recorded.attachmentsReadLater.length > 0)).toHaveLength(3);
  });
});
