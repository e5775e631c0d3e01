import type { CustomField } from '../catalog/customFields.ts';
import type { FieldValues } from '../catalog/fieldValues.ts';
import type { ResourceFields } from '../fieldSelection.ts';
import { type Caller, isLoggedIn, type UserAccount } from '../identity/caller.ts';
import { userDetail } from '../identity/userView.ts';
import type { Parameters } from '../instance/parameters.ts';
import type { Bug } from './bug.ts';
import { isInsider, isTimeTracker } from './bugAccess.ts';
import { FIELD_TYPE } from './bugFields.ts';
import { flagView } from './bugFlags.ts';
import { hiddenAttachmentCount } from './privateActivity.ts';

/**
 * The spec's Bug object for one caller: names for ids, user detail objects, time tracking only
 * for the time-tracking group, `update_token` only for logged-in callers, and e-mail addresses
 * cut to their local part for logged-out callers when `webservice_email_filter` is on.
 */

/** Private comments are neither shown nor counted for those outside the insider group. */
const visibleCommentCount = (bug: Bug, caller: Caller, parameters: Parameters): number =>
  bug.commentCount - (isInsider(caller, parameters) ? 0 : (bug.privateCommentCount ?? 0));

/** The caller's own personal tags of a bug, sorted (none for a logged-out caller). */
export const viewerTags = (bug: { tags: Readonly<Record<string, string[]>> }, caller: Caller): string[] =>
  isLoggedIn(caller) ? [...(bug.tags[String(caller.user.id)] ?? [])].sort() : [];

const BUG_EXTRA_FIELDS: readonly string[] = [
  'attachments',
  'comments',
  'counts',
  'description',
  'filed_via',
  'history',
  'tags',
  'triage_owner',
  'triage_owner_detail',
];

export const bugResourceFields = (customFieldNames: ReadonlySet<string> | undefined = undefined): ResourceFields => ({
  extra: BUG_EXTRA_FIELDS,
  isCustom: (name) => (customFieldNames ? customFieldNames.has(name) : name.startsWith('cf_')),
  nested: Object.fromEntries(
    [
      'assigned_to_detail',
      'creator_detail',
      'qa_contact_detail',
      'cc_detail',
      'triage_owner_detail',
      'flags',
      'comments',
      'history',
      'attachments',
    ].map((name) => [name, {}]),
  ),
});

export interface BugViewContext {
  caller: Caller;
  parameters: Parameters;
  customFields: readonly CustomField[];
  user(id: number | null): UserAccount | undefined;
  productName(id: number): string;
  componentName(id: number): string;
  /** The current names of the bug's version and milestone (kept by id: catalog/bugValues.ts). */
  versionName(id: number): string;
  milestoneName(id: number): string;
  /**
   * The installation's legal values: a bug shows its status, priority... by the value's current
   * name (a copy written before a rename holds the old one) and is open as its status is.
   */
  values: FieldValues;
  classificationName(productId: number): string;
  keywordName(id: number): string;
  groupName(id: number): string | undefined;
  flagTypeName(id: number): string;
  triageOwnerId(componentId: number): number | null;
  updateToken?: string;
  /**
   * Whether the response shows this extra field; extras it does not are not computed (a search
   * page renders a thousand bugs and drops them). Without it every cheap extra is computed.
   */
  wantsExtra?(name: string): boolean;
}

/**
 * Each user's detail object, made once per request: a page of a thousand bugs names the same few
 * hundred people again and again. Callers spread one context per bug (each with its own
 * update_token), so the details are kept by the context's user lookup, which those copies share
 * with the caller they were made for. The selection copies what it keeps, so sharing is safe.
 */
const userDetails = new WeakMap<BugViewContext['user'], Map<number, Record<string, unknown> | undefined>>();

/** What the bug's extra fields carry, when the caller asked for them (each costs a read). */
export interface BugExtras {
  description?: string;
  comments?: unknown[];
  history?: unknown[];
  attachments?: unknown[];
}

export function bugView(bug: Bug, context: BugViewContext, extras: BugExtras = {}): Record<string, unknown> {
  const { caller, parameters, values } = context;
  const filterEmail = !isLoggedIn(caller) && parameters.webservice_email_filter === '1';
  const login = (id: number | null) => {
    const user = id === null ? undefined : context.user(id);
    if (!user) return '';
    return filterEmail ? user.login.replace(/@.*$/, '') : user.login;
  };
  let details = userDetails.get(context.user);
  if (!details) {
    details = new Map();
    userDetails.set(context.user, details);
  }
  const known = details;
  const detail = (id: number | null) => {
    if (id === null) return undefined;
    if (known.has(id)) return known.get(id);
    const user = context.user(id);
    const view = user ? userDetail(user, caller) : undefined;
    if (view && filterEmail) view.name = login(id);
    known.set(id, view);
    return view;
  };
  const view: Record<string, unknown> = {
    id: bug.id,
    alias: bug.alias,
    summary: bug.summary,
    status: values.currentName('bug_status', bug.status),
    resolution: values.currentName('resolution', bug.resolution),
    is_open: values.isOpen(bug.status),
    is_confirmed: bug.isConfirmed,
    is_cc_accessible: bug.isCcAccessible,
    is_creator_accessible: bug.isCreatorAccessible,
    product: context.productName(bug.productId),
    component: context.componentName(bug.componentId),
    classification: context.classificationName(bug.productId),
    version: context.versionName(bug.versionId),
    target_milestone: context.milestoneName(bug.targetMilestoneId),
    type: values.currentName('bug_type', bug.bugType),
    priority: values.currentName('priority', bug.priority),
    severity: values.currentName('bug_severity', bug.severity),
    platform: values.currentName('rep_platform', bug.platform),
    op_sys: values.currentName('op_sys', bug.opSys),
    assigned_to: login(bug.assigneeId),
    assigned_to_detail: detail(bug.assigneeId),
    creator: login(bug.reporterId),
    creator_detail: detail(bug.reporterId),
    qa_contact: login(bug.qaContactId),
    cc: bug.ccIds.map(login).filter(Boolean).sort(),
    cc_detail: bug.ccIds
      .map(detail)
      .filter(Boolean)
      .sort((a, b) => String(a!.name).localeCompare(String(b!.name))),
    creation_time: bug.creationTime,
    last_change_time: bug.lastChangeTime,
  };
  // Time tracking, as Bugzilla shows it: to the time-tracking group only. Set here, in its place
  // among the fields, rather than deleted later (a deleted key slows every later write of the view).
  const timeTracker = isTimeTracker(caller, parameters);
  if (timeTracker) view.deadline = bug.deadline;
  Object.assign(view, {
    url: bug.url,
    whiteboard: bug.whiteboard,
    keywords: bug.keywordIds.map(context.keywordName).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    see_also: bug.seeAlso,
    groups: bug.groupIds
      .map((id) => context.groupName(id))
      .filter((name): name is string => name !== undefined)
      .sort(),
    blocks: bug.blocks,
    depends_on: bug.dependsOn,
    dupe_of: bug.dupeOf,
    duplicates: bug.duplicates,
    regressed_by: bug.regressedBy,
    regressions: bug.regressions,
    flags: bug.flags.map((flag) => flagView(flag, context.flagTypeName, login)),
    comment_count: visibleCommentCount(bug, caller, parameters),
  });
  if (bug.qaContactId !== null) view.qa_contact_detail = detail(bug.qaContactId);
  if (timeTracker) {
    view.actual_time = bug.actualTime;
    view.estimated_time = bug.estimatedTime;
    view.remaining_time = bug.remainingTime;
  }
  if (isLoggedIn(caller) && context.updateToken) view.update_token = context.updateToken;
  for (const field of context.customFields) {
    if (field.isObsolete) continue;
    const value = bug.custom[field.name];
    view[field.name] =
      value ?? (field.type === FIELD_TYPE.MULTI_SELECT ? [] : field.type === FIELD_TYPE.SINGLE_SELECT ? '---' : null);
  }
  // Extra fields: the cheap ones are computed unless the context says the response drops them.
  const wants = (name: string) => context.wantsExtra?.(name) ?? true;
  if (wants('triage_owner') || wants('triage_owner_detail')) {
    const triageOwner = context.triageOwnerId(bug.componentId);
    view.triage_owner = login(triageOwner);
    const triageDetail = detail(triageOwner);
    if (triageDetail) view.triage_owner_detail = triageDetail;
  }
  if (wants('filed_via')) view.filed_via = bug.filedVia;
  if (wants('tags')) view.tags = viewerTags(bug, caller);
  if (wants('counts'))
    view.counts = {
      // As the attachments listing: private ones count for insiders and for whoever attached them.
      attachments: bug.attachmentCount - hiddenAttachmentCount(bug, caller, parameters),
      cc: bug.ccIds.length,
      comments: visibleCommentCount(bug, caller, parameters),
      keywords: bug.keywordIds.length,
      blocks: bug.blocks.length,
      depends_on: bug.dependsOn.length,
      regressed_by: bug.regressedBy.length,
      regressions: bug.regressions.length,
      duplicates: bug.duplicates.length,
    };
  if (extras.description !== undefined) view.description = extras.description;
  if (extras.comments !== undefined) view.comments = extras.comments;
  if (extras.history !== undefined) view.history = extras.history;
  if (extras.attachments !== undefined) view.attachments = extras.attachments;
  return view;
}
