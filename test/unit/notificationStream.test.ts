import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Bug, BugFlag } from '../../shared/domain/bug/bug.ts';
import { bugChangesOf } from '../../shared/storage/notification/bugChangeRecords.ts';
import { bugItemRecords, type TableStreamRecord } from '../../shared/storage/notification/streamRecords.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * Bug changes from stream records whose every item is in the batch: what the publisher reads
 * without the table (the table is never reached here: no TRACKER_TABLE is set, so a read would
 * fail the test). The integration tests read the rest from a real table.
 */
let sequence = 100;
const WHEN = '2025-03-04T05:06:07Z';
const RECORDED = Date.parse(WHEN) / 1000 + 2;

type Image = Record<string, unknown>;

function record(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  key: { pk: string; sk: string },
  newImage?: Image,
  oldImage?: Image,
  recordedAt: number | Date = RECORDED,
): TableStreamRecord {
  sequence += 1;
  const image = (item: Image | undefined) =>
    item ? marshall({ ...key, ...item }, { removeUndefinedValues: true, convertClassInstanceToMap: true }) : undefined;
  return {
    eventName,
    dynamodb: {
      Keys: marshall(key),
      NewImage: image(newImage),
      OldImage: image(oldImage),
      SequenceNumber: String(sequence),
      ApproximateCreationDateTime: recordedAt,
    },
  };
}

const bugKey = (id: number) => ({ pk: `BUG#${id}`, sk: 'BUG' });
const pad = (n: number) => String(n).padStart(10, '0');
const bugItem = (bug: Bug, rev: number) => ({ type: 'bug', ...bug, rev });

const bugInsert = (bug: Bug) => record('INSERT', bugKey(bug.id), bugItem(bug, 1));
const bugModify = (before: Bug, after: Bug, rev: number) =>
  record('MODIFY', bugKey(after.id), bugItem(after, rev), bugItem(before, rev - 1));

const commentInsert = (bugId: number, count: number, overrides: Image = {}) =>
  record(
    'INSERT',
    { pk: `BUG#${bugId}`, sk: `COMMENT#${pad(count)}` },
    {
      type: 'comment',
      id: 900 + bugId * 10 + count,
      bugId,
      count,
      creatorId: 2,
      creationTime: WHEN,
      rawText: `Comment ${count}`,
      isPrivate: false,
      isMarkdown: false,
      workTime: 0,
      attachmentId: null,
      tags: [],
      ...overrides,
    },
  );

const historyInsert = (bugId: number, rev: number, whoId: number, changes: Image[]) =>
  record(
    'INSERT',
    { pk: `BUG#${bugId}`, sk: `HISTORY#2025-03-04T05:06:07.${rev}00Z#abcd${rev}` },
    { type: 'history', bugId, when: WHEN, whoId, changes, rev },
  );

const searchLogInsert = (bug: Bug, rev: number, history: Image[]) =>
  record(
    'INSERT',
    { pk: 'SEARCHLOG#2025-03-04T05', sk: `2025-03-04T05:06:07.500Z#${pad(bug.id)}#${pad(rev)}` },
    { type: 'searchLog', bug, rev, history, words: [], privateWords: [] },
  );

function attachmentItem(id: number, bugId: number, flags: BugFlag[] = [], overrides: Image = {}): Image {
  return {
    type: 'attachment',
    id,
    bugId,
    fileName: 'fix.patch',
    summary: 'A fix',
    contentType: 'text/plain',
    size: 10,
    isPatch: true,
    isPrivate: false,
    isObsolete: false,
    creatorId: 2,
    creationTime: WHEN,
    lastChangeTime: WHEN,
    sha256: 'ab',
    bodyKey: `attachments/${bugId}/${id}`,
    creationCommentCount: 1,
    flags,
    ...overrides,
  };
}

const flag = (status: BugFlag['status'], requesteeId: number | null = null): BugFlag => ({
  id: 31,
  typeId: 1,
  status,
  setterId: 2,
  requesteeId,
  creationDate: WHEN,
  modificationDate: WHEN,
});

const other = (pk: string, sk: string, item: Image = {}) => record('INSERT', { pk, sk }, item);

const filed = plainBug(42, { reporterId: 2, lastChangeTime: WHEN, commentCount: 1 });

describe('bug changes from stream records', () => {
  it('leaves out every item that is no bug change', async () => {
    const records = [
      other('USER#2', 'USER', { login: 'a@example.com' }),
      other('COUNTER', 'bug', { value: 42 }),
      other('INSTANCE', 'CATALOG', { version: 3 }),
      other('ALIAS#frob', 'ALIAS', { bugId: 42 }),
      other('COMMENT#901', 'COMMENT', { bugId: 42, count: 0 }),
      other('ATTACHMENT#7', 'ATTACHMENT', { bugId: 42 }),
      other('USER#2', `LASTVISIT#${pad(42)}`, { bugId: 42 }),
      other('NOTIFIED#42', `${pad(1)}#mail#abc`, { bugId: 42 }),
      other('TOKEN#abc', 'TOKEN'),
      other('SEARCHLOG#2025-03-04T05', '2025-03-04T05:06:07.000Z#SNAPSHOT#g1', { type: 'searchSnapshotNotice' }),
      record('REMOVE', bugKey(43), undefined, bugItem(plainBug(43), 4)),
      // Written again at the same revision (a backfill of a derived list): nothing changed.
      record('MODIFY', bugKey(44), bugItem(plainBug(44), 4), bugItem(plainBug(44), 4)),
    ];
    expect(bugItemRecords(records).map((item) => `${item.bugId} ${item.kind} ${item.eventName}`)).toEqual([
      '43 bug REMOVE',
      '44 bug MODIFY',
    ]);
    expect(await bugChangesOf(records)).toEqual({ changes: [], bulkLoaded: 0, silent: 0 });
  });

  it('reads a new bug with its description, made by its reporter', async () => {
    const records = [
      bugInsert(filed),
      commentInsert(42, 0, { creatorId: 2, rawText: 'Steps.' }),
      searchLogInsert(filed, 1, []),
    ];
    const { changes } = await bugChangesOf(records);
    expect(changes).toHaveLength(1);
    const [{ change, indexes }] = changes as [(typeof changes)[0]];
    expect(change).toMatchObject({ revision: 1, whoId: 2, when: WHEN, before: null, changes: [], attachments: [] });
    expect(change.after).toEqual(filed);
    expect(change.comments).toEqual([
      {
        id: 1320,
        bugId: 42,
        count: 0,
        creatorId: 2,
        creationTime: WHEN,
        rawText: 'Steps.',
        isPrivate: false,
        isMarkdown: false,
        workTime: 0,
      },
    ]);
    expect(indexes).toEqual([0, 1]);
  });

  it('pairs each write with its own history and comments, two writes of one bug and another bug in between', async () => {
    const second = { ...filed, priority: 'High', commentCount: 2 };
    const third = { ...second, status: 'RESOLVED', resolution: 'FIXED' };
    const otherBefore = plainBug(7, { lastChangeTime: WHEN });
    const otherAfter = { ...otherBefore, severity: 'major' };
    const records = [
      historyInsert(42, 3, 5, [{ field_name: 'status', removed: 'CONFIRMED', added: 'RESOLVED' }]),
      bugModify(filed, second, 2),
      historyInsert(7, 9, 6, [{ field_name: 'bug_severity', removed: 'normal', added: 'major' }]),
      commentInsert(42, 1, { creatorId: 4, rawText: 'Raising it.' }),
      bugModify(otherBefore, otherAfter, 9),
      historyInsert(42, 2, 4, [{ field_name: 'priority', removed: '---', added: 'High' }]),
      bugModify(second, third, 3),
    ];
    const { changes } = await bugChangesOf(records);
    expect(
      changes.map(({ change, indexes }) => ({
        bug: change.after.id,
        revision: change.revision,
        whoId: change.whoId,
        fields: change.changes.map((entry) => entry.field_name),
        comments: change.comments.map((comment) => comment.rawText),
        before: change.before?.priority,
        indexes,
      })),
    ).toEqual([
      {
        bug: 42,
        revision: 2,
        whoId: 4,
        fields: ['priority'],
        comments: ['Raising it.'],
        before: '---',
        indexes: [1, 3, 5],
      },
      { bug: 7, revision: 9, whoId: 6, fields: ['bug_severity'], comments: [], before: '---', indexes: [4, 2] },
      { bug: 42, revision: 3, whoId: 5, fields: ['status'], comments: [], before: 'High', indexes: [6, 0] },
    ]);
  });

  it('reads attachments as the write left them, and a changed one as it was before', async () => {
    const before = { ...filed, attachmentCount: 1, privateAttachments: [] };
    const after = { ...before, attachmentCount: 2, commentCount: 2 };
    const records = [
      bugModify(before, after, 5),
      commentInsert(42, 1, { commentType: 'attachment_created', extraData: 8, attachmentId: 8 }),
      record(
        'MODIFY',
        { pk: 'BUG#42', sk: `ATTACHMENT#${pad(7)}` },
        attachmentItem(7, 42, [flag('+')], { isObsolete: true }),
        attachmentItem(7, 42, [flag('?', 3)], { lastChangeTime: '2025-01-01T00:00:00Z' }),
      ),
      record('INSERT', { pk: 'BUG#42', sk: `ATTACHMENT#${pad(8)}` }, attachmentItem(8, 42)),
      historyInsert(42, 5, 2, [
        { field_name: 'attachments.isobsolete', removed: '0', added: '1', attachment_id: 7 },
        { field_name: 'flagtypes.name', removed: 'review?(c@example.com)', added: 'review+', attachment_id: 7 },
      ]),
    ];
    const { changes } = await bugChangesOf(records);
    const [{ change, attachmentsReadLater }] = changes as [(typeof changes)[0]];
    expect(attachmentsReadLater).toEqual([]);
    expect(change.attachments.map(({ before: was, after: now }) => [now.id, was?.isObsolete, now.isObsolete])).toEqual([
      [7, false, true],
      [8, undefined, false],
    ]);
    expect(change.attachments[0]!.before!.flags).toEqual([flag('?', 3)]);
    expect(change.attachments[0]!.after.flags).toEqual([flag('+')]);
    expect(Object.keys(change.attachments[1]!.after).sort()).toEqual([
      'contentType',
      'creationTime',
      'creatorId',
      'fileName',
      'flags',
      'id',
      'isObsolete',
      'isPatch',
      'isPrivate',
      'size',
      'summary',
    ]);
  });

  it('tells nothing of a bug an import or a seed wrote (importRev), whatever its times, nor of a write that changed nothing told', async () => {
    const loadedNow = plainBug(50, { lastChangeTime: WHEN });
    const reloaded = plainBug(51, { lastChangeTime: WHEN });
    const tagged = { ...filed, tags: { 2: ['mine'] } };
    const records = [
      record('INSERT', bugKey(50), { ...bugItem(loadedNow, 1), importRev: 1 }),
      commentInsert(50, 0),
      record(
        'MODIFY',
        bugKey(51),
        { ...bugItem(reloaded, 3), importRev: 3 },
        { ...bugItem(reloaded, 2), importRev: 2 },
      ),
      bugModify(filed, tagged, 6),
      searchLogInsert(tagged, 6, []),
    ];
    expect(await bugChangesOf(records)).toEqual({ changes: [], bulkLoaded: 2, silent: 1 });
  });

  it('tells of a write through the API to a bug an import wrote, and of one with old times', async () => {
    const old = plainBug(42, { ...filed, lastChangeTime: '2019-05-06T07:08:09Z' });
    const records = [
      record(
        'INSERT',
        bugKey(42),
        { ...bugItem(old, 2), importRev: 1 },
        undefined,
        new Date(Date.parse(WHEN) + 86_400_000),
      ),
      commentInsert(42, 0),
      searchLogInsert(old, 2, []),
    ];
    expect((await bugChangesOf(records)).changes).toHaveLength(1);
  });
});
