/**
 * Bugzilla's `order` parameter: its column names and aliases, and the comparator of index rows it
 * means, with Bugzilla's ranks for status, priority, severity and resolution.
 */
import { PRIORITIES, SEVERITIES } from '../bug/bugFields.ts';
import { BUG_STATUSES, RESOLUTIONS } from '../bug/bugWorkflow.ts';
import { valuesById } from '../catalog/bugValues.ts';
import type { ProductRecord } from '../catalog/catalog.ts';
import { nameTable } from '../nameTable.ts';
import type { CodeColumn, SearchIndex } from './searchIndex.ts';

type Comparator = (a: number, b: number) => number;

const rankTable = (names: readonly string[]) => new Map(names.map((name, rank) => [name.toLowerCase(), rank]));
const STATUS_RANK = rankTable(BUG_STATUSES.map((status) => status.name));
const PRIORITY_RANK = rankTable(PRIORITIES.map((value) => value.name));
const SEVERITY_RANK = rankTable(SEVERITIES.map((value) => value.name));
const RESOLUTION_RANK = rankTable(RESOLUTIONS);

/** Bugzilla's `order` names (and their display-name forms) that Tracker sorts by. */
const ORDER_ALIASES: Readonly<Record<string, string>> = nameTable({
  'bug number': 'bug_id',
  id: 'bug_id',
  status: 'bug_status',
  summary: 'short_desc',
  severity: 'bug_severity',
  importance: 'priority,bug_severity',
  'last changed': 'delta_ts',
  changeddate: 'delta_ts',
  last_change_time: 'delta_ts',
  opendate: 'creation_ts',
  creation_time: 'creation_ts',
  assignee: 'assigned_to',
  platform: 'rep_platform',
  whiteboard: 'status_whiteboard',
  type: 'bug_type',
  creator: 'reporter',
  'assigned to': 'assigned_to',
  reporter: 'reporter',
  url: 'bug_file_loc',
  'longdescs.count': 'longdescs.count',
  comment_count: 'longdescs.count',
});

export interface OrderNames {
  login(userId: number): string;
  product(productId: number): string;
  component(componentId: number): string;
  version(versionId: number): string;
  milestone(milestoneId: number): { sortKey: number; name: string } | undefined;
}

/** The versions and milestones of OrderNames, from the catalogue's products. */
export function valueOrderNames(products: readonly ProductRecord[]): Pick<OrderNames, 'version' | 'milestone'> {
  const [versions, milestones] = [valuesById(products, 'version'), valuesById(products, 'milestone')];
  return { version: (id) => versions.get(id)?.name ?? '', milestone: (id) => milestones.get(id) };
}

/** The user ids an order needs the logins of (to sort by assignee, reporter or QA contact). */
export function orderNeedsUsers(order: string | undefined): boolean {
  return parseOrder(order).some(({ column }) => ['assigned_to', 'reporter', 'qa_contact'].includes(column));
}

function parseOrder(order: string | undefined): Array<{ column: string; descending: boolean }> {
  if (!order) return [];
  const result: Array<{ column: string; descending: boolean }> = [];
  for (const part of order.split(',')) {
    const match = /^\s*(.+?)(?:\s+(asc|desc))?\s*$/i.exec(part);
    if (!match) continue;
    const name = match[1].trim();
    const expanded = ORDER_ALIASES[name.toLowerCase()] ?? name;
    for (const column of expanded.split(','))
      result.push({ column, descending: (match[2] ?? '').toLowerCase() === 'desc' });
  }
  return result;
}

/** A comparator of rows for Bugzilla's `order`; unknown columns are dropped, bug id breaks ties. */
export function orderComparator(index: SearchIndex, order: string | undefined, names: OrderNames): Comparator {
  const parts: Comparator[] = [];
  const code = (column: CodeColumn, rank?: Map<string, number>): Comparator => {
    const values = index.vocabularies[column].values;
    const codes = index.codes[column];
    if (rank)
      return (a, b) =>
        (rank.get(values[codes[a]].toLowerCase()) ?? 99) - (rank.get(values[codes[b]].toLowerCase()) ?? 99);
    return (a, b) => values[codes[a]].localeCompare(values[codes[b]]);
  };
  const text =
    (column: string[] | Array<string | null>): Comparator =>
    (a, b) =>
      (column[a] ?? '').localeCompare(column[b] ?? '');
  const num =
    (column: Int32Array | Float64Array): Comparator =>
    (a, b) =>
      column[a] - column[b] || 0;
  for (const { column, descending } of parseOrder(order)) {
    let comparator: Comparator | undefined;
    switch (column) {
      case 'bug_id':
        comparator = num(index.id);
        break;
      case 'bug_status':
        comparator = code('status', STATUS_RANK);
        break;
      case 'resolution':
        comparator = code('resolution', RESOLUTION_RANK);
        break;
      case 'priority':
        comparator = code('priority', PRIORITY_RANK);
        break;
      case 'bug_severity':
        comparator = code('severity', SEVERITY_RANK);
        break;
      case 'rep_platform':
        comparator = code('platform');
        break;
      case 'op_sys':
        comparator = code('opSys');
        break;
      case 'version':
        comparator = (a, b) => names.version(index.versionId[a]).localeCompare(names.version(index.versionId[b]));
        break;
      case 'target_milestone':
        // Bugzilla's special order: the milestone's sort key, then its name.
        comparator = (a, b) => {
          const first = names.milestone(index.targetMilestoneId[a]);
          const second = names.milestone(index.targetMilestoneId[b]);
          return (
            (first?.sortKey ?? 0) - (second?.sortKey ?? 0) || (first?.name ?? '').localeCompare(second?.name ?? '')
          );
        };
        break;
      case 'bug_type':
        comparator = code('bugType');
        break;
      case 'short_desc':
        comparator = text(index.summary);
        break;
      case 'status_whiteboard':
        comparator = text(index.whiteboard);
        break;
      case 'alias':
        comparator = text(index.alias);
        break;
      case 'bug_file_loc':
        comparator = text(index.url);
        break;
      case 'delta_ts':
        comparator = num(index.lastChangeTime);
        break;
      case 'creation_ts':
        comparator = num(index.creationTime);
        break;
      case 'deadline':
        comparator = num(index.deadline);
        break;
      case 'longdescs.count':
        comparator = num(index.commentCount);
        break;
      case 'product':
        comparator = (a, b) => names.product(index.productId[a]).localeCompare(names.product(index.productId[b]));
        break;
      case 'component':
        comparator = (a, b) =>
          names.component(index.componentId[a]).localeCompare(names.component(index.componentId[b]));
        break;
      case 'assigned_to':
        comparator = (a, b) => names.login(index.assigneeId[a]).localeCompare(names.login(index.assigneeId[b]));
        break;
      case 'reporter':
        comparator = (a, b) => names.login(index.reporterId[a]).localeCompare(names.login(index.reporterId[b]));
        break;
      case 'qa_contact':
        comparator = (a, b) => names.login(index.qaContactId[a]).localeCompare(names.login(index.qaContactId[b]));
        break;
      default:
        break;
    }
    if (comparator)
      parts.push(
        descending
          ? (
              (c) => (a: number, b: number) =>
                -c(a, b)
            )(comparator)
          : comparator,
      );
  }
  parts.push((a, b) => index.id[a] - index.id[b]);
  return (a, b) => {
    for (const part of parts) {
      const result = part(a, b);
      if (result !== 0) return result;
    }
    return 0;
  };
}
