import { errors } from '../../errors.ts';
import { appliesTo } from '../catalog/flagTypes.ts';
import { inGroup } from '../identity/caller.ts';
import { truthy } from '../inputValues.ts';
import { type Bug, type NewComment, sortedIds } from './bug.ts';
import { hasEditBugs } from './bugAccess.ts';
import type { BugEnvironment } from './bugEnvironment.ts';
import {
  checkAlias,
  checkBugReference,
  checkSeeAlso,
  checkSummary,
  checkUrl,
  checkWhiteboard,
} from './bugFieldRules.ts';
import { applyFlagInputs, type FlagInput } from './bugFlags.ts';
import { productGroupRules } from './bugGroups.ts';
import { NO_RESOLUTION, UNCONFIRMED } from './bugWorkflow.ts';
import { customValuesOf } from './create/customFields.ts';
import { descriptionOf } from './create/description.ts';
import { initialStatusOf } from './create/initialStatus.ts';
import { legalValuesOf } from './create/legalValues.ts';
import type { NewBugContext } from './create/newBugContext.ts';
import { present, presentList, refuseUnknownFields } from './create/newBugInput.ts';
import { keywordIdsOf, peopleOf } from './create/people.ts';
import { componentOf, productOf, targetMilestoneOf, versionOf } from './create/placement.ts';
import { timeFieldsOf } from './create/timeTracking.ts';

/**
 * Filing a bug (POST /rest/bug): every field a Bugzilla 5.2 client sends, checked in Bugzilla's
 * order with its error codes (each rule a file of create/), defaults from the component and
 * product, the initial status from the caller's rights, and the description as comment 0.
 */
export interface NewBugPlan {
  bug: Bug;
  description: NewComment;
}

export function planNewBug(
  env: BugEnvironment,
  input: Record<string, unknown>,
  id: number,
  filedVia: string,
): NewBugPlan {
  const { caller } = env;
  const me = caller.user.id;
  refuseUnknownFields(input);
  const record = productOf(env, input);
  const component = componentOf(record, input);
  const summary = checkSummary(input.summary);
  const version = versionOf(record, input);
  const context: NewBugContext = {
    env,
    input,
    record,
    component,
    editbugs: hasEditBugs(caller, record, env.groupName),
  };
  const legalValues = legalValuesOf(context);
  const targetMilestoneId = targetMilestoneOf(context);
  const people = peopleOf(context);
  const keywordIds = keywordIdsOf(context);
  const status = initialStatusOf(context);
  const groupIds = productGroupRules(caller, record, env.groups).groupsForNewBug(
    input.groups === undefined ? undefined : presentList(input.groups).map(String),
  );
  const time = timeFieldsOf(context);
  const description = descriptionOf(context, status);
  const custom = customValuesOf(context);

  const relation = (field: string) =>
    sortedIds(presentList(input[field]).map((value) => checkBugReference(field, value)));
  const bug: Bug = {
    id,
    alias: present(input.alias) ? checkAlias(Array.isArray(input.alias) ? input.alias[0] : input.alias) : null,
    summary,
    status,
    resolution: NO_RESOLUTION,
    isConfirmed: env.values.isOpen(status) && status !== UNCONFIRMED,
    productId: record.product.id,
    componentId: component.id,
    versionId: version.id,
    targetMilestoneId,
    ...legalValues,
    ...people,
    reporterId: me,
    url: checkUrl(input.url),
    whiteboard: checkWhiteboard(input.whiteboard),
    deadline: time.deadline,
    creationTime: env.now,
    lastChangeTime: env.now,
    filedVia,
    isCcAccessible: input.is_cc_accessible === undefined ? true : truthy(input.is_cc_accessible),
    isCreatorAccessible: input.is_creator_accessible === undefined ? true : truthy(input.is_creator_accessible),
    estimatedTime: time.estimatedTime,
    remainingTime: time.remainingTime,
    actualTime: 0,
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
  if (bug.dependsOn.some((other) => bug.blocks.includes(other))) throw errors.dependsOnAndBlocks();
  if (bug.regressedBy.some((other) => bug.regressions.includes(other))) throw errors.regressedByAndRegressions();
  bug.flags = initialFlags(env, bug, presentList(input.flags) as FlagInput[]);
  return {
    bug,
    description: {
      bugId: id,
      creatorId: me,
      rawText: description.text,
      isPrivate: description.isPrivate,
      isMarkdown: description.isMarkdown,
      workTime: 0,
      creationTime: env.now,
    },
  };
}

/** Flags set or requested as the bug is filed, of the types that apply to its product and component. */
function initialFlags(env: BugEnvironment, bug: Bug, flagInputs: FlagInput[]): Bug['flags'] {
  if (flagInputs.length === 0) return [];
  const { caller, groupName } = env;
  const bugTypes = env.flagTypes.filter((type) => type.targetType === 'bug');
  return applyFlagInputs(
    [],
    flagInputs,
    {
      types: bugTypes.filter((type) => appliesTo(type, bug.productId, bug.componentId)),
      callerId: caller.user.id,
      inGroupId: (groupId) => inGroup(caller, groupName(groupId) ?? ''),
      userIdOf: (login) => env.findUserId(login),
      requestees: { bug, requestee: (userId) => env.requestee(userId), groupName, parameters: env.parameters },
      now: env.now,
      nextFlagId: env.nextFlagId,
    },
    bugTypes,
  );
}
