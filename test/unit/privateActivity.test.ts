import { describe, expect, it } from 'vitest';
import type { Bug, HistoryEntry } from '../../shared/domain/bug/bug.ts';
import {
  type ActivityViewer,
  hiddenAttachmentCount,
  mayViewChange,
  withAttachmentPrivacy,
} from '../../shared/domain/bug/privateActivity.ts';
import { DEFAULT_FIELD_VALUES } from '../../shared/domain/catalog/fieldValues.ts';
import { ANONYMOUS, type Caller } from '../../shared/domain/identity/caller.ts';
import { DEFAULT_PARAMETERS } from '../../shared/domain/instance/parameters.ts';
import { compileSearch } from '../../shared/domain/search/evaluation/criterionCompiler.ts';
import { type SearchEnvironment, TRUE } from '../../shared/domain/search/evaluation/searchEnvironment.ts';
import { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import { indexFromSnapshot, snapshotOf } from '../../shared/domain/search/snapshot/indexSnapshot.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * The rule of what a bug's activity tells a caller outside the insider group (privateActivity.ts),
 * and the search index's use of it: a change about an attachment that is private now, or of a
 * comment's privacy, is neither shown nor searchable for outsiders.
 */
const OUTSIDER: ActivityViewer = { insider: false, timeTracker: false };
const INSIDER: ActivityViewer = { insider: true, timeTracker: false };
const TIME_TRACKER: ActivityViewer = { insider: false, timeTracker: true };

const user = (id: number, groups: string[] = []): Caller => ({
  user: { id, login: `u${id}@x.test`, realName: '', disabledText: '', emailEnabled: true },
  groups: new Set(groups),
  blessGroups: new Set(),
});

/** With attachments, so whether it lists its private ones matters (a bug without any has none). */
const bug = (id: number, overrides: Partial<Bug> = {}): Bug => plainBug(id, { attachmentCount: 2, ...overrides });

describe('which history changes a viewer may see', () => {
  const withPrivate = { privateAttachments: [{ id: 5, creatorId: 2 }] };
  const summary = { field_name: 'attachments.description', removed: 'a', added: 'secret', attachment_id: 5 };

  it('hides changes about an attachment that is private now from everyone outside the insider group', () => {
    expect(mayViewChange(OUTSIDER, withPrivate, summary)).toBe(false);
    expect(mayViewChange(TIME_TRACKER, withPrivate, summary)).toBe(false);
    expect(mayViewChange(INSIDER, withPrivate, summary)).toBe(true);
    // Flag changes on it too; the bug's own flags (no attachment) stay visible.
    expect(mayViewChange(OUTSIDER, withPrivate, { ...summary, field_name: 'flagtypes.name' })).toBe(false);
    expect(mayViewChange(OUTSIDER, withPrivate, { field_name: 'flagtypes.name', removed: '', added: 'x?' })).toBe(true);
  });

  it("judges by the attachment's privacy now: once public, its past changes are everyone's", () => {
    expect(mayViewChange(OUTSIDER, {}, summary)).toBe(true);
    expect(mayViewChange(OUTSIDER, { privateAttachments: [{ id: 6, creatorId: 2 }] }, summary)).toBe(true);
  });

  it("keeps comments' privacy changes for insiders and time tracking for the time-tracking group", () => {
    const madePrivate = { field_name: 'longdescs.isprivate', removed: '0', added: '1', comment_count: 2 };
    expect(mayViewChange(OUTSIDER, {}, madePrivate)).toBe(false);
    expect(mayViewChange(OUTSIDER, {}, { ...madePrivate, removed: '1', added: '0' })).toBe(false);
    expect(mayViewChange(INSIDER, {}, madePrivate)).toBe(true);
    const worked = { field_name: 'work_time', removed: '', added: '2.00' };
    expect(mayViewChange(OUTSIDER, {}, worked)).toBe(false);
    expect(mayViewChange(INSIDER, {}, worked)).toBe(false);
    expect(mayViewChange(TIME_TRACKER, {}, worked)).toBe(true);
    expect(mayViewChange(OUTSIDER, {}, { field_name: 'status', removed: 'NEW', added: 'ASSIGNED' })).toBe(true);
  });
});

describe("a bug's private attachments", () => {
  it('follow each attachment’s privacy, and stay an empty list when none is left', () => {
    let current = withAttachmentPrivacy(bug(1), { id: 9, creatorId: 3, isPrivate: true });
    current = withAttachmentPrivacy(current, { id: 4, creatorId: 2, isPrivate: true });
    current = withAttachmentPrivacy(current, { id: 7, creatorId: 2, isPrivate: false });
    expect(current.privateAttachments).toEqual([
      { id: 4, creatorId: 2 },
      { id: 9, creatorId: 3 },
    ]);
    current = withAttachmentPrivacy(current, { id: 9, creatorId: 3, isPrivate: false });
    current = withAttachmentPrivacy(current, { id: 4, creatorId: 2, isPrivate: false });
    // Empty, not absent: a bug with attachments and no list is one stored before the list (unknown).
    expect(current.privateAttachments).toEqual([]);
  });

  it('are counted only for insiders and for whoever attached them, as the attachments listing shows them', () => {
    const marked = bug(1, { privateAttachments: [{ id: 4, creatorId: 2 }] });
    const parameters = { ...DEFAULT_PARAMETERS, insidergroup: 'insiders' };
    expect(hiddenAttachmentCount(marked, ANONYMOUS, parameters)).toBe(1);
    expect(hiddenAttachmentCount(marked, user(3), parameters)).toBe(1);
    expect(hiddenAttachmentCount(marked, user(2), parameters)).toBe(0);
    expect(hiddenAttachmentCount(marked, user(3, ['insiders']), parameters)).toBe(0);
    // The admin group is no insider group unless `insidergroup` names it.
    expect(hiddenAttachmentCount(marked, user(1, ['admin']), parameters)).toBe(1);
    expect(hiddenAttachmentCount(marked, user(1, ['admin']), { ...parameters, insidergroup: 'admin' })).toBe(0);
  });
});

describe('history criteria of search', () => {
  const environment = (index: SearchIndex, insider: boolean): SearchEnvironment => ({
    index,
    callerId: 3,
    callerLogin: 'u3@x.test',
    products: [],
    classifications: [],
    values: DEFAULT_FIELD_VALUES,
    groups: [],
    keywords: [],
    flagTypes: [],
    loginIds: new Map([['u2@x.test', 2]]),
    now: Date.parse('2025-06-01T00:00:00Z'),
    insider,
  });
  const found = (index: SearchIndex, insider: boolean, field: string, op: string, value: string) => {
    const test = compileSearch(environment(index, insider), { kind: 'leaf', field, op, value });
    return Array.from({ length: index.size }, (_, slot) => slot)
      .filter((slot) => test(slot) === TRUE)
      .map((slot) => index.id[slot]);
  };
  const history: HistoryEntry[] = [
    {
      bugId: 1,
      when: '2025-02-01T00:00:00Z',
      whoId: 2,
      changes: [
        { field_name: 'attachments.description', removed: 'Logs', added: 'Customer passwords', attachment_id: 5 },
        { field_name: 'flagtypes.name', removed: '', added: 'review?(u4@x.test)', attachment_id: 5 },
      ],
    },
  ];

  it('find a bug by a change to its private attachment for insiders only, until the attachment is public', () => {
    const index = new SearchIndex();
    index.apply({ bug: bug(1, { privateAttachments: [{ id: 5, creatorId: 2 }] }), rev: 1, history });
    const searches: Array<[string, string, string]> = [
      ['attachments.description', 'changedto', 'Customer passwords'],
      ['attachments.description', 'changedfrom', 'Logs'],
      ['flagtypes.name', 'changedto', 'review?(u4@x.test)'],
      ['attachments.description', 'changedby', 'u2@x.test'],
      ['attachments.description', 'changedafter', '2025-01-15'],
      ['attachments.description', 'changedrange', '2025-01-15|2025-03-01|'],
    ];
    const foundByAll = (insider: boolean, copy: SearchIndex) =>
      searches.map(([field, op, value]) => found(copy, insider, field, op, value));
    expect(foundByAll(false, index).flat()).toEqual([]);
    expect(foundByAll(true, index)).toEqual(searches.map(() => [1]));
    // The snapshot keeps what the rule needs.
    const copy = indexFromSnapshot(snapshotOf(index));
    expect(foundByAll(false, copy).flat()).toEqual([]);
    expect(foundByAll(true, copy)).toEqual(searches.map(() => [1]));
    // Made public (a new revision of the bug without the mark): its past changes are everyone's.
    index.apply({ bug: bug(1, { privateAttachments: [] }), rev: 2 });
    expect(foundByAll(false, index)).toEqual(searches.map(() => [1]));
  });

  it('count private attachments in `attachments.count` for insiders and for whoever attached them', () => {
    const index = new SearchIndex();
    index.apply({ bug: bug(1, { attachmentCount: 3, privateAttachments: [{ id: 5, creatorId: 2 }] }), rev: 1 });
    const count = (insider: boolean, callerId: number) =>
      [1, 2, 3].filter((n) => {
        const test = compileSearch(
          { ...environment(index, insider), callerId },
          { kind: 'leaf', field: 'attachments.count', op: 'equals', value: String(n) },
        );
        return test(0) === TRUE;
      });
    expect(count(false, 3)).toEqual([2]);
    expect(count(false, 0)).toEqual([2]);
    expect(count(false, 2)).toEqual([3]);
    expect(count(true, 3)).toEqual([3]);
  });

  it("do not find a bug by a comment's privacy change outside the insider group", () => {
    const index = new SearchIndex();
    const madePrivate: HistoryEntry = {
      bugId: 1,
      when: '2025-02-01T00:00:00Z',
      whoId: 2,
      changes: [{ field_name: 'longdescs.isprivate', removed: '0', added: '1', comment_id: 8, comment_count: 1 }],
    };
    index.apply({ bug: bug(1), rev: 1, history: [madePrivate] });
    expect(found(index, false, 'longdescs.isprivate', 'changedby', 'u2@x.test')).toEqual([]);
    expect(found(index, true, 'longdescs.isprivate', 'changedby', 'u2@x.test')).toEqual([1]);
  });
});
