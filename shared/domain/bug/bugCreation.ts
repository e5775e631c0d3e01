import { errors } from '../../errors.ts';
import { valueNamed } from '../catalog/bugValues.ts';
import { PLACEHOLDER_MILESTONE } from '../catalog/catalog.ts';
import { appliesTo } from '../catalog/flagTypes.ts';
import { inGroup } from '../identity/caller.ts';
import { characterCount } from '../inputLimits.ts';
import { asList, truthy } from '../inputValues.ts';
import { type Bug, MAX_COMMENT_LENGTH, type NewComment, sortedIds } from './bug.ts';
import { hasCanConfirm, hasEditBugs, isInsider, isTimeTracker } from './bugAccess.ts';
import type { BugEnvironment } from './bugEnvironment.ts';
import {
  checkAlias,
  checkBugReference,
  checkCustomValue,
  checkDate,
  checkHours,
  checkSeeAlso,
  checkSummary,
  checkUrl,
  checkWhiteboard,
  customFieldDefault,
} from './bugFieldRules.ts';
import { DEFAULT_BUG_TYPE, DEFAULT_PRIORITY, DEFAULT_SEVERITY } from './bugFields.ts';
import { applyFlagInputs, type FlagInput } from './bugFlags.ts';
import { productGroupRules } from './bugGroups.ts';
import { NO_RESOLUTION, UNCONFIRMED } from './bugWorkflow.ts';

/**
 * Filing a bug (POST /rest/bug): every field a Bugzilla 5.2 client sends, checked in Bugzilla's
 * order with its error codes, defaults from the component and product, the initial status from
 * the caller's rights, and the description as comment 0.
 */
const CREATE_FIELDS: readonly string[] = [
  'product',
  'component',
  'summary',
  'version',
  'description',
  'op_sys',
  'platform',
  'rep_platform',
  'priority',
  'severity',
  'type',
  'alias',
  'assigned_to',
  'qa_contact',
  'cc',
  'status',
  'resolution',
  'target_milestone',
  'keywords',
  'groups',
  'blocks',
  'depends_on',
  'regressed_by',
  'regressions',
  'see_also',
  'url',
  'whiteboard',
  'deadline',
  'estimated_time',
  'remaining_time',
  'comment_is_private',
  'is_markdown',
  'flags',
  'is_cc_accessible',
  'is_creator_accessible',
  'filed_via',
  'comment_tags',
];

/**
 * Sent by a great deal of Bugzilla client code and accepted by 5.2, whose validator ignores the
 * value: the reporter of a new bug is always the caller.
 */
const IGNORED_ON_CREATE: readonly string[] = ['creator', 'reporter'];

export interface NewBugPlan {
  bug: Bug;
  description: NewComment;
}

const present = (value: unknown) =>
  value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
/** Like asList, but a string of spaces is no value either, as for every field of a new bug (`present`). */
const presentList = (value: unknown): unknown[] => (present(value) ? asList(value) : []);

const mustEnter = (what: string) => errors.missingParameter(`You must select/enter ${what}.`);

function required(input: Record<string, unknown>, field: string, what: string): string {
  const value = input[field];
  if (!present(value)) throw mustEnter(what);
  return String(Array.isArray(value) ? value[0] : value).trim();
}

export function planNewBug(
  env: BugEnvironment,
  input: Record<string, unknown>,
  id: number,
  filedVia: string,
): NewBugPlan {
  const { caller, parameters } = env;
  const me = caller.user.id;
  const unknown = Object.keys(input).filter(
    (name) => !CREATE_FIELDS.includes(name) && !IGNORED_ON_CREATE.includes(name) && !name.startsWith('cf_'),
  );
  if (unknown.length > 0) throw errors.unknownField(`The parameter '${unknown[0]}' is not a field of a new bug.`);

  // Product first: every other value is checked against it.
  const productName = required(input, 'product', 'a product');
  const record = env.products.find((candidate) => candidate.product.name.toLowerCase() === productName.toLowerCase());
  if (!record || !env.enterableProductIds.has(record.product.id)) {
    throw errors.invalidProduct(`The product '${productName}' does not exist, or you may not file bugs in it.`);
  }
  if (!record.product.isActive)
    throw errors.invalidProduct(`The product '${record.product.name}' is closed for new bugs.`);
  const groupName = env.groupName;

  if (!present(input.component)) throw errors.invalidComponent('You must select a component for the bug.');
  const componentName = String(input.component).trim();
  const component = record.components.find((candidate) => candidate.name.toLowerCase() === componentName.toLowerCase());
  if (!component?.isActive) throw errors.notFoundInProduct('component', componentName, record.product.name);

  const summary = checkSummary(input.summary);
  const versionName = required(input, 'version', 'a version');
  const version = record.versions.find(
    (candidate) => candidate.name.toLowerCase() === versionName.toLowerCase() && candidate.isActive,
  );
  if (!version) throw errors.notFoundInProduct('version', versionName, record.product.name);

  const platformInput = input.platform ?? input.rep_platform ?? (parameters.defaultplatform || undefined);
  if (!present(input.op_sys) && !parameters.defaultopsys) throw mustEnter('an operating system (op_sys)');
  if (!present(platformInput)) throw mustEnter('a platform');
  // Legal values are the installation's (catalog/fieldValues.ts): a disabled one is refused.
  const { values } = env;
  const opSys = values.check(
    'op_sys',
    'operating system',
    present(input.op_sys) ? input.op_sys : parameters.defaultopsys,
  );
  const platform = values.check('rep_platform', 'platform', platformInput);

  const editbugs = hasEditBugs(caller, record, groupName);
  const mayChoosePriority = editbugs || parameters.letsubmitterchoosepriority === '1';
  // The defaults are checked like op_sys and platform: a value stored before the parameters were
  // checked must not give a bug a priority or severity that does not exist.
  // An empty priority or severity is Bugzilla 5.2's object_not_specified (50); only a missing
  // (or null) one takes the default.
  const blank = (value: unknown) => typeof value === 'string' && value.trim() === '';
  if (mayChoosePriority && blank(input.priority)) throw mustEnter('a Priority');
  if (blank(input.severity)) throw mustEnter('a Severity');
  const priority = values.check(
    'priority',
    'priority',
    present(input.priority) && mayChoosePriority ? input.priority : parameters.defaultpriority || DEFAULT_PRIORITY,
  );
  const severity = values.check(
    'bug_severity',
    'severity',
    present(input.severity) ? input.severity : parameters.defaultseverity || DEFAULT_SEVERITY,
  );
  // Products and components keep their default type by name: read as the value's current name.
  const bugType = present(input.type)
    ? values.check('bug_type', 'bug type', input.type)
    : values.currentName(
        'bug_type',
        component.defaultBugType || record.product.defaultBugType || parameters.default_bug_type || DEFAULT_BUG_TYPE,
      );

  const defaultMilestone = record.product.defaultMilestone || PLACEHOLDER_MILESTONE;
  let targetMilestoneId = valueNamed(record.milestones, defaultMilestone)?.id ?? 0;
  const mayChooseMilestone = editbugs || parameters.letsubmitterchoosemilestone === '1';
  if (present(input.target_milestone) && mayChooseMilestone && parameters.usetargetmilestone === '1') {
    const wanted = String(input.target_milestone).trim();
    const milestone = record.milestones.find(
      (candidate) => candidate.name.toLowerCase() === wanted.toLowerCase() && candidate.isActive,
    );
    if (!milestone) throw errors.notFoundInProduct('milestone', wanted, record.product.name);
    targetMilestoneId = milestone.id;
  }

  // Bugzilla lets only editbugs choose the assignee and QA contact of a new bug.
  let assigneeId = component.defaultAssigneeId;
  if (present(input.assigned_to) && editbugs) assigneeId = env.userId(String(input.assigned_to), 'assigned_to');
  let qaContactId = parameters.useqacontact === '1' ? component.defaultQaContactId : null;
  if (present(input.qa_contact) && editbugs && parameters.useqacontact === '1')
    qaContactId = env.userId(String(input.qa_contact), 'qa_contact');

  const ccIds = sortedIds([
    ...component.defaultCcIds,
    ...presentList(input.cc).map((login) => env.userId(String(login), 'cc', 'invalidUser')),
  ]);

  const keywordIds = sortedIds(
    presentList(input.keywords).map((name) => {
      const text = String(name).trim();
      const keyword = env.keywords.find(
        (candidate) => candidate.isActive && candidate.name.toLowerCase() === text.toLowerCase(),
      );
      if (!keyword) throw errors.notFoundByName('keyword', text);
      return keyword.id;
    }),
  );

  // Status (Bugzilla's _check_bug_status): a canconfirm user's bug starts in the first status a new
  // bug may take other than UNCONFIRMED, or the one asked for; others file UNCONFIRMED where the
  // product allows it, whatever they ask.
  const canConfirm = hasCanConfirm(caller, record, groupName);
  const allowsUnconfirmed = record.product.hasUnconfirmed;
  let status = values.defaultInitialStatus(canConfirm, allowsUnconfirmed);
  if (present(input.status)) {
    // The old workflow's names (NEW, ASSIGNED, REOPENED) are read as on update.
    const wanted = values.canonicalStatus(String(input.status), null);
    if (!values.isKnownStatus(wanted)) throw errors.notFoundByName('status', String(input.status));
    const initial = values.initialStatuses();
    if (!initial.includes(wanted))
      throw errors.illegalStatusTransition(
        `A new bug cannot be filed with the status ${wanted}: it must start in a status the workflow allows (${initial.join(', ')}).`,
      );
    if (canConfirm && (wanted !== UNCONFIRMED || allowsUnconfirmed)) status = wanted;
  }
  if (status === undefined)
    throw errors.illegalStatusTransition('The workflow lets no new bug be filed: it has no status a new bug may take.');
  if (present(input.resolution))
    throw errors.resolutionNotAllowed('A new bug is open, so it cannot have a resolution.');

  const groupIds = productGroupRules(caller, record, env.groups).groupsForNewBug(
    input.groups === undefined ? undefined : presentList(input.groups).map(String),
  );

  const timeTracker = isTimeTracker(caller, parameters);
  const estimatedTime =
    timeTracker && present(input.estimated_time) ? checkHours('estimated_time', input.estimated_time) : 0;
  const remainingTime =
    timeTracker && present(input.remaining_time) ? checkHours('remaining_time', input.remaining_time) : estimatedTime;
  const deadline = timeTracker && present(input.deadline) ? checkDate('deadline', input.deadline) : null;

  const description = input.description === undefined || input.description === null ? '' : String(input.description);
  if (characterCount(description) > MAX_COMMENT_LENGTH)
    throw errors.commentTooLong(`The description is too long: at most ${MAX_COMMENT_LENGTH} characters.`);
  // The workflow may require a comment to file a bug in its status: the description is that comment.
  values.requireComment(null, status, description);
  const isMarkdown = truthy(input.is_markdown);
  if (isMarkdown && parameters.markdown_enabled !== '1') throw errors.markdownDisabled();
  const isPrivate = truthy(input.comment_is_private);
  if (isPrivate && !isInsider(caller, parameters))
    throw errors.notInsider('You are not allowed to make the description private.');

  const custom: Record<string, unknown> = {};
  for (const field of env.customFields) {
    if (field.isObsolete) continue;
    if (
      present(input[field.name]) ||
      (Array.isArray(input[field.name]) && (input[field.name] as unknown[]).length > 0)
    ) {
      custom[field.name] = checkCustomValue(field, input[field.name]);
    } else {
      if (field.isMandatory && field.isOnBugEntry) throw mustEnter(`a value for ${field.displayName} (${field.name})`);
      custom[field.name] = customFieldDefault(field);
    }
  }
  for (const name of Object.keys(input)) {
    if (name.startsWith('cf_') && !env.customFields.some((field) => field.name === name && !field.isObsolete)) {
      throw errors.unknownField(`There is no custom field named '${name}'.`);
    }
  }

  const relation = (field: string) =>
    sortedIds(presentList(input[field]).map((value) => checkBugReference(field, value)));
  const bug: Bug = {
    id,
    alias: present(input.alias) ? checkAlias(Array.isArray(input.alias) ? input.alias[0] : input.alias) : null,
    summary,
    status,
    resolution: NO_RESOLUTION,
    isConfirmed: values.isOpen(status) && status !== UNCONFIRMED,
    productId: record.product.id,
    componentId: component.id,
    versionId: version.id,
    targetMilestoneId,
    bugType,
    priority,
    severity,
    platform,
    opSys,
    assigneeId,
    reporterId: me,
    qaContactId,
    url: checkUrl(input.url),
    whiteboard: checkWhiteboard(input.whiteboard),
    deadline,
    creationTime: env.now,
    lastChangeTime: env.now,
    filedVia,
    isCcAccessible: input.is_cc_accessible === undefined ? true : truthy(input.is_cc_accessible),
    isCreatorAccessible: input.is_creator_accessible === undefined ? true : truthy(input.is_creator_accessible),
    estimatedTime,
    remainingTime,
    actualTime: 0,
    ccIds,
    keywordIds,
    groupIds,
    dependsOn: relation('depends_on'),
    blocks: relation('blocks'),
    regressedBy: relation('regressed_by'),
    regressions: relation('regressions'),
    duplicates: [],
    dupeOf: null,
    // An empty URL is ignored, as Bugzilla 5.2's add_see_also does.
    seeAlso: [...new Set(presentList(input.see_also).filter(present).map(checkSeeAlso))],
    flags: [],
    commentCount: 1,
    attachmentCount: 0,
    custom,
    tags: {},
  };
  if (bug.dependsOn.some((other) => bug.blocks.includes(other))) {
    throw errors.dependsOnAndBlocks();
  }
  if (bug.regressedBy.some((other) => bug.regressions.includes(other))) throw errors.regressedByAndRegressions();
  const flagInputs = presentList(input.flags) as FlagInput[];
  if (flagInputs.length > 0) {
    const types = env.flagTypes.filter(
      (type) => type.targetType === 'bug' && appliesTo(type, record.product.id, component.id),
    );
    bug.flags = applyFlagInputs(
      [],
      flagInputs,
      {
        types,
        callerId: me,
        inGroupId: (groupId) => inGroup(caller, groupName(groupId) ?? ''),
        userIdOf: (login) => env.findUserId(login),
        requestees: { bug, requestee: (userId) => env.requestee(userId), groupName, parameters: env.parameters },
        now: env.now,
        nextFlagId: env.nextFlagId,
      },
      env.flagTypes.filter((type) => type.targetType === 'bug'),
    );
  }
  return {
    bug,
    description: {
      bugId: id,
      creatorId: me,
      rawText: description,
      isPrivate,
      isMarkdown,
      workTime: 0,
      creationTime: env.now,
    },
  };
}
