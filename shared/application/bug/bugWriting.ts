import type { Bug, HistoryEntry } from '../../domain/bug/bug.ts';
import { diffBugs, historyChanges } from '../../domain/bug/bugChanges.ts';
import {
  type CommentPrivacyChange,
  planCommentPrivacy,
  requestedCommentPrivacy,
} from '../../domain/bug/bugComments.ts';
import { planNewBug } from '../../domain/bug/bugCreation.ts';
import { applyBugUpdate } from '../../domain/bug/bugUpdate.ts';
import { relatedBugIds, syncRelations, type UpdateOutcome, type WorkingSet } from '../../domain/bug/bugWorkingSet.ts';
import { withCurrentNames } from '../../domain/catalog/fieldValues.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { errors } from '../../errors.ts';
import { setCommentPrivacy } from '../../storage/bug/attachmentStore.ts';
import {
  commitBugWrite,
  loadBugs,
  loadComments,
  type StoredBug,
  type StoredComment,
} from '../../storage/bug/bugStore.ts';
import { allocateId, allocateIds } from '../../storage/counterStore.ts';
import { retryOnConflict } from '../../storage/transaction.ts';
import {
  type BugCatalog,
  bugEnvironment,
  bugNames,
  loadBugCatalog,
  loadRequestees,
  loginsIn,
  requesteesIn,
  resolveLogins,
  userIdsOf,
  usersById,
  usersWithGroups,
} from './bugContext.ts';
import { resolveBugReferences, visibleBug } from './bugVisibility.ts';

/** Filing and changing bugs (docs/data-model.md §7.2). */

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

/**
 * The default CCs of every component an update may move its bugs to: a bug that changes
 * component takes on its CC list, whose logins the changes then name.
 */
function defaultCcsWithin(bugCatalog: BugCatalog, input: Record<string, unknown>, bugs: readonly Bug[]): number[] {
  if (input.component === undefined && input.product === undefined) return [];
  const named = typeof input.product === 'string' ? input.product.trim().toLowerCase() : undefined;
  const productIds = new Set(bugs.map((bug) => bug.productId));
  return bugCatalog.catalog.products
    .filter((record) => productIds.has(record.product.id) || record.product.name.toLowerCase() === named)
    .flatMap((record) => record.components.flatMap((component) => component.defaultCcIds));
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

/**
 * The bugs a write starts from, as read (strongly consistent), with their revisions; 101/102 for
 * any other, naming each bug as the caller did (`named`: an alias stays an alias). Their statuses,
 * priorities... are under their values' current names (a rename rewrote no bug item), so the
 * write compares and records them as Bugzilla, which rewrites bugs on a rename, would.
 */
async function readVisibleBugs(
  caller: Caller,
  ids: readonly number[],
  bugCatalog: BugCatalog,
  named?: ReadonlyMap<number, string | number>,
) {
  const stored = await loadBugs(ids);
  const original = new Map<number, Bug>();
  const revisions = new Map<number, number>();
  for (const id of ids) {
    const found = visibleBug(caller, stored.get(id), id, bugCatalog, named?.get(id));
    original.set(id, withCurrentNames(found.bug, bugCatalog.catalog.fieldValues));
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
  const [flagIds, requestees] = await Promise.all([
    flagCount > 0 ? allocateIds('flag', flagCount) : [],
    loadRequestees(requesteesIn(input.flags), userIds, bugCatalog.catalog.groups),
  ]);
  // Checked before an id is taken, so a refused bug uses no number.
  planNewBug(bugEnvironment(caller, bugCatalog, userIds, new Map(), flagIds, requestees), input, 0, filedVia);
  const id = await allocateId('bug');
  await withFreshReads(async () => {
    const env = bugEnvironment(caller, bugCatalog, userIds, new Map(), flagIds, requestees);
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
  const [bugCatalog, userIds, named] = await Promise.all([
    loadBugCatalog(),
    resolveLogins(loginsIn(input)),
    resolveBugReferences(references),
  ]);
  const targets = [...named.keys()];
  if (targets.length === 0)
    throw errors.missingParameter('You must give the id or alias of at least one bug to update.');
  const flagCount = flagInputCount(input) * targets.length;
  const flagIds = flagCount > 0 ? await allocateIds('flag', flagCount) : [];
  const privacy = requestedCommentPrivacy(input.comment_is_private);

  return withFreshReads(async () => {
    const { original, revisions } = await readVisibleBugs(caller, targets, bugCatalog, named);
    const { urlbase } = bugCatalog.catalog.parameters;
    const relatedIds = [...new Set(targets.flatMap((id) => relatedBugIds(input, original.get(id)!, urlbase)))].filter(
      (id) => !original.has(id),
    );
    const storedRelated = await loadBugs(relatedIds);
    for (const [id, stored] of storedRelated) {
      original.set(id, withCurrentNames(stored.bug, bugCatalog.catalog.fieldValues));
      revisions.set(id, stored.rev);
    }
    const working: WorkingSet = new Map([...original].map(([id, bug]) => [id, structuredClone(bug)]));
    const targetBugs = targets.map((id) => original.get(id)!);
    const users = await usersById([
      ...new Set([
        ...userIdsOf([...original.values()], bugCatalog.catalog),
        ...userIds.values(),
        ...defaultCcsWithin(bugCatalog, input, targetBugs),
      ]),
    ]);
    const names = bugNames(bugCatalog, users);
    // Read with the users just above (the instance's user cache): no further round trip. The
    // reporters of bugs marked duplicates join the target's CC list only if they can see it.
    const { groups } = bugCatalog.catalog;
    const marksDuplicates = input.dupe_of !== undefined && input.dupe_of !== null && input.dupe_of !== '';
    const [requestees, reporters] = await Promise.all([
      loadRequestees(requesteesIn(input.flags), userIds, groups),
      marksDuplicates
        ? usersWithGroups(
            targetBugs.map((bug) => bug.reporterId),
            groups,
          )
        : new Map(),
    ]);
    const involved = new Map([...reporters, ...requestees]);
    const env = bugEnvironment(caller, bugCatalog, userIds, users, flagIds, involved);

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
