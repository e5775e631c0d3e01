import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../local/import/source/concurrency.ts';
import {
  BugzillaApiError,
  type BugzillaClient,
  type CommentRecord,
  type FlagRecord,
  type HistoryEntryRecord,
} from '../../local/import/source/index.ts';
import { checksumBodies } from '../../local/import/verify/bodyChecksums.ts';
import {
  type AttachmentSummary,
  type BugSnapshot,
  compareAttachments,
  compareBugFields,
  compareComments,
  compareFlags,
  compareHistory,
  compareSnapshots,
  renderVerification,
  sameValue,
  sampleIds,
  type VerifyResult,
} from '../../local/import/verify/index.ts';
import { fixture } from './support/recordedBugzilla.ts';

/**
 * The comparisons of import verification on hand-made records: equal records give nothing,
 * every kind of difference is found, and the normalisations (a 5.2 source and a Tracker target
 * spell the same values differently) never hide a real difference.
 */

const everything = { personalTags: true };
const clone = <T>(value: T): T => structuredClone(value);

/** A real Bugzilla 5.2 bug with every field (flags, see also, time tracking). */
const bugzilla52Bug = (): Record<string, unknown> => clone(fixture('bugzilla-5.2/bug-all-fields-after.json').bugs[0]);

/** The same bug as Tracker spells it: what an import of it should read back as. */
function asTrackerSpellsIt(bug: Record<string, unknown>): Record<string, unknown> {
  const detail = (user: any, id: number) => ({ ...user, id, nick: user.name.split('@')[0] });
  return {
    ...bug,
    // Another token on every read.
    update_token: '1795999999-another-token',
    // Sets in another order.
    cc: [...(bug.cc as string[])].reverse(),
    cc_detail: (bug.cc_detail as any[]).map((user, index) => detail(user, 100 + index)).reverse(),
    // The target numbers users itself and adds `nick`.
    assigned_to_detail: detail(bug.assigned_to_detail, 200),
    creator_detail: detail(bug.creator_detail, 201),
    qa_contact_detail: detail(bug.qa_contact_detail, 202),
    // null for "none" where 5.2 says [] or "".
    alias: null,
    resolution: '',
    keywords: [],
    // Milliseconds on the same instant.
    creation_time: (bug.creation_time as string).replace('Z', '.000Z'),
    // Fields 5.2 does not send at all.
    type: 'defect',
    duplicates: [],
    comment_count: 3,
  };
}

describe('bug fields', () => {
  it('find nothing between a 5.2 bug and the same bug as Tracker spells it', () => {
    const source = bugzilla52Bug();
    expect(compareBugFields(1204, source, asTrackerSpellsIt(source), everything)).toEqual([]);
  });

  it('find every changed field, with the values as each side sent them', () => {
    const source = bugzilla52Bug();
    const target = {
      ...asTrackerSpellsIt(source),
      priority: 'Low',
      cc: ['admin@example.com'],
      last_change_time: '2026-11-23T02:40:35Z',
      depends_on: [1205, 1206],
      qa_contact: null,
      is_open: false,
    };
    expect(compareBugFields(1204, source, target, everything)).toEqual([
      {
        kind: 'bug',
        id: 1204,
        field: 'cc',
        source: ['admin@example.com', 'dev@example.com'],
        target: ['admin@example.com'],
      },
      { kind: 'bug', id: 1204, field: 'depends_on', source: [1205], target: [1205, 1206] },
      { kind: 'bug', id: 1204, field: 'is_open', source: true, target: false },
      {
        kind: 'bug',
        id: 1204,
        field: 'last_change_time',
        source: '2026-11-23T02:40:34Z',
        target: '2026-11-23T02:40:35Z',
      },
      { kind: 'bug', id: 1204, field: 'priority', source: 'Highest', target: 'Low' },
      { kind: 'bug', id: 1204, field: 'qa_contact', source: 'sk_qa_x10001@example.com', target: null },
    ]);
  });

  it('compare users by login and real name, aliases as lists, and a field the target lacks', () => {
    const source = { ...bugzilla52Bug(), alias: ['crash'], cf_browser: 'Firefox' };
    const target = asTrackerSpellsIt(source);
    target.alias = 'crash';
    delete target.cf_browser;
    target.assigned_to_detail = { ...(target.assigned_to_detail as object), real_name: 'Someone Else' };
    expect(compareBugFields(1, source, target, everything).map((difference) => difference.field)).toEqual([
      'assigned_to_detail',
      'cf_browser',
    ]);
    target.alias = 'crash-2';
    expect(compareBugFields(1, source, target, everything).map((difference) => difference.field)).toContain('alias');
  });

  it('compare personal tags only when one login reads both sides, and never the update token', () => {
    const source = { ...bugzilla52Bug(), tags: ['mine'] };
    const target = { ...asTrackerSpellsIt(source), tags: [] };
    expect(compareBugFields(1, source, target, everything).map((difference) => difference.field)).toEqual(['tags']);
    expect(compareBugFields(1, source, target, { personalTags: false })).toEqual([]);
  });

  it('skip Harmony-only fields but not a custom field', () => {
    const source = { ...bugzilla52Bug(), votes: 3, mentors: ['a@example.com'], cf_user_story: 'As a user' };
    const target = { ...asTrackerSpellsIt(bugzilla52Bug()), cf_user_story: 'As an admin' };
    expect(compareBugFields(1, source, target, everything).map((difference) => difference.field)).toEqual([
      'cf_user_story',
    ]);
  });
});

describe('the normalisations', () => {
  it('make spellings of one value equal', () => {
    expect(sameValue(true, 1)).toBe(true);
    expect(sameValue(false, '0')).toBe(true);
    expect(sameValue('', null)).toBe(true);
    expect(sameValue([], null)).toBe(true);
    expect(sameValue(undefined, null)).toBe(true);
    expect(sameValue('1.50', 1.5)).toBe(true);
    expect(sameValue(['b', 'a'], ['a', 'b'])).toBe(true);
    expect(sameValue('2026-11-23T02:40:34Z', '2026-11-23T02:40:34.000Z')).toBe(true);
    expect(sameValue('2026-11-23T02:40:34Z', '2026-11-23T03:40:34+01:00')).toBe(true);
  });

  it('do not hide real differences', () => {
    expect(sameValue(true, 0)).toBe(false);
    expect(sameValue(true, 'true ')).toBe(false);
    expect(sameValue(0, null)).toBe(false);
    expect(sameValue(false, null)).toBe(false);
    expect(sameValue('1', 'true')).toBe(false);
    expect(sameValue('1.5', 1.25)).toBe(false);
    expect(sameValue(['a', 'a'], ['a'])).toBe(false);
    expect(sameValue(['a'], ['a', 'b'])).toBe(false);
    expect(sameValue('2026-11-23T02:40:34Z', '2026-11-23T02:40:35Z')).toBe(false);
    // A date alone is not an instant: compared as written.
    expect(sameValue('2027-01-31', '2027-01-30')).toBe(false);
    expect(sameValue('Fix it', 'fix it')).toBe(false);
  });
});

const flag = (overrides: Partial<FlagRecord> = {}): FlagRecord => ({
  id: 1,
  name: 'needinfo',
  typeId: 2,
  status: '?',
  setter: 'admin@example.com',
  requestee: 'dev@example.com',
  creationDate: '2026-11-23T02:40:33Z',
  modificationDate: '2026-11-23T02:40:33Z',
  ...overrides,
});

describe('flags', () => {
  it('match by type name and content, whatever the ids and order', () => {
    const source = [flag(), flag({ id: 2, requestee: 'qa@example.com' }), flag({ id: 3, name: 'review', status: '+' })];
    const target = [
      flag({ id: 30, name: 'review', status: '+', typeId: 9 }),
      flag({ id: 20, requestee: 'qa@example.com', typeId: 7 }),
      flag({ id: 10, typeId: 7 }),
    ];
    expect(compareFlags({ kind: 'bug', id: 5 }, source, target)).toEqual([]);
  });

  it('find a changed status, setter or requestee as one difference, and missing or extra flags', () => {
    const on = { kind: 'attachment' as const, id: 7 };
    expect(compareFlags(on, [flag()], [flag({ status: '+', requestee: null })])).toEqual([
      {
        kind: 'flag',
        id: 7,
        field: 'attachment flag needinfo',
        source: { status: '?', setter: 'admin@example.com', requestee: 'dev@example.com' },
        target: { status: '+', setter: 'admin@example.com', requestee: null },
      },
    ]);
    expect(compareFlags(on, [flag()], [flag({ setter: 'dev@example.com' })])).toHaveLength(1);
    expect(compareFlags(on, [flag(), flag({ requestee: 'qa@example.com' })], [flag()])).toEqual([
      {
        kind: 'flag',
        id: 7,
        field: 'attachment flag needinfo',
        source: { status: '?', setter: 'admin@example.com', requestee: 'qa@example.com' },
        target: null,
      },
    ]);
    expect(compareFlags({ kind: 'bug', id: 5 }, [], [flag({ name: 'review' })])).toEqual([
      expect.objectContaining({ field: 'bug flag review', source: null }),
    ]);
  });
});

const comment = (overrides: Partial<CommentRecord> = {}): CommentRecord => ({
  id: 10,
  bugId: 5,
  count: 0,
  text: 'Steps to reproduce',
  rawText: 'Steps to reproduce',
  kind: 'normal',
  extraData: null,
  creator: 'admin@example.com',
  creationTime: '2026-11-23T02:40:33Z',
  isPrivate: false,
  isMarkdown: false,
  tags: ['spam', 'needinfo'],
  attachmentId: null,
  ...overrides,
});

describe('comments', () => {
  it('find nothing between equal comments, tags in any order, times in any spelling', () => {
    const source = [comment(), comment({ id: 11, count: 1, tags: [] })];
    const target = [
      comment({ tags: ['needinfo', 'spam'], creationTime: '2026-11-23T02:40:33.000Z' }),
      comment({ id: 11, count: 1, tags: [] }),
    ];
    expect(compareComments(source, target)).toEqual([]);
  });

  it('find each changed property, and comments only one side has', () => {
    const source = [comment(), comment({ id: 11, count: 1 })];
    const target = [
      comment({
        count: 2,
        creator: 'dev@example.com',
        creationTime: '2026-11-23T02:40:34Z',
        text: 'Steps to reproduce.',
        isPrivate: true,
        isMarkdown: true,
        tags: ['spam'],
        attachmentId: 3,
      }),
      comment({ id: 12, count: 1 }),
    ];
    expect(compareComments(source, target).map(({ id, field }) => `${id} ${field}`)).toEqual([
      '10 count',
      '10 creator',
      '10 creation_time',
      '10 text',
      '10 is_private',
      '10 is_markdown',
      '10 tags',
      '10 attachment_id',
      '11 comment',
      '12 comment',
    ]);
    expect(compareComments([comment()], [comment({ isPrivate: true })])).toEqual([
      { kind: 'comment', id: 10, field: 'is_private', source: false, target: true },
    ]);
  });
});

const attachment = (overrides: Partial<AttachmentSummary> = {}): AttachmentSummary => ({
  id: 3,
  bugId: 5,
  fileName: 'fix.patch',
  summary: 'Proposed fix',
  contentType: 'text/plain',
  isPrivate: false,
  isObsolete: false,
  isPatch: true,
  creator: 'admin@example.com',
  creationTime: '2026-11-23T02:40:33Z',
  lastChangeTime: '2026-11-23T02:40:34Z',
  size: 120,
  flags: [flag({ name: 'review' })],
  sha256: 'a'.repeat(64),
  ...overrides,
});

describe('attachments', () => {
  it('find nothing between equal attachments', () => {
    expect(compareAttachments([attachment()], [attachment({ flags: [flag({ name: 'review', id: 99 })] })])).toEqual([]);
  });

  it('find a different body by its checksum, metadata, privacy, obsolescence and flags', () => {
    const target = attachment({
      sha256: 'b'.repeat(64),
      isPrivate: true,
      isObsolete: true,
      contentType: 'text/x-patch',
      flags: [flag({ name: 'review', status: '-' })],
    });
    expect(compareAttachments([attachment()], [target]).map(({ kind, id, field }) => `${kind} ${id} ${field}`)).toEqual(
      [
        'attachment 3 content_type',
        'attachment 3 is_private',
        'attachment 3 is_obsolete',
        'attachment 3 sha256',
        'flag 3 attachment flag review',
      ],
    );
    expect(compareAttachments([attachment()], [attachment({ sha256: null })])).toEqual([
      { kind: 'attachment', id: 3, field: 'sha256', source: 'a'.repeat(64), target: null },
    ]);
  });

  it('leave out a body one side could not send, and list attachments only one side has', () => {
    expect(compareAttachments([attachment()], [attachment({ sha256: null, bodyUnreadable: 'too large' })])).toEqual([]);
    expect(
      compareAttachments([attachment()], [attachment({ id: 4 })]).map(({ id, field }) => `${id} ${field}`),
    ).toEqual(['3 attachment', '4 attachment']);
  });
});

const entry = (when: string, changes: Array<[string, string, string, number?]>, who = 'admin@example.com') => ({
  when,
  who,
  changes: changes.map(([fieldName, removed, added, attachmentId]) => ({
    fieldName,
    removed,
    added,
    attachmentId: attachmentId ?? null,
    commentId: null,
    commentCount: null,
  })),
});

describe('history', () => {
  const recorded = (): HistoryEntryRecord[] =>
    fixture('bugzilla-5.2/bug-history-after.json').bugs[0].history.map((item: any) => ({
      when: item.when,
      who: item.who,
      changes: item.changes.map((change: any) => ({
        fieldName: change.field_name,
        removed: change.removed,
        added: change.added,
        attachmentId: change.attachment_id ?? null,
        commentId: change.comment_id ?? null,
        commentCount: change.comment_count ?? null,
      })),
    }));

  it('find nothing between the same history in another order and spelling', () => {
    const source = recorded();
    const target = recorded()
      .reverse()
      .map((item) => ({ ...item, when: item.when.replace('Z', '.000Z'), changes: [...item.changes].reverse() }));
    // 5.2 writes stored hours (`0.00`) and leaves a space after a flag; another writer may not.
    target[1].changes = target[1].changes.map((change) =>
      change.fieldName === 'remaining_time' ? { ...change, removed: '0' } : change,
    );
    target[0].changes = target[0].changes.map((change) =>
      change.fieldName === 'flagtypes.name' ? { ...change, added: change.added.trim() } : change,
    );
    expect(compareHistory(1204, source, target)).toEqual([]);
  });

  it('compare set changes as sets, and read Harmony database names on the source as API names', () => {
    const source = [
      entry('2026-01-01T00:00:00Z', [
        ['cc', '', 'b@x, a@x'],
        ['bug_status', 'NEW', 'ASSIGNED'],
      ]),
    ];
    const target = [
      entry('2026-01-01T00:00:00Z', [
        ['status', 'NEW', 'ASSIGNED'],
        ['cc', '', 'a@x, b@x'],
      ]),
    ];
    expect(compareHistory(1, source, target)).toEqual([]);
    // Not the other way round: a target answering with database names differs from its clients' Bugzilla.
    expect(compareHistory(1, target, source).map((difference) => difference.field)).toEqual(['bug_status', 'status']);
  });

  it('find a changed value as one difference, and entries only one side has', () => {
    const source = [
      entry('2026-01-01T00:00:00Z', [
        ['priority', 'High', 'Highest'],
        ['attachments.isobsolete', '0', '1', 7],
      ]),
      entry('2026-01-02T00:00:00Z', [['cc', '', 'a@x']]),
    ];
    const target = [
      entry('2026-01-01T00:00:00Z', [
        ['priority', 'High', 'Low'],
        ['attachments.isobsolete', '0', '1', 7],
      ]),
      entry('2026-01-02T00:00:00Z', [['cc', '', 'a@x']], 'dev@x'),
    ];
    expect(compareHistory(1, source, target)).toEqual([
      {
        kind: 'history',
        id: 1,
        field: 'priority',
        source: { when: '2026-01-01T00:00:00Z', field_name: 'priority', removed: 'High', added: 'Highest' },
        target: { when: '2026-01-01T00:00:00Z', field_name: 'priority', removed: 'High', added: 'Low' },
      },
      {
        kind: 'history',
        id: 1,
        field: 'entry',
        source: {
          when: '2026-01-02T00:00:00Z',
          who: 'admin@example.com',
          changes: [{ field_name: 'cc', removed: '', added: 'a@x' }],
        },
        target: null,
      },
      {
        kind: 'history',
        id: 1,
        field: 'entry',
        source: null,
        target: {
          when: '2026-01-02T00:00:00Z',
          who: 'dev@x',
          changes: [{ field_name: 'cc', removed: '', added: 'a@x' }],
        },
      },
    ]);
    const [changed] = compareHistory(
      1,
      [entry('2026-01-01T00:00:00Z', [['attachments.isobsolete', '0', '1', 7]])],
      [entry('2026-01-01T00:00:00Z', [['attachments.isobsolete', '1', '0', 7]])],
    );
    expect(changed.field).toBe('attachment 7 attachments.isobsolete');
  });

  it('tell apart privacy changes of different comments', () => {
    const privacy = (commentId: number): HistoryEntryRecord => ({
      when: '2026-01-01T00:00:00Z',
      who: 'admin@example.com',
      changes: [
        { fieldName: 'longdescs.isprivate', removed: '0', added: '1', attachmentId: null, commentId, commentCount: 1 },
      ],
    });
    expect(compareHistory(1, [privacy(10)], [privacy(10)])).toEqual([]);
    expect(compareHistory(1, [privacy(10)], [privacy(11)]).map((difference) => difference.field)).toEqual([
      'comment 10 longdescs.isprivate',
      'comment 11 longdescs.isprivate',
    ]);
  });
});

describe('a whole bug', () => {
  const snapshot = (): BugSnapshot => ({
    id: 5,
    fields: { id: 5, summary: 'Crash', flags: [] },
    flags: [flag()],
    comments: [comment()],
    history: [entry('2026-01-01T00:00:00Z', [['priority', 'High', 'Highest']])],
    attachments: [attachment()],
  });

  it('is equal to itself, and differs in every kind at once', () => {
    expect(compareSnapshots(5, snapshot(), snapshot(), everything)).toEqual([]);
    const target = snapshot();
    target.fields.summary = 'Crash!';
    target.flags = [flag({ status: '+' })];
    target.comments = [comment({ isPrivate: true })];
    target.attachments = [attachment({ sha256: 'c'.repeat(64) })];
    target.history = [];
    expect(compareSnapshots(5, snapshot(), target, everything).map((difference) => difference.kind)).toEqual([
      'bug',
      'flag',
      'comment',
      'attachment',
      'history',
    ]);
  });

  it('is one difference when only one side has it, none when neither has', () => {
    expect(compareSnapshots(5, snapshot(), null, everything)).toEqual([
      { kind: 'bug', id: 5, field: 'bug', source: true, target: false },
    ]);
    expect(compareSnapshots(5, null, null, everything)).toEqual([]);
  });
});

describe('sampling and the report', () => {
  it('draws distinct ids within the range, in order', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const ids = sampleIds(1000, 50, random);
    expect(ids).toHaveLength(50);
    expect(new Set(ids).size).toBe(50);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.every((id) => id >= 1 && id <= 1000)).toBe(true);
    expect(sampleIds(3, 10)).toEqual([1, 2, 3]);
    expect(sampleIds(0, 10)).toEqual([]);
  });

  it('renders a bounded report', () => {
    const differences = Array.from({ length: 5 }, (_, index) => ({
      kind: 'bug' as const,
      id: 1,
      field: `cf_${index}`,
      source: 'x'.repeat(500),
      target: null,
    }));
    const result: VerifyResult = {
      mode: 'sample',
      checked: 10,
      compared: 8,
      absent: 2,
      unreadable: [{ side: 'source', kind: 'bug', id: 9, reason: '102: not visible' }],
      bugs: [
        { id: 1, differences },
        { id: 2, differences: differences.slice(0, 1) },
        { id: 3, differences: differences.slice(0, 1) },
      ],
      totals: {
        differences: 7,
        bugsWithDifferences: 3,
        byKind: { bug: 7, flag: 0, comment: 0, attachment: 0, history: 0 },
        compared: { comments: 4, attachments: 1, flags: 0, historyEntries: 3 },
      },
      notes: ['Personal tags were not compared.'],
      equal: false,
      seconds: 1.25,
    };
    const text = renderVerification(result, { perBug: 2, bugs: 2, valueChars: 20 });
    expect(text).toContain('7 differences in 3 bugs (bug 7, flag 0, comment 0, attachment 0, history 0)');
    expect(text).toContain('bug 9 on the source: 102: not visible');
    expect(text).toContain('Note: Personal tags were not compared.');
    expect(text).toContain(`field cf_0: source "${'x'.repeat(18)}…, target (none)`);
    expect(text).toContain('… and 3 more differences');
    expect(text).toContain('… and 1 more bugs with differences');
    expect(text).not.toContain('Bug 3:');
    expect(text.split('\n').length).toBeLessThan(15);
  });
});

describe('attachment body checksums', () => {
  /** A source whose attachment route answers from `bodies`, refusing answers over `limit` bytes (600). */
  function fakeSource(bodies: Map<number, Buffer>, limit: number) {
    const seen = { inFlight: 0, most: 0, requests: [] as number[][] };
    const client: BugzillaClient = {
      baseUrl: 'http://source.test/rest',
      connections: 8,
      stats: { requests: 0, retries: 0, bytes: 0 },
      get: async <T>(path: string, query: Record<string, unknown> = {}) => {
        const ids = [Number(path.split('/').at(-1)), ...((query.attachment_ids as number[] | undefined) ?? [])];
        seen.requests.push(ids);
        seen.inFlight++;
        seen.most = Math.max(seen.most, seen.inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.inFlight--;
        if (ids.reduce((sum, id) => sum + bodies.get(id)!.length, 0) > limit)
          throw new BugzillaApiError(600, 'too large', 400, path);
        return {
          attachments: Object.fromEntries(ids.map((id) => [id, { id, data: bodies.get(id)!.toString('base64') }])),
        } as T;
      },
    };
    return { client, seen };
  }
  const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

  it('hash every body, reading groups within the budget and at most `slots` at once', async () => {
    const bodies = new Map(Array.from({ length: 12 }, (_, index) => [index + 1, Buffer.alloc(40, index)]));
    const { client, seen } = fakeSource(bodies, Number.POSITIVE_INFINITY);
    const listed = [...bodies].map(([id, body]) => ({ id, size: body.length }));
    const checksums = await checksumBodies(client, listed, { budgetBytes: 100, slots: new Semaphore(2) });
    expect([...checksums]).toEqual([...bodies].map(([id, body]) => [id, { sha256: sha(body) }]));
    expect(seen.requests.every((ids) => ids.length <= 2)).toBe(true);
    expect(seen.requests).toHaveLength(6);
    expect(seen.most).toBe(2);
  });

  it('split a group the source finds too large, and report a body too large even alone', async () => {
    const bodies = new Map([
      [1, Buffer.alloc(60, 1)],
      [2, Buffer.alloc(60, 2)],
      [3, Buffer.alloc(500, 3)],
    ]);
    const { client } = fakeSource(bodies, 100);
    const listed = [...bodies].map(([id, body]) => ({ id, size: body.length }));
    const checksums = await checksumBodies(client, listed, { budgetBytes: 10_000, slots: new Semaphore(1) });
    expect(checksums.get(1)).toEqual({ sha256: sha(bodies.get(1)!) });
    expect(checksums.get(2)).toEqual({ sha256: sha(bodies.get(2)!) });
    expect(checksums.get(3)).toEqual({ unreadable: expect.stringContaining('too large') });
  });
});
