import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../shared/domain/bug/bug.ts';
import {
  hiddenAttachmentCount,
  knownPrivateAttachments,
  mayViewChange,
  privateAttachmentMarks,
} from '../../shared/domain/bug/privateActivity.ts';
import { ANONYMOUS, type Caller } from '../../shared/domain/identity/caller.ts';
import { DEFAULT_PARAMETERS } from '../../shared/domain/instance/parameters.ts';
import { compileSearch } from '../../shared/domain/search/evaluation/criterionCompiler.ts';
import {
  MAYBE,
  type SearchEnvironment,
  TRUE,
  type Truth,
} from '../../shared/domain/search/evaluation/searchEnvironment.ts';
import { type OrderNames, orderComparator } from '../../shared/domain/search/evaluation/searchOrdering.ts';
import { validateSearch } from '../../shared/domain/search/evaluation/searchPlanner.ts';
import { UNKNOWN_COUNT } from '../../shared/domain/search/index/columns.ts';
import { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import { parseSearchParameters, type SearchNode } from '../../shared/domain/search/query/searchQuery.ts';
import { indexFromSnapshot, snapshotOf } from '../../shared/domain/search/snapshot/indexSnapshot.ts';
import type { SnapshotColumns } from '../../shared/domain/search/snapshot/legacySnapshot.ts';
import { legacySnapshotOf } from '../support/legacySnapshot.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * What search and history tell callers outside the insider and time-tracking groups about what
 * those groups keep to themselves: private comments in `longdescs.count`, time-tracking fields
 * and their changes, and the private attachments of bugs stored before bugs listed them.
 */
interface Viewer {
  insider?: boolean;
  timeTracker?: boolean;
  comments?: SearchEnvironment['comments'];
}
const environment = (index: SearchIndex, viewer: Viewer = {}) =>
  ({
    index,
    callerId: 3,
    callerLogin: 'u3@x.test',
    products: [],
    classifications: [],
    groups: [],
    keywords: [],
    flagTypes: [],
    loginIds: new Map(),
    now: Date.parse('2025-06-01T00:00:00Z'),
    insider: viewer.insider ?? false,
    timeTracker: viewer.timeTracker,
    comments: viewer.comments,
  }) as unknown as SearchEnvironment;
const truth = (index: SearchIndex, viewer: Viewer, field: string, op: string, value: string, slot = 0): Truth =>
  compileSearch(environment(index, viewer), { kind: 'leaf', field, op, value })(slot);
const found = (index: SearchIndex, viewer: Viewer, field: string, op: string, value: string) =>
  Array.from({ length: index.size }, (_, slot) => slot)
    .filter((slot) => truth(index, viewer, field, op, value, slot) === TRUE)
    .map((slot) => index.id[slot]);
/** Orders by counts and dates here, which need no names. */
const names = {} as OrderNames;
const copyOf = (index: SearchIndex) => indexFromSnapshot(snapshotOf(index));

describe('longdescs.count (search by number of comments)', () => {
  const index = new SearchIndex();
  // A description, a public comment and two private ones.
  index.apply({ bug: plainBug(1, { commentCount: 4, privateCommentCount: 2 }), rev: 1 });

  it('counts only the comments the caller may read, as Bugzilla and comment_count do', () => {
    expect(found(index, {}, 'longdescs.count', 'equals', '2')).toEqual([1]);
    expect(found(index, {}, 'longdescs.count', 'equals', '4')).toEqual([]);
    expect(found(index, {}, 'comment_count', 'greaterthan', '2')).toEqual([]);
    expect(found(index, { insider: true }, 'longdescs.count', 'equals', '4')).toEqual([1]);
    expect(found(index, { timeTracker: true }, 'longdescs.count', 'equals', '2')).toEqual([1]);
    expect(found(copyOf(index), {}, 'longdescs.count', 'equals', '2')).toEqual([1]);
  });

  it('is decided from the readable comments where a snapshot older than the count left it unknown', () => {
    const old = legacySnapshotOf(index);
    delete old.numbers.privateCommentCount;
    const loaded = indexFromSnapshot(JSON.parse(JSON.stringify(old)));
    expect(loaded.privateCommentCount[0]).toBe(UNKNOWN_COUNT);
    expect(loaded.bugsWithUnknownCommentCounts()).toEqual([1]);
    expect(truth(loaded, {}, 'longdescs.count', 'equals', '4')).toBe(MAYBE);
    const readable = new Map([[1, [0, 1].map((count) => ({ text: 'x', creatorId: 1, count }))]]);
    expect(truth(loaded, { comments: readable }, 'longdescs.count', 'equals', '4')).not.toBe(TRUE);
    expect(truth(loaded, { comments: readable }, 'longdescs.count', 'equals', '2')).toBe(TRUE);
    expect(truth(loaded, { insider: true }, 'longdescs.count', 'equals', '4')).toBe(TRUE);
    // Filled in from the bug items (searchIndexHolder.ts), it is exact again and the snapshot keeps it.
    loaded.setPrivateCommentCount(1, 2);
    expect(loaded.bugsWithUnknownCommentCounts()).toEqual([]);
    expect(found(copyOf(loaded), {}, 'longdescs.count', 'equals', '2')).toEqual([1]);
  });

  it('orders outsiders by the comments they may read', () => {
    const two = new SearchIndex();
    two.apply({ bug: plainBug(1, { commentCount: 4, privateCommentCount: 3 }), rev: 1 });
    two.apply({ bug: plainBug(2, { commentCount: 2, privateCommentCount: 0 }), rev: 1 });
    const order = (insider: boolean) =>
      [0, 1]
        .sort(orderComparator(two, 'longdescs.count', names, { insider, timeTracker: false }))
        .map((slot) => two.id[slot]);
    expect(order(false)).toEqual([1, 2]);
    expect(order(true)).toEqual([2, 1]);
  });
});

describe('time-tracking fields outside the time-tracking group', () => {
  const index = new SearchIndex();
  const history: HistoryEntry[] = [
    {
      bugId: 1,
      when: '2025-02-01T00:00:00Z',
      whoId: 2,
      changes: [
        { field_name: 'estimated_time', removed: '0.00', added: '7.5' },
        { field_name: 'deadline', removed: '', added: '2025-09-30' },
        { field_name: 'status', removed: 'NEW', added: 'CONFIRMED' },
      ],
    },
  ];
  index.apply({ bug: plainBug(1, { estimatedTime: 7.5, deadline: '2025-09-30' }), rev: 1, history });
  index.apply({ bug: plainBug(2, { deadline: '2025-03-01' }), rev: 1 });
  const leaf = (field: string, op = 'equals', value = '1'): SearchNode => ({ kind: 'leaf', field, op, value });

  it('are no search fields: criteria on them, or on their changes, are error 108', () => {
    for (const field of ['estimated_time', 'remaining_time', 'work_time', 'actual_time', 'deadline']) {
      expect(() => validateSearch(leaf(field)), field).toThrow(expect.objectContaining({ code: 108 }));
      expect(() => validateSearch(leaf(field, 'changedafter', '-1d')), field).toThrow(
        expect.objectContaining({ code: 108 }),
      );
      expect(() => validateSearch(leaf(field), { timeTracker: true }), field).not.toThrow();
    }
    // chfield, boolean charts and quicksearch reach the same check.
    const chfield = {
      kind: 'and',
      children: parseSearchParameters({ chfield: 'estimated_time', chfieldfrom: '-1w' }).criteria,
    };
    expect(() => validateSearch(chfield as SearchNode)).toThrow(expect.objectContaining({ code: 108 }));
    expect(() => compileSearch(environment(index), leaf('estimated_time', 'greaterthan', '5'))).toThrow(
      expect.objectContaining({ code: 108 }),
    );
    expect(found(index, { timeTracker: true }, 'estimated_time', 'greaterthan', '5')).toEqual([1]);
  });

  it('ignores a plain `deadline=` parameter, as Bugzilla reads only its search fields from plain parameters', () => {
    expect(parseSearchParameters({ deadline: '2025-09-30', summary: 'x' }).criteria).toHaveLength(1);
    expect(
      parseSearchParameters({ deadline: '2025-09-30', summary: 'x' }, { timeTracker: true }).criteria,
    ).toHaveLength(2);
  });

  it('hides their changes from `*` criteria, as from history', () => {
    expect(found(index, {}, '*', 'changedto', '7.5')).toEqual([]);
    expect(found(index, { insider: true }, '*', 'changedto', '2025-09-30')).toEqual([]);
    expect(found(index, {}, '*', 'changedrange', '2025-01-15|2025-03-01|2025-09-30')).toEqual([]);
    expect(found(index, {}, '*', 'changedto', 'CONFIRMED')).toEqual([1]);
    expect(found(index, { timeTracker: true }, '*', 'changedto', '7.5')).toEqual([1]);
  });

  it('are not an order outsiders can sort by', () => {
    const order = (timeTracker: boolean) =>
      [0, 1]
        .sort(orderComparator(index, 'deadline', names, { insider: false, timeTracker }))
        .map((slot) => index.id[slot]);
    expect(order(true)).toEqual([2, 1]);
    // Dropped: bug id order.
    expect(order(false)).toEqual([1, 2]);
  });
});

describe('bugs stored before bugs listed their private attachments', () => {
  const user = (id: number, groups: string[] = []): Caller => ({
    user: { id, login: `u${id}@x.test`, realName: '', disabledText: '', emailEnabled: true },
    groups: new Set(groups),
    blessGroups: new Set(),
  });
  const history: HistoryEntry[] = [
    {
      bugId: 1,
      when: '2025-02-01T00:00:00Z',
      whoId: 2,
      changes: [
        { field_name: 'attachments.description', removed: 'a', added: 'Customer passwords', attachment_id: 5 },
        { field_name: 'attachments.description', removed: 'b', added: 'readme v2', attachment_id: 6 },
      ],
    },
  ];
  const legacy = plainBug(1, { attachmentCount: 2 });

  it('are unknown only when they have attachments; an empty list says none is private', () => {
    expect(knownPrivateAttachments(legacy)).toBeUndefined();
    expect(knownPrivateAttachments(plainBug(1))).toEqual([]);
    expect(knownPrivateAttachments({ ...legacy, privateAttachments: [] })).toEqual([]);
    expect(
      privateAttachmentMarks([
        { id: 6, creatorId: 2, isPrivate: false },
        { id: 5, creatorId: 3, isPrivate: true },
      ]),
    ).toEqual([{ id: 5, creatorId: 3 }]);
  });

  it('show outsiders no change naming an attachment and count none of their attachments, until their list is known', () => {
    const outsider = { insider: false, timeTracker: false };
    for (const change of history[0].changes) {
      expect(mayViewChange(outsider, legacy, change)).toBe(false);
      expect(mayViewChange({ insider: true, timeTracker: false }, legacy, change)).toBe(true);
    }
    expect(mayViewChange(outsider, legacy, { field_name: 'status', removed: 'NEW', added: 'CONFIRMED' })).toBe(true);
    const parameters = { ...DEFAULT_PARAMETERS, insidergroup: 'insiders' };
    expect(hiddenAttachmentCount(legacy, ANONYMOUS, parameters)).toBe(2);
    expect(hiddenAttachmentCount(legacy, user(3), parameters)).toBe(2);
    expect(hiddenAttachmentCount(legacy, user(3, ['insiders']), parameters)).toBe(0);
    const known = { ...legacy, privateAttachments: [{ id: 5, creatorId: 2 }] };
    expect(mayViewChange(outsider, known, history[0].changes[1])).toBe(true);
    expect(hiddenAttachmentCount(known, user(3), parameters)).toBe(1);
  });

  it('are searched strictly by outsiders until the backfill sets their list, which the snapshot keeps', () => {
    const index = new SearchIndex();
    index.apply({ bug: legacy, rev: 4, history });
    expect(found(index, {}, '*', 'changedto', 'readme v2')).toEqual([]);
    expect(found(index, {}, '*', 'changedto', 'Customer passwords')).toEqual([]);
    expect(found(index, { insider: true }, '*', 'changedto', 'Customer passwords')).toEqual([1]);
    expect(found(index, {}, 'attachments.count', 'equals', '0')).toEqual([1]);
    expect(found(index, { insider: true }, 'attachments.count', 'equals', '2')).toEqual([1]);
    // A snapshot keeps it unknown.
    expect(found(copyOf(index), {}, '*', 'changedto', 'readme v2')).toEqual([]);
    // The backfill's list counts only at the revision it was derived at.
    expect(index.setPrivateAttachments(1, 3, [])).toBe(false);
    expect(index.setPrivateAttachments(1, 4, [{ id: 5, creatorId: 2 }])).toBe(true);
    for (const copy of [index, copyOf(index)]) {
      expect(found(copy, {}, '*', 'changedto', 'readme v2')).toEqual([1]);
      expect(found(copy, {}, '*', 'changedto', 'Customer passwords')).toEqual([]);
      expect(found(copy, {}, 'attachments.count', 'equals', '1')).toEqual([1]);
    }
  });

  it('read an empty list as known, and an older snapshot’s 0 as the bug item without a list', () => {
    const index = new SearchIndex();
    index.apply({ bug: { ...legacy, privateAttachments: [] }, rev: 1, history });
    index.apply({ bug: plainBug(2, { attachmentCount: 0 }), rev: 1 });
    const snapshot = legacySnapshotOf(index);
    expect(snapshot.privateAttachments).toEqual([[], 0]);
    const binary = copyOf(index);
    expect([binary.privateAttachmentsAt(0), binary.privateAttachmentsAt(1)]).toEqual([[], []]);
    expect(found(copyOf(index), {}, '*', 'changedto', 'readme v2')).toEqual([1]);
    // Snapshots before the empty list wrote 0 for it, or had no column at all: unknown where there are attachments.
    for (const old of [
      { ...snapshot, privateAttachments: [0, 0] },
      { ...snapshot, privateAttachments: undefined },
    ]) {
      const loaded = indexFromSnapshot(JSON.parse(JSON.stringify(old)) as SnapshotColumns);
      expect(loaded.privateAttachmentsAt(0)).toBeUndefined();
      expect(loaded.privateAttachmentsAt(1)).toEqual([]);
    }
  });
});
