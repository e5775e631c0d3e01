/**
 * Criteria over a bug's history (changedbefore/after/from/to/by, changedrange): each field's
 * changes as the index keeps them, and the bug's creation for `[Bug creation]`. A caller searches
 * only the changes they could read in the bug's history (privateActivity.ts): outside the insider
 * group none about an attachment that is private now (or about any attachment of a bug whose list
 * is not known yet), none of a comment's privacy; outside the time-tracking group none of a
 * time-tracking field, even through `*`.
 */
import { isInsiderActivity, isTimeTrackingField } from '../../bug/privateActivity.ts';
import type { IndexedChange } from '../index/columns.ts';
import { HISTORY_NAMES } from '../query/searchFields.ts';
import { userIdTest } from './criterionNames.ts';
import { bool, type RowTest, type SearchEnvironment, TRUE } from './searchEnvironment.ts';
import { parseSearchTime, textMatcher } from './valueMatchers.ts';

const DATE_ONLY = /^\d{4}-\d{1,2}-\d{1,2}$/;
const LAST_MS_OF_DAY = 86_400_000 - 1;

/** A history criterion's test of a row; `field` is a column name, or `*` for any field. */
export function changeTest(env: SearchEnvironment, field: string, op: string, value: string): RowTest {
  const { index } = env;
  const creation = field === '[Bug creation]' || field === 'creation_ts';
  const historyName = HISTORY_NAMES[field] ?? field;
  const matchesName = field === '*' ? () => true : (name: string) => name === historyName || name === field;
  /** Whether one of the slot's changes of the field, among those this caller may see, passes `test`. */
  const anyChange = (slot: number, test: (change: IndexedChange) => boolean): boolean => {
    const privateAttachments = index.privateAttachmentsAt(slot);
    return index.history.some(
      slot,
      (change) =>
        matchesName(change.field) &&
        (env.timeTracker || !isTimeTrackingField(change.field)) &&
        (env.insider || !isInsiderActivity(change.field, change.attachmentId, privateAttachments)) &&
        test(change),
    );
  };
  if (op === 'changedrange') {
    const [from, to, wanted] = value.split('|');
    const start = from ? parseSearchTime(from, env.now) : -Infinity;
    // A date without a time is the whole of that day, as Search.pm appends 23:59:59 to it.
    const end = to ? parseSearchTime(to, env.now) + (DATE_ONLY.test(to.trim()) ? LAST_MS_OF_DAY : 0) : Infinity;
    const inRange = (ms: number) => ms >= start && ms <= end;
    const added = wanted ? textMatcher('equals', wanted) : () => true;
    return (slot) => {
      if ((creation || field === '*') && !wanted && inRange(index.creationTime[slot])) return TRUE;
      return bool(anyChange(slot, (change) => inRange(change.at) && added(change.added)));
    };
  }
  if (creation && (op === 'changedbefore' || op === 'changedafter')) {
    const at = parseSearchTime(value, env.now);
    return (slot) => bool(op === 'changedbefore' ? index.creationTime[slot] < at : index.creationTime[slot] > at);
  }
  switch (op) {
    case 'changedbefore':
    case 'changedafter': {
      const at = parseSearchTime(value, env.now);
      return (slot) => bool(anyChange(slot, (change) => (op === 'changedbefore' ? change.at < at : change.at > at)));
    }
    case 'changedfrom':
    case 'changedto': {
      const lower = value.toLowerCase();
      const hit = (text: string) => text.toLowerCase() === lower || text.toLowerCase().split(', ').includes(lower);
      return (slot) => bool(anyChange(slot, (change) => hit(op === 'changedfrom' ? change.removed : change.added)));
    }
    default: {
      const who = userIdTest(env, 'equals', value);
      return (slot) => bool(anyChange(slot, (change) => who(change.who)));
    }
  }
}
