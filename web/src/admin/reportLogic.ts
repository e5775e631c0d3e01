/**
 * Pure logic of the reports (unit-tested in test/unit/adminLogic.test.ts): report.cgi's table of
 * counts, the open bugs over time drawn from bug history, the dependency tree.
 */

/** A field a report can count by: its buglist.cgi name, its name in the API's bug, its label. */
export interface ReportField {
  /** As buglist.cgi and report.cgi name it (x_axis_field=bug_status). */
  name: string;
  /** The key of the bug object GET /rest/bug returns. */
  bugKey: string;
  label: string;
}

export const REPORT_FIELDS: readonly ReportField[] = [
  { name: 'product', bugKey: 'product', label: 'Product' },
  { name: 'component', bugKey: 'component', label: 'Component' },
  { name: 'version', bugKey: 'version', label: 'Version' },
  { name: 'target_milestone', bugKey: 'target_milestone', label: 'Target milestone' },
  { name: 'bug_status', bugKey: 'status', label: 'Status' },
  { name: 'resolution', bugKey: 'resolution', label: 'Resolution' },
  { name: 'priority', bugKey: 'priority', label: 'Priority' },
  { name: 'bug_severity', bugKey: 'severity', label: 'Severity' },
  { name: 'rep_platform', bugKey: 'platform', label: 'Hardware' },
  { name: 'op_sys', bugKey: 'op_sys', label: 'OS' },
  { name: 'assigned_to', bugKey: 'assigned_to', label: 'Assignee' },
  { name: 'reporter', bugKey: 'creator', label: 'Reporter' },
  { name: 'qa_contact', bugKey: 'qa_contact', label: 'QA contact' },
];

export const reportField = (name: string | null | undefined): ReportField | undefined =>
  REPORT_FIELDS.find((f) => f.name === name);

/** What the table shows for an empty value (an open bug's resolution), as Bugzilla does. */
export const EMPTY_VALUE = '---';

export interface ReportTable {
  /** The value of the tables' field ('' when there is one table). */
  table: string;
  rows: string[];
  columns: string[];
  /** counts[row][column] */
  counts: Record<string, Record<string, number>>;
  rowTotals: Record<string, number>;
  columnTotals: Record<string, number>;
  total: number;
}

const fieldValue = (bug: Record<string, unknown>, field: ReportField | undefined): string => {
  if (!field) return '';
  const raw = bug[field.bugKey];
  const text = raw === null || raw === undefined ? '' : String(raw);
  return text === '' ? EMPTY_VALUE : text;
};

const byText = (a: string, b: string) => (a === EMPTY_VALUE ? -1 : b === EMPTY_VALUE ? 1 : a.localeCompare(b));

/** Counts bugs by rows × columns, one table per value of `tables` (report.cgi's table format). */
export function countReport(
  bugs: readonly Record<string, unknown>[],
  rows: ReportField,
  columns: ReportField | undefined,
  tables: ReportField | undefined,
): ReportTable[] {
  const byTable = new Map<string, Record<string, unknown>[]>();
  for (const bug of bugs) {
    const key = tables ? fieldValue(bug, tables) : '';
    byTable.set(key, [...(byTable.get(key) ?? []), bug]);
  }
  return [...byTable.keys()].sort(byText).map((table) => {
    const inTable = byTable.get(table)!;
    const counts: Record<string, Record<string, number>> = {};
    const rowTotals: Record<string, number> = {};
    const columnTotals: Record<string, number> = {};
    for (const bug of inTable) {
      const row = fieldValue(bug, rows);
      const column = columns ? fieldValue(bug, columns) : 'Total';
      counts[row] ??= {};
      counts[row][column] = (counts[row][column] ?? 0) + 1;
      rowTotals[row] = (rowTotals[row] ?? 0) + 1;
      columnTotals[column] = (columnTotals[column] ?? 0) + 1;
    }
    return {
      table,
      rows: Object.keys(rowTotals).sort(byText),
      columns: Object.keys(columnTotals).sort(byText),
      counts,
      rowTotals,
      columnTotals,
      total: inTable.length,
    };
  });
}

/** The buglist.cgi address of the bugs behind one count: the report's restrictions plus each axis's value. */
export function cellHref(
  base: URLSearchParams,
  axes: ReadonlyArray<[ReportField | undefined, string | undefined]>,
): string {
  const params = new URLSearchParams(base);
  for (const [field, value] of axes) {
    if (!field || value === undefined) continue;
    params.delete(field.name);
    params.append(field.name, value === EMPTY_VALUE ? '' : value);
  }
  return `/buglist.cgi?${params.toString()}`;
}

/** One bug's life for the chart: when it was filed, its status then, and each status change. */
export interface BugTimeline {
  created: string;
  initialStatus: string;
  changes: { when: string; status: string }[];
}

/** A history entry of GET /rest/bug/{id}/history. */
export interface HistoryChange {
  when: string;
  changes: { field_name: string; removed: string; added: string }[];
}

/** The status timeline of a bug from its current status and its history (oldest first). */
export function timelineOf(
  bug: { creation_time: string; status: string },
  history: readonly HistoryChange[],
): BugTimeline {
  const changes: { when: string; status: string }[] = [];
  let initialStatus: string | undefined;
  for (const entry of [...history].sort((a, b) => a.when.localeCompare(b.when))) {
    for (const change of entry.changes) {
      if (change.field_name !== 'bug_status' && change.field_name !== 'status') continue;
      initialStatus ??= change.removed;
      changes.push({ when: entry.when, status: change.added });
    }
  }
  return { created: bug.creation_time, initialStatus: initialStatus ?? bug.status, changes };
}

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Math.floor(Date.parse(iso) / DAY_MS);

/**
 * How many of the bugs were open at the end of each day from `from` to `to` (UTC days, as
 * ISO dates): a bug counts from the day it was filed, while its status at the end of that day is
 * an open one.
 */
export function openBugsPerDay(
  timelines: readonly BugTimeline[],
  isOpen: (status: string) => boolean,
  from: string,
  to: string,
): { day: string; open: number }[] {
  const first = dayOf(from);
  const last = dayOf(to);
  const points: { day: string; open: number }[] = [];
  for (let day = first; day <= last; day++) {
    const endOfDay = (day + 1) * DAY_MS;
    let open = 0;
    for (const t of timelines) {
      if (Date.parse(t.created) >= endOfDay) continue;
      let status = t.initialStatus;
      for (const change of t.changes) {
        if (Date.parse(change.when) >= endOfDay) break;
        status = change.status;
      }
      if (isOpen(status)) open++;
    }
    points.push({ day: new Date(day * DAY_MS).toISOString().slice(0, 10), open });
  }
  return points;
}

/** A bug in a dependency tree, with the bugs below it (null: already shown higher up, or too deep). */
export interface TreeNode {
  id: number;
  children: TreeNode[] | null;
  repeated: boolean;
}

/**
 * The tree below `root` along `next` (depends_on or blocks), each bug expanded once (later
 * appearances are marked repeated, as Bugzilla's tree does), at most `maxDepth` levels.
 */
export function dependencyTree(root: number, next: (id: number) => readonly number[], maxDepth: number): TreeNode {
  const seen = new Set<number>();
  const build = (id: number, depth: number): TreeNode => {
    if (seen.has(id)) return { id, children: null, repeated: true };
    seen.add(id);
    if (depth >= maxDepth) return { id, children: next(id).length > 0 ? null : [], repeated: false };
    return { id, children: next(id).map((child) => build(child, depth + 1)), repeated: false };
  };
  return build(root, 0);
}
