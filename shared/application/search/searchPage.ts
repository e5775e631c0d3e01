import type { Bug } from '../../domain/bug/bug.ts';
import { canSeeBug, isInsider, isTimeTracker } from '../../domain/bug/bugAccess.ts';
import { bugResourceFields, bugView, viewerTags } from '../../domain/bug/bugView.ts';
import type { FieldSelection } from '../../domain/fieldSelection.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { RawJson } from '../../domain/rawJson.ts';
import { loadBugs, type StoredBug } from '../../storage/bug/bugStore.ts';
import { currentStamp } from '../../storage/catalog/catalogCache.ts';
import { bugViewContext, loadBugCatalog, updateToken, userIdsOf, usersById } from '../bug/bugContext.ts';
import { getBugs } from '../bug/bugReading.ts';
import { groupNameIn } from '../catalog/catalogContext.ts';
import type { SearchState } from './searchIndexHolder.ts';

/**
 * The bugs of a search page, rendered as Get Bug renders them (docs/data-model.md §8.7). A search
 * instance keeps what it read and what it rendered: bugs come from its copies when a copy is as
 * new as the index's revision of the bug, and their JSON from the texts rendered for an earlier
 * page when the revision, the field selection and the kind of viewer are the same. Only the
 * viewer's own fields (update_token, tags) are computed for every request.
 */

/** Extra fields that cost reads of their own (comments, history, attachments): such pages take Get Bug's path. */
const EXTRAS_WITH_READS = ['description', 'comments', 'history', 'attachments'];
const BUG_FIELDS = bugResourceFields();

/** Bugs that vanished meanwhile or that the caller may not see are left out; the rest keep the order of `ids`. */
export async function renderSearchPage(
  caller: Caller,
  ids: readonly number[],
  fields: FieldSelection,
  search?: SearchState,
): Promise<unknown[]> {
  if (ids.length === 0) return [];
  if (!search || EXTRAS_WITH_READS.some((name) => fields.wants(name, 'extra'))) {
    return (
      await getBugs(caller, ids, fields, { permissive: true, load: search && ((wanted) => pageBugs(search, wanted)) })
    ).bugs;
  }
  const [bugCatalog, stored, stamp] = await Promise.all([loadBugCatalog(), pageBugs(search, ids), currentStamp()]);
  const { parameters } = bugCatalog.catalog;
  const groupName = groupNameIn(bugCatalog.catalog);
  const orGroups = parameters.or_groups === '1';
  const visible = ids
    .map((id) => stored.get(id))
    .filter((entry): entry is StoredBug => entry !== undefined && canSeeBug(caller, entry.bug, groupName, orGroups));

  const { rendered } = search;
  const cacheable = rendered.useStamp(stamp.catalog, stamp.users);
  const insider = isInsider(caller, parameters);
  const variant = `${fields.signature}|${isLoggedIn(caller) ? 1 : 0}${insider ? 1 : 0}${isTimeTracker(caller, parameters) ? 1 : 0}`;
  // `counts.attachments` counts a private attachment for whoever attached it too: that viewer's text is their own.
  const ownText = (bug: Bug) =>
    !insider && isLoggedIn(caller) && (bug.privateAttachments ?? []).some((mark) => mark.creatorId === caller.user.id);
  const texts = new Map<number, string>();
  const missing: StoredBug[] = [];
  for (const entry of visible) {
    const text = cacheable && !ownText(entry.bug) ? rendered.get(entry.bug.id, entry.rev, variant) : undefined;
    if (text === undefined) missing.push(entry);
    else texts.set(entry.bug.id, text);
  }
  if (missing.length > 0) {
    const users = await usersById(
      userIdsOf(
        missing.map((entry) => entry.bug),
        bugCatalog.catalog,
      ),
    );
    const context = bugViewContext(caller, bugCatalog, users);
    for (const { bug, rev } of missing) {
      // Without the viewer's own fields: those are added below, for each request.
      const { tags, ...view } = bugView(bug, context);
      void tags;
      const text = JSON.stringify(fields.apply(view, BUG_FIELDS));
      texts.set(bug.id, text);
      if (cacheable && !ownText(bug)) rendered.put(bug.id, rev, variant, text);
    }
  }

  const wantsToken = isLoggedIn(caller) && fields.wants('update_token');
  const wantsTags = fields.wants('tags', 'extra');
  return visible.map(({ bug }) => {
    const text = texts.get(bug.id)!;
    if (!wantsToken && !wantsTags) return new RawJson(text);
    const own: string[] = [];
    if (wantsToken) own.push(`"update_token":${JSON.stringify(updateToken(caller.user!.id, bug))}`);
    if (wantsTags) own.push(`"tags":${JSON.stringify(viewerTags(bug, caller))}`);
    return new RawJson(text === '{}' ? `{${own.join(',')}}` : `${text.slice(0, -1)},${own.join(',')}}`);
  });
}

/**
 * The page's bugs as the index holds them (it holds every field, as fresh as the search that
 * picked them: indexedBugs.ts), else from this instance's copies where a copy is as new as the
 * index's revision of the bug, else read from the table.
 */
async function pageBugs({ index, copies }: SearchState, ids: readonly number[]): Promise<Map<number, StoredBug>> {
  const found = new Map<number, StoredBug>();
  const missing: number[] = [];
  for (const id of ids) {
    const slot = index.slotOf(id);
    const indexed = slot === undefined ? undefined : index.bugAt(slot);
    if (indexed) {
      found.set(id, { bug: indexed, rev: index.rev[slot!]! });
      continue;
    }
    const copy = slot === undefined ? undefined : copies.fresh(id, index.rev[slot]);
    if (copy) found.set(id, copy);
    else missing.push(id);
  }
  if (missing.length > 0) {
    for (const [id, stored] of await loadBugs(missing)) {
      copies.offer(stored);
      found.set(id, stored);
    }
  }
  return found;
}
