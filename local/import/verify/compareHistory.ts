import { harmonyHistoryField } from '../destination/historyFields.ts';
import type { HistoryChangeRecord, HistoryEntryRecord } from '../source/index.ts';
import type { Difference } from './differences.ts';
import { canonical } from './normalise.ts';

/**
 * A bug's history: entries matched by when (TIMES) and who, and within an entry the changes as
 * a multiset (Bugzilla lists an entry's changes in field-id order, which is the installation's
 * own). What is left unmatched is paired by field, so a changed value reads as one difference.
 */

/**
 * DATABASE_NAMES: Harmony/BMO names history fields by their database columns (`bug_status`,
 * `short_desc`, ...), where Bugzilla 5.x and Tracker use the API names; the importer's renaming
 * (historyFields.ts) applies. Applied to the source side only, whatever the source (5.x names are
 * left alone): a target that answered with a database name would differ from what its clients
 * expect, and that is a real difference.
 */

/**
 * SET_CHANGES: a change to a set field lists what was removed and added joined with ", ", in
 * the order of the installation's rows (5.2 even leaves a trailing space after a flag): those
 * compare as sorted lists of trimmed items (SETS).
 */
const SET_FIELDS = new Set([
  'alias',
  'blocks',
  'cc',
  'depends_on',
  'flagtypes.name',
  'groups',
  'keywords',
  'regressed_by',
  'regressions',
  'see_also',
]);

/**
 * HOURS: Bugzilla 5.2 writes time-tracking hours in history as stored, `0.00` and `3.00` next to
 * `4.5`; these compare as numbers (NUMBERS), only for the hour fields.
 */
const HOUR_FIELDS = new Set(['estimated_time', 'remaining_time', 'work_time', 'actual_time']);
const hours = (text: string) => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? String(Number(text)) : text);

interface Change {
  field: string;
  attachmentId: number | null;
  commentId: number | null;
  removed: string;
  added: string;
  /** As sent, for the report. */
  sent: HistoryChangeRecord;
}

const changeOf = (change: HistoryChangeRecord, fromSource: boolean): Change => {
  const field = fromSource ? harmonyHistoryField(change.fieldName) : change.fieldName;
  const values = (text: string) =>
    HOUR_FIELDS.has(field)
      ? hours(text)
      : SET_FIELDS.has(field)
        ? text
            .split(', ')
            .map((item) => item.trim())
            .filter((item) => item !== '')
            .sort()
            .join(', ')
        : text;
  return {
    field,
    attachmentId: change.attachmentId,
    commentId: change.commentId,
    removed: values(change.removed),
    added: values(change.added),
    sent: change,
  };
};

/** A change as compared; `commentCount` (the position of a comment whose privacy changed) follows from the id. */
const keyOf = (change: Change) =>
  JSON.stringify([change.field, change.attachmentId, change.commentId, change.removed, change.added]);
/** Where a change applies: the field, of an attachment or comment when it names one. */
const slotOf = (change: Change) =>
  change.attachmentId !== null
    ? `attachment ${change.attachmentId} ${change.field}`
    : change.commentId !== null
      ? `comment ${change.commentId} ${change.field}`
      : change.field;

interface Entry {
  when: string;
  who: string;
  changes: Change[];
  /** As sent, for the report. */
  original: HistoryEntryRecord[];
}

function entriesOf(history: readonly HistoryEntryRecord[], fromSource: boolean): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  for (const entry of history) {
    const key = JSON.stringify([canonical(entry.when), entry.who]);
    const known = entries.get(key) ?? { when: entry.when, who: entry.who, changes: [], original: [] };
    known.changes.push(...entry.changes.map((change) => changeOf(change, fromSource)));
    known.original.push(entry);
    entries.set(key, known);
  }
  return entries;
}

/** A change as the wire names it, for the report. */
const wire = (change: HistoryChangeRecord) => ({
  field_name: change.fieldName,
  removed: change.removed,
  added: change.added,
  ...(change.attachmentId !== null ? { attachment_id: change.attachmentId } : {}),
  ...(change.commentId !== null ? { comment_id: change.commentId } : {}),
});
const shown = (entry: Entry) => ({
  when: entry.when,
  who: entry.who,
  changes: entry.original.flatMap((original) => original.changes.map(wire)),
});
const shownChange = (when: string, change: Change | undefined) => (change ? { when, ...wire(change.sent) } : null);

export function compareHistory(
  bugId: number,
  source: readonly HistoryEntryRecord[],
  target: readonly HistoryEntryRecord[],
): Difference[] {
  const left = entriesOf(source, true);
  const right = entriesOf(target, false);
  const differences: Difference[] = [];
  for (const [key, entry] of left) {
    const other = right.get(key);
    if (!other) {
      differences.push({ kind: 'history', id: bugId, field: 'entry', source: shown(entry), target: null });
      continue;
    }
    const unmatched = [...other.changes];
    const leftOver: Change[] = [];
    for (const change of entry.changes) {
      const match = unmatched.findIndex((candidate) => keyOf(candidate) === keyOf(change));
      if (match >= 0) unmatched.splice(match, 1);
      else leftOver.push(change);
    }
    for (const slot of [...new Set([...leftOver, ...unmatched].map(slotOf))].sort()) {
      const mine = leftOver.filter((change) => slotOf(change) === slot);
      const theirs = unmatched.filter((change) => slotOf(change) === slot);
      for (let index = 0; index < Math.max(mine.length, theirs.length); index++)
        differences.push({
          kind: 'history',
          id: bugId,
          field: slot,
          source: shownChange(entry.when, mine[index]),
          target: shownChange(other.when, theirs[index]),
        });
    }
  }
  for (const [key, entry] of right)
    if (!left.has(key))
      differences.push({ kind: 'history', id: bugId, field: 'entry', source: null, target: shown(entry) });
  return differences;
}
