import { attachmentView, maySeeAttachment } from '../../domain/bug/attachment.ts';
import type { Bug, HistoryEntry } from '../../domain/bug/bug.ts';
import { canSeeBug, isInsider } from '../../domain/bug/bugAccess.ts';
import { diffBugs, historyChanges, mergeHistory } from '../../domain/bug/bugChanges.ts';
import {
  type CommentPrivacyChange,
  commentText,
  mayReadComment,
  planCommentPrivacy,
  requestedCommentPrivacy,
} from '../../domain/bug/bugComments.ts';
import { planNewBug } from '../../domain/bug/bugCreation.ts';
import { applyBugUpdate } from '../../domain/bug/bugUpdate.ts';
import { bugView } from '../../domain/bug/bugView.ts';
import { relatedBugIds, syncRelations, type UpdateOutcome, type WorkingSet } from '../../domain/bug/bugWorkingSet.ts';
import type { FieldSelection } from '../../domain/fieldSelection.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { errors } from '../../errors.ts';
import { loadAttachmentsOfBug, setCommentPrivacy } from '../../storage/bug/attachmentStore.ts';
import {
  commitBugWrite,
  findBugIdByAlias,
  loadBugs,
  loadComment,
  loadComments,
  loadHistory,
  type StoredBug,
  type StoredComment,
} from '../../storage/bug/bugStore.ts';
import { allocateId, allocateIds } from '../../storage/counterStore.ts';
import { retryOnConflict } from '../../storage/transaction.ts';
import { TrackerError } from '../../trackerError.ts';
import { groupNameIn } from '../catalog/catalogContext.ts';
import {
  type BugCatalog,
  bugEnvironment,
  bugNames,
  bugViewContext,
  loadBugCatalog,
  loginsIn,
  resolveLogins,
  updateToken,
  userIdsOf,
  usersById,
} from './bugContext.ts';

/** Bugs: file, read and change them (docs/data-model.md §3 and §7.2). */

const orGroups = (bugCatalog: VisibilityContext) => bugCatalog.catalog.parameters.or_groups === '1';

/** A bug named by id or alias; 100 for something that is neither. */
export async function resolveBugId(reference: string | number): Promise<number> {
  const text = String(reference).trim();
  if (/^\d+$/.test(text) && Number(text) > 0 && Number.isSafeInteger(Number(text))) return Number(text);
  if (text === '' || /[,\s]/.test(text) || text.length > 40) throw errors.invalidBugReference(text);
  const id = await findBugIdByAlias(text);
  if (id === null) throw errors.invalidBugReference(text);
  return id;
}

/** What deciding visibility needs: the groups and parameters (a whole BugCatalog will do). */
export type VisibilityContext = { catalog: Pick<BugCatalog['catalog'], 'groups' | 'parameters'> };

/** 101 for a bug that does not exist, 102 for one the caller may not see: never reveal which beyond that. */
export function visibleBug(
  caller: Caller,
  stored: StoredBug | undefined,
  bugId: number,
  bugCatalog: VisibilityContext,
): StoredBug {
  if (!stored) throw errors.bugNotFound(bugId);
  if (!canSeeBug(caller, stored.bug, groupNameIn(bugCatalog.catalog), orGroups(bugCatalog))) {
    throw isLoggedIn(caller) ? errors.bugAccessDenied(bugId) : errors.bugAccessDeniedLoggedOut(bugId);
  }
  return stored;
}

/** Bugs the caller may see, in the order named (each once): 100, 101, 102 otherwise. */
export async function visibleBugs(
  caller: Caller,
  references: ReadonlyArray<string | number>,
  context: VisibilityContext,
): Promise<StoredBug[]> {
  const ids = [...new Set(await Promise.all(references.map(resolveBugId)))];
  const stored = await loadBugs(ids);
  return ids.map((id) => visibleBug(caller, stored.get(id), id, context));
}

// ---- reading ---------------------------------------------------------------------------------

export interface CommentView {
  id: number;
  bug_id: number;
  attachment_id: number | null;
  count: number;
  text: string;
  raw_text: string;
  creator: string;
  creation_time: string;
  time: string;
  is_private: boolean;
  is_markdown: boolean;
  tags: string[];
}

export function commentView(
  comment: StoredComment,
  login: (id: number) => string,
  attachmentSummary?: (attachmentId: number) => string | undefined,
): CommentView {
  return {
    id: comment.id,
    bug_id: comment.bugId,
    attachment_id: comment.attachmentId ?? null,
    count: comment.count,
    text: commentText(comment, attachmentSummary),
    raw_text: comment.rawText,
    creator: login(comment.creatorId),
    creation_time: comment.creationTime,
    time: comment.creationTime,
    is_private: comment.isPrivate,
    is_markdown: comment.isMarkdown,
    tags: comment.tags ?? [],
  };
}

export function historyView(
  entries: readonly HistoryEntry[],
  login: (id: number) => string,
  newSince?: string,
  options: { insider?: boolean } = {},
) {
  const since = newSince ? Date.parse(newSince) : undefined;
  return (
    mergeHistory(entries)
      .filter((entry) => since === undefined || Date.parse(entry.when) > since)
      // Who made which comment private is for the insiders who may read such comments.
      .map((entry) => ({
        when: entry.when,
        who: login(entry.whoId),
        changes: options.insider
          ? entry.changes
          : entry.changes.filter((change) => change.field_name !== 'longdescs.isprivate'),
      }))
      .filter((entry) => entry.changes.length > 0)
  );
}

/** Rendered bugs (or faults) for ids and aliases, in the order asked. */
export async function getBugs(
  caller: Caller,
  references: ReadonlyArray<string | number>,
  fields: FieldSelection,
  /** `load` replaces the table read (a search page may come from its instance's copies). */
  options: { permissive?: boolean; load?: (ids: readonly number[]) => Promise<Map<number, StoredBug>> } = {},
) {
  const faults: Array<{ id: string | number; faultString: string; faultCode: number }> = [];
  const failed = (reference: string | number, error: unknown) => {
    if (!(error instanceof TrackerError) || !options.permissive) throw error;
    faults.push({ id: reference, faultString: error.message, faultCode: error.code });
  };
  // The catalogue and the bugs are read side by side: one round trip before the users' batch.
  const ids = await Promise.all(
    references.map((reference) =>
      resolveBugId(reference).catch((error) => {
        failed(reference, error);
        return null;
      }),
    ),
  );
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  const [bugCatalog, stored] = await Promise.all([loadBugCatalog(), (options.load ?? loadBugs)(wanted)]);
  const bugs: Bug[] = [];
  for (const id of wanted) {
    try {
      bugs.push(visibleBug(caller, stored.get(id), id, bugCatalog).bug);
    } catch (error) {
      failed(id, error);
    }
  }
  const extras = {
    description: fields.wants('description', 'extra'),
    comments: fields.wants('comments', 'extra'),
    history: fields.wants('history', 'extra'),
    attachments: fields.wants('attachments', 'extra'),
  };
  const [users, extraData] = await Promise.all([
    usersById(userIdsOf(bugs, bugCatalog.catalog)),
    Promise.all(
      bugs.map(async (bug) => ({
        comments: extras.comments
          ? await loadComments(bug.id)
          : extras.description
            ? [await loadComment(bug.id, 0)].filter((comment): comment is StoredComment => comment !== null)
            : [],
        history: extras.history ? await loadHistory(bug.id) : [],
        // Attachments (metadata, never bodies) serve the `attachments` field and the summaries that attachment comments show.
        attachments:
          (extras.comments || extras.attachments) && bug.attachmentCount > 0 ? await loadAttachmentsOfBug(bug.id) : [],
      })),
    ),
  ]);
  const extraUserIds = extraData
    .flatMap((data) => [
      ...data.comments.map((comment) => comment.creatorId),
      ...data.history.map((entry) => entry.whoId),
      ...data.attachments.flatMap((attachment) => [
        attachment.creatorId,
        ...attachment.flags.flatMap((flag) => [
          flag.setterId,
          ...(flag.requesteeId === null ? [] : [flag.requesteeId]),
        ]),
      ]),
    ])
    .filter((id) => !users.has(id));
  if (extraUserIds.length > 0) for (const [id, user] of await usersById(extraUserIds)) users.set(id, user);
  const context = bugViewContext(caller, bugCatalog, users);
  const login = (id: number) => users.get(id)?.login ?? '';
  const parameters = bugCatalog.catalog.parameters;
  const wantsToken = fields.wants('update_token');
  const views = bugs.map((bug, index) => {
    const { comments, history, attachments } = extraData[index];
    const summaries = new Map(attachments.map((attachment) => [attachment.id, attachment.summary]));
    const readable = comments.filter((comment) => mayReadComment(caller, parameters, comment));
    // An HMAC per bug: only when the caller will get it (a 1,000-bug search page rarely asks).
    return bugView(
      bug,
      { ...context, updateToken: isLoggedIn(caller) && wantsToken ? updateToken(caller.user.id, bug) : undefined },
      {
        // A private description is text like any private comment: only insiders read it.
        description: extras.description
          ? commentText(readable.find((comment) => comment.count === 0) ?? { rawText: '' })
          : undefined,
        comments: extras.comments
          ? readable.map((comment) => commentView(comment, login, (id) => summaries.get(id)))
          : undefined,
        history: extras.history
          ? historyView(history, login, undefined, { insider: isInsider(caller, parameters) })
          : undefined,
        attachments: extras.attachments
          ? attachments
              .filter((attachment) => maySeeAttachment(caller, parameters, attachment))
              .map((attachment) => attachmentView(caller, attachment, users, context.flagTypeName, undefined))
          : undefined,
      },
    );
  });
  return { faults, bugs: views };
}

/** GET /rest/bug/{id}/history. */
export async function getBugHistory(caller: Caller, references: ReadonlyArray<string | number>, newSince?: string) {
  const bugCatalog = await loadBugCatalog();
  const ids = await Promise.all(references.map(resolveBugId));
  const stored = await loadBugs(ids);
  const bugs = [...new Set(ids)].map((id) => visibleBug(caller, stored.get(id), id, bugCatalog).bug);
  const histories = await Promise.all(bugs.map((bug) => loadHistory(bug.id)));
  const users = await usersById([...new Set(histories.flat().map((entry) => entry.whoId))]);
  const login = (id: number) => users.get(id)?.login ?? '';
  return {
    bugs: bugs.map((bug, index) => ({
      id: bug.id,
      alias: bug.alias,
      history: historyView(histories[index], login, newSince, {
        insider: isInsider(caller, bugCatalog.catalog.parameters),
      }),
    })),
  };
}

// ---- writing ---------------------------------------------------------------------------------

/**
 * Bug writes run read-compute-write until the write lands on the revisions it read
 * (retryOnConflict): a change made by another request in between makes this one start over from
 * a fresh read, so neither change is lost and every rule is checked against what is stored.
 * Every lost round means another request's change landed, so ten writers of one bug at once all
 * finish within ten rounds; twelve leave room for the bugs a relation touches.
 */
export const withFreshReads = <T>(work: () => Promise<T>) => retryOnConflict(work, { attempts: 12 });

const flagInputCount = (input: Record<string, unknown>) =>
  [input.flags].flat().filter((flag) => flag && typeof flag === 'object').length;

/** Numbers the comments of a write and gives each its global id. */
async function numberComments(outcome: Pick<UpdateOutcome, 'comments'>, working: WorkingSet): Promise<StoredComment[]> {
  if (outcome.comments.length === 0) return [];
  const ids = await allocateIds('comment', outcome.comments.length);
  return outcome.comments.map((comment, index) => {
    const bug = working.get(comment.bugId)!;
    const count = bug.commentCount;
    working.set(bug.id, {
      ...bug,
      commentCount: count + 1,
      privateCommentCount: (bug.privateCommentCount ?? 0) + (comment.isPrivate ? 1 : 0),
    });
    return { ...comment, id: ids[index], count, attachmentId: null, tags: [] };
  });
}

/** Refuses a change that would make a bug depend on itself through others (116). */
async function assertNoDependencyLoop(
  working: WorkingSet,
  roots: readonly number[],
  revisions: Map<number, number>,
): Promise<Array<{ bugId: number; rev: number }>> {
  const walked: Array<{ bugId: number; rev: number }> = [];
  for (const root of roots) {
    const seen = new Set<number>();
    let frontier = [...(working.get(root)?.dependsOn ?? [])];
    while (frontier.length > 0) {
      if (frontier.includes(root))
        throw errors.dependencyLoop(`Making these changes would create a dependency loop involving bug ${root}.`);
      const unknown = frontier.filter((id) => !working.has(id) && !seen.has(id));
      const loaded = unknown.length > 0 ? await loadBugs(unknown) : new Map<number, StoredBug>();
      const next: number[] = [];
      for (const id of frontier) {
        if (seen.has(id)) continue;
        seen.add(id);
        const bug = working.get(id) ?? loaded.get(id)?.bug;
        if (!bug) continue;
        const stored = loaded.get(id);
        if (stored && !revisions.has(id) && walked.length < 40) walked.push({ bugId: id, rev: stored.rev });
        next.push(...bug.dependsOn);
      }
      frontier = next;
    }
  }
  return walked;
}

/** Refuses a duplicate whose target is (through others) a duplicate of it (118). */
async function assertNoDuplicateLoop(working: WorkingSet, links: UpdateOutcome['duplicateLinks']): Promise<void> {
  for (const { bugId, dupeOf } of links) {
    let current: number | null = dupeOf;
    const seen = new Set<number>();
    while (current !== null && !seen.has(current)) {
      if (current === bugId) throw errors.duplicateLoop(bugId, dupeOf);
      seen.add(current);
      const bug: Bug | undefined = working.get(current) ?? (await loadBugs([current])).get(current)?.bug;
      current = bug?.dupeOf ?? null;
    }
  }
}

/** The bugs a write starts from, as read (strongly consistent), with their revisions; 101/102 for any other. */
async function readVisibleBugs(caller: Caller, ids: readonly number[], bugCatalog: BugCatalog) {
  const stored = await loadBugs(ids);
  const original = new Map<number, Bug>();
  const revisions = new Map<number, number>();
  for (const id of ids) {
    const found = visibleBug(caller, stored.get(id), id, bugCatalog);
    original.set(id, found.bug);
    revisions.set(id, found.rev);
  }
  return { original, revisions };
}

/** POST /rest/bug. */
export async function createBug(
  caller: Caller,
  input: Record<string, unknown>,
  filedVia: string,
): Promise<{ id: number }> {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  const [bugCatalog, userIds] = await Promise.all([loadBugCatalog(), resolveLogins(loginsIn(input))]);
  const flagCount = flagInputCount(input);
  const flagIds = flagCount > 0 ? await allocateIds('flag', flagCount) : [];
  // Checked before an id is taken, so a refused bug uses no number.
  planNewBug(bugEnvironment(caller, bugCatalog, userIds, new Map(), flagIds), input, 0, filedVia);
  const id = await allocateId('bug');
  await withFreshReads(async () => {
    const env = bugEnvironment(caller, bugCatalog, userIds, new Map(), flagIds);
    const plan = planNewBug(env, input, id, filedVia);
    const related = [...plan.bug.dependsOn, ...plan.bug.blocks, ...plan.bug.regressedBy, ...plan.bug.regressions];
    const { original, revisions } = await readVisibleBugs(caller, related, bugCatalog);
    const working: WorkingSet = new Map([...original].map(([key, bug]) => [key, structuredClone(bug)]));
    const empty: Bug = { ...plan.bug, dependsOn: [], blocks: [], regressedBy: [], regressions: [] };
    working.set(id, plan.bug);
    syncRelations(working, empty, plan.bug);
    const walked =
      plan.bug.dependsOn.length > 0 && plan.bug.blocks.length > 0
        ? await assertNoDependencyLoop(working, [id], revisions)
        : [];
    const users = await usersById(userIdsOf([...working.values()], bugCatalog.catalog));
    const names = bugNames(bugCatalog, users);
    const history: HistoryEntry[] = [];
    const updated: Array<{ bug: Bug; rev: number; previousAlias: string | null }> = [];
    for (const [otherId, before] of original) {
      const after = { ...working.get(otherId)!, lastChangeTime: env.now };
      const changes = historyChanges(diffBugs(before, after, names));
      if (changes.length === 0) continue;
      history.push({ bugId: otherId, when: env.now, whoId: caller.user.id, changes });
      updated.push({ bug: after, rev: revisions.get(otherId)!, previousAlias: before.alias });
    }
    const [commentId] = await allocateIds('comment', 1);
    await commitBugWrite({
      created: [plan.bug],
      updated,
      comments: [{ ...plan.description, id: commentId, count: 0, attachmentId: null, tags: [] }],
      history,
      unchanged: walked,
    });
  });
  return { id };
}

/** PUT /rest/bug/{id} (and `ids`): every bug is checked before any is written, and all land together. */
export async function updateBugs(
  caller: Caller,
  references: ReadonlyArray<string | number>,
  input: Record<string, unknown>,
) {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  const [bugCatalog, userIds, targetIds] = await Promise.all([
    loadBugCatalog(),
    resolveLogins(loginsIn(input)),
    Promise.all(references.map(resolveBugId)),
  ]);
  const targets = [...new Set(targetIds)];
  if (targets.length === 0)
    throw errors.missingParameter('You must give the id or alias of at least one bug to update.');
  const flagCount = flagInputCount(input) * targets.length;
  const flagIds = flagCount > 0 ? await allocateIds('flag', flagCount) : [];
  const privacy = requestedCommentPrivacy(input.comment_is_private);

  return withFreshReads(async () => {
    const { original, revisions } = await readVisibleBugs(caller, targets, bugCatalog);
    const relatedIds = [...new Set(targets.flatMap((id) => relatedBugIds(input, original.get(id)!)))].filter(
      (id) => !original.has(id),
    );
    const storedRelated = await loadBugs(relatedIds);
    for (const [id, stored] of storedRelated) {
      original.set(id, stored.bug);
      revisions.set(id, stored.rev);
    }
    const working: WorkingSet = new Map([...original].map(([id, bug]) => [id, structuredClone(bug)]));
    const users = await usersById([
      ...new Set([...userIdsOf([...original.values()], bugCatalog.catalog), ...userIds.values()]),
    ]);
    const names = bugNames(bugCatalog, users);
    const env = bugEnvironment(caller, bugCatalog, userIds, users, flagIds);

    const outcomes: UpdateOutcome[] = [];
    for (const id of targets) outcomes.push(applyBugUpdate(env, working, original, id, input, names));
    const roots = outcomes.flatMap((outcome) => outcome.dependencyRoots);
    const walked = roots.length > 0 ? await assertNoDependencyLoop(working, roots, revisions) : [];
    await assertNoDuplicateLoop(
      working,
      outcomes.flatMap((outcome) => outcome.duplicateLinks),
    );

    const privacyChanges = new Map<number, CommentPrivacyChange[]>();
    const commentsBefore = new Map<number, StoredComment[]>();
    const extraHistory = new Map(outcomes.flatMap((outcome) => [...outcome.extraHistory]));
    if (privacy && privacy.size > 0) {
      // Existing comments first, on the bug as read: the update's own new comment has no id yet.
      const stored = await Promise.all(targets.map((id) => loadComments(id)));
      targets.forEach((id, position) => {
        const plan = planCommentPrivacy(caller, bugCatalog.catalog.parameters, id, stored[position]!, privacy);
        if (plan.changes.length === 0) return;
        privacyChanges.set(id, plan.changes);
        commentsBefore.set(id, stored[position]!);
        const bug = working.get(id)!;
        working.set(id, { ...bug, privateCommentCount: (bug.privateCommentCount ?? 0) + plan.privateDelta });
        extraHistory.set(id, [...(extraHistory.get(id) ?? []), ...plan.history]);
      });
    }
    const comments = await numberComments({ comments: outcomes.flatMap((outcome) => outcome.comments) }, working);
    const history: HistoryEntry[] = [];
    const updated: Array<{ bug: Bug; rev: number; previousAlias: string | null }> = [];
    const changesById = new Map<number, ReturnType<typeof diffBugs>>();
    for (const [id, before] of original) {
      const candidate = working.get(id)!;
      const changes = diffBugs(before, candidate, names);
      changesById.set(id, changes);
      const entries = [...historyChanges(changes), ...(extraHistory.get(id) ?? [])];
      const touched =
        entries.length > 0 ||
        Object.keys(changes).length > 0 ||
        candidate.commentCount !== before.commentCount ||
        JSON.stringify(candidate) !== JSON.stringify(before);
      if (!touched) continue;
      const after = { ...candidate, lastChangeTime: env.now };
      working.set(id, after);
      if (entries.length > 0) history.push({ bugId: id, when: env.now, whoId: caller.user.id, changes: entries });
      updated.push({ bug: after, rev: revisions.get(id)!, previousAlias: before.alias });
    }
    // The search index replaces these bugs' comment words: a comment that became private must stop
    // matching outsiders' comment searches, and one made public must start.
    const allComments = new Map(
      [...commentsBefore].map(([id, before]) => {
        const changed = new Map(privacyChanges.get(id)!.map((change) => [change.count, change.isPrivate]));
        return [
          id,
          [
            ...before.map((comment) => ({
              rawText: comment.rawText,
              isPrivate: changed.get(comment.count) ?? comment.isPrivate,
            })),
            ...comments.filter((comment) => comment.bugId === id),
          ],
        ];
      }),
    );
    await commitBugWrite({
      created: [],
      updated,
      comments,
      history,
      unchanged: walked,
      allComments,
      extend: (transaction) => {
        for (const [id, changes] of privacyChanges)
          for (const change of changes) setCommentPrivacy(transaction, id, change.count, change.isPrivate);
      },
    });
    return {
      bugs: targets.map((id) => ({
        id,
        alias: working.get(id)!.alias,
        last_change_time: working.get(id)!.lastChangeTime,
        changes: changesById.get(id) ?? {},
      })),
    };
  });
}
