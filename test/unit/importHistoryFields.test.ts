import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { historyFieldNames } from '../../local/import/destination/historyFields.ts';
import { bugHistorySchema, type HistoryEntryRecord } from '../../local/import/source/index.ts';
import { compareHistory } from '../../local/import/verify/compareHistory.ts';
import { HISTORY_FIELD } from '../../shared/domain/bug/attachment.ts';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { diffBugs, historyChanges } from '../../shared/domain/bug/bugChanges.ts';
import { planCommentPrivacy } from '../../shared/domain/bug/bugComments.ts';
import { storedFieldName } from '../../shared/domain/bug/bugFields.ts';
import { aBug, aFlag, bugEnvironment, FLAG_TYPE, NAMES, updateBug } from './support/bugCatalogue.ts';
import { fixture } from './support/recordedBugzilla.ts';

/**
 * The importer renames a source's history field names to Tracker's (historyFields.ts), and the
 * verifier reads the source's the same way. Tracker's names are taken from the code that records
 * history, not listed here: a bug with every field changed, attachment changes, a comment's
 * privacy and work time.
 */

/** Every field of a bug changed, whatever its type; custom fields and tags are the source's own. */
function everyFieldChanged(bug: Bug): Bug {
  const changed: Record<string, unknown> = { ...bug };
  for (const [key, value] of Object.entries(bug)) {
    if (key === 'flags') changed[key] = [aFlag(1, FLAG_TYPE.review)];
    else if (Array.isArray(value)) changed[key] = [...value, 7];
    else if (value === null) changed[key] = 7;
    else if (typeof value === 'number') changed[key] = value + 1;
    else if (typeof value === 'string') changed[key] = `${value}x`;
    else if (typeof value === 'boolean') changed[key] = !value;
  }
  return changed as unknown as Bug;
}

const trackerHistoryNames = (): Set<string> => {
  const env = bugEnvironment();
  const bug = aBug(1);
  const names = [
    ...historyChanges(diffBugs(bug, everyFieldChanged(bug), NAMES)).map((change) => change.field_name),
    ...Object.values(HISTORY_FIELD),
    ...planCommentPrivacy(
      env.caller,
      env.parameters,
      1,
      [{ id: 5, count: 1, isPrivate: false }],
      new Map([[5, true]]),
    ).history.map((change) => change.field_name),
    ...(updateBug(env, [bug], 1, { work_time: 1.5 }).outcome.extraHistory.get(1) ?? []).map(
      (change) => change.field_name,
    ),
  ];
  return new Set(names);
};
const TRACKER_NAMES = trackerHistoryNames();

const recordedHistory = (file: string): HistoryEntryRecord[] =>
  z
    .array(bugHistorySchema)
    .parse(fixture(file).bugs)
    .flatMap((bug) => bug.history);
const RECORDED_52 = [
  'bugzilla-5.2/bug-history.json',
  'bugzilla-5.2/bug-history-after.json',
  'bugzilla-5.2/bug-history-duplicate.json',
].flatMap(recordedHistory);
const names52 = [...new Set(RECORDED_52.flatMap((entry) => entry.changes.map((change) => change.fieldName)))];

/** Harmony's field names as its /rest/field/bug lists them: the names its history uses. */
const HARMONY_FIELDS = new Set<string>(fixture('harmony/field-bug.json').fields.map((field: any) => field.name));

describe("history field names land on Tracker's", () => {
  it('knows the names Tracker records (the list is derived, so check it found them)', () => {
    expect(TRACKER_NAMES).toContain('status');
    expect(TRACKER_NAMES).toContain('is_cc_accessible');
    expect(TRACKER_NAMES).toContain('longdescs.isprivate');
    expect(TRACKER_NAMES).toContain('work_time');
    expect(TRACKER_NAMES).not.toContain('dupe_of');
  });

  it.each(['bugzilla-5.0', 'bugzilla-5.2'] as const)('%s: every name in the recorded 5.2 history', (kind) => {
    const rename = historyFieldNames(kind);
    expect(names52.length).toBeGreaterThan(5);
    for (const name of names52) {
      expect(TRACKER_NAMES, name).toContain(rename(name));
      expect(rename(name)).toBe(name);
    }
  });

  it("Harmony: every name Tracker records, sent as Harmony's database names it", () => {
    const rename = historyFieldNames('harmony');
    for (const name of TRACKER_NAMES) {
      // Harmony's field list has the name Tracker stores the field by: that is what its history sends.
      expect(HARMONY_FIELDS, name).toContain(storedFieldName(name));
      expect(rename(storedFieldName(name)), name).toBe(name);
    }
  });

  it('Harmony: the recorded 5.2 history, as Harmony names it, reads as 5.2 and Tracker name it', () => {
    const rename = historyFieldNames('harmony');
    for (const name of names52) {
      expect(HARMONY_FIELDS, name).toContain(storedFieldName(name));
      expect(rename(storedFieldName(name))).toBe(name);
    }
  });

  it("the verifier reads Harmony's names as the importer writes them", () => {
    const change = (fieldName: string) => ({
      fieldName,
      removed: 'a',
      added: 'b',
      attachmentId: null,
      commentId: null,
      commentCount: null,
    });
    const history = (names: (name: string) => string): HistoryEntryRecord[] => [
      { when: '2026-01-01T00:00:00Z', who: 'a@x', changes: [...TRACKER_NAMES].map((name) => change(names(name))) },
    ];
    const asTracker = history((name) => name);
    expect(compareHistory(1, history(storedFieldName), asTracker)).toEqual([]);
  });
});
