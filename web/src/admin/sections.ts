import type { AdminCgi } from '../lib/routes.ts';

/**
 * The administration pages and reports, as Bugzilla's admin.cgi lists them, with the group each
 * needs (the group the API checks for the changes the page makes). This list is small and loaded
 * with the first page (the header's link); the pages themselves load on demand (AdminPage.tsx).
 */
export interface AdminSection {
  cgi: AdminCgi;
  title: string;
  /** One line for the index page. */
  summary: string;
  /** Groups any of which lets the caller use the page; empty: everyone may. */
  groups: readonly string[];
  kind: 'people' | 'products' | 'fields' | 'installation' | 'reports';
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  {
    cgi: 'editusers',
    title: 'Users',
    summary: 'Find, create and edit accounts: name, login, password, disabling, groups, API keys, activity.',
    groups: ['editusers'],
    kind: 'people',
  },
  {
    cgi: 'editgroups',
    title: 'Groups',
    summary: 'Create and edit groups: description, user regexp, members, inheritance, bug groups.',
    groups: ['creategroups'],
    kind: 'people',
  },
  {
    cgi: 'editclassifications',
    title: 'Classifications',
    summary: 'Group products into classifications.',
    groups: ['editclassifications'],
    kind: 'products',
  },
  {
    cgi: 'editproducts',
    title: 'Products',
    summary: 'Products with their components, versions, milestones and group controls.',
    groups: ['editcomponents'],
    kind: 'products',
  },
  {
    cgi: 'editflagtypes',
    title: 'Flag types',
    summary: 'Flags such as review: where they apply, who may grant and request them.',
    groups: ['editcomponents'],
    kind: 'products',
  },
  {
    cgi: 'editkeywords',
    title: 'Keywords',
    summary: 'Create, describe and delete the keywords bugs can carry.',
    groups: ['editkeywords'],
    kind: 'fields',
  },
  {
    cgi: 'editfields',
    title: 'Custom fields',
    summary: 'Add and change custom bug fields.',
    groups: ['admin'],
    kind: 'fields',
  },
  {
    cgi: 'editvalues',
    title: 'Field values',
    summary: 'Add, rename, sort and disable the values of bug fields.',
    groups: ['admin'],
    kind: 'fields',
  },
  {
    cgi: 'editworkflow',
    title: 'Status workflow',
    summary: 'Which status may follow which, and where a comment is required.',
    groups: ['admin'],
    kind: 'fields',
  },
  {
    cgi: 'editparams',
    title: 'Parameters',
    summary: "The installation's settings, grouped as Bugzilla groups them.",
    groups: ['tweakparams'],
    kind: 'installation',
  },
  {
    cgi: 'report',
    title: 'Tabular report',
    summary: 'Count bugs by any two or three fields, each count a link to its bugs.',
    groups: [],
    kind: 'reports',
  },
  {
    cgi: 'chart',
    title: 'Open bugs over time',
    summary: 'A chart of how many bugs were open, day by day, per product.',
    groups: [],
    kind: 'reports',
  },
  {
    cgi: 'showdependencytree',
    title: 'Dependency tree',
    summary: 'The bugs a bug depends on and the bugs it blocks, as a tree.',
    groups: [],
    kind: 'reports',
  },
];

export const KIND_TITLES: Record<AdminSection['kind'], string> = {
  people: 'People',
  products: 'Products',
  fields: 'Bug fields',
  installation: 'Installation',
  reports: 'Reports',
};

/**
 * Whether someone in `groups` may use the section (admin may use all, as the API lets it). People
 * who may only bless a group still need editusers here: PUT /rest/user requires it.
 */
export function mayUse(section: AdminSection, groups: readonly string[]): boolean {
  if (section.groups.length === 0) return true;
  if (groups.includes('admin')) return true;
  return section.groups.some((g) => groups.includes(g));
}

/** Whether the caller may administer anything at all (the header's Administration link). */
export function administersSomething(groups: readonly string[]): boolean {
  return ADMIN_SECTIONS.some((s) => s.groups.length > 0 && mayUse(s, groups));
}

export function sectionFor(cgi: AdminCgi): AdminSection | undefined {
  return ADMIN_SECTIONS.find((s) => s.cgi === cgi);
}
