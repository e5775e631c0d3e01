import { CLOSED_ALIAS, LEGACY_STATUS_NAMES } from '../bug/bugWorkflow.ts';
import type { FieldValues } from '../catalog/fieldValues.ts';
import { nameTable } from '../nameTable.ts';
import { and, leaf, or, type SearchNode } from './searchQuery.ts';

/**
 * Bugzilla 5.2's quicksearch language, parsed into a search tree:
 * - a list of bug numbers (`12`, `12,15`, `#12`) finds those bugs; a lone word that is an alias
 *   finds that bug (the caller checks the alias, see `QuicksearchPlan.alias`);
 * - a leading status word: `ALL`, `OPEN`, status names and legacy names, resolutions (`FIXED`
 *   means closed bugs resolved FIXED), comma-separated; without one, only open bugs;
 * - `field:value` with Bugzilla's field shortcuts (`prod:`, `comp:`, `sev:`, `kw:`, ...), the
 *   value a comma-separated any-of;
 * - `:name` product or component, `@login` assignee, `!keyword` keyword, `P1`..`P5` priority
 *   (and ranges `P1-3`), severity words;
 * - statuses, resolutions, priorities and severities are the installation's (catalog/fieldValues.ts);
 * - plain words (and `+word`, taken literally) match summary, whiteboard, alias, product,
 *   component, keywords and comment text; `-word` negates; quoted phrases are one word;
 *   `word1|word2` and `OR` combine alternatives; everything else is ANDed.
 */
const FIELD_SHORTCUTS: Readonly<Record<string, string>> = nameTable({
  // Bugzilla's QuickSearch field map (its own names, then its abbreviations).
  product: 'product',
  prod: 'product',
  pr: 'product',
  component: 'component',
  comp: 'component',
  co: 'component',
  summary: 'short_desc',
  short_desc: 'short_desc',
  sum: 'short_desc',
  sd: 'short_desc',
  description: 'longdesc',
  desc: 'longdesc',
  longdesc: 'longdesc',
  comment: 'longdesc',
  com: 'longdesc',
  content: 'content',
  status: 'bug_status',
  bug_status: 'bug_status',
  st: 'bug_status',
  resolution: 'resolution',
  res: 'resolution',
  priority: 'priority',
  pri: 'priority',
  severity: 'bug_severity',
  bug_severity: 'bug_severity',
  sev: 'bug_severity',
  assignee: 'assigned_to',
  assigned_to: 'assigned_to',
  owner: 'assigned_to',
  at: 'assigned_to',
  reporter: 'reporter',
  rep: 'reporter',
  submitter: 'reporter',
  creator: 'reporter',
  qa: 'qa_contact',
  qa_contact: 'qa_contact',
  qacontact: 'qa_contact',
  cc: 'cc',
  commenter: 'commenter',
  keywords: 'keywords',
  keyword: 'keywords',
  kw: 'keywords',
  whiteboard: 'status_whiteboard',
  status_whiteboard: 'status_whiteboard',
  sw: 'status_whiteboard',
  wb: 'status_whiteboard',
  url: 'bug_file_loc',
  bug_file_loc: 'bug_file_loc',
  u: 'bug_file_loc',
  os: 'op_sys',
  op_sys: 'op_sys',
  opsys: 'op_sys',
  platform: 'rep_platform',
  rep_platform: 'rep_platform',
  pf: 'rep_platform',
  hardware: 'rep_platform',
  hw: 'rep_platform',
  version: 'version',
  ver: 'version',
  ve: 'version',
  milestone: 'target_milestone',
  target_milestone: 'target_milestone',
  tm: 'target_milestone',
  target: 'target_milestone',
  alias: 'alias',
  flag: 'flagtypes.name',
  flags: 'flagtypes.name',
  'flagtypes.name': 'flagtypes.name',
  requestee: 'requestees.login_name',
  req: 'requestees.login_name',
  setter: 'setters.login_name',
  set: 'setters.login_name',
  tag: 'tag',
  tags: 'tag',
  group: 'bug_group',
  bug_group: 'bug_group',
  id: 'bug_id',
  bug_id: 'bug_id',
  blocks: 'blocked',
  blocked: 'blocked',
  depends: 'dependson',
  dependson: 'dependson',
  depends_on: 'dependson',
  type: 'bug_type',
  bug_type: 'bug_type',
  classification: 'classification',
  deadline: 'deadline',
  see_also: 'see_also',
});

/** Fields whose quicksearch values are matched whole, not as substrings. */
const EXACT_FIELDS = new Set([
  'bug_id',
  'blocked',
  'dependson',
  'bug_status',
  'resolution',
  'priority',
  'bug_severity',
  'keywords',
  'bug_type',
]);

const openStatuses = (values: FieldValues) => values.statusNames((status) => status.isOpen === true);
const closedStatuses = (values: FieldValues) => values.statusNames((status) => !status.isOpen);

/**
 * A name of Bugzilla's old workflow the installation has no status of: the statuses it became
 * (CLOSED: every closed status), when the installation has them.
 */
function legacyStatuses(values: FieldValues, word: string): string[] | undefined {
  if (word === CLOSED_ALIAS) return closedStatuses(values);
  const target = LEGACY_STATUS_NAMES[word] && values.named('bug_status', LEGACY_STATUS_NAMES[word]);
  return target ? [target.name] : undefined;
}

/** Splits into words, keeping "quoted phrases" (and field:"quoted values") whole. */
function quicksearchWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /(?:[^\s"]*"[^"]*"?[^\s"]*)+|[^\s"]+/g;
  for (const match of text.matchAll(pattern)) words.push(match[0]);
  return words;
}

const unquote = (word: string) => word.replace(/"/g, '');

export interface QuicksearchPlan {
  /** The whole query, as criteria; ANDed with the request's other parameters. */
  node: SearchNode;
  /** A lone word that may be an alias: if a bug has it, the search is that bug alone. */
  alias?: string;
}

/** A leading status word (`OPEN`, `ALL`, `FIXED,WONTFIX`, `NEW`, ...), or null if the word is not one. */
function statusWord(word: string, values: FieldValues): SearchNode | null {
  if (word === 'ALL') return { kind: 'const', value: true };
  if (word === 'OPEN') return leaf('bug_status', 'anyexact', openStatuses(values).join(','));
  const parts = word.replace(/^\+/, '').split(',').filter(Boolean);
  if (parts.length === 0 || !parts.every((part) => /^[A-Z_]+$/.test(part))) return null;
  const statuses = new Set<string>();
  const resolutions = new Set<string>();
  const statusNames = values.statusNames();
  const resolutionNames = values.list('resolution').map((resolution) => resolution.name);
  for (const part of parts) {
    const legacy = legacyStatuses(values, part);
    if (statusNames.includes(part)) statuses.add(part);
    else if (legacy) for (const status of legacy) statuses.add(status);
    else if (resolutionNames.includes(part) && part !== '') resolutions.add(part);
    else if (part === 'DUP') resolutions.add('DUPLICATE');
    else return null;
  }
  const nodes: SearchNode[] = [];
  if (statuses.size > 0) nodes.push(leaf('bug_status', 'anyexact', [...statuses].join(',')));
  if (resolutions.size > 0)
    nodes.push(
      and([
        leaf('bug_status', 'anyexact', closedStatuses(values).join(',')),
        leaf('resolution', 'anyexact', [...resolutions].join(',')),
      ]),
    );
  return nodes.length === 1 ? nodes[0] : or(nodes);
}

/** Severity names, and their first three letters, as words that find the severity. */
function severityWords(values: FieldValues): Map<string, string> {
  const words = new Map<string, string>();
  for (const { name } of values.active('bug_severity')) {
    words.set(name.toLowerCase(), name);
    if (!words.has(name.toLowerCase().slice(0, 3))) words.set(name.toLowerCase().slice(0, 3), name);
  }
  return words;
}

/**
 * Bugzilla 5.2's P1-5 syntax (Quicksearch.pm _special_field_syntax): `Pn` is the priority named
 * Pn if there is one, or else the nth active priority in display order; `Pn-m` the priorities
 * from one to the other.
 */
function priorityRange(values: FieldValues, start: number, end: number | undefined): string[] {
  const priorities = values.active('priority').map((priority) => priority.name);
  const position = (n: number) => {
    const named = priorities.indexOf(`P${n}`);
    return named >= 0 ? named : undefined;
  };
  const first = position(start) ?? Math.max(0, start - 1);
  if (end === undefined) return priorities.slice(first, first + 1);
  const last = position(end) ?? Math.max(0, Math.min(priorities.length, end) - 1);
  return priorities.slice(Math.min(first, last), Math.max(first, last) + 1);
}

/** One word (no `|`, no leading `-`) as criteria. */
function wordCriteria(raw: string, values: FieldValues): SearchNode {
  const literal = raw.startsWith('+');
  const word = unquote(literal ? raw.slice(1) : raw);
  if (!literal) {
    const field = /^([A-Za-z_.]+):(.*)$/.exec(raw);
    if (field && FIELD_SHORTCUTS[field[1].toLowerCase()] && field[2] !== '') {
      const name = FIELD_SHORTCUTS[field[1].toLowerCase()];
      const values = unquote(field[2])
        .split(',')
        .map((value) => value.trim())
        .filter(Boolean);
      const op = EXACT_FIELDS.has(name) ? 'equals' : 'substring';
      return or(values.map((value) => leaf(name, op, value)));
    }
    if (raw.startsWith(':') && word.length > 1) {
      const name = word.slice(1);
      return or([leaf('product', 'substring', name), leaf('component', 'substring', name)]);
    }
    if (raw.startsWith('@') && word.length > 1) return leaf('assigned_to', 'substring', word.slice(1));
    if (raw.startsWith('!') && word.length > 1) return leaf('keywords', 'equals', word.slice(1));
    const priority = /^[Pp](\d{1,4})(?:-(\d{1,4}))?$/.exec(word);
    if (priority) {
      const names = priorityRange(
        values,
        Number(priority[1]),
        priority[2] === undefined ? undefined : Number(priority[2]),
      );
      return or([leaf('priority', 'anyexact', names.join(',')), ...plainWord(word)]);
    }
    const severity = severityWords(values).get(word.toLowerCase());
    if (severity && word.length >= 3) return or([leaf('bug_severity', 'equals', severity), ...plainWord(word)]);
  }
  return or(plainWord(word));
}

/** Where Bugzilla looks for a plain word: product, component, keywords, alias, summary, whiteboard, comments. */
function plainWord(word: string): SearchNode[] {
  const nodes: SearchNode[] = [];
  if (word.length > 2) nodes.push(leaf('product', 'substring', word), leaf('component', 'substring', word));
  nodes.push(leaf('keywords', 'equals', word));
  nodes.push(
    leaf('alias', 'substring', word),
    leaf('short_desc', 'substring', word),
    leaf('status_whiteboard', 'substring', word),
  );
  nodes.push(leaf('content', 'matches', word));
  return nodes;
}

function termCriteria(term: string, values: FieldValues): SearchNode {
  const negate = term.startsWith('-') && term.length > 1;
  const body = negate ? term.slice(1) : term;
  const alternatives = body
    .split('|')
    .filter(Boolean)
    .map((word) => wordCriteria(word, values));
  const node = alternatives.length === 1 ? alternatives[0] : or(alternatives);
  return negate ? { kind: 'and', children: [node], negate: true } : node;
}

export function parseQuicksearch(text: string, values: FieldValues): QuicksearchPlan {
  const trimmed = text.trim();
  // Bug numbers only: those bugs, whatever their status.
  if (/^#?\d+(?:[\s,]+#?\d+)*$/.test(trimmed)) {
    const ids = trimmed.split(/[\s,]+/).map((part) => part.replace('#', ''));
    return { node: leaf('bug_id', 'anyexact', ids.join(',')) };
  }
  const words = quicksearchWords(trimmed);
  let status: SearchNode = leaf('bug_status', 'anyexact', openStatuses(values).join(','));
  if (words.length > 0) {
    const leading = statusWord(words[0], values);
    if (leading) {
      status = leading;
      words.shift();
    }
  }
  // `OR` joins the terms on either side; every other pair of terms is ANDed.
  const groups: string[][] = [[]];
  for (const word of words) {
    if (word === 'OR') groups.push([]);
    else groups[groups.length - 1].push(word);
  }
  const clauses: SearchNode[] = [];
  let pending: SearchNode[] = [];
  groups.forEach((group, groupIndex) => {
    const terms = group.map((term) => termCriteria(term, values));
    if (groupIndex === 0) {
      pending = terms;
      return;
    }
    // a OR b: the last term before OR and the first after it become alternatives.
    const last = pending.pop();
    const [next, ...rest] = terms;
    if (last && next) pending.push(or([last, next]));
    else if (last) pending.push(last);
    else if (next) pending.push(next);
    pending.push(...rest);
  });
  clauses.push(...pending);
  const plan: QuicksearchPlan = { node: and([status, ...clauses]) };
  if (words.length === 1 && /^[^\s:@!|"+-][^\s:|"]*$/.test(words[0]) && !/^\d+$/.test(words[0]))
    plan.alias = unquote(words[0]);
  return plan;
}
