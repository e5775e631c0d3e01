import { errors } from '../../errors.ts';
import type { ProductRecord } from '../catalog/catalog.ts';
import { appliesTo } from '../catalog/flagTypes.ts';
import { inGroup } from '../identity/caller.ts';
import { characterCount } from '../inputLimits.ts';
import { asList, truthy } from '../inputValues.ts';
import { type Bug, MAX_COMMENT_LENGTH, sortedIds } from './bug.ts';
import {
  type FieldPermissionContext,
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
  checkSeeAlso,
  checkSummary,
  checkUrl,
  checkWhiteboard,
  type ListChange,
  localBugIdOf,
  localBugUrl,
  parseListChange,
  remainingAfter,
} from './bugFieldRules.ts';
import { applyFlagInputs, type FlagInput } from './bugFlags.ts';
import { productGroupRules } from './bugGroups.ts';
import { applyStatusChange } from './bugStatusChange.ts';
import { RELATIONS, requireVisible, syncRelations, type UpdateOutcome, type WorkingSet } from './bugWorkingSet.ts';

/**
 * Changing bugs (PUT /rest/bug): every field of the request is checked and applied to the bug in
 * the working set (bugWorkingSet.ts), status and duplicates by bugStatusChange.ts, and who may
 * change each field is checked last. A refusal anywhere throws before anything is written.
 */

const present = (value: unknown) => value !== undefined && value !== null;

function commentInput(
  input: Record<string, unknown>,
): { body: string; isPrivate: boolean; isMarkdown: boolean } | undefined {
  const raw = input.comment;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string')
    return { body: raw, isPrivate: truthy(input.comment_is_private), isMarkdown: truthy(input.is_markdown) };
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw errors.invalidParameter('The comment must be an object such as {"body": "..."}.');
  const object = raw as Record<string, unknown>;
  const body = object.body ?? object.comment ?? '';
  if (typeof body !== 'string') throw errors.invalidParameter('The comment body must be text.');
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

/**
 * A See Also link to another bug of this installation is mirrored on that bug, as Bugzilla 5.2's
 * add_see_also and remove_see_also do: adding `<urlbase>show_bug.cgi?id=A` to bug B adds B's link
 * to A (A must exist and be visible: 101, 102), and removing it removes B's link from A.
 */
function mirrorLocalSeeAlso(env: BugEnvironment, working: WorkingSet, current: Bug, next: Bug): void {
  const { urlbase } = env.parameters;
  if (!urlbase) return;
  const lower = (urls: readonly string[]) => new Set(urls.map((url) => url.toLowerCase()));
  const before = lower(current.seeAlso);
  const after = lower(next.seeAlso);
  const own = localBugUrl(urlbase, next.id);
  for (const url of next.seeAlso.filter((entry) => !before.has(entry.toLowerCase()))) {
    const otherId = localBugIdOf(url, urlbase);
    if (otherId === null || otherId === next.id) continue;
    const other = requireVisible(env, working, otherId, 'see_also');
    if (!lower(other.seeAlso).has(own.toLowerCase()))
      working.set(otherId, { ...other, seeAlso: [...other.seeAlso, own] });
  }
  for (const url of current.seeAlso.filter((entry) => !after.has(entry.toLowerCase()))) {
    const otherId = localBugIdOf(url, urlbase);
    const other = otherId === null ? undefined : working.get(otherId);
    if (!other || otherId === next.id) continue;
    const remaining = other.seeAlso.filter((entry) => entry.toLowerCase() !== own.toLowerCase());
    if (remaining.length !== other.seeAlso.length) working.set(other.id, { ...other, seeAlso: remaining });
  }
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
    throw errors.bugEditDenied(`You are not allowed to edit bugs of the product ${oldRecord.product.name}.`);
  }
  const next: Bug = structuredClone(current);
  const timeTracker = isTimeTracker(caller, parameters);

  // ---- product, component, version, milestone ----
  let record: ProductRecord = oldRecord;
  if (present(input.product) && String(input.product).trim().toLowerCase() !== oldRecord.product.name.toLowerCase()) {
    const wanted = String(input.product).trim();
    const target = env.products.find((candidate) => candidate.product.name.toLowerCase() === wanted.toLowerCase());
    if (!target || !env.enterableProductIds.has(target.product.id))
      throw errors.invalidProduct(`The product '${wanted}' does not exist, or you may not move bugs into it.`);
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
  ): T => {
    const name = present(wanted) ? String(wanted).trim() : keep;
    const found = values.find((value) => value.name.toLowerCase() === name.toLowerCase());
    if (!found) {
      if (present(wanted)) throw errors.notFoundInProduct(what, name, record.product.name);
      const field = what === 'milestone' ? 'target_milestone' : what;
      throw errors.invalidParameter(
        `The product '${record.product.name}' has no ${what} named '${keep}': choose one for the bug with '${field}'.`,
      );
    }
    if (!found.isActive && found.name !== keep)
      throw errors.notFound(`The ${what} '${found.name}' of the product '${record.product.name}' is inactive.`);
    return found;
  };
  const oldComponentName = oldRecord.components.find((component) => component.id === current.componentId)?.name ?? '';
  if (present(input.component) || record !== oldRecord) {
    const component = pickNamed(record.components, input.component, oldComponentName, 'component');
    next.componentId = component.id;
    // Bugzilla's set_component: a bug that changes component takes on its default CC list (before
    // the request's own CC changes, which may remove them again).
    if (component.id !== current.componentId)
      next.ccIds = sortedIds([...new Set([...next.ccIds, ...component.defaultCcIds])]);
  }
  // Versions and milestones are kept by id (catalog/bugValues.ts), and chosen or kept by name.
  const oldVersionName = oldRecord.versions.find((value) => value.id === current.versionId)?.name ?? '';
  if (present(input.version) || record !== oldRecord)
    next.versionId = pickNamed(record.versions, input.version, oldVersionName, 'version').id;
  if (present(input.target_milestone) || record !== oldRecord) {
    const oldMilestoneName = oldRecord.milestones.find((value) => value.id === current.targetMilestoneId)?.name ?? '';
    const keep =
      record !== oldRecord && !record.milestones.some((value) => value.name === oldMilestoneName)
        ? record.product.defaultMilestone
        : oldMilestoneName;
    next.targetMilestoneId = pickNamed(record.milestones, input.target_milestone, keep, 'milestone').id;
  }

  // ---- plain fields ----
  if (input.summary !== undefined) next.summary = checkSummary(input.summary);
  if (input.alias !== undefined) next.alias = aliasInput(input.alias);
  // The installation's legal values: a disabled one may stay on the bug, not be chosen anew.
  const { values } = env;
  if (input.type !== undefined) next.bugType = values.check('bug_type', 'bug type', input.type, current.bugType);
  if (input.priority !== undefined)
    next.priority = values.check('priority', 'priority', input.priority, current.priority);
  if (input.severity !== undefined)
    next.severity = values.check('bug_severity', 'severity', input.severity, current.severity);
  const platform = input.platform ?? input.rep_platform;
  if (platform !== undefined) next.platform = values.check('rep_platform', 'platform', platform, current.platform);
  if (input.op_sys !== undefined) next.opSys = values.check('op_sys', 'operating system', input.op_sys, current.opSys);
  if (input.url !== undefined) next.url = checkUrl(input.url);
  if (input.whiteboard !== undefined) next.whiteboard = checkWhiteboard(input.whiteboard);
  if (input.is_cc_accessible !== undefined) next.isCcAccessible = truthy(input.is_cc_accessible);
  if (input.is_creator_accessible !== undefined) next.isCreatorAccessible = truthy(input.is_creator_accessible);
  // Time tracking is checked the same for everyone; a change by someone outside the time-tracking
  // group is then refused (115), as Bugzilla 5.2's check_can_change_field does.
  const timeChanges: Array<[string, unknown, unknown]> = [];
  if (input.deadline !== undefined) {
    const deadline = checkDate('deadline', input.deadline);
    timeChanges.push(['deadline', current.deadline ?? '', deadline ?? '']);
    next.deadline = deadline;
  }
  if (present(input.estimated_time)) {
    next.estimatedTime = checkHours('estimated_time', input.estimated_time);
    timeChanges.push(['estimated_time', current.estimatedTime, next.estimatedTime]);
  }
  if (present(input.remaining_time)) {
    next.remainingTime = checkHours('remaining_time', input.remaining_time);
    timeChanges.push(['remaining_time', current.remainingTime, next.remainingTime]);
  }
  const timeChange = timeChanges.find(([, from, to]) => from !== to);
  if (timeChange && !timeTracker) {
    const [field, from, to] = timeChange;
    throw errors.fieldChangeDenied(
      `You tried to change the ${field} field ${from === '' ? '' : `from ${from} `}to ${to}, but only a user with the required permissions may change that field. (Time tracking is for members of the time-tracking group.)`,
    );
  }
  for (const field of env.customFields) {
    if (input[field.name] !== undefined && !field.isObsolete)
      next.custom[field.name] = checkCustomValue(field, input[field.name]);
  }
  for (const name of Object.keys(input)) {
    if (name.startsWith('cf_') && !env.customFields.some((field) => field.name === name && !field.isObsolete))
      throw errors.notFoundByName('custom field', name);
  }

  // ---- people ----
  const component = record.components.find((candidate) => candidate.id === next.componentId)!;
  if (truthy(input.reset_assigned_to)) next.assigneeId = component.defaultAssigneeId;
  else if (present(input.assigned_to) && input.assigned_to !== '')
    next.assigneeId = env.userId(String(input.assigned_to), 'assigned_to');
  if (truthy(input.reset_qa_contact))
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
      if (!keyword) throw errors.notFoundByName('keyword', text);
      return keyword.id;
    });
    for (const id of [...change.add, ...(change.set ?? [])]) {
      if (!env.keywords.find((keyword) => keyword.id === id)?.isActive && !current.keywordIds.includes(id))
        throw errors.notFound(`The keyword ${names.keyword(id)} is inactive.`);
    }
    next.keywordIds = sortedIds(applyListChange(next.keywordIds, change));
  }
  if (input.groups !== undefined) {
    const rules = productGroupRules(caller, record, env.groups);
    const change = parseListChange('groups', input.groups, (name) => rules.resolve(String(name)));
    const wanted = applyListChange(next.groupIds, change);
    const productChanged = record.product.id !== oldRecord.product.id;
    for (const groupId of wanted.filter((id) => !next.groupIds.includes(id))) {
      if (rules.refusesAdding(groupId, productChanged) !== null)
        throw errors.bugGroupNotAllowed(names.group(groupId), record.product.name, bugId);
    }
    for (const groupId of next.groupIds.filter((id) => !wanted.includes(id))) {
      const why = rules.refusesRemoving(groupId, productChanged);
      if (why !== null) throw errors.bugGroupRemovalNotAllowed(names.group(groupId), record.product.name, bugId, why);
    }
    next.groupIds = sortedIds(wanted);
  }
  if (input.see_also !== undefined) {
    // As Bugzilla 5.2's add_see_also and remove_see_also: an empty (or null) URL added is ignored,
    // one removed is matched case-insensitively and never checked, so an invalid one removes nothing.
    const change = parseListChange('see_also', input.see_also, (entry) => String(entry ?? '').trim());
    const checked = (urls: string[]) => urls.filter((url) => url !== '').map(checkSeeAlso);
    const removed = new Set(change.remove.map((url) => url.toLowerCase()));
    const kept = (change.set ? checked(change.set) : next.seeAlso).filter((url) => !removed.has(url.toLowerCase()));
    for (const url of checked(change.add))
      if (!kept.some((existing) => existing.toLowerCase() === url.toLowerCase())) kept.push(url);
    next.seeAlso = kept.filter(
      (url, index) => kept.findIndex((other) => other.toLowerCase() === url.toLowerCase()) === index,
    );
    mirrorLocalSeeAlso(env, working, current, next);
  }

  // ---- relations ----
  for (const [field, key] of RELATIONS) {
    if (input[field] === undefined) continue;
    const change: ListChange<number> = parseListChange(field, input[field], (value) => checkBugReference(field, value));
    const wanted = sortedIds(applyListChange(next[key], change));
    if (wanted.includes(bugId)) {
      const ownListError =
        field === 'depends_on' || field === 'blocks' ? errors.dependencyLoop : errors.invalidParameter;
      throw ownListError(`A bug cannot be in its own ${field} list.`);
    }
    for (const other of wanted.filter((id) => !next[key].includes(id))) requireVisible(env, working, other, field);
    next[key] = wanted;
  }
  if (next.dependsOn.some((other) => next.blocks.includes(other))) throw errors.dependsOnAndBlocks();
  if (next.regressedBy.some((other) => next.regressions.includes(other))) throw errors.regressedByAndRegressions();
  if (
    next.dependsOn.some((id) => !current.dependsOn.includes(id)) ||
    next.blocks.some((id) => !current.blocks.includes(id))
  )
    outcome.dependencyRoots.push(bugId);

  // ---- status, resolution, duplicates ----
  const comment = commentInput(input);
  applyStatusChange(env, working, next, current, input, outcome);
  // The workflow may require a comment for the move (Bugzilla's comment_required_on_change_from).
  env.values.requireComment(current.status, next.status, comment?.body);

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
        // The bug as this update leaves it: a requestee must be able to see it afterwards.
        requestees: { bug: next, requestee: (userId) => env.requestee(userId), groupName: env.groupName, parameters },
        now: env.now,
        nextFlagId: env.nextFlagId,
      },
      env.flagTypes.filter((type) => type.targetType === 'bug'),
    );
  }

  // ---- the comment ----
  const dupeNotice = outcome.comments.find((entry) => entry.bugId === bugId && entry.commentType === 'dupe_of');
  if (comment && comment.body.trim() !== '') {
    if (characterCount(comment.body) > MAX_COMMENT_LENGTH) throw errors.commentOverLength(MAX_COMMENT_LENGTH);
    if (comment.isPrivate && !isInsider(caller, parameters)) throw errors.privateCommentsDenied();
    if (comment.isMarkdown && parameters.markdown_enabled !== '1') throw errors.markdownDisabled();
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
    // Negative hours correct hours reported before (Bugzilla's _check_work_time allows them).
    const hours = checkHours('work_time', input.work_time, { allowNegative: true });
    next.actualTime = Math.round((next.actualTime + hours) * 100) / 100;
    // Bugzilla's add_comment takes the hours off the time remaining, unless the request sets it.
    if (!present(input.remaining_time)) next.remainingTime = remainingAfter(next.remainingTime, hours);
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
    { caller, bug: before, record: oldRecord, groupName: env.groupName, parameters, values: env.values },
    diffBugs(current, next, names),
    me,
    names,
  );

  working.set(bugId, next);
  syncRelations(working, current, next);
  return outcome;
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
      throw errors.fieldChangeDenied(
        'You may add or remove only yourself on the CC list of this bug; changing others needs the reporter, assignee, QA contact or editbugs rights.',
      );
    }
    const checkedField = field === 'dupe_of' ? 'resolution' : field;
    if (!mayChangeField(context, checkedField, change.removed, change.added)) {
      throw errors.fieldChangeDenied(
        `You tried to change the ${field} field from '${change.removed}' to '${change.added}', but only ${whoMayChange(field)} may make this change.`,
      );
    }
  }
}
