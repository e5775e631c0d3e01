import { computed, signal } from '@preact/signals';
import { get } from '../api/client.ts';
import { session, userGroups } from '../state/session.ts';
import { type AdminSection, mayUse } from './sections.ts';

/**
 * What the caller may administer: their groups (read after login, state/catalog.ts) and the groups
 * they may bless (GET /rest/group answers a blesser with exactly those). The API checks every
 * change again; this only decides which controls a page offers.
 */
export interface GroupSummary {
  id: number;
  name: string;
  description: string;
  is_active?: boolean;
  user_regexp?: string;
  /** Tracker: whether the caller may bless the group (add and remove its members). */
  can_bless?: boolean;
}

/** The groups the caller may bless; null until read (or when the caller may see none). */
export const blessableGroups = signal<GroupSummary[] | null>(null);
let blessFor: string | undefined;

export function loadBlessableGroups(): void {
  const login = session.value?.login;
  if (!login || blessFor === login) return;
  blessFor = login;
  get<{ groups: GroupSummary[] }>('/group').then(
    (r) => {
      if (session.value?.login !== login) return;
      const mine = userGroups.value;
      const all = mine.includes('admin') || mine.includes('editusers') || mine.includes('creategroups');
      blessableGroups.value = all ? r.groups.filter((g) => g.can_bless !== false) : r.groups;
    },
    () => {
      if (session.value?.login === login) blessableGroups.value = [];
    },
  );
}

export const blesses = computed(() => (blessableGroups.value?.length ?? 0) > 0);

export function mayUseSection(section: AdminSection): boolean {
  if (section.groups.length === 0) return true;
  if (!session.value) return false;
  return mayUse(section, userGroups.value, blesses.value);
}

export const inAnyGroup = (...names: string[]): boolean =>
  userGroups.value.includes('admin') || names.some((n) => userGroups.value.includes(n));
