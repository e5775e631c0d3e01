import type { Bug, HistoryChange, HistoryEntry } from '../../domain/bug/bug.ts';
import { MAX_COMMENT_LENGTH } from '../../domain/bug/bug.ts';
import { isInsider, isTimeTracker, mayEditProductBugs } from '../../domain/bug/bugAccess.ts';
import { mayReadComment } from '../../domain/bug/bugComments.ts';
import { checkHours, remainingAfter } from '../../domain/bug/bugFieldRules.ts';
import {
  assertMayTagComments,
  changeCommentTags,
  checkCommentTag,
  DEFAULT_TAG_SEARCH_LIMIT,
  sortTags,
} from '../../domain/bug/commentTags.ts';
import type { FieldSelection, ResourceFields } from '../../domain/fieldSelection.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { characterCount } from '../../domain/inputLimits.ts';
import { asList } from '../../domain/inputValues.ts';
import type { Parameters } from '../../domain/instance/parameters.ts';
import { toBugzillaDateTime } from '../../domain/time.ts';
import { errors } from '../../errors.ts';
import { attachmentSummaries } from '../../storage/bug/attachmentStore.ts';
import { commitBugWrite, loadBugs, type StoredComment } from '../../storage/bug/bugStore.ts';
import {
  CommentTagsConflict,
  loadBugConversation,
  loadCommentsById,
  saveCommentTags,
  searchCommentTags as searchTags,
  tagConflict,
} from '../../storage/bug/commentStore.ts';
import { allocateIds } from '../../storage/counterStore.ts';
import { listGroups } from '../../storage/identity/groupStore.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';
import { loadBugCatalog, usersById } from './bugContext.ts';
import { commentView } from './bugReading.ts';
import { resolveBugReferences, type VisibilityContext, visibleBug, visibleBugs } from './bugVisibility.ts';
import { withFreshReads } from './bugWriting.ts';

/**
 * Comments: read them by bug or by id, add them, tag them, render them
 * (docs/data-model.md §3 and §7.2). Reads need only the groups and parameters besides the bug,
 * both already read by authentication, so a bug's comments cost the bug item, one Query of its
 * comments and one batch of their authors.
 */

/** The Comment object has no extra fields: every field is returned unless excluded. */
export const COMMENT_FIELDS: ResourceFields = {};

/** What reads need to decide visibility: the groups and parameters (memoized per request). */
export async function visibilityContext(): Promise<VisibilityContext & { parameters: Parameters }> {
  const [groups, parameters] = await Promise.all([listGroups(), loadParameters()]);
  return { catalog: { groups, parameters }, parameters };
}

/** A comment or attachment id from the path or a list: 52 for anything but a positive whole number. */
export function parseObjectId(value: unknown, what: string): number {
  const text = String(value ?? '').trim();
  if (!/^\d+$/.test(text) || Number(text) <= 0 || !Number.isSafeInteger(Number(text))) {
    throw errors.invalidValue(`Invalid ${what} '${text}': it must be an integer greater than zero.`);
  }
  return Number(text);
}

export interface CommentRequest {
  bugs: ReadonlyArray<string | number>;
  commentIds: readonly unknown[];
  /** Only comments after this time (bug requests only), already checked. */
  newSince?: string;
}

/** GET /rest/bug/{id}/comment and GET /rest/bug/comment/{comment_id}. */
export async function getComments(caller: Caller, request: CommentRequest, fields: FieldSelection) {
  const commentIds = request.commentIds.map((id) => parseObjectId(id, 'comment id'));
  const context = await visibilityContext();
  const { parameters } = context;
  // Each bug is read with its comments and attachments in one Query, visibility checked after.
  const asNamed = await resolveBugReferences(request.bugs);
  const bugIds = [...asNamed.keys()];
  const [conversations, byId] = await Promise.all([
    Promise.all(bugIds.map(loadBugConversation)),
    loadCommentsById(commentIds),
  ]);
  const bugs = bugIds.map((id, index) => visibleBug(caller, conversations[index].stored, id, context, asNamed.get(id)));

  // Comments named by id: each must exist (111), be on a visible bug (102), and be readable (110).
  const missing = commentIds.find((id) => !byId.has(id));
  if (missing !== undefined) throw errors.commentNotFound(missing);
  const named = commentIds.map((id) => byId.get(id)!);
  const namedBugs = await loadBugs([...new Set(named.map((comment) => comment.bugId))]);
  for (const comment of named) {
    visibleBug(caller, namedBugs.get(comment.bugId), comment.bugId, context);
    if (!mayReadComment(caller, parameters, comment)) throw errors.privateComment(comment.id);
  }

  const since = request.newSince === undefined ? undefined : Date.parse(request.newSince);
  const perBug = bugs.map(({ bug }, index) => {
    const comments = conversations[index].comments
      .filter((comment) => mayReadComment(caller, parameters, comment))
      .filter((comment) => since === undefined || Date.parse(comment.creationTime) > since);
    return {
      bug,
      comments,
      summaries: new Map(conversations[index].attachments.map((attachment) => [attachment.id, attachment.summary])),
    };
  });
  const namedSummaries = new Map<number, Map<number, string>>();
  for (const comment of named) {
    if (comment.attachmentId === null || namedSummaries.has(comment.bugId)) continue;
    namedSummaries.set(comment.bugId, await attachmentSummaries(comment.bugId));
  }

  const users = await usersById([
    ...new Set([...perBug.flatMap(({ comments }) => comments), ...named].map((comment) => comment.creatorId)),
  ]);
  const login = (id: number) => users.get(id)?.login ?? '';
  const view = (comment: StoredComment, summaries?: Map<number, string>) =>
    fields.apply(
      commentView(comment, login, (id) => summaries?.get(id)),
      COMMENT_FIELDS,
    );
  return {
    bugs: Object.fromEntries(
      perBug.map(({ bug, comments, summaries }) => [
        String(bug.id),
        { comments: comments.map((comment) => view(comment, summaries)) },
      ]),
    ),
    comments: Object.fromEntries(
      named.map((comment) => [String(comment.id), view(comment, namedSummaries.get(comment.bugId))]),
    ),
  };
}

export interface CommentInput {
  comment?: unknown;
  is_private?: boolean;
  is_markdown?: boolean;
  work_time?: unknown;
}

/** The text of a new comment: 50 when there is none, 114 when it is too long. */
export function checkCommentBody(value: unknown): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    throw errors.missingParameter('You must enter a comment: the comment parameter is required and may not be empty.');
  }
  if (typeof value !== 'string') throw errors.commentNotText();
  if (characterCount(value) > MAX_COMMENT_LENGTH) throw errors.commentOverLength(MAX_COMMENT_LENGTH);
  return value;
}

/** The bug after one more comment (and any hours worked), with the history that hours leave. */
export function withComment(
  bug: Bug,
  isPrivate: boolean,
  hours: number,
  now: string,
): { bug: Bug; history: HistoryChange[] } {
  const next: Bug = {
    ...bug,
    commentCount: bug.commentCount + 1,
    privateCommentCount: (bug.privateCommentCount ?? 0) + (isPrivate ? 1 : 0),
    lastChangeTime: now,
  };
  const history: HistoryChange[] = [];
  if (hours !== 0) {
    // Hours worked are added to the actual time and, as in Bugzilla, taken off the time remaining;
    // negative hours correct an earlier report, and give the time back.
    next.actualTime = Math.round((bug.actualTime + hours) * 100) / 100;
    next.remainingTime = remainingAfter(bug.remainingTime, hours);
    history.push({ field_name: 'work_time', removed: '', added: hours.toFixed(2) });
    if (next.remainingTime !== bug.remainingTime)
      history.push({
        field_name: 'remaining_time',
        removed: bug.remainingTime.toFixed(2),
        added: String(next.remainingTime),
      });
  }
  return { bug: next, history };
}

/** POST /rest/bug/{id}/comment (and `ids`): one comment on each bug, all in one transaction. */
export async function addComment(
  caller: Caller,
  references: ReadonlyArray<string | number>,
  input: CommentInput,
): Promise<{ id: number }> {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  const bugCatalog = await loadBugCatalog();
  const { parameters } = bugCatalog.catalog;
  const targets = await visibleBugs(caller, references, bugCatalog);
  if (targets.length === 0) throw errors.missingParameter('You must give the id or alias of the bug to comment on.');
  const text = checkCommentBody(input.comment);
  const isPrivate = input.is_private === true;
  const isMarkdown = input.is_markdown === true;
  if (isPrivate && !isInsider(caller, parameters))
    throw errors.notInsider('You are not allowed to make comments private.');
  if (isMarkdown && parameters.markdown_enabled !== '1') throw errors.markdownDisabled();
  // Hours worked count only for the time-tracking group; from anyone else they are ignored (the spec).
  const hours =
    isTimeTracker(caller, parameters) &&
    input.work_time !== undefined &&
    input.work_time !== null &&
    input.work_time !== ''
      ? checkHours('work_time', input.work_time, { allowNegative: true })
      : 0;
  const groupName = (id: number) => bugCatalog.catalog.groups.find((group) => group.id === id)?.name;
  const commentIds = await allocateIds('comment', targets.length);

  await withFreshReads(async () => {
    const stored = await loadBugs(targets.map(({ bug }) => bug.id));
    const now = toBugzillaDateTime(new Date());
    const updated: Array<{ bug: Bug; rev: number; previousAlias: string | null }> = [];
    const comments: StoredComment[] = [];
    const history: HistoryEntry[] = [];
    targets.forEach(({ bug: { id } }, index) => {
      const { bug, rev } = visibleBug(caller, stored.get(id), id, bugCatalog);
      const record = bugCatalog.catalog.products.find((candidate) => candidate.product.id === bug.productId);
      if (!record || !mayEditProductBugs(caller, record, groupName))
        throw errors.bugEditDenied(`You are not allowed to comment on bug ${id}.`);
      const next = withComment(bug, isPrivate, hours, now);
      comments.push({
        id: commentIds[index],
        bugId: id,
        count: bug.commentCount,
        creatorId: caller.user.id,
        rawText: text,
        isPrivate,
        isMarkdown,
        workTime: hours,
        creationTime: now,
        attachmentId: null,
        tags: [],
      });
      updated.push({ bug: next.bug, rev, previousAlias: bug.alias });
      if (next.history.length > 0) history.push({ bugId: id, when: now, whoId: caller.user.id, changes: next.history });
    });
    await commitBugWrite({ created: [], updated, comments, history });
  });
  return { id: commentIds[0] };
}

/** PUT /rest/bug/comment/{comment_id}/tags: the comment's tags afterwards, sorted. */
export async function updateCommentTags(
  caller: Caller,
  commentIdValue: unknown,
  add: unknown,
  remove: unknown,
): Promise<string[]> {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  const context = await visibilityContext();
  assertMayTagComments(caller, context.parameters);
  const commentId = parseObjectId(commentIdValue, 'comment id');
  const toAdd = asList(add).map(checkCommentTag);
  const toRemove = asList(remove).map(checkCommentTag);
  for (let attempt = 1; ; attempt++) {
    const comment = (await loadCommentsById([commentId])).get(commentId);
    if (!comment) throw errors.commentNotFound(commentId);
    visibleBug(caller, (await loadBugs([comment.bugId])).get(comment.bugId), comment.bugId, context);
    if (!mayReadComment(caller, context.parameters, comment)) throw errors.privateComment(comment.id);
    const change = changeCommentTags(comment.tags, toAdd, toRemove);
    if (change.added.length === 0 && change.removed.length === 0) return sortTags(comment.tags);
    try {
      await saveCommentTags(comment, change.tags, change.added, change.removed);
      return change.tags;
    } catch (error) {
      if (!(error instanceof CommentTagsConflict)) throw error;
      if (attempt >= 4) throw tagConflict();
    }
  }
}

/** GET /rest/bug/comment/tags/{query}. */
export async function searchCommentTags(caller: Caller, query: string, limit?: number): Promise<string[]> {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  assertMayTagComments(caller, await loadParameters());
  const max = limit === undefined || limit <= 0 ? DEFAULT_TAG_SEARCH_LIMIT : limit;
  return searchTags(query.trim(), max);
}
