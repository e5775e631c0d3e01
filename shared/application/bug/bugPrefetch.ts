import { loadBugWithAttachments } from '../../storage/bug/attachmentStore.ts';
import { loadBugs, loadHistory } from '../../storage/bug/bugStore.ts';
import { loadBugConversation } from '../../storage/bug/commentStore.ts';
import { loadBugCatalog, loginsIn, resolveLogins, userIdsOf, usersById } from './bugContext.ts';
import { resolveBugId } from './bugVisibility.ts';
import { visibilityContext } from './comments.ts';

/**
 * What the bug read endpoints will read, asked for before the caller is known (their `prefetch`,
 * see endpointChain.ts): the bug partitions and the people they name then travel in the same
 * batches as authentication's own reads (the API key beside the catalogue stamp and the bug; the
 * caller beside the people). Nothing here is shown to anyone: getBugs, getComments and the others
 * read the same items again, from the request's memo, and decide visibility as always.
 */
export type Prefetch = (references: ReadonlyArray<string | number>) => Promise<unknown>;

const bugIdsOf = (references: ReadonlyArray<string | number>) => Promise.all(references.map(resolveBugId));

/** GET /rest/bug: the bugs and the people in their fields. */
export const prefetchBugs: Prefetch = async (references) => {
  const [bugCatalog, stored] = await Promise.all([loadBugCatalog(), loadBugs(await bugIdsOf(references))]);
  await usersById(
    userIdsOf(
      [...stored.values()].map(({ bug }) => bug),
      bugCatalog.catalog,
    ),
  );
};

/** POST /rest/bug: the people the new bug names, by login. */
export const prefetchNewBug = (input: Record<string, unknown>) => resolveLogins(loginsIn(input));

/** PUT /rest/bug: the bugs to change, the people in them and the people the change names. */
export const prefetchBugUpdate = (references: ReadonlyArray<string | number>, input: Record<string, unknown>) =>
  Promise.all([prefetchBugs(references), resolveLogins(loginsIn(input))]);

/** GET /rest/bug/{id}/history: the bugs, their history and who made it. */
export const prefetchHistory: Prefetch = async (references) => {
  const ids = await bugIdsOf(references);
  await Promise.all([
    loadBugCatalog(),
    loadBugs(ids),
    ...ids.map(async (id) => usersById((await loadHistory(id)).map((entry) => entry.whoId))),
  ]);
};

/** GET /rest/bug/{id}/comment: each bug's partition (bug, comments, attachments) and the commenters. */
export const prefetchComments: Prefetch = async (references) => {
  const ids = await bugIdsOf(references);
  await Promise.all([
    visibilityContext(),
    ...ids.map(async (id) => usersById((await loadBugConversation(id)).comments.map((comment) => comment.creatorId))),
  ]);
};

/** GET /rest/bug/{id}/attachment: each bug with its attachments and the people on them. */
export const prefetchAttachments: Prefetch = async (references) => {
  const ids = await bugIdsOf(references);
  await Promise.all([
    visibilityContext(),
    ...ids.map(async (id) => {
      const { attachments } = await loadBugWithAttachments(id);
      const people = attachments.flatMap((attachment) => [
        attachment.creatorId,
        ...attachment.flags.flatMap((flag) => [flag.setterId, flag.requesteeId]),
      ]);
      return usersById(people.filter((person): person is number => person !== null));
    }),
  ]);
};
