import { compareAttachments } from './compareAttachments.ts';
import { compareBugFields } from './compareBug.ts';
import { compareComments } from './compareComments.ts';
import { compareFlags } from './compareFlags.ts';
import { compareHistory } from './compareHistory.ts';
import type { BugSnapshot, CompareOptions, Difference } from './differences.ts';

/**
 * Everything about one bug id on both sides: null where that side has no bug with the id.
 * Differences come in a fixed order (fields, flags, comments, attachments, history).
 */
export function compareSnapshots(
  bugId: number,
  source: BugSnapshot | null,
  target: BugSnapshot | null,
  options: CompareOptions,
): Difference[] {
  if (source === null && target === null) return [];
  if (source === null || target === null)
    return [{ kind: 'bug', id: bugId, field: 'bug', source: source !== null, target: target !== null }];
  return [
    ...compareBugFields(bugId, source.fields, target.fields, options),
    ...compareFlags({ kind: 'bug', id: bugId }, source.flags, target.flags),
    ...compareComments(source.comments, target.comments),
    ...compareAttachments(source.attachments, target.attachments),
    ...compareHistory(bugId, source.history, target.history),
  ];
}
