import { flagText } from '../changeReport.ts';
import type { Bug, FieldChanges, HistoryChange, HistoryEntry } from './bug.ts';
import { flagLabel } from './bugFlags.ts';

/**
 * What changed between two states of a bug, in Bugzilla's words: API field names (plus
 * `flagtypes.name`), names instead of ids, lists as the removed and added items joined by ", ",
 * times as Bugzilla prints them. The same report feeds `changes` and the history.
 */
export interface BugNames {
  product(id: number): string;
  component(id: number): string;
  version(id: number): string;
  milestone(id: number): string;
  login(id: number | null): string;
  keyword(id: number): string;
  group(id: number): string;
  flagType(id: number): string;
}

/** Bugzilla keeps times as decimals with two places; the new value is reported as given. */
const storedTime = (value: number) => value.toFixed(2);
const givenTime = (value: number) => String(value);

/** A list field's change: what left and what came, each joined by ", "; undefined when nothing moved. */
export function listChange(
  before: readonly string[],
  after: readonly string[],
): { removed: string; added: string } | undefined {
  const removed = before.filter((item) => !after.includes(item));
  const added = after.filter((item) => !before.includes(item));
  if (removed.length === 0 && added.length === 0) return undefined;
  return { removed: removed.join(', '), added: added.join(', ') };
}

export function diffBugs(before: Bug, after: Bug, names: BugNames): FieldChanges {
  const changes: FieldChanges = {};
  const scalar = (field: string, removed: string, added: string) => {
    if (removed !== added) changes[field] = { removed, added };
  };
  const list = (field: string, removed: readonly string[], added: readonly string[]) => {
    const change = listChange(removed, added);
    if (change) changes[field] = change;
  };
  scalar('product', names.product(before.productId), names.product(after.productId));
  // A bug moved to another product's component of the same name still changed component, and
  // Bugzilla reports it (set_component compares ids, then reports the names).
  if (before.componentId !== after.componentId)
    changes.component = { removed: names.component(before.componentId), added: names.component(after.componentId) };
  scalar('summary', before.summary, after.summary);
  scalar('alias', before.alias ?? '', after.alias ?? '');
  scalar('status', before.status, after.status);
  scalar('resolution', before.resolution, after.resolution);
  // Bugzilla's everconfirmed, which its API calls is_confirmed (Bug.pm FIELD_MAP), as "0"/"1".
  scalar('is_confirmed', flagText(before.isConfirmed), flagText(after.isConfirmed));
  scalar('version', names.version(before.versionId), names.version(after.versionId));
  scalar('target_milestone', names.milestone(before.targetMilestoneId), names.milestone(after.targetMilestoneId));
  scalar('type', before.bugType, after.bugType);
  scalar('priority', before.priority, after.priority);
  scalar('severity', before.severity, after.severity);
  scalar('platform', before.platform, after.platform);
  scalar('op_sys', before.opSys, after.opSys);
  scalar('assigned_to', names.login(before.assigneeId), names.login(after.assigneeId));
  scalar('qa_contact', names.login(before.qaContactId), names.login(after.qaContactId));
  scalar('url', before.url, after.url);
  scalar('whiteboard', before.whiteboard, after.whiteboard);
  scalar('deadline', before.deadline ?? '', after.deadline ?? '');
  if (before.estimatedTime !== after.estimatedTime)
    changes.estimated_time = { removed: storedTime(before.estimatedTime), added: givenTime(after.estimatedTime) };
  if (before.remainingTime !== after.remainingTime)
    changes.remaining_time = { removed: storedTime(before.remainingTime), added: givenTime(after.remainingTime) };
  scalar('is_cc_accessible', flagText(before.isCcAccessible), flagText(after.isCcAccessible));
  scalar('is_creator_accessible', flagText(before.isCreatorAccessible), flagText(after.isCreatorAccessible));
  scalar(
    'dupe_of',
    before.dupeOf === null ? '' : String(before.dupeOf),
    after.dupeOf === null ? '' : String(after.dupeOf),
  );
  list(
    'cc',
    before.ccIds.map((id) => names.login(id)),
    after.ccIds.map((id) => names.login(id)),
  );
  list('keywords', before.keywordIds.map(names.keyword), after.keywordIds.map(names.keyword));
  list('groups', before.groupIds.map(names.group), after.groupIds.map(names.group));
  list('depends_on', before.dependsOn.map(String), after.dependsOn.map(String));
  list('blocks', before.blocks.map(String), after.blocks.map(String));
  list('regressed_by', before.regressedBy.map(String), after.regressedBy.map(String));
  list('regressions', before.regressions.map(String), after.regressions.map(String));
  list('see_also', before.seeAlso, after.seeAlso);
  const label = (flag: Bug['flags'][number]) => flagLabel(flag, names.flagType, (id) => names.login(id));
  list('flagtypes.name', before.flags.map(label), after.flags.map(label));
  const customNames = new Set([...Object.keys(before.custom), ...Object.keys(after.custom)]);
  for (const name of [...customNames].sort()) {
    const was = before.custom[name];
    const now = after.custom[name];
    if (Array.isArray(was) || Array.isArray(now))
      list(name, (was as string[] | undefined) ?? [], (now as string[] | undefined) ?? []);
    else
      scalar(
        name,
        was === undefined || was === null ? '' : String(was),
        now === undefined || now === null ? '' : String(now),
      );
  }
  return changes;
}

/** Fields that appear in `changes` but that Bugzilla keeps out of the history (the duplicate link lives elsewhere). */
const NOT_IN_HISTORY = new Set(['dupe_of']);

export function historyChanges(changes: FieldChanges): HistoryChange[] {
  return Object.entries(changes)
    .filter(([field]) => !NOT_IN_HISTORY.has(field))
    .map(([field_name, change]) => ({ field_name, removed: change.removed, added: change.added }));
}

/**
 * The history as Bugzilla shows it: entries in time order, and the changes one user made within
 * one second merged into one entry, whichever writes they came from.
 */
export function mergeHistory(
  entries: readonly HistoryEntry[],
): Array<{ when: string; whoId: number; changes: HistoryChange[] }> {
  const merged: Array<{ when: string; whoId: number; changes: HistoryChange[] }> = [];
  for (const entry of entries) {
    const last = merged[merged.length - 1];
    if (last && last.when === entry.when && last.whoId === entry.whoId) last.changes.push(...entry.changes);
    else merged.push({ when: entry.when, whoId: entry.whoId, changes: [...entry.changes] });
  }
  return merged;
}
