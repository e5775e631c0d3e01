import { errors } from '../../../errors.ts';
import { isTimeTrackingField } from '../../bug/privateActivity.ts';
import { CREDENTIAL_PARAMS } from '../../identity/authentication.ts';
import { nameTable } from '../../nameTable.ts';
import { canonicalField, PER_COMMENT_NEGATIONS } from './searchFields.ts';

/**
 * GET /rest/bug's parameters as one boolean tree of criteria, whatever form they came in: the
 * spec's names (`status`, `summary`, ...), Bugzilla's buglist names that python-bugzilla and the
 * `bugzilla` command send (`bug_status`, `short_desc` + `short_desc_type`, `email1`/`emailtype1`,
 * `chfield*`, `keywords_type`, ...), advanced search (`f1/o1/v1`, `n1`, `j_top`, `OP`/`CP`) and
 * quicksearch (quicksearch.ts). Field names here are Bugzilla's column names (`bug_status`,
 * `short_desc`, ...); searchEvaluation.ts and criterionCompiler.ts evaluate the tree over the search index.
 */
export type SearchNode =
  | { kind: 'and' | 'or'; children: SearchNode[]; negate?: boolean }
  | { kind: 'leaf'; field: string; op: string; value: string; negate?: boolean }
  | { kind: 'const'; value: boolean };

export const and = (children: SearchNode[], negate = false): SearchNode => ({ kind: 'and', children, negate });
export const or = (children: SearchNode[], negate = false): SearchNode => ({ kind: 'or', children, negate });
export const leaf = (field: string, op: string, value: string, negate = false): SearchNode => ({
  kind: 'leaf',
  field,
  op,
  value,
  negate,
});
export const TRUE: SearchNode = { kind: 'const', value: true };

/** Bugzilla's operators; the `no`/`not` forms are the positive form negated. */
const OPERATORS = new Set([
  'equals',
  'notequals',
  'anyexact',
  'substring',
  'casesubstring',
  'notsubstring',
  'anywordssubstr',
  'allwordssubstr',
  'nowordssubstr',
  'regexp',
  'notregexp',
  'lessthan',
  'lessthaneq',
  'greaterthan',
  'greaterthaneq',
  'anywords',
  'allwords',
  'nowords',
  'changedbefore',
  'changedafter',
  'changedfrom',
  'changedto',
  'changedby',
  'isempty',
  'isnotempty',
  'matches',
  'notmatches',
]);
const NEGATED: Readonly<Record<string, string>> = nameTable({
  notequals: 'equals',
  notsubstring: 'substring',
  nowordssubstr: 'anywordssubstr',
  notregexp: 'regexp',
  nowords: 'anywords',
  notmatches: 'matches',
});

/** The spec's parameter names (and clarifications' aliases) → Bugzilla's column names. */
const SIMPLE_FIELDS: Readonly<Record<string, string>> = nameTable({
  alias: 'alias',
  assigned_to: 'assigned_to',
  component: 'component',
  creation_time: 'creation_ts',
  creator: 'reporter',
  reporter: 'reporter',
  description: 'description',
  filed_via: 'filed_via',
  last_change_time: 'delta_ts',
  'longdescs.count': 'longdescs.count',
  longdescs_count: 'longdescs.count',
  op_sys: 'op_sys',
  platform: 'rep_platform',
  rep_platform: 'rep_platform',
  priority: 'priority',
  product: 'product',
  classification: 'classification',
  resolution: 'resolution',
  severity: 'bug_severity',
  bug_severity: 'bug_severity',
  status: 'bug_status',
  bug_status: 'bug_status',
  summary: 'short_desc',
  short_desc: 'short_desc',
  tags: 'tag',
  tag: 'tag',
  target_milestone: 'target_milestone',
  qa_contact: 'qa_contact',
  triage_owner: 'triage_owner',
  type: 'bug_type',
  bug_type: 'bug_type',
  url: 'bug_file_loc',
  bug_file_loc: 'bug_file_loc',
  version: 'version',
  whiteboard: 'status_whiteboard',
  status_whiteboard: 'status_whiteboard',
  keywords: 'keywords',
  cc: 'cc',
  long_desc: 'longdesc',
  longdesc: 'longdesc',
  content: 'content',
  depends_on: 'dependson',
  blocks: 'blocked',
  votes: 'votes',
  deadline: 'deadline',
});

/** Parameters that shape the answer or authenticate the call, not criteria. */
const CONTROL = new Set([
  'limit',
  'offset',
  'count_only',
  'order',
  'include_fields',
  'exclude_fields',
  'permissive',
  'quicksearch',
  'callback',
  ...CREDENTIAL_PARAMS,
  'Bugzilla_restrictlogin',
  'restrictlogin',
  'j_top',
  'query_format',
  'ctype',
  'list_id',
  'query_based_on',
  'columnlist',
  'known_name',
  'cmdtype',
  'remaction',
  'namedcmd',
  'savedsearch',
  'sharer_id',
  'bug_id_type',
  'short_desc_type',
  'long_desc_type',
  'longdesc_type',
  'status_whiteboard_type',
  'bug_file_loc_type',
  'keywords_type',
  'chfield',
  'chfieldfrom',
  'chfieldto',
  'chfieldvalue',
  'emailtype1',
  'emailtype2',
  'emailtype3',
  'votes_type',
  'content_type',
  'whiteboard_type',
  'summary_type',
]);

/**
 * The `_type` companion of a buglist free-text parameter, and the operator without one: Bugzilla's
 * REST search gives `short_desc`, `status_whiteboard` and `bug_file_loc` (which `url` names)
 * `allwordssubstr` (WebService/Bug.pm; `longdesc` is any of its words, see simpleCriterion), while the spec keeps `summary` and `whiteboard`
 * whole substrings. `allValues`: the values without a type are one criterion over all their words,
 * as 5.2 joins a repeated text parameter into one; the spec's own names keep any-of.
 */
const TYPED_TEXT: Readonly<Record<string, { type: string[]; field: string; fallback: string; allValues?: boolean }>> =
  nameTable({
    short_desc: {
      type: ['short_desc_type', 'summary_type'],
      field: 'short_desc',
      fallback: 'allwordssubstr',
      allValues: true,
    },
    summary: { type: ['summary_type', 'short_desc_type'], field: 'short_desc', fallback: 'substring' },
    status_whiteboard: {
      type: ['status_whiteboard_type', 'whiteboard_type'],
      field: 'status_whiteboard',
      fallback: 'allwordssubstr',
      allValues: true,
    },
    whiteboard: {
      type: ['whiteboard_type', 'status_whiteboard_type'],
      field: 'status_whiteboard',
      fallback: 'substring',
    },
    long_desc: {
      type: ['long_desc_type', 'longdesc_type'],
      field: 'longdesc',
      fallback: 'allwordssubstr',
      allValues: true,
    },
    content: { type: ['content_type'], field: 'content', fallback: 'anywords' },
    bug_file_loc: {
      type: ['bug_file_loc_type'],
      field: 'bug_file_loc',
      fallback: 'allwordssubstr',
      allValues: true,
    },
    url: { type: ['bug_file_loc_type'], field: 'bug_file_loc', fallback: 'allwordssubstr' },
    keywords: { type: ['keywords_type'], field: 'keywords', fallback: 'anyexact' },
  });

export const valuesOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((entry) => entry !== undefined && entry !== null).map(String);
const first = (params: Record<string, unknown>, name: string): string | undefined => valuesOf(params[name])[0];

function checkOperator(op: string): string {
  if (!OPERATORS.has(op)) throw errors.unknownSearchOperator(op);
  return op;
}

/** Splits `id=1,2` style lists. */
const splitList = (values: string[]) =>
  values
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);

/**
 * `id=1,2`: any of those bugs. A value that is not a number is no bug's id (5.2 compares it with
 * every id, as MySQL compares text with a number, and finds none), so `id=abc` finds nothing.
 */
function idCriterion(values: string[]): SearchNode {
  const ids = splitList(values).filter((id) => /^\d+$/.test(id));
  return leaf('bug_id', 'anyexact', ids.join(','));
}

/** One simple parameter with any of its values (spec rules: exact, except where stated). */
function simpleCriterion(
  name: string,
  field: string,
  values: string[],
  params: Record<string, unknown>,
): SearchNode | null {
  // Bugzilla 5.2's Bug.search turns `longdesc` into a chart of any of its words, each a substring
  // of one comment, whatever `longdesc_type` says (WebService/Bug.pm, its "role search").
  // An empty one is no criterion, as Search.pm skips an empty chart.
  if (name === 'longdesc') {
    const words = values.join(' ');
    return words.trim() === '' ? null : leaf('longdesc', 'anywordssubstr', words);
  }
  const typed = TYPED_TEXT[name];
  if (typed) {
    const type = typed.type
      .map((typeName) => first(params, typeName))
      .find((value) => value !== undefined && value !== '');
    if (type) {
      // A buglist text search with its `_type`: one criterion per value, any of them.
      return or(values.map((value) => operatorLeaf(typed.field, type, value)));
    }
    if (name === 'keywords') return or(splitList(values).map((value) => leaf('keywords', 'equals', value)));
    if (typed.allValues) return leaf(typed.field, typed.fallback, values.join(' '));
    return or(values.map((value) => leaf(typed.field, typed.fallback, value)));
  }
  switch (field) {
    case 'creation_ts':
    case 'delta_ts':
      return leaf(field, 'greaterthaneq', values[0]);
    case 'resolution':
      return or(
        values.map((value) =>
          value === '' || value === '---' ? leaf('resolution', 'isempty', '') : leaf('resolution', 'equals', value),
        ),
      );
    case 'description':
      return or(values.map((value) => leaf('description', 'substring', value)));
    case 'bug_status':
      return or(values.map((value) => statusLeaf(value)));
    default:
      return or(values.map((value) => leaf(field, 'equals', value)));
  }
}

/** Bugzilla's status shortcuts: `__open__`, `__closed__`, `__all__` (and `OPEN`/`CLOSED` words of its URLs). */
function statusLeaf(value: string): SearchNode {
  const special = value.trim().toLowerCase();
  if (special === '__open__' || special === 'open') return leaf('bug_status', 'isopen', '');
  if (special === '__closed__') return leaf('bug_status', 'isopen', '', true);
  if (special === '__all__' || special === 'all') return TRUE;
  return leaf('bug_status', 'equals', value);
}

/**
 * Fields Bugzilla 5.2 searches one row of another table at a time (comments, aliases), where a
 * negative operator holds for a bug with a row that fails the positive test: a bug with no comment
 * or no alias never matches it (Search.pm _long_desc_nonchanged, _alias_nonchanged).
 */
const PER_VALUE_FIELDS: ReadonlySet<string> = new Set(['longdesc', 'alias']);

/** Whether the negative operator `op` holds per comment or alias on `field` (searchFields.ts): not the positive negated. */
export const holdsPerValue = (field: string, op: string): boolean =>
  op in PER_COMMENT_NEGATIONS && PER_VALUE_FIELDS.has(canonicalField(field));

function operatorLeaf(field: string, op: string, value: string): SearchNode {
  const checked = checkOperator(op);
  if (holdsPerValue(field, checked)) return leaf(field, checked, value);
  const positive = NEGATED[checked];
  return positive ? leaf(field, positive, value, true) : leaf(field, checked, value);
}

const EMAIL_ROLES: ReadonlyArray<[string, string]> = [
  ['assigned_to', 'assigned_to'],
  ['reporter', 'reporter'],
  ['qa_contact', 'qa_contact'],
  ['cc', 'cc'],
  ['longdesc', 'commenter'],
];

/** `email1=x&emailtype1=substring&emailassigned_to1=1&emailcc1=1...`: any of the ticked roles. */
function emailCriteria(params: Record<string, unknown>): SearchNode[] {
  const nodes: SearchNode[] = [];
  const numbers = new Set(
    Object.keys(params)
      .map((name) => /^email(\d+)$/.exec(name)?.[1])
      .filter((n): n is string => n !== undefined),
  );
  for (const n of [...numbers].sort()) {
    const value = first(params, `email${n}`);
    if (!value) continue;
    const type = first(params, `emailtype${n}`) || 'substring';
    const roles = EMAIL_ROLES.filter(([role]) =>
      ['1', 'on', 'true'].includes(String(first(params, `email${role}${n}`) ?? '').toLowerCase()),
    );
    const chosen = roles.length > 0 ? roles : EMAIL_ROLES.slice(0, 4);
    const op = type === 'exact' ? 'equals' : type;
    const checked = checkOperator(op);
    const positive = NEGATED[checked];
    // A negated type means "none of the roles matches".
    if (positive)
      nodes.push(
        or(
          chosen.map(([, field]) => leaf(field, positive, value)),
          true,
        ),
      );
    else nodes.push(or(chosen.map(([, field]) => leaf(field, checked, value))));
  }
  return nodes;
}

/**
 * `chfield`/`chfieldfrom`/`chfieldto`/`chfieldvalue`, as Search.pm's _special_parse_chfield reads
 * them. A `from` date also requires the bug's last change to be that late; without fields (and
 * without a value) the dates select on the bug's last change time alone, not on its history. Each
 * field then needs one change of it inside the range (to the value, when one is given). `Now` as
 * either date means no bound. Given, but saying nothing to select on, they select every bug, as
 * 5.2 answers them.
 */
function changedCriteria(params: Record<string, unknown>): SearchNode | null {
  const fields = valuesOf(params.chfield)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
  const date = (name: string) => {
    const raw = first(params, name);
    const value = (raw ?? '').trim();
    return value.toLowerCase() === 'now' ? '' : value;
  };
  const from = date('chfieldfrom');
  const to = date('chfieldto');
  const value = first(params, 'chfieldvalue') ?? '';
  const given = ['chfield', 'chfieldfrom', 'chfieldto', 'chfieldvalue'].some((name) => valuesOf(params[name]).length);
  if (!from && !to && !value) return given ? TRUE : null;
  const criteria: SearchNode[] = [];
  if (from) criteria.push(leaf('delta_ts', 'greaterthaneq', from));
  if (to && fields.length === 0 && !value) criteria.push(leaf('delta_ts', 'lessthaneq', to));
  const range = `${from}|${to}|${value}`;
  if (fields.length > 0) criteria.push(or(fields.map((field) => leaf(field, 'changedrange', range))));
  return criteria.length === 0 ? TRUE : and(criteria);
}

/** Advanced search: `fN/oN/vN`, `nN` negation, `jN`/`j_top` joins, `OP`/`CP` parentheses. */
function advancedCriteria(params: Record<string, unknown>): SearchNode | null {
  const numbers = [
    ...new Set(
      Object.keys(params)
        .map((name) => /^[fov](\d+)$/.exec(name)?.[1])
        .filter((n): n is string => n !== undefined),
    ),
  ]
    .map(Number)
    .sort((a, b) => a - b);
  if (numbers.length === 0) return null;
  const joinOf = (value: string | undefined) =>
    String(value ?? 'AND')
      .toUpperCase()
      .startsWith('OR')
      ? 'or'
      : 'and';
  const isTrue = (value: string | undefined) => ['1', 'on', 'true'].includes(String(value ?? '').toLowerCase());
  interface Frame {
    join: 'and' | 'or';
    negate: boolean;
    children: SearchNode[];
  }
  const stack: Frame[] = [{ join: joinOf(first(params, 'j_top')), negate: false, children: [] }];
  for (const n of numbers) {
    const field = first(params, `f${n}`) ?? '';
    if (field === '' || field === 'noop') continue;
    if (field === 'OP') {
      stack.push({ join: joinOf(first(params, `j${n}`)), negate: isTrue(first(params, `n${n}`)), children: [] });
      continue;
    }
    if (field === 'CP') {
      if (stack.length > 1) {
        const frame = stack.pop()!;
        stack[stack.length - 1].children.push({ kind: frame.join, children: frame.children, negate: frame.negate });
      }
      continue;
    }
    const op = first(params, `o${n}`) ?? 'equals';
    if (op === 'noop' || op === '') continue;
    const node = operatorLeaf(field, op, first(params, `v${n}`) ?? '');
    if (isTrue(first(params, `n${n}`))) {
      stack[stack.length - 1].children.push({ kind: 'and', children: [node], negate: true });
    } else stack[stack.length - 1].children.push(node);
  }
  while (stack.length > 1) {
    const frame = stack.pop()!;
    stack[stack.length - 1].children.push({ kind: frame.join, children: frame.children, negate: frame.negate });
  }
  const top = stack[0];
  return top.children.length === 0 ? null : { kind: top.join, children: top.children };
}

/**
 * Bugzilla's boolean charts, as python-bugzilla's build_query sends them (`field0-0-0`,
 * `type0-0-0`, `value0-0-0`, ...): charts are ANDed, the rows of a chart ANDed, the columns of a
 * row ORed; `negate<chart>` negates a chart.
 */
function booleanCharts(params: Record<string, unknown>): SearchNode[] {
  const cells = new Map<number, Map<number, Map<number, SearchNode>>>();
  for (const name of Object.keys(params)) {
    const match = /^field(\d+)-(\d+)-(\d+)$/.exec(name);
    if (!match) continue;
    const field = first(params, name) ?? '';
    const op = first(params, `type${match[1]}-${match[2]}-${match[3]}`) ?? 'substring';
    if (field === '' || field === 'noop' || op === 'noop') continue;
    const [chart, row, column] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const rows = cells.get(chart) ?? new Map<number, Map<number, SearchNode>>();
    const columns = rows.get(row) ?? new Map<number, SearchNode>();
    columns.set(column, operatorLeaf(field, op, first(params, `value${match[1]}-${match[2]}-${match[3]}`) ?? ''));
    rows.set(row, columns);
    cells.set(chart, rows);
  }
  return [...cells.entries()]
    .sort(([a], [b]) => a - b)
    .map(([chart, rows]) => {
      const node = and(
        [...rows.entries()]
          .sort(([a], [b]) => a - b)
          .map(([, columns]) => or([...columns.entries()].sort(([a], [b]) => a - b).map(([, cell]) => cell))),
      );
      return ['1', 'on', 'true'].includes(String(first(params, `negate${chart}`) ?? '').toLowerCase())
        ? ({ ...node, negate: true } as SearchNode)
        : node;
    });
}

export interface ParsedParameters {
  /** Every criterion of the request, ANDed; `null` when the request names none. */
  criteria: SearchNode[];
  /**
   * The criteria of plain parameters on time-tracking fields (`deadline=`), unless the viewer was
   * said to be in the time-tracking group: criteria for its members only (searchRequest.ts).
   */
  timeTrackingCriteria: SearchNode[];
  quicksearch?: string;
}

/**
 * Reads a request's parameters into criteria; unknown parameters are ignored, as Bugzilla does.
 * Outside the time-tracking group `deadline=` is one of them: Bugzilla reads the plain parameters
 * of its search fields only, and those fields are not search fields for them (searchPlanner.ts);
 * without `viewer`, such criteria are kept apart in `timeTrackingCriteria`.
 */
export function parseSearchParameters(
  params: Record<string, unknown>,
  viewer: { timeTracker?: boolean } = {},
): ParsedParameters {
  const criteria: SearchNode[] = [];
  const timeTrackingCriteria: SearchNode[] = [];
  for (const [name, raw] of Object.entries(params)) {
    if (
      CONTROL.has(name) ||
      /^[fovnj]\d+$/.test(name) ||
      /^email/.test(name) ||
      /^(field|type|value)\d+-\d+-\d+$/.test(name) ||
      /^negate\d+$/.test(name)
    )
      continue;
    const values = valuesOf(raw);
    if (values.length === 0) continue;
    if (name === 'id' || name === 'bug_id') {
      const node = idCriterion(values);
      const type = first(params, 'bug_id_type');
      criteria.push(
        type && ['nowords', 'notequals', 'nowordssubstr'].includes(type)
          ? { kind: 'and', children: [node], negate: true }
          : node,
      );
      continue;
    }
    if (name.startsWith('cf_')) {
      criteria.push(or(values.map((value) => leaf(name, 'equals', value))));
      continue;
    }
    const field = SIMPLE_FIELDS[name];
    if (!field) continue;
    const node = simpleCriterion(name, field, values, params);
    if (node) (isTimeTrackingField(field) && !viewer.timeTracker ? timeTrackingCriteria : criteria).push(node);
  }
  criteria.push(...emailCriteria(params));
  criteria.push(...booleanCharts(params));
  const changed = changedCriteria(params);
  if (changed) criteria.push(changed);
  const advanced = advancedCriteria(params);
  if (advanced) criteria.push(advanced);
  const quicksearch = first(params, 'quicksearch');
  return {
    criteria,
    timeTrackingCriteria,
    quicksearch: quicksearch && quicksearch.trim() !== '' ? quicksearch : undefined,
  };
}
