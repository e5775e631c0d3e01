import { canSeeBug } from '../../domain/bug/bugAccess.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { errors } from '../../errors.ts';
import { findBugIdByAlias, loadBugs, type StoredBug } from '../../storage/bug/bugStore.ts';
import { groupNameIn } from '../catalog/catalogContext.ts';
import type { BugCatalog } from './bugContext.ts';

/** Which bugs a caller may reach: ids and aliases resolved, 100/101/102 as Bugzilla answers them. */
const orGroups = (bugCatalog: VisibilityContext) => bugCatalog.catalog.parameters.or_groups === '1';

/**
 * A bug named by id or alias; 100 for something that is neither. Digits always name an id, as an
 * alias cannot be all digits: one no bug has (0, or beyond any id) is 101 like any missing bug.
 */
export async function resolveBugId(reference: string | number): Promise<number> {
  const text = String(reference).trim();
  if (/^\d+$/.test(text)) {
    const id = Number(text);
    if (id > 0 && Number.isSafeInteger(id)) return id;
    throw errors.bugNotFound(text);
  }
  if (text === '' || /[,\s]/.test(text) || text.length > 40) throw errors.invalidBugReference(text);
  const id = await findBugIdByAlias(text);
  if (id === null) throw errors.invalidBugReference(text);
  return id;
}

/** What deciding visibility needs: the groups and parameters (a whole BugCatalog will do). */
export type VisibilityContext = { catalog: Pick<BugCatalog['catalog'], 'groups' | 'parameters'> };

/**
 * 101 for a bug that does not exist, 102 for one the caller may not see: never reveal which beyond
 * that. `reference` is what the caller named the bug by: the errors repeat it, as Bugzilla's do,
 * so a hidden bug reached through its alias never gives away its number.
 */
export function visibleBug(
  caller: Caller,
  stored: StoredBug | undefined,
  bugId: number,
  bugCatalog: VisibilityContext,
  reference: string | number = bugId,
): StoredBug {
  const named = String(reference).trim();
  if (!stored) throw errors.bugNotFound(named);
  if (!canSeeBug(caller, stored.bug, groupNameIn(bugCatalog.catalog), orGroups(bugCatalog))) {
    throw isLoggedIn(caller) ? errors.bugAccessDenied(named) : errors.bugAccessDeniedLoggedOut(named);
  }
  return stored;
}

/** Each bug id with the reference the caller first named it by (`ids[i]` resolved from `references[i]`). */
export function referencesById(
  references: ReadonlyArray<string | number>,
  ids: ReadonlyArray<number | null>,
): Map<number, string | number> {
  const named = new Map<number, string | number>();
  ids.forEach((id, index) => {
    if (id !== null && !named.has(id)) named.set(id, references[index]!);
  });
  return named;
}

/** Bugs named by id or alias, each once in the order named, with what the caller called them; 100 for neither. */
export async function resolveBugReferences(
  references: ReadonlyArray<string | number>,
): Promise<Map<number, string | number>> {
  return referencesById(references, await Promise.all(references.map(resolveBugId)));
}

/** Bugs the caller may see, in the order named (each once): 100, 101, 102 otherwise. */
export async function visibleBugs(
  caller: Caller,
  references: ReadonlyArray<string | number>,
  context: VisibilityContext,
): Promise<StoredBug[]> {
  const named = await resolveBugReferences(references);
  const stored = await loadBugs([...named.keys()]);
  return [...named].map(([id, reference]) => visibleBug(caller, stored.get(id), id, context, reference));
}
