import fc from 'fast-check';
import {
  COMMENT_WORDS,
  GROUPS,
  KEYWORDS,
  PRIORITIES,
  PRIVATE_COMMENT_WORD,
  PRODUCTS,
  RESTRICTED_WORDS,
  SEVERITIES,
  SUMMARY_WORDS,
} from './oracleInstallation.ts';

/**
 * Searches of every form the API takes, as values the oracle can both send (REST or JSON-RPC)
 * and evaluate by brute force (referenceSearch.ts): simple parameters under their API and buglist
 * names, f/o/v criteria with negation and OR groups, quicksearch, ordering, paging and count_only.
 */

export type SimpleField =
  | 'product'
  | 'component'
  | 'status'
  | 'resolution'
  | 'priority'
  | 'severity'
  | 'whiteboard'
  | 'summary'
  | 'alias'
  | 'assigned_to'
  | 'creator'
  | 'id';

/** Buglist (Bugzilla's internal) names the simple parameters are also sent under. */
const BUGLIST_NAMES: Partial<Record<SimpleField, string>> = {
  status: 'bug_status',
  severity: 'bug_severity',
  summary: 'short_desc',
  whiteboard: 'status_whiteboard',
  creator: 'reporter',
  id: 'bug_id',
};

export interface SimpleCriterion {
  kind: 'simple';
  field: SimpleField;
  values: string[];
  /** Sent under the buglist name (BUGLIST_NAMES). */
  buglistName: boolean;
}

export interface Leaf {
  kind: 'leaf';
  field: string;
  op: string;
  value: string;
  negate: boolean;
}

export interface OrGroup {
  kind: 'or';
  leaves: Leaf[];
  negate: boolean;
}

export interface Quicksearch {
  kind: 'quick';
  words: string[];
}

export type Criterion = SimpleCriterion | Leaf | OrGroup | Quicksearch;

export interface OracleQuery {
  criteria: Criterion[];
  order?: 'bug_id' | 'bug_id DESC';
  limit?: number;
  offset?: number;
  countOnly: boolean;
  /** Sent as JSON-RPC Bug.search instead of REST. */
  rpc: boolean;
}

export interface QueryContext {
  logins: string[];
  aliases: string[];
  /** Bug ids to name in id criteria (every filed bug and some that do not exist). */
  ids: number[];
}

const word = fc.constantFrom(...SUMMARY_WORDS, ...RESTRICTED_WORDS, ...COMMENT_WORDS, PRIVATE_COMMENT_WORD);
const whiteboardValue = fc.constantFrom('wb0', 'wb1', 'wb4', 'triage', 'wb', 'WB2');

function simpleCriterion(context: QueryContext): fc.Arbitrary<SimpleCriterion> {
  const products = Object.keys(PRODUCTS);
  const components = Object.values(PRODUCTS).flat();
  const valuesOf: Record<SimpleField, fc.Arbitrary<string>> = {
    product: fc.constantFrom(...products, 'alpha', 'NoSuchProduct'),
    component: fc.constantFrom(...components, 'engine'),
    status: fc.constantFrom('CONFIRMED', 'IN_PROGRESS', 'RESOLVED', 'confirmed'),
    resolution: fc.constantFrom('', 'FIXED', 'DUPLICATE'),
    priority: fc.constantFrom(...PRIORITIES, 'high'),
    severity: fc.constantFrom(...SEVERITIES),
    whiteboard: whiteboardValue,
    summary: fc.oneof(word, fc.constantFrom('crash', 'n12', 'n3', 'ZEPHYR quasar')),
    alias: fc.constantFrom(...context.aliases.slice(0, 400), 'al-none'),
    assigned_to: fc.constantFrom(...context.logins),
    creator: fc.constantFrom(...context.logins),
    id: fc.constantFrom(...context.ids).map(String),
  };
  const fields = Object.keys(valuesOf) as SimpleField[];
  return fc.constantFrom(...fields).chain((field) =>
    fc.record({
      kind: fc.constant('simple' as const),
      field: fc.constant(field),
      values: fc.array(valuesOf[field], { minLength: 1, maxLength: field === 'id' ? 40 : 2 }),
      buglistName: field in BUGLIST_NAMES ? fc.boolean() : fc.constant(false),
    }),
  );
}

function leaf(context: QueryContext): fc.Arbitrary<Leaf> {
  const textOps = [
    'equals',
    'notequals',
    'substring',
    'notsubstring',
    'casesubstring',
    'anywords',
    'allwords',
    'nowords',
  ];
  const forms: Array<fc.Arbitrary<Omit<Leaf, 'kind' | 'negate'>>> = [
    fc.record({
      field: fc.constant('short_desc'),
      op: fc.constantFrom(...textOps),
      value: fc.oneof(word, fc.constantFrom('zephyr quasar', 'Crash', 'crash n1', 'photon issue n7')),
    }),
    fc.record({
      field: fc.constant('status_whiteboard'),
      op: fc.constantFrom('substring', 'equals', 'isempty', 'isnotempty', 'notsubstring'),
      value: whiteboardValue,
    }),
    fc.record({
      field: fc.constant('alias'),
      op: fc.constantFrom('equals', 'substring', 'isempty', 'isnotempty'),
      value: fc.oneof(fc.constantFrom(...context.aliases.slice(0, 400)), fc.constantFrom('al1', 'al2', 'x')),
    }),
    fc.record({
      field: fc.constant('keywords'),
      op: fc.constantFrom('anywords', 'allwords', 'nowords'),
      value: fc.subarray([...KEYWORDS], { minLength: 1 }).map((names) => names.join(' ')),
    }),
    fc.record({
      field: fc.constant('cc'),
      op: fc.constantFrom('equals', 'substring'),
      value: fc.constantFrom(...context.logins),
    }),
    fc.record({ field: fc.constant('bug_group'), op: fc.constant('equals'), value: fc.constantFrom(...GROUPS) }),
    fc.record({
      field: fc.constantFrom('product', 'component', 'bug_status', 'priority', 'bug_severity', 'resolution'),
      op: fc.constantFrom('equals', 'notequals', 'anyexact'),
      value: fc.constantFrom(
        'Alpha',
        'Vault,Keep',
        'Core',
        'Engine,Store',
        'RESOLVED',
        'Highest,High',
        'major',
        'FIXED',
        '---',
      ),
    }),
    fc.record({
      field: fc.constant('bug_id'),
      op: fc.constantFrom('greaterthan', 'lessthan'),
      value: fc.constantFrom(...context.ids).map(String),
    }),
    fc.record({
      field: fc.constantFrom('dependson', 'blocked'),
      op: fc.constant('equals'),
      value: fc.constantFrom(...context.ids).map(String),
    }),
    fc.record({
      field: fc.constant('longdesc'),
      op: fc.constantFrom('substring', 'notsubstring'),
      value: fc.oneof(word, fc.constantFrom('happens', 'seen again', 'internal')),
    }),
    fc.record({
      field: fc.constant('deadline'),
      op: fc.constantFrom('greaterthan', 'lessthan'),
      value: fc.constantFrom('2027-03-01', '2027-06-15'),
    }),
  ];
  // A negated deadline would ask what a bug without one answers (SQL's NULL): not this oracle's question.
  return fc
    .oneof(...forms)
    .chain((form) =>
      fc.boolean().map((negate): Leaf => ({ kind: 'leaf', ...form, negate: form.field !== 'deadline' && negate })),
    );
}

const quicksearchWord = (context: QueryContext) =>
  fc.oneof(
    word,
    fc.constantFrom(...KEYWORDS, 'crash', 'wb3', 'triage', 'zeph'),
    fc.constantFrom(...context.aliases.slice(0, 400)),
    fc.constantFrom('al1', 'al23'),
  );

export function oracleQuery(context: QueryContext): fc.Arbitrary<OracleQuery> {
  const criterion: fc.Arbitrary<Criterion> = fc.oneof(
    { weight: 3, arbitrary: simpleCriterion(context) },
    { weight: 3, arbitrary: leaf(context) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('or' as const),
        leaves: fc.array(leaf(context), { minLength: 2, maxLength: 3 }),
        negate: fc.boolean(),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('quick' as const),
        words: fc.array(quicksearchWord(context), { minLength: 1, maxLength: 2 }),
      }),
    },
  );
  return fc
    .record({
      criteria: fc.array(criterion, { minLength: 1, maxLength: 3 }),
      order: fc.option(fc.constantFrom('bug_id' as const, 'bug_id DESC' as const), { nil: undefined }),
      paging: fc.option(
        fc.record({ limit: fc.integer({ min: 1, max: 40 }), offset: fc.integer({ min: 0, max: 30 }) }),
        {
          nil: undefined,
        },
      ),
      countOnly: fc.boolean(),
      rpc: fc.boolean(),
    })
    .map(({ criteria, order, paging, countOnly, rpc }) => {
      // At most one quicksearch (it is one parameter), and one simple criterion per field (its
      // repeated parameter is one criterion of any of the values); paging only for lists.
      const fields = new Set<string>();
      const once = criteria.filter((item) => {
        if (item.kind !== 'simple') return true;
        if (fields.has(item.field)) return false;
        fields.add(item.field);
        return true;
      });
      const quick = once.filter((item) => item.kind === 'quick');
      const kept = [...once.filter((item) => item.kind !== 'quick'), ...quick.slice(0, 1)];
      const query: OracleQuery = { criteria: kept, countOnly, rpc };
      if (order) query.order = order;
      if (paging && !countOnly) Object.assign(query, paging);
      return query;
    });
}

/** The query as search parameters: name and value pairs, repeated names meaning any-of. */
export function searchParameters(query: OracleQuery): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  let chart = 0;
  const addLeaf = (item: Leaf) => {
    chart++;
    pairs.push([`f${chart}`, item.field], [`o${chart}`, item.op], [`v${chart}`, item.value]);
    if (item.negate) pairs.push([`n${chart}`, '1']);
  };
  for (const item of query.criteria) {
    if (item.kind === 'simple') {
      const name = item.buglistName ? BUGLIST_NAMES[item.field]! : item.field;
      for (const value of item.values) pairs.push([name, value]);
    } else if (item.kind === 'quick') pairs.push(['quicksearch', item.words.join(' ')]);
    else if (item.kind === 'leaf') addLeaf(item);
    else {
      chart++;
      pairs.push([`f${chart}`, 'OP'], [`j${chart}`, 'OR']);
      if (item.negate) pairs.push([`n${chart}`, '1']);
      for (const inner of item.leaves) addLeaf(inner);
      chart++;
      pairs.push([`f${chart}`, 'CP']);
    }
  }
  if (query.order) pairs.push(['order', query.order]);
  if (query.limit !== undefined) pairs.push(['limit', String(query.limit)]);
  if (query.offset !== undefined) pairs.push(['offset', String(query.offset)]);
  if (query.countOnly) pairs.push(['count_only', '1']);
  return pairs;
}

/** The same as one JSON-RPC params object: repeated names become arrays. */
export function rpcParameters(query: OracleQuery): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of searchParameters(query)) {
    const held = params[name];
    params[name] = held === undefined ? value : [...(Array.isArray(held) ? held : [held]), value];
  }
  return params;
}

/** A short text of the query, for failure messages. */
export const describeQuery = (query: OracleQuery): string =>
  `${query.rpc ? 'JSON-RPC Bug.search' : 'GET /rest/bug'} ${new URLSearchParams(searchParameters(query)).toString()}`;
