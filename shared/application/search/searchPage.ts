import type { Bug, PrivateAttachmentMark } from '../../domain/bug/bug.ts';
import { canSeeBug, isInsider, isTimeTracker } from '../../domain/bug/bugAccess.ts';
import { bugResourceFields, bugView, viewerTags } from '../../domain/bug/bugView.ts';
import type { FieldSelection } from '../../domain/fieldSelection.ts';
import { type Caller, inGroup, isLoggedIn } from '../../domain/identity/caller.ts';
import { RawJson } from '../../domain/rawJson.ts';
import { visibilityTest } from '../../domain/search/evaluation/searchVisibility.ts';
import { toBugzillaDateTime } from '../../domain/time.ts';
import { loadBugs, type StoredBug } from '../../storage/bug/bugStore.ts';
import { currentStamp } from '../../storage/catalog/catalogCache.ts';
import {
  type BugCatalog,
  bugViewContext,
  loadBugCatalog,
  updateToken,
  userIdsOf,
  usersById,
} from '../bug/bugContext.ts';
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
  const [bugCatalog, entries, stamp] = await Promise.all([loadBugCatalog(), pageEntries(search, ids), currentStamp()]);
  const { parameters } = bugCatalog.catalog;
  const groupName = groupNameIn(bugCatalog.catalog);
  const orGroups = parameters.or_groups === '1';
  // The index may have moved on since the search (another request's catch-up): visibility again,
  // by the same rule, from the index for its bugs and from the bug for those read from the table.
  const visibleSlot = visibilityTest(search.index, caller.user?.id ?? 0, callerGroupIds(caller, bugCatalog), orGroups);
  const visible = entries.filter((entry) =>
    entry.slot === undefined ? canSeeBug(caller, entry.bug(), groupName, orGroups) : visibleSlot(entry.slot),
  );

  const { rendered } = search;
  const cacheable = rendered.useStamp(stamp.catalog, stamp.users);
  const insider = isInsider(caller, parameters);
  const variant = `${fields.signature}|${isLoggedIn(caller) ? 1 : 0}${insider ? 1 : 0}${isTimeTracker(caller, parameters) ? 1 : 0}`;
  // `counts.attachments` counts a private attachment for whoever attached it too: that viewer's text is their own.
  const ownText = (entry: PageEntry) =>
    !insider &&
    isLoggedIn(caller) &&
    (entry.privateAttachments ?? []).some((mark) => mark.creatorId === caller.user.id);
  const texts = new Map<number, string>();
  const missing: PageEntry[] = [];
  for (const entry of visible) {
    const text = cacheable && !ownText(entry) ? rendered.get(entry.id, entry.rev, variant) : undefined;
    if (text === undefined) missing.push(entry);
    else texts.set(entry.id, text);
  }
  if (missing.length > 0) {
    const bugs = missing.map((entry) => entry.bug());
    const users = await usersById(userIdsOf(bugs, bugCatalog.catalog));
    const context = {
      ...bugViewContext(caller, bugCatalog, users),
      // Without the viewer's own tags: they are added below, for each request.
      wantsExtra: (name: string) => name !== 'tags' && fields.wants(name, 'extra'),
    };
    missing.forEach((entry, position) => {
      const view = bugView(bugs[position]!, context);
      // The default selection keeps every field of a view without extras: no copy to make.
      const text = JSON.stringify(fields.isDefault ? view : fields.apply(view, BUG_FIELDS));
      texts.set(entry.id, text);
      if (cacheable && !ownText(entry)) rendered.put(entry.id, entry.rev, variant, text);
    });
  }

  const wantsToken = isLoggedIn(caller) && fields.wants('update_token');
  const wantsTags = fields.wants('tags', 'extra');
  return visible.map((entry) => {
    const text = texts.get(entry.id)!;
    if (!wantsToken && !wantsTags) return new RawJson(text);
    const own: string[] = [];
    if (wantsToken)
      own.push(
        `"update_token":${JSON.stringify(updateToken(caller.user!.id, { id: entry.id, lastChangeTime: entry.lastChangeTime() }))}`,
      );
    if (wantsTags) own.push(`"tags":${JSON.stringify(viewerTags(entry, caller))}`);
    return new RawJson(text === '{}' ? `{${own.join(',')}}` : `${text.slice(0, -1)},${own.join(',')}}`);
  });
}

export const callerGroupIds = (caller: Caller, bugCatalog: BugCatalog) =>
  new Set(bugCatalog.catalog.groups.filter((group) => inGroup(caller, group.name)).map((group) => group.id));

/**
 * A bug of the page: in the index (`slot`), whose columns give it back exactly and are rebuilt
 * into a bug only when its JSON is not kept, or read from the table.
 */
interface PageEntry {
  id: number;
  rev: number;
  slot?: number;
  bug(): Bug;
  lastChangeTime(): string;
  tags: Readonly<Record<string, string[]>>;
  privateAttachments: readonly PrivateAttachmentMark[] | undefined;
}

/** The page's bugs in the order of `ids`; bugs gone meanwhile are left out. */
async function pageEntries(search: SearchState, ids: readonly number[]): Promise<PageEntry[]> {
  const { index } = search;
  const fromIndex = new Map<number, PageEntry>();
  const others: number[] = [];
  for (const id of ids) {
    const slot = index.slotOf(id);
    if (slot === undefined || !index.readsBack(slot)) {
      others.push(id);
      continue;
    }
    fromIndex.set(id, {
      id,
      slot,
      rev: index.rev[slot]!,
      bug: () => index.bugAt(slot)!,
      lastChangeTime: () => toBugzillaDateTime(new Date(index.lastChangeTime[slot]!)),
      tags: index.tags.get(slot) ?? {},
      privateAttachments: index.privateAttachmentsAt(slot),
    });
  }
  const stored = others.length > 0 ? await pageBugs(search, others) : new Map<number, StoredBug>();
  return ids.flatMap((id) => {
    const entry = fromIndex.get(id);
    if (entry) return [entry];
    const found = stored.get(id);
    if (!found) return [];
    const { bug, rev } = found;
    return [
      {
        id,
        rev,
        bug: () => bug,
        lastChangeTime: () => bug.lastChangeTime,
        tags: bug.tags ?? {},
        privateAttachments: bug.privateAttachments,
      },
    ];
  });
}

/**
 * Whole bugs for a page: as the index holds them (it holds every field, as fresh as the search
 * that picked them: indexedBugs.ts), else from this instance's copies where a copy is as new as
 * the index's revision of the bug, else read from the table. Get Bug's path (pages asking for
 * comments, history or attachments) takes them all from here; renderSearchPage only the bugs the
 * index does not give back.
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
