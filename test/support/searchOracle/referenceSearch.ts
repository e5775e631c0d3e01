import { expect } from 'vitest';
import type { TestApp } from '../testApp.ts';
import { call, inParallel, KEYWORDS } from './oracleInstallation.ts';
import type { Criterion, Leaf, OracleQuery, SimpleCriterion } from './oracleQueries.ts';

/**
 * The answer a search must give, found by brute force over the bugs as Get Bug shows them to the
 * caller (their comments included): nothing of the search index, its planner or its kernels. What
 * Get Bug does not show a caller, no search of theirs may find, count or order by.
 */

export interface ShownComment {
  text: string;
  is_private: boolean;
}

/** A bug as Get Bug shows it to one caller, with the comments they may read. */
export interface ShownBug {
  id: number;
  alias: string | null;
  summary: string;
  status: string;
  resolution: string;
  product: string;
  component: string;
  priority: string;
  severity: string;
  whiteboard: string;
  keywords: string[];
  cc?: string[];
  groups: string[];
  creator: string;
  assigned_to: string;
  depends_on: number[];
  blocks: number[];
  deadline?: string | null;
  comments: ShownComment[];
  [field: string]: unknown;
}

const GET_BUG_BATCH = 50;
/** The open statuses of a new installation (the oracle's bugs are in these, or RESOLVED). */
const OPEN_STATUSES = new Set(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS']);

/** Every bug of `ids` the caller may see, as Get Bug shows it (permissive: the others are faults). */
export async function shownBugs(
  app: TestApp,
  key: string | undefined,
  ids: readonly number[],
  publicId: number,
): Promise<Map<number, ShownBug>> {
  const batches: number[][] = [];
  for (let start = 0; start < ids.length; start += GET_BUG_BATCH) batches.push(ids.slice(start, start + GET_BUG_BATCH));
  const shown = new Map<number, ShownBug>();
  await inParallel(batches, 2, async (batch) => {
    const response = await call(app, 'GET', `/rest/bug/${publicId}`, {
      apiKey: key,
      query: { ids: batch, permissive: '1', include_fields: '_default,comments' },
    });
    expect(response.status, response.text).toBe(200);
    for (const fault of response.body.faults as Array<{ faultCode: number }>)
      expect([101, 102]).toContain(fault.faultCode);
    for (const bug of response.body.bugs as ShownBug[]) shown.set(bug.id, bug);
  });
  return shown;
}

/** The error a search must answer instead of a list, or its bugs' ids in order (all of them for count_only). */
export type ReferenceAnswer = { error: number } | { ids: number[]; count: number };

export function referenceSearch(
  query: OracleQuery,
  bugs: ReadonlyMap<number, ShownBug>,
  caller: { timeTracker: boolean },
): ReferenceAnswer {
  const leaves = query.criteria.flatMap((item) =>
    item.kind === 'or' ? item.leaves : item.kind === 'leaf' ? [item] : [],
  );
  // Time tracking is no search field outside the group: Bugzilla's 108.
  if (!caller.timeTracker && leaves.some((item) => item.field === 'deadline')) return { error: 108 };
  // Quicksearch searches open bugs unless the request names statuses itself (Quicksearch.pm).
  const openOnly =
    query.criteria.some((item) => item.kind === 'quick') &&
    !query.criteria.some((item) => item.kind === 'simple' && item.field === 'status');
  const matching = [...bugs.values()].filter(
    (bug) => (!openOnly || OPEN_STATUSES.has(bug.status)) && query.criteria.every((item) => matches(item, bug)),
  );
  const ids = matching.map((bug) => bug.id).sort((a, b) => a - b);
  if (query.order === 'bug_id DESC') ids.reverse();
  const start = query.offset ?? 0;
  const page = query.limit === undefined ? ids.slice(start) : ids.slice(start, start + query.limit);
  return { ids: page, count: ids.length };
}

function matches(item: Criterion, bug: ShownBug): boolean {
  switch (item.kind) {
    case 'simple':
      // Bugzilla's buglist names of the free-text fields take every word of every value as a substring.
      if (item.buglistName && (item.field === 'summary' || item.field === 'whiteboard')) {
        const text = (item.field === 'summary' ? bug.summary : bug.whiteboard).toLowerCase();
        return wordsOf(item.values.join(' ')).every((word) => text.includes(word));
      }
      return item.values.some((value) => simpleMatches(item, value, bug));
    case 'leaf':
      return leafMatches(item, bug) !== item.negate;
    case 'or':
      return item.leaves.some((inner) => leafMatches(inner, bug) !== inner.negate) !== item.negate;
    case 'quick':
      return item.words.every((word) => quickWordMatches(word, bug));
  }
}

const same = (a: string | null | undefined, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();
const holds = (text: string | null | undefined, part: string) =>
  (text ?? '').toLowerCase().includes(part.toLowerCase());

function simpleMatches(item: SimpleCriterion, value: string, bug: ShownBug): boolean {
  switch (item.field) {
    case 'summary':
      return holds(bug.summary, value);
    case 'whiteboard':
      return holds(bug.whiteboard, value);
    case 'id':
      return bug.id === Number(value);
    case 'status':
    case 'resolution':
    case 'product':
    case 'component':
    case 'priority':
    case 'severity':
    case 'alias':
    case 'assigned_to':
    case 'creator':
      return same(bug[item.field] as string | null, value);
  }
}

/** Words as Bugzilla's word operators see them: runs of letters, digits and `_`, lower-cased. */
const tokens = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
const wordsOf = (value: string) =>
  value
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);

function textMatches(op: string, value: string, text: string): boolean {
  switch (op) {
    case 'equals':
      return same(text, value);
    case 'notequals':
      return !same(text, value);
    case 'anyexact':
      return value.split(',').some((part) => same(text, part.trim()));
    case 'substring':
      return holds(text, value);
    case 'notsubstring':
      return !holds(text, value);
    case 'casesubstring':
      return text.includes(value);
    case 'anywords':
      return wordsOf(value).some((word) => tokens(text).has(word));
    case 'allwords':
      return wordsOf(value).every((word) => tokens(text).has(word));
    case 'nowords':
      return !wordsOf(value).some((word) => tokens(text).has(word));
    case 'isempty':
      return text === '';
    case 'isnotempty':
      return text !== '';
    default:
      throw new Error(`the reference has no operator ${op}`);
  }
}

/** A criterion over a list (keywords, CC, groups, relations): the positive test of any member, negated whole. */
function listMatches(op: string, value: string, list: readonly string[]): boolean {
  switch (op) {
    case 'anywords':
      return wordsOf(value).some((word) => list.some((member) => same(member, word)));
    case 'allwords':
      return wordsOf(value).every((word) => list.some((member) => same(member, word)));
    case 'nowords':
      return !wordsOf(value).some((word) => list.some((member) => same(member, word)));
    default:
      return list.some((member) => textMatches(op, value, member));
  }
}

const FIELD_OF: Record<string, keyof ShownBug> = {
  short_desc: 'summary',
  status_whiteboard: 'whiteboard',
  alias: 'alias',
  product: 'product',
  component: 'component',
  bug_status: 'status',
  priority: 'priority',
  bug_severity: 'severity',
  resolution: 'resolution',
};

function leafMatches(item: Leaf, bug: ShownBug): boolean {
  const { field, op, value } = item;
  switch (field) {
    case 'keywords':
      return listMatches(op, value, bug.keywords);
    case 'cc':
      return listMatches(op, value, bug.cc ?? []);
    case 'bug_group':
      return listMatches(op, value, bug.groups);
    case 'dependson':
      return bug.depends_on.includes(Number(value));
    case 'blocked':
      return bug.blocks.includes(Number(value));
    case 'bug_id':
      return op === 'greaterthan' ? bug.id > Number(value) : bug.id < Number(value);
    case 'deadline':
      if (!bug.deadline) return false;
      return op === 'greaterthan' ? bug.deadline > value : bug.deadline < value;
    case 'longdesc':
      // Per comment, as Bugzilla joins the comments table: notsubstring is a comment without the text.
      return bug.comments.some((comment) => holds(comment.text, value) === (op === 'substring'));
    default: {
      const name = FIELD_OF[field];
      if (!name) throw new Error(`the reference has no field ${field}`);
      return textMatches(op, value, (bug[name] as string | null) ?? '');
    }
  }
}

const KEYWORD_NAMES = new Set<string>(KEYWORDS);

/**
 * A plain quicksearch word (Bugzilla 5.2's Quicksearch.pm): a substring of the product or
 * component name (words of three characters or more), of the alias, summary or whiteboard; a
 * keyword of that name; or a word of a comment the caller may read.
 */
function quickWordMatches(word: string, bug: ShownBug): boolean {
  const lower = word.toLowerCase();
  if (lower.length > 2 && (holds(bug.product, lower) || holds(bug.component, lower))) return true;
  if (KEYWORD_NAMES.has(lower) && bug.keywords.some((name) => holds(name, lower))) return true;
  if (holds(bug.alias, lower) || holds(bug.summary, lower) || holds(bug.whiteboard, lower)) return true;
  return bug.comments.some((comment) => tokens(comment.text).has(lower));
}
