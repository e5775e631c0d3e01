import { rights, session, userGroups } from '../state/session.ts';
import { type AdminSection, mayUse } from './sections.ts';

/**
 * What the caller may administer, from their groups (read after login, state/catalog.ts). The API
 * checks every change again; this only decides which pages and controls are offered.
 */
export interface GroupSummary {
  id: number;
  name: string;
  description: string;
  is_active?: boolean;
  user_regexp?: string;
}

export function mayUseSection(section: AdminSection): boolean {
  if (section.groups.length === 0) return true;
  if (!session.value) return false;
  // Bugzilla's per-product editcomponents: whoami names the products a group control opens.
  if (section.cgi === 'editproducts' && (rights.value?.administeredProducts.length ?? 0) > 0) return true;
  return mayUse(section, userGroups.value);
}

export const inAnyGroup = (...names: string[]): boolean =>
  userGroups.value.includes('admin') || names.some((n) => userGroups.value.includes(n));
