/**
 * Bugzilla's `order` parameter: its column names and aliases, and the comparator of index rows it
 * means. Drop-down fields sort as Bugzilla's do: by their values' sort keys, then names.
 */
import { valuesById } from '../../catalog/bugValues.ts';
import type { ProductRecord } from '../../catalog/catalog.ts';
import type { FieldValues, ValueField } from '../../catalog/fieldValues.ts';
import { nameTable } from '../../nameTable.ts';
import type { CodeColumn } from '../index/columns.ts';
import type { SearchIndex } from '../index/searchIndex.ts';

type Comparator = (a: number, b: number) => number;

/** A bug's comments an outsider may read (all of them while the index does not know how many are private). */
const readableComments = (index: SearchIndex, slot: number) =>
  index.commentCount[slot] - Math.max(0, index.privateCommentCount[slot]);

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
  /** The installation's legal values, whose sort keys order the drop-down fields. */
  values: FieldValues;
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

/** Who sorts: an order must not rank bugs by what the caller may not see. */
export interface OrderViewer {
  /** Counts private comments (`longdescs.count`); outsiders sort by the comments they may read. */
  insider: boolean;
  /** May sort by `deadline`; for anyone else it is an unknown column, dropped. */
  timeTracker: boolean;
}

/** A comparator of rows for Bugzilla's `order`; unknown columns are dropped, bug id breaks ties. */
export function orderComparator(
  index: SearchIndex,
  order: string | undefined,
  names: OrderNames,
  viewer: OrderViewer,
): Comparator {
  const parts: Comparator[] = [];
  /**
   * Bugzilla's order of a drop-down (map_<field>.sortkey, map_<field>.value): each stored name is
   * ranked once by its value's sort key and current name; names no value has come last.
   */
  const code = (column: CodeColumn, field: ValueField): Comparator => {
    const stored = index.vocabularies[column].values;
    const keyed = stored.map((name, code) => {
      const value = names.values.valueOf(field, name);
      return { code, sortKey: value ? value.sortKey : Number.POSITIVE_INFINITY, name: value?.name ?? name };
    });
    keyed.sort((a, b) => a.sortKey - b.sortKey || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const rank = new Int32Array(stored.length);
    keyed.forEach((entry, position) => {
      // The same value under two stored names (one from before a rename) shares a rank.
      const previous = keyed[position - 1];
      rank[entry.code] =
        previous && previous.sortKey === entry.sortKey && previous.name === entry.name ? rank[previous.code] : position;
    });
    const codes = index.codes[column];
    return (a, b) => rank[codes[a]] - rank[codes[b]];
  };
  const text =
    (textOf: (slot: number) => string | null): Comparator =>
    (a, b) =>
      (textOf(a) ?? '').localeCompare(textOf(b) ?? '');
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
        comparator = code('status', 'bug_status');
        break;
      case 'resolution':
        comparator = code('resolution', 'resolution');
        break;
      case 'priority':
        comparator = code('priority', 'priority');
        break;
      case 'bug_severity':
        comparator = code('severity', 'bug_severity');
        break;
      case 'rep_platform':
        comparator = code('platform', 'rep_platform');
        break;
      case 'op_sys':
        comparator = code('opSys', 'op_sys');
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
        comparator = code('bugType', 'bug_type');
        break;
      case 'short_desc':
        {
          const summaries = index.summary;
          comparator = text((slot) => summaries[slot]!);
        }
        break;
      case 'status_whiteboard':
        comparator = text((slot) => index.whiteboard.get(slot));
        break;
      case 'alias':
        comparator = text((slot) => index.alias.get(slot));
        break;
      case 'bug_file_loc':
        comparator = text((slot) => index.url.get(slot));
        break;
      case 'delta_ts':
        comparator = num(index.lastChangeTime);
        break;
      case 'creation_ts':
        comparator = num(index.creationTime);
        break;
      case 'deadline':
        if (viewer.timeTracker) comparator = num(index.deadline);
        break;
      case 'longdescs.count':
        comparator = viewer.insider
          ? num(index.commentCount)
          : (a, b) => readableComments(index, a) - readableComments(index, b);
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
