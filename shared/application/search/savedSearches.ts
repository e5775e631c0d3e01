import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import {
  checkMayShare,
  checkSavedSearchName,
  cleanSavedQuery,
  mayRunSavedSearch,
  type SavedSearch,
  type SavedSearchViewer,
} from '../../domain/search/query/savedSearch.ts';
import { errors } from '../../errors.ts';
import { allocateId } from '../../storage/counterStore.ts';
import { type GroupRecord, listGroups } from '../../storage/identity/groupStore.ts';
import { getUsers } from '../../storage/identity/userStore.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';
import {
  deleteSavedSearch,
  findSavedSearch,
  listOwnSavedSearches,
  listSavedSearchesSharedWith,
  type StoredSavedSearch,
  writeSavedSearch,
} from '../../storage/search/savedSearchStore.ts';
import { retryOnConflict } from '../../storage/transaction.ts';

/**
 * Saved searches (Tracker's REST routes for what Bugzilla 5.2 does in buglist.cgi and
 * userprefs.cgi?tab=saved-searches): a person saves, lists, shares and forgets their own named
 * searches, and runs their own or one shared with a group they are in, by name (GET /rest/bug's
 * `savedsearch`, with `sharer_id` for another person's).
 */

/** Searches one person may keep: each is listed on every listing and the web app's home page. */
export const MAX_SAVED_SEARCHES_PER_USER = 200;

function viewerOf(caller: Caller): SavedSearchViewer {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  return { id: caller.user.id, groups: caller.groups };
}

const groupNamed = (groups: readonly GroupRecord[], name: string) => {
  const group = groups.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
  if (!group) throw errors.notFoundByName('group', name);
  return group;
};

/** The group to share with, checked (null: not shared); `undefined` when the request says nothing. */
async function shareGroupOf(
  viewer: SavedSearchViewer,
  requested: string | null | undefined,
): Promise<number | null | undefined> {
  if (requested === undefined) return undefined;
  if (requested === null || requested.trim() === '') return null;
  const [groups, parameters] = await Promise.all([listGroups(), loadParameters()]);
  const group = groupNamed(groups, requested.trim());
  checkMayShare(viewer, parameters.querysharegroup ?? '', group.name);
  return group.id;
}

async function view(searches: readonly StoredSavedSearch[], viewerId: number) {
  const [groups, owners] = await Promise.all([
    listGroups(),
    getUsers([...new Set(searches.map((search) => search.ownerId))]),
  ]);
  const groupNames = new Map(groups.map((group) => [group.id, group.name]));
  const logins = new Map(owners.map((owner) => [owner.id, owner.login]));
  return searches.map((search) => ({
    id: search.id,
    name: search.name,
    query: search.query,
    owner: logins.get(search.ownerId) ?? '',
    owner_id: search.ownerId,
    is_own: search.ownerId === viewerId,
    shared_with_group: search.sharedWithGroupId === null ? null : (groupNames.get(search.sharedWithGroupId) ?? null),
  }));
}

/**
 * Saves a search under a name, as buglist.cgi's "Remember search" (InsertNamedQuery): a name the
 * person already uses (whatever its case) gets the new query and spelling and keeps its sharing.
 */
export async function saveSearch(
  caller: Caller,
  input: { name: string; query: string; shared_with_group?: string | null },
) {
  const viewer = viewerOf(caller);
  const name = checkSavedSearchName(input.name);
  const query = cleanSavedQuery(input.query);
  const share = await shareGroupOf(viewer, input.shared_with_group);
  let id = 0;
  const saved = await retryOnConflict(async () => {
    const existing = await findSavedSearch(viewer.id, name);
    if (!existing) {
      if ((await listOwnSavedSearches(viewer.id)).length >= MAX_SAVED_SEARCHES_PER_USER)
        throw errors.invalidParameter(`A person can keep at most ${MAX_SAVED_SEARCHES_PER_USER} saved searches.`);
      if (id === 0) id = await allocateId('savedsearch');
    }
    const search: SavedSearch = {
      id: existing?.id ?? id,
      ownerId: viewer.id,
      name,
      query,
      sharedWithGroupId: share === undefined ? (existing?.sharedWithGroupId ?? null) : share,
    };
    await writeSavedSearch(search, existing?.rev);
    return { ...search, rev: (existing?.rev ?? 0) + 1 };
  });
  return (await view([saved], viewer.id))[0];
}

/** The caller's own searches, then those shared with a group they are in (Bugzilla's queries_available). */
export async function savedSearchesOf(caller: Caller) {
  const viewer = viewerOf(caller);
  const groups = await listGroups();
  const memberOf = groups.filter((group) => viewer.groups.has(group.name)).map((group) => group.id);
  const [own, shared] = await Promise.all([listOwnSavedSearches(viewer.id), listSavedSearchesSharedWith(memberOf)]);
  const byName = (a: SavedSearch, b: SavedSearch) => a.name.localeCompare(b.name) || a.id - b.id;
  const others = shared.filter((search) => search.ownerId !== viewer.id).sort(byName);
  return { saved_searches: await view([...own.sort(byName), ...others], viewer.id) };
}

/** One of the caller's own searches, by id or name. */
async function ownSearch(viewer: SavedSearchViewer, idOrName: string): Promise<StoredSavedSearch> {
  const found = /^\d+$/.test(idOrName)
    ? (await listOwnSavedSearches(viewer.id)).find((search) => search.id === Number(idOrName))
    : await findSavedSearch(viewer.id, idOrName.trim());
  if (!found) throw errors.savedSearchNotFound(idOrName, false);
  return found;
}

/** Changes the query or the sharing of one of the caller's searches (userprefs.cgi's saved-searches tab). */
export async function changeSavedSearch(
  caller: Caller,
  idOrName: string,
  input: { query?: string; shared_with_group?: string | null },
) {
  const viewer = viewerOf(caller);
  const query = input.query === undefined ? undefined : cleanSavedQuery(input.query);
  const share = await shareGroupOf(viewer, input.shared_with_group);
  const saved = await retryOnConflict(async () => {
    const existing = await ownSearch(viewer, idOrName);
    const search: SavedSearch = {
      ...existing,
      query: query ?? existing.query,
      sharedWithGroupId: share === undefined ? existing.sharedWithGroupId : share,
    };
    await writeSavedSearch(search, existing.rev);
    return { ...search, rev: existing.rev + 1 };
  });
  return (await view([saved], viewer.id))[0];
}

/** Forgets one of the caller's searches (buglist.cgi's remaction=forget); sharing ends with it. */
export async function forgetSavedSearch(caller: Caller, idOrName: string) {
  const viewer = viewerOf(caller);
  const forgotten = await retryOnConflict(async () => {
    const existing = await ownSearch(viewer, idOrName);
    await deleteSavedSearch(existing);
    return existing;
  });
  return { id: forgotten.id, name: forgotten.name };
}

/**
 * The query string of the search `name` that the caller may run: their own, or with `sharerId`
 * another person's shared with a group the caller is in (buglist.cgi's LookupNamedQuery). Not
 * logged in: 410. An unknown name and a search not shared with the caller are one error.
 */
export async function savedSearchQuery(caller: Caller, name: string, sharerId: number | null): Promise<string> {
  const viewer = viewerOf(caller);
  const ownerId = sharerId ?? viewer.id;
  const search = name.trim() === '' ? null : await findSavedSearch(ownerId, name.trim());
  if (search && ownerId !== viewer.id) {
    const groups = await listGroups();
    const groupName = (id: number) => groups.find((group) => group.id === id)?.name;
    if (mayRunSavedSearch(viewer, search, groupName)) return search.query;
  } else if (search) return search.query;
  throw errors.savedSearchNotFound(name, ownerId !== viewer.id);
}

/**
 * Get User's answer with the caller's saved searches on their own account, as 5.2's User.get
 * lists them (`saved_searches`, only on one's own account: userView.ts leaves it empty).
 */
export async function withOwnSavedSearches<Answer extends { users: Array<Record<string, unknown>> }>(
  caller: Caller,
  answer: Answer,
): Promise<Answer> {
  if (!isLoggedIn(caller) || !answer.users.some((user) => user.id === caller.user.id && 'saved_searches' in user))
    return answer;
  const own = (await listOwnSavedSearches(caller.user.id))
    .sort((a, b) => a.id - b.id)
    .map(({ id, name, query }) => ({ id, name, query }));
  return {
    ...answer,
    users: answer.users.map((user) =>
      user.id === caller.user!.id && 'saved_searches' in user ? { ...user, saved_searches: own } : user,
    ),
  };
}
