/**
 * Bug list columns: the API's field name (what a bug object carries), Bugzilla's buglist column
 * name (what `order=` and `columnlist=` use) and a heading.
 */
export interface Column {
  /** Field of the API's bug object. */
  field: string;
  /** Bugzilla's buglist column name, used in `order` and `columnlist`. */
  column: string;
  heading: string;
}

export const COLUMNS: readonly Column[] = [
  { field: 'id', column: 'bug_id', heading: 'ID' },
  { field: 'type', column: 'bug_type', heading: 'Type' },
  { field: 'product', column: 'product', heading: 'Product' },
  { field: 'component', column: 'component', heading: 'Component' },
  { field: 'assigned_to', column: 'assigned_to', heading: 'Assignee' },
  { field: 'creator', column: 'reporter', heading: 'Reporter' },
  { field: 'qa_contact', column: 'qa_contact', heading: 'QA Contact' },
  { field: 'status', column: 'bug_status', heading: 'Status' },
  { field: 'resolution', column: 'resolution', heading: 'Resolution' },
  { field: 'priority', column: 'priority', heading: 'Priority' },
  { field: 'severity', column: 'bug_severity', heading: 'Severity' },
  { field: 'version', column: 'version', heading: 'Version' },
  { field: 'target_milestone', column: 'target_milestone', heading: 'Target Milestone' },
  { field: 'platform', column: 'rep_platform', heading: 'Hardware' },
  { field: 'op_sys', column: 'op_sys', heading: 'OS' },
  { field: 'keywords', column: 'keywords', heading: 'Keywords' },
  { field: 'whiteboard', column: 'status_whiteboard', heading: 'Whiteboard' },
  { field: 'creation_time', column: 'opendate', heading: 'Opened' },
  { field: 'last_change_time', column: 'changeddate', heading: 'Changed' },
  { field: 'summary', column: 'short_desc', heading: 'Summary' },
];

/** Bugzilla's default buglist columns. */
export const DEFAULT_COLUMNS: readonly string[] = [
  'id',
  'product',
  'component',
  'assigned_to',
  'status',
  'resolution',
  'summary',
  'last_change_time',
];

export function columnByField(field: string): Column | undefined {
  return COLUMNS.find((c) => c.field === field);
}

export function columnByName(name: string): Column | undefined {
  return COLUMNS.find((c) => c.column === name || c.field === name);
}

/** `columnlist=bug_id,short_desc` (Bugzilla's names, or the API's) to API field names. */
export function parseColumnList(value: string | null): string[] | undefined {
  if (!value) return undefined;
  const fields = value
    .split(/[\s,]+/)
    .map((name) => columnByName(name)?.field)
    .filter((f): f is string => Boolean(f));
  return fields.length > 0 ? [...new Set(fields)] : undefined;
}

/** The columns to show, `id` always first. */
export function normaliseColumns(fields: readonly string[]): string[] {
  const known = fields.filter((f) => columnByField(f));
  return ['id', ...known.filter((f) => f !== 'id')];
}

export interface SortKey {
  column: string;
  descending: boolean;
}

/** `order=bug_status,changeddate DESC` to sort keys. */
export function parseOrder(order: string | null): SortKey[] {
  if (!order) return [];
  return order
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [column, direction] = part.split(/\s+/);
      return { column: column!, descending: /^desc$/i.test(direction ?? '') };
    });
}

export function formatOrder(keys: readonly SortKey[]): string {
  return keys.map((k) => (k.descending ? `${k.column} DESC` : k.column)).join(',');
}

/**
 * Bugzilla's sort on a header click: the clicked column becomes the first key; clicking the
 * column that already sorts first reverses it.
 */
export function toggleSort(order: string | null, column: string): string {
  const keys = parseOrder(order);
  const first = keys[0];
  if (first && first.column === column) {
    return formatOrder([{ column, descending: !first.descending }, ...keys.slice(1)]);
  }
  return formatOrder([{ column, descending: false }, ...keys.filter((k) => k.column !== column)].slice(0, 4));
}
