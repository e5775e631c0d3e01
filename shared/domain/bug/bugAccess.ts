import type { GroupControl, ProductRecord } from '../catalog/catalog.ts';
import type { FieldValues } from '../catalog/fieldValues.ts';
import { type Caller, inGroup, isLoggedIn } from '../identity/caller.ts';
import type { Parameters } from '../instance/parameters.ts';
import type { Bug } from './bug.ts';
import { UNCONFIRMED } from './bugWorkflow.ts';

/**
 * Who may see a bug and who may change which of its fields, as Bugzilla 5.2 decides it: bug
 * groups (with the reporter, CC, assignee and QA exceptions), product group controls (canedit,
 * editbugs, canconfirm) and the reporter/assignee/QA rules for unprivileged users.
 */
const EDITBUGS_GROUP = 'editbugs';
const CANCONFIRM_GROUP = 'canconfirm';

export type GroupName = (id: number) => string | undefined;

const memberOf = (caller: Caller, groupName: GroupName) => (groupId: number) => {
  const name = groupName(groupId);
  return name !== undefined && inGroup(caller, name);
};

/** A product-level privilege: the global group, or a group whose control on the product grants it. */
function hasProductPrivilege(
  caller: Caller,
  record: ProductRecord,
  groupName: GroupName,
  global: string,
  flag: keyof Pick<GroupControl, 'editBugs' | 'canConfirm'>,
): boolean {
  if (!isLoggedIn(caller)) return false;
  if (inGroup(caller, global)) return true;
  const member = memberOf(caller, groupName);
  return record.groupControls.some((control) => control[flag] && member(control.groupId));
}

export const hasEditBugs = (caller: Caller, record: ProductRecord, groupName: GroupName): boolean =>
  hasProductPrivilege(caller, record, groupName, EDITBUGS_GROUP, 'editBugs');

export const hasCanConfirm = (caller: Caller, record: ProductRecord, groupName: GroupName): boolean =>
  hasEditBugs(caller, record, groupName) ||
  hasProductPrivilege(caller, record, groupName, CANCONFIRM_GROUP, 'canConfirm');

/** Bugzilla's canedit control: only members of every such group may change the product's bugs at all. */
export function mayEditProductBugs(caller: Caller, record: ProductRecord, groupName: GroupName): boolean {
  if (!isLoggedIn(caller)) return false;
  const member = memberOf(caller, groupName);
  return record.groupControls.every((control) => !control.canEdit || member(control.groupId));
}

export const isTimeTracker = (caller: Caller, parameters: Parameters): boolean =>
  isLoggedIn(caller) && !!parameters.timetrackinggroup && inGroup(caller, parameters.timetrackinggroup);

export const isInsider = (caller: Caller, parameters: Parameters): boolean =>
  isLoggedIn(caller) && !!parameters.insidergroup && inGroup(caller, parameters.insidergroup);

/**
 * Bugzilla's can_see_bug: a bug in no group is public; otherwise the caller must be in every one of
 * its groups (any one with or_groups), unless they are its assignee or QA contact, its reporter
 * while the bug is creator-accessible, or on its CC list while it is CC-accessible.
 */
export function canSeeBug(caller: Caller, bug: Bug, groupName: GroupName, orGroups = false): boolean {
  if (bug.groupIds.length === 0) return true;
  if (!isLoggedIn(caller)) return false;
  const me = caller.user.id;
  if (bug.assigneeId === me || bug.qaContactId === me) return true;
  if (bug.reporterId === me && bug.isCreatorAccessible) return true;
  if (bug.isCcAccessible && bug.ccIds.includes(me)) return true;
  const member = memberOf(caller, groupName);
  return orGroups ? bug.groupIds.some(member) : bug.groupIds.every(member);
}

/** The fields that only the time-tracking group may change (Bugzilla's TIMETRACKING_FIELDS). */
const TIME_TRACKING_FIELDS: readonly string[] = ['estimated_time', 'remaining_time', 'deadline', 'work_time'];

export interface FieldPermissionContext {
  caller: Caller;
  /** The bug as it was before this request. */
  bug: Bug;
  record: ProductRecord;
  groupName: GroupName;
  parameters: Parameters;
  /** Which statuses are open (the installation's workflow). */
  values: Pick<FieldValues, 'isOpen'>;
}

/**
 * Whether the caller may make this change to one field of the bug. Every field change passes
 * through here (except comments, CC and flags, which have rules of their own), so a refusal is
 * one clear error naming the field and nothing of the request is written.
 */
export function mayChangeField(
  context: FieldPermissionContext,
  field: string,
  removed: string,
  added: string,
): boolean {
  const { caller, bug, record, groupName, parameters } = context;
  const isOpenStatus = (status: string) => context.values.isOpen(status);
  if (!isLoggedIn(caller)) return false;
  if (removed === added) return true;
  if (TIME_TRACKING_FIELDS.includes(field)) return isTimeTracker(caller, parameters);
  if (hasEditBugs(caller, record, groupName)) return true;
  // Bugzilla's _changes_everconfirmed: what counts is whether the bug was ever confirmed, not its
  // current status, so a never-confirmed bug reopened (RESOLVED → CONFIRMED) is confirmed by the
  // move; and moving a confirmed bug back to UNCONFIRMED is unconfirming it. Both need canconfirm,
  // even from the assignee.
  const changesConfirmation =
    field === 'status' && (bug.isConfirmed ? added === UNCONFIRMED : isOpenStatus(added) && added !== UNCONFIRMED);
  if (changesConfirmation || field === 'is_confirmed') return hasCanConfirm(caller, record, groupName);
  const me = caller.user.id;
  if (bug.assigneeId === me) return true;
  if (parameters.useqacontact === '1' && bug.qaContactId === me) return true;
  // From here on the caller is the reporter or nobody in particular.
  if (['assigned_to', 'qa_contact', 'target_milestone', 'groups'].includes(field)) return false;
  if (field === 'priority' && parameters.letsubmitterchoosepriority !== '1') return false;
  if (field === 'status' && isOpenStatus(removed) && isOpenStatus(added)) return false;
  return bug.reporterId === me;
}

/** Who may change a field, for the error message (Bugzilla names the people who could). */
export function whoMayChange(field: string): string {
  if (TIME_TRACKING_FIELDS.includes(field)) return 'members of the time-tracking group';
  if (['assigned_to', 'qa_contact', 'target_milestone', 'groups'].includes(field))
    return "the bug's assignee, its QA contact or a user with editbugs rights";
  if (field === 'is_confirmed') return 'a user with editbugs or canconfirm rights';
  if (field === 'status') return "the bug's assignee, its QA contact or a user with editbugs or canconfirm rights";
  return "the bug's reporter, assignee or QA contact, or a user with editbugs rights";
}
