import { TrackerError } from '../../trackerError.ts';
import type { ProductRecord } from '../catalog/catalog.ts';
import { appliesTo } from '../catalog/flagTypes.ts';
import { inGroup } from '../identity/caller.ts';
import { type Bug, type HistoryChange, MAX_COMMENT_LENGTH, type NewComment, sortedIds } from './bug.ts';
import {
  canSeeBug,
  type FieldPermissionContext,
  hasEditBugs,
  isInsider,
  isTimeTracker,
  mayChangeField,
  mayEditProductBugs,
  whoMayChange,
} from './bugAccess.ts';
import { type BugNames, diffBugs } from './bugChanges.ts';
import type { BugEnvironment } from './bugEnvironment.ts';
import {
  applyListChange,
  checkAlias,
  checkBugReference,
  checkCustomValue,
  checkDate,
  checkHours,
  checkLegalValue,
  checkSeeAlso,
  checkSummary,
  checkUrl,
  checkWhiteboard,
  type ListChange,
  parseListChange,
} from './bugFieldRules.ts';
import { BUG_TYPES, OPERATING_SYSTEMS, PLATFORMS, PRIORITIES, SEVERITIES } from './bugFields.ts';
import { applyFlagInputs, type FlagInput } from './bugFlags.ts';
import { productGroupRules } from './bugGroups.ts';
import {
  canChangeStatus,
  canonicalStatus,
  DUPLICATE,
  isKnownResolution,
  isKnownStatus,
  isOpenStatus,
  RESOLVED,
  UNCONFIRMED,
} from './bugWorkflow.ts';

/**
 * Changing bugs (PUT /rest/bug): the request is applied to a working set of bugs (the bugs
 * named plus every bug a relation touches), so the reverse side of every relation, the
 * duplicate's target and several bugs of one request all change together, and one transaction
 * then writes exactly what changed. A refusal anywhere throws before anything is written.
 */
export type WorkingSet = Map<number, Bug>;

export interface UpdateOutcome {
  comments: NewComment[];
  /** Bugs whose dependencies grew: the writer must prove they form no loop. */
  dependencyRoots: number[];
  /** Bugs newly marked duplicates: the writer must prove the chain of duplicates has no loop. */
  duplicateLinks: Array<{ bugId: number; dupeOf: number }>;
  /** Changes that go to the history but never to `changes` (work_time). */
  extraHistory: Map<number, HistoryChange[]>;
}

const RELATIONS = [
  ['depends_on', 'dependsOn', 'blocks'],
  ['blocks', 'blocks', 'dependsOn'],
  ['regressed_by', 'regressedBy', 'regressions'],
  ['regressions', 'regressions', 'regressedBy'],
] as const;
type RelationKey = 'dependsOn' | 'blocks' | 'regressedBy' | 'regressions';

const present = (value: unknown) => value !== undefined && value !== null;
const asList = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value];

/** Bug ids a request may touch besides its targets, so the caller can load them first. */
export function relatedBugIds(input: Record<string, unknown>, bug: Bug): number[] {
  const ids = new Set<number>();
  for (const [field, key] of RELATIONS) {
    if (input[field] === undefined) continue;
    const change = parseListChange(field, input[field], (value) => checkBugReference(field, value));
    for (const id of [...change.add, ...change.remove, ...(change.set ?? [])]) ids.add(id);
    for (const id of bug[key]) ids.add(id);
  }
  if (present(input.dupe_of) && input.dupe_of !== '') ids.add(checkBugReference('dupe_of', input.dupe_of));
  if (bug.dupeOf !== null) ids.add(bug.dupeOf);
  ids.delete(bug.id);
  return [...ids];
}

function commentInput(
  input: Record<string, unknown>,
): { body: string; isPrivate: boolean; isMarkdown: boolean } | undefined {
  const raw = input.comment;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string')
    return { body: raw, isPrivate: input.comment_is_private === true, isMarkdown: input.is_markdown === true };
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new TrackerError(32000, 'The comment must be an object such as {"body": "..."}.');
  const object = raw as Record<string, unknown>;
  const body = object.body ?? object.comment ?? '';
  if (typeof body !== 'string') throw new TrackerError(32000, 'The comment body must be text.');
  const truthy = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';
  return { body, isPrivate: truthy(object.is_private), isMarkdown: truthy(object.is_markdown) };
}

function aliasInput(value: unknown): string | null {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const change = value as Record<string, unknown>;
    if (change.set !== undefined) return checkAlias(asList(change.set)[0]);
    if (change.add !== undefined && asList(change.add).length > 0) return checkAlias(asList(change.add)[0]);
    return null;
  }
  return checkAlias(Array.isArray(value) ? value[0] : value);
}

export function applyBugUpdate(
  env: BugEnvironment,
  working: WorkingSet,
  original: ReadonlyMap<number, Bug>,
  bugId: number,
  input: Record<string, unknown>,
  names: BugNames,
): UpdateOutcome {
  const { caller, parameters } = env;
  const me = caller.user.id;
  const current = working.get(bugId)!;
  const before = original.get(bugId)!;
  const outcome: UpdateOutcome = { comments: [], dependencyRoots: [], duplicateLinks: [], extraHistory: new Map() };
  const recordOf = (productId: number) => env.products.find((candidate) => candidate.product.id === productId)!;
  const oldRecord = recordOf(current.productId);
  if (!mayEditProductBugs(caller, oldRecord, env.groupName)) {
    throw new TrackerError(109, `You are not allowed to edit bugs of the product ${oldRecord.product.name}.`);
  }
  const next: Bug = structuredClone(current);
  const timeTracker = isTimeTracker(caller, parameters);

  // ---- product, component, version, milestone ----
  let record: ProductRecord = oldRecord;
  if (present(input.product) && String(input.product).trim().toLowerCase() !== oldRecord.product.name.toLowerCase()) {
    const wanted = String(input.product).trim();
    const target = env.products.find((candidate) => candidate.product.name.toLowerCase() === wanted.toLowerCase());
    if (!target || !env.enterableProductIds.has(target.product.id))
      throw new TrackerError(106, `The product '${wanted}' does not exist, or you may not move bugs into it.`);
    record = target;
    next.productId = target.product.id;
    const rules = productGroupRules(caller, target, env.groups);
    next.groupIds = sortedIds([...next.groupIds.filter((groupId) => rules.allows(groupId)), ...rules.mandatory]);
  }
  const pickNamed = <T extends { name: string; isActive: boolean }>(
    values: readonly T[],
    wanted: unknown,
    keep: string,
    what: string,
  ): string => {
    const name = present(wanted) ? String(wanted).trim() : keep;
    const found = values.find((value) => value.name.toLowerCase() === name.toLowerCase());
    if (!found) {
      throw new TrackerError(
        present(wanted) ? 51 : 32000,
        present(wanted)
          ? `There is no ${what} named '${name}' in the product '${record.product.name}'.`
          : `The product '${record.product.name}' has no ${what} named '${keep}': choose one for the bug with '${what === 'milestone' ? 'target_milestone' : what}'.`,
      );
    }
    if (!found.isActive && found.name !== keep)
      throw new TrackerError(51, `The ${what} '${found.name}' of the product '${record.product.name}' is inactive.`);
    return found.name;
  };
  const oldComponentName = oldRecord.components.find((component) => component.id === current.componentId)?.name ?? '';
  if (present(input.component) || record !== oldRecord) {
    const name = pickNamed(record.components, input.component, oldComponentName, 'component');
    next.componentId = record.components.find((component) => component.name === name)!.id;
  }
  if (present(input.version) || record !== oldRecord)
    next.version = pickNamed(record.versions, input.version, current.version, 'version');
  if (present(input.target_milestone) || record !== oldRecord) {
    const keep =
      record !== oldRecord && !record.milestones.some((value) => value.name === current.targetMilestone)
        ? record.product.defaultMilestone
        : current.targetMilestone;
    next.targetMilestone = pickNamed(record.milestones, input.target_milestone, keep, 'milestone');
  }

  // ---- plain fields ----
  if (input.summary !== undefined) next.summary = checkSummary(input.summary);
  if (input.alias !== undefined) next.alias = aliasInput(input.alias);
  if (input.type !== undefined) next.bugType = checkLegalValue('bug type', input.type, BUG_TYPES);
  if (input.priority !== undefined) next.priority = checkLegalValue('priority', input.priority, PRIORITIES);
  if (input.severity !== undefined) next.severity = checkLegalValue('severity', input.severity, SEVERITIES);
  const platform = input.platform ?? input.rep_platform;
  if (platform !== undefined) next.platform = checkLegalValue('platform', platform, PLATFORMS);
  if (input.op_sys !== undefined) next.opSys = checkLegalValue('operating system', input.op_sys, OPERATING_SYSTEMS);
  if (input.url !== undefined) next.url = checkUrl(input.url);
  if (input.whiteboard !== undefined) next.whiteboard = checkWhiteboard(input.whiteboard);
  if (input.is_cc_accessible !== undefined) next.isCcAccessible = input.is_cc_accessible === true;
  if (input.is_creator_accessible !== undefined) next.isCreatorAccessible = input.is_creator_accessible === true;
  // Time tracking from anyone else is ignored, as Bugzilla does.
  if (timeTracker) {
    if (input.deadline !== undefined) next.deadline = checkDate('deadline', input.deadline);
    if (present(input.estimated_time)) next.estimatedTime = checkHours('estimated_time', input.estimated_time);
    if (present(input.remaining_time)) next.remainingTime = checkHours('remaining_time', input.remaining_time);
  }
  for (const field of env.customFields) {
    if (input[field.name] !== undefined && !field.isObsolete)
      next.custom[field.name] = checkCustomValue(field, input[field.name]);
  }
  for (const name of Object.keys(input)) {
    if (name.startsWith('cf_') && !env.customFields.some((field) => field.name === name && !field.isObsolete))
      throw new TrackerError(51, `There is no custom field named '${name}'.`);
  }

  // ---- people ----
  const component = record.components.find((candidate) => candidate.id === next.componentId)!;
  if (input.reset_assigned_to === true) next.assigneeId = component.defaultAssigneeId;
  else if (present(input.assigned_to) && input.assigned_to !== '')
    next.assigneeId = env.userId(String(input.assigned_to), 'assigned_to');
  if (input.reset_qa_contact === true)
    next.qaContactId = parameters.useqacontact === '1' ? component.defaultQaContactId : null;
  else if (input.qa_contact !== undefined)
    next.qaContactId =
      input.qa_contact === null || input.qa_contact === '' ? null : env.userId(String(input.qa_contact), 'qa_contact');
  if (input.cc !== undefined) {
    const change = parseListChange('cc', input.cc, (login) => env.userId(String(login), 'cc'));
    next.ccIds = sortedIds(applyListChange(next.ccIds, change));
  }
  if (input.keywords !== undefined) {
    const change = parseListChange('keywords', input.keywords, (name) => {
      const text = String(name).trim();
      const keyword = env.keywords.find((candidate) => candidate.name.toLowerCase() === text.toLowerCase());
      if (!keyword) throw new TrackerError(51, `There is no keyword named '${text}'.`);
      return keyword.id;
    });
    for (const id of [...change.add, ...(change.set ?? [])]) {
      if (!env.keywords.find((keyword) => keyword.id === id)?.isActive && !current.keywordIds.includes(id))
        throw new TrackerError(51, `The keyword ${names.keyword(id)} is inactive.`);
    }
    next.keywordIds = sortedIds(applyListChange(next.keywordIds, change));
  }
  if (input.groups !== undefined) {
    const rules = productGroupRules(caller, record, env.groups);
    const change = parseListChange('groups', input.groups, (name) => rules.resolve(String(name)));
    const wanted = applyListChange(next.groupIds, change);
    for (const groupId of wanted.filter((id) => !next.groupIds.includes(id))) {
      if (!rules.settable.includes(groupId) && !rules.mandatory.includes(groupId))
        throw new TrackerError(
          120,
          `The group '${names.group(groupId)}' is not allowed to restrict bugs of the product ${record.product.name}.`,
        );
    }
    for (const groupId of next.groupIds.filter((id) => !wanted.includes(id))) {
      if (rules.mandatory.includes(groupId))
        throw new TrackerError(
          120,
          `The group '${names.group(groupId)}' is mandatory for bugs of the product ${record.product.name} and cannot be removed.`,
        );
      if (!rules.settable.includes(groupId) && rules.allows(groupId) && !hasEditBugs(caller, record, env.groupName))
        throw new TrackerError(120, `You may not remove the group '${names.group(groupId)}' from this bug.`);
    }
    next.groupIds = sortedIds(wanted);
  }
  if (input.see_also !== undefined) {
    const change = parseListChange('see_also', input.see_also, checkSeeAlso);
    next.seeAlso = applyListChange(next.seeAlso, change);
  }

  // ---- relations ----
  for (const [field, key] of RELATIONS) {
    if (input[field] === undefined) continue;
    const change: ListChange<number> = parseListChange(field, input[field], (value) => checkBugReference(field, value));
    const wanted = sortedIds(applyListChange(next[key], change));
    if (wanted.includes(bugId)) {
      throw new TrackerError(
        field === 'depends_on' || field === 'blocks' ? 116 : 32000,
        `A bug cannot be in its own ${field} list.`,
      );
    }
    for (const other of wanted.filter((id) => !next[key].includes(id))) requireVisible(env, working, other, field);
    next[key] = wanted;
  }
  if (next.dependsOn.some((other) => next.blocks.includes(other)))
    throw new TrackerError(116, 'A bug cannot both depend on and block the same bug: that would be a dependency loop.');
  if (next.regressedBy.some((other) => next.regressions.includes(other)))
    throw new TrackerError(32000, 'A bug cannot both be regressed by and cause the same bug.');
  if (
    next.dependsOn.some((id) => !current.dependsOn.includes(id)) ||
    next.blocks.some((id) => !current.blocks.includes(id))
  )
    outcome.dependencyRoots.push(bugId);

  // ---- status, resolution, duplicates ----
  const comment = commentInput(input);
  applyWorkflow(env, working, next, current, input, outcome, comment?.body ?? '');

  // ---- flags ----
  if (input.flags !== undefined) {
    const types = env.flagTypes.filter(
      (type) => type.targetType === 'bug' && appliesTo(type, next.productId, next.componentId),
    );
    next.flags = applyFlagInputs(
      next.flags,
      asList(input.flags) as FlagInput[],
      {
        types,
        callerId: me,
        inGroupId: (groupId) => inGroup(caller, env.groupName(groupId) ?? ''),
        userIdOf: (login) => env.findUserId(login),
        now: env.now,
        nextFlagId: env.nextFlagId,
      },
      env.flagTypes.filter((type) => type.targetType === 'bug'),
    );
  }

  // ---- the comment ----
  const dupeNotice = outcome.comments.find((entry) => entry.bugId === bugId && entry.commentType === 'dupe_of');
  if (comment && comment.body.trim() !== '') {
    if (comment.body.length > MAX_COMMENT_LENGTH)
      throw new TrackerError(114, `The comment is too long: at most ${MAX_COMMENT_LENGTH} characters.`);
    if (comment.isPrivate && !isInsider(caller, parameters))
      throw new TrackerError(113, 'You are not allowed to make comments private.');
    if (comment.isMarkdown && parameters.markdown_enabled !== '1')
      throw new TrackerError(140, 'Markdown is disabled on this installation.');
    if (dupeNotice)
      Object.assign(dupeNotice, {
        rawText: comment.body,
        isPrivate: comment.isPrivate,
        isMarkdown: comment.isMarkdown,
      });
    else
      outcome.comments.push({
        bugId,
        creatorId: me,
        rawText: comment.body,
        isPrivate: comment.isPrivate,
        isMarkdown: comment.isMarkdown,
        workTime: 0,
        creationTime: env.now,
      });
  }
  if (timeTracker && present(input.work_time) && Number(input.work_time) !== 0) {
    const hours = checkHours('work_time', input.work_time);
    next.actualTime = Math.round((next.actualTime + hours) * 100) / 100;
    const carrier = outcome.comments.find((entry) => entry.bugId === bugId);
    if (carrier) carrier.workTime = hours;
    else
      outcome.comments.push({
        bugId,
        creatorId: me,
        rawText: '',
        isPrivate: false,
        isMarkdown: false,
        workTime: hours,
        creationTime: env.now,
      });
    outcome.extraHistory.set(bugId, [{ field_name: 'work_time', removed: '', added: hours.toFixed(2) }]);
  }

  // ---- who may do all this ----
  checkPermissions(
    { caller, bug: before, record: oldRecord, groupName: env.groupName, parameters },
    diffBugs(current, next, names),
    me,
    names,
  );

  working.set(bugId, next);
  syncRelations(working, current, next);
  return outcome;
}

function requireVisible(env: BugEnvironment, working: WorkingSet, otherId: number, field: string): Bug {
  const other = working.get(otherId);
  if (!other) throw new TrackerError(101, `Bug #${otherId} (in ${field}) does not exist.`);
  if (!canSeeBug(env.caller, other, env.groupName, env.parameters.or_groups === '1'))
    throw new TrackerError(102, `You are not authorized to access bug #${otherId} (in ${field}).`);
  return other;
}

function applyWorkflow(
  env: BugEnvironment,
  working: WorkingSet,
  next: Bug,
  current: Bug,
  input: Record<string, unknown>,
  outcome: UpdateOutcome,
  _body: string,
): void {
  const me = env.caller.user.id;
  const wantsDupe = present(input.dupe_of) && input.dupe_of !== '';
  const statusInput = present(input.status) ? canonicalStatus(String(input.status), current.status) : undefined;
  const resolutionInput =
    input.resolution === undefined
      ? undefined
      : String(input.resolution ?? '')
          .trim()
          .toUpperCase();

  if (statusInput !== undefined) {
    if (!isKnownStatus(statusInput)) throw new TrackerError(51, `There is no status named '${input.status}'.`);
    if (!canChangeStatus(current.status, statusInput))
      throw new TrackerError(123, `A bug cannot move from ${current.status} to ${statusInput}.`);
  }
  if (resolutionInput !== undefined && resolutionInput !== '' && !isKnownResolution(resolutionInput))
    throw new TrackerError(51, `There is no resolution named '${input.resolution}'.`);

  if (wantsDupe) {
    const target = checkBugReference('dupe_of', input.dupe_of);
    if (target === current.id) throw new TrackerError(118, 'A bug cannot be marked as a duplicate of itself.');
    const targetBug = requireVisible(env, working, target, 'dupe_of');
    if (statusInput !== undefined && isOpenStatus(statusInput))
      throw new TrackerError(32000, 'A bug marked as a duplicate cannot stay open.');
    if (resolutionInput !== undefined && resolutionInput !== DUPLICATE)
      throw new TrackerError(32000, 'A bug marked as a duplicate must have the resolution DUPLICATE.');
    if (next.dupeOf !== target) {
      if (isOpenStatus(next.status)) {
        const status = statusInput ?? (env.parameters.duplicate_or_move_bug_status || RESOLVED);
        if (!canChangeStatus(current.status, status))
          throw new TrackerError(123, `A bug cannot move from ${current.status} to ${status}.`);
        next.status = status;
      } else if (statusInput !== undefined) next.status = statusInput;
      next.resolution = DUPLICATE;
      unlinkDuplicate(working, next);
      next.dupeOf = target;
      const updatedTarget = structuredClone(working.get(target) ?? targetBug);
      updatedTarget.duplicates = sortedIds([...updatedTarget.duplicates, current.id]);
      if (!updatedTarget.ccIds.includes(current.reporterId))
        updatedTarget.ccIds = sortedIds([...updatedTarget.ccIds, current.reporterId]);
      working.set(target, updatedTarget);
      outcome.duplicateLinks.push({ bugId: current.id, dupeOf: target });
      outcome.comments.push({
        bugId: current.id,
        creatorId: me,
        rawText: '',
        isPrivate: false,
        isMarkdown: false,
        workTime: 0,
        creationTime: env.now,
        commentType: 'dupe_of',
        extraData: target,
      });
      outcome.comments.push({
        bugId: target,
        creatorId: me,
        rawText: '',
        isPrivate: false,
        isMarkdown: false,
        workTime: 0,
        creationTime: env.now,
        commentType: 'has_dupe',
        extraData: current.id,
      });
    }
    return;
  }

  if (statusInput !== undefined && statusInput !== current.status) {
    next.status = statusInput;
    if (isOpenStatus(statusInput)) {
      if (resolutionInput) throw new TrackerError(122, `An open bug cannot have a resolution (${resolutionInput}).`);
      next.resolution = '';
      unlinkDuplicate(working, next);
    } else if (isOpenStatus(current.status)) {
      if (!resolutionInput) throw new TrackerError(121, `A bug moved to ${statusInput} needs a resolution.`);
      if (resolutionInput === DUPLICATE)
        throw new TrackerError(119, 'To mark a bug as a duplicate, give the bug it duplicates in dupe_of.');
      next.resolution = resolutionInput;
    } else if (resolutionInput !== undefined) {
      setClosedResolution(working, next, resolutionInput);
    }
  } else if (resolutionInput !== undefined && resolutionInput !== current.resolution) {
    if (isOpenStatus(next.status))
      throw new TrackerError(122, `The bug is open (${next.status}), so it cannot have a resolution.`);
    setClosedResolution(working, next, resolutionInput);
  }
  if (isOpenStatus(next.status) && next.status !== UNCONFIRMED) next.isConfirmed = true;
}

function setClosedResolution(working: WorkingSet, next: Bug, resolution: string): void {
  if (resolution === '') throw new TrackerError(121, `A ${next.status} bug needs a resolution.`);
  if (resolution === DUPLICATE && next.dupeOf === null)
    throw new TrackerError(119, 'To mark a bug as a duplicate, give the bug it duplicates in dupe_of.');
  if (resolution !== DUPLICATE) unlinkDuplicate(working, next);
  next.resolution = resolution;
}

/** Takes a bug off its duplicate target's list when it stops being a duplicate. */
function unlinkDuplicate(working: WorkingSet, next: Bug): void {
  if (next.dupeOf === null) return;
  const target = working.get(next.dupeOf);
  if (target) working.set(target.id, { ...target, duplicates: target.duplicates.filter((id) => id !== next.id) });
  next.dupeOf = null;
}

/** Keeps both sides of every relation in step: A depends on B exactly when B blocks A. */
export function syncRelations(working: WorkingSet, before: Bug, after: Bug): void {
  const pairs: Array<[RelationKey, RelationKey]> = [
    ['dependsOn', 'blocks'],
    ['blocks', 'dependsOn'],
    ['regressedBy', 'regressions'],
    ['regressions', 'regressedBy'],
  ];
  for (const [key, reverse] of pairs) {
    const added = after[key].filter((id) => !before[key].includes(id));
    const removed = before[key].filter((id) => !after[key].includes(id));
    for (const id of added) {
      const other = working.get(id);
      if (!other) throw new TrackerError(101, `Bug #${id} does not exist.`);
      if (!other[reverse].includes(after.id))
        working.set(id, { ...other, [reverse]: sortedIds([...other[reverse], after.id]) });
    }
    for (const id of removed) {
      const other = working.get(id);
      if (other?.[reverse].includes(after.id))
        working.set(id, { ...other, [reverse]: other[reverse].filter((entry) => entry !== after.id) });
    }
  }
}

/** Bugzilla's check_can_change_field for every field this request changes on the bug itself. */
function checkPermissions(
  context: FieldPermissionContext,
  changes: ReturnType<typeof diffBugs>,
  me: number,
  names: BugNames,
): void {
  for (const [field, change] of Object.entries(changes)) {
    if (field === 'flagtypes.name') continue; // flag types have their own grant and request groups
    if (field === 'cc') {
      if (mayChangeField(context, 'cc_others', '0', '1')) continue;
      const myLogin = names.login(me);
      const others = [...change.added.split(', '), ...change.removed.split(', ')].filter(
        (login) => login !== '' && login !== myLogin,
      );
      if (others.length === 0) continue;
      throw new TrackerError(
        115,
        'You may add or remove only yourself on the CC list of this bug; changing others needs the reporter, assignee, QA contact or editbugs rights.',
      );
    }
    const checkedField = field === 'dupe_of' ? 'resolution' : field;
    if (!mayChangeField(context, checkedField, change.removed, change.added)) {
      throw new TrackerError(
        115,
        `You tried to change the ${field} field from '${change.removed}' to '${change.added}', but only ${whoMayChange(field)} may make this change.`,
      );
    }
  }
}
