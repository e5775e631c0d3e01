import { TrackerError } from '../trackerError.ts';
import type { Bug } from './bug.ts';
import { isOpenStatus } from './bugWorkflow.ts';

/**
 * The plain search criteria of GET /rest/bug as predicates over bugs: exact (case-insensitive)
 * matches of any of the values given, substrings for summary and whiteboard, `resolution=` for
 * open bugs, times as lower bounds. Names are resolved by the caller through `SearchNames`.
 */
export interface SearchNames {
  product(id: number): string;
  component(id: number): string;
  login(id: number | null): string;
}

const ALIASES: Record<string, string> = {
  bug_status: 'status',
  rep_platform: 'platform',
  reporter: 'creator',
  bug_severity: 'severity',
  short_desc: 'summary',
  status_whiteboard: 'whiteboard',
  bug_id: 'id',
  bug_file_loc: 'url',
  bug_type: 'type',
};

export const SEARCH_CONTROL_PARAMETERS = ['limit', 'offset', 'count_only', 'order', 'include_fields', 'exclude_fields', 'permissive'];

export interface ParsedSearch {
  criteria: Map<string, string[]>;
  ids?: number[];
  aliases?: string[];
}

const valuesOf = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter((entry) => entry !== undefined && entry !== null).map(String);

export function parseSearch(params: Record<string, unknown>): ParsedSearch {
  const criteria = new Map<string, string[]>();
  for (const [rawName, value] of Object.entries(params)) {
    if (SEARCH_CONTROL_PARAMETERS.includes(rawName)) continue;
    const name = ALIASES[rawName] ?? rawName;
    const values = valuesOf(value);
    if (values.length === 0) continue;
    criteria.set(name, [...(criteria.get(name) ?? []), ...values]);
  }
  const parsed: ParsedSearch = { criteria };
  if (criteria.has('id')) {
    parsed.ids = criteria.get('id')!.flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean).map((value) => {
      if (!/^\d+$/.test(value)) throw new TrackerError(32000, `'${value}' is not a bug id.`);
      return Number(value);
    });
    criteria.delete('id');
  }
  if (criteria.has('alias')) {
    parsed.aliases = criteria.get('alias')!;
    criteria.delete('alias');
  }
  return parsed;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function matchesCriteria(bug: Bug, criteria: ReadonlyMap<string, string[]>, names: SearchNames): boolean {
  for (const [name, values] of criteria) {
    const anyOf = (actual: string) => values.some((value) => same(value, actual));
    const contains = (actual: string) => values.some((value) => actual.toLowerCase().includes(value.toLowerCase()));
    let ok: boolean;
    switch (name) {
      case 'product': ok = anyOf(names.product(bug.productId)); break;
      case 'component': ok = anyOf(names.component(bug.componentId)); break;
      case 'status': ok = anyOf(bug.status); break;
      case 'resolution': ok = values.some((value) => (value === '' ? isOpenStatus(bug.status) : same(value, bug.resolution))); break;
      case 'priority': ok = anyOf(bug.priority); break;
      case 'severity': ok = anyOf(bug.severity); break;
      case 'platform': ok = anyOf(bug.platform); break;
      case 'op_sys': ok = anyOf(bug.opSys); break;
      case 'version': ok = anyOf(bug.version); break;
      case 'target_milestone': ok = anyOf(bug.targetMilestone); break;
      case 'type': ok = anyOf(bug.bugType); break;
      case 'assigned_to': ok = anyOf(names.login(bug.assigneeId)); break;
      case 'creator': ok = anyOf(names.login(bug.reporterId)); break;
      case 'qa_contact': ok = anyOf(names.login(bug.qaContactId)); break;
      case 'summary': ok = contains(bug.summary); break;
      case 'whiteboard': ok = contains(bug.whiteboard); break;
      case 'url': ok = anyOf(bug.url); break;
      case 'filed_via': ok = anyOf(bug.filedVia); break;
      case 'creation_time': ok = Date.parse(bug.creationTime) >= Date.parse(values[0]); break;
      case 'last_change_time': ok = Date.parse(bug.lastChangeTime) >= Date.parse(values[0]); break;
      case 'longdescs.count':
      case 'longdescs_count': ok = values.some((value) => Number(value) === bug.commentCount); break;
      default:
        if (name.startsWith('cf_')) {
          const actual = bug.custom[name];
          ok = Array.isArray(actual) ? actual.some((entry) => anyOf(String(entry))) : anyOf(actual === null || actual === undefined ? '' : String(actual));
        } else ok = true; // Bugzilla ignores parameters it does not search on.
    }
    if (!ok) return false;
  }
  return true;
}
