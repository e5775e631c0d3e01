import type { Bug } from '../../domain/bug/bug.ts';
import { MAX_TAG_LENGTH } from '../../domain/bug/bug.ts';
import { parseListChange } from '../../domain/bug/bugFieldRules.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { characterCount } from '../../domain/inputLimits.ts';
import { toBugzillaDateTime } from '../../domain/time.ts';
import { errors } from '../../errors.ts';
import { commitBugWrite, loadLastVisits, putLastVisits } from '../../storage/bug/bugStore.ts';
import { retryOnConflict } from '../../storage/transaction.ts';
import { loadBugCatalog } from './bugContext.ts';
import { visibleBugs } from './bugVisibility.ts';

/** Personal tags and last visits: per-user marks on bugs that never change the bug for others. */

function checkTag(value: unknown): string {
  const tag = String(value ?? '').trim();
  if (tag === '') throw errors.invalidParameter('A tag cannot be empty.');
  if (characterCount(tag) > MAX_TAG_LENGTH)
    throw errors.invalidParameter(`The tag '${tag.slice(0, 50)}' is too long: at most ${MAX_TAG_LENGTH} characters.`);
  if (/[,\s]/.test(tag) || /[\u0000-\u001f\u007f]/.test(tag))
    throw errors.invalidParameter(`The tag '${tag}' contains a comma, a space or a control character.`);
  return tag;
}

/** PUT /rest/bug/{id}/tags: `{add, remove}`; answers `{changes: {bugId: {added, removed}}}` as Bugzilla's update_tags. */
export async function updateBugTags(caller: Caller, references: ReadonlyArray<string | number>, change: unknown) {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  const tags = parseListChange('tags', change, checkTag);
  const me = String(caller.user.id);
  const bugCatalog = await loadBugCatalog();
  return retryOnConflict(async () => {
    const bugs = await visibleBugs(caller, references, bugCatalog);
    const changes: Record<string, { added: string[]; removed: string[] }> = {};
    const updated: Array<{ bug: Bug; rev: number; previousAlias: string | null }> = [];
    for (const { bug, rev } of bugs) {
      const current = bug.tags?.[me] ?? [];
      const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
      let next = tags.set ? [...tags.set] : [...current];
      next = next.filter((tag) => !tags.remove.some((removed) => same(removed, tag)));
      for (const tag of tags.add) if (!next.some((existing) => same(existing, tag))) next.push(tag);
      const added = next.filter((tag) => !current.some((existing) => same(existing, tag)));
      const removed = current.filter((tag) => !next.some((kept) => same(kept, tag)));
      changes[String(bug.id)] = { added, removed };
      if (added.length === 0 && removed.length === 0) continue;
      const nextTags = { ...(bug.tags ?? {}), [me]: next.sort() };
      if (next.length === 0) delete nextTags[me];
      updated.push({ bug: { ...bug, tags: nextTags }, rev, previousAlias: bug.alias });
    }
    await commitBugWrite({ created: [], updated, comments: [], history: [] });
    return { changes };
  });
}

const isInvolved = (bug: Bug, userId: number) =>
  bug.reporterId === userId || bug.assigneeId === userId || bug.qaContactId === userId || bug.ccIds.includes(userId);

function requireInvolved(bug: Bug, userId: number): void {
  if (!isInvolved(bug, userId))
    throw errors.userNotInvolved(
      `You are not involved with bug ${bug.id}: only its reporter, assignee, QA contact and CC list keep last visits.`,
    );
}

const lastVisitView = (visit: { bugId: number; lastVisitTs: string }) => ({
  id: visit.bugId,
  last_visit_ts: visit.lastVisitTs,
});

/** POST /rest/bug_user_last_visit[/{id}]: records now as the caller's last visit of each bug. */
export async function recordLastVisits(caller: Caller, references: ReadonlyArray<string | number>) {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  if (references.length === 0) throw errors.missingParameter('You must give the ids of the bugs you visited.');
  const bugCatalog = await loadBugCatalog();
  const bugs = await visibleBugs(caller, references, bugCatalog);
  for (const { bug } of bugs) requireInvolved(bug, caller.user.id);
  const now = new Date();
  const keepDays = Number(bugCatalog.catalog.parameters.last_visit_keep_days ?? 10) || 10;
  const visits = bugs.map(({ bug }) => ({
    bugId: bug.id,
    lastVisitTs: toBugzillaDateTime(now),
    expiresAt: Math.floor(now.getTime() / 1000) + keepDays * 86_400,
  }));
  await putLastVisits(caller.user.id, visits);
  return visits.map(lastVisitView);
}

/** GET /rest/bug_user_last_visit[/{id}]: the caller's visits of these bugs, or their 20 latest. */
export async function lastVisits(caller: Caller, references: ReadonlyArray<string | number>) {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  const nowSeconds = Math.floor(Date.now() / 1000);
  const stored = (await loadLastVisits(caller.user.id)).filter((visit) => visit.expiresAt > nowSeconds);
  if (references.length === 0) {
    return stored
      .sort((a, b) => b.lastVisitTs.localeCompare(a.lastVisitTs) || b.bugId - a.bugId)
      .slice(0, 20)
      .map(lastVisitView);
  }
  const bugCatalog = await loadBugCatalog();
  const bugs = await visibleBugs(caller, references, bugCatalog);
  for (const { bug } of bugs) requireInvolved(bug, caller.user.id);
  const wanted = new Set(bugs.map(({ bug }) => bug.id));
  return stored
    .filter((visit) => wanted.has(visit.bugId))
    .sort((a, b) => a.bugId - b.bugId)
    .map(lastVisitView);
}
