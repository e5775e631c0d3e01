import { errors } from '../../../errors.ts';
import type { FieldValues } from '../../catalog/fieldValues.ts';
import { lookUpQuicksearchField, quicksearchFieldMap } from './quicksearchFields.ts';
import { definedPieces, splitQuicksearch } from './quicksearchWords.ts';
import { and, holdsPerValue, leaf, or, type SearchNode } from './searchQuery.ts';

/**
 * Bugzilla 5.2's quicksearch language (Quicksearch.pm, and its help page quicksearch.html),
 * parsed into a search tree:
 * - bug numbers only (`12`, `12, 15`): those bugs, whatever their status;
 * - a first word made of status or resolution names or their beginnings (`UNCO,VERI`, `FIX`),
 *   or `OPEN`, or `ALL`, chooses the statuses searched; otherwise only open bugs are, unless a
 *   `status:` or `resolution:` term names them;
 * - `field:value` (`=`, `!=`, `<`, `<=`, `>`, `>=` too) with the field names of quicksearchFields.ts,
 *   any of comma-separated fields and values; `:` is a substring match;
 * - `#word` summary or comments, `:word` product or component, `@login` assignee, `[word`
 *   summary or whiteboard, `!keyword` keywords, `flag?requestee` flags, `Pn` and `Pn-m`
 *   priorities by name or position;
 * - any other word: product, component (both from three characters), keywords (when it is the
 *   name of one), alias, summary, whiteboard, comment text (whole words, as Bugzilla's full-text
 *   search), and the URL when it looks like one (a host name, an address, `scheme://`);
 * - `-term` and `NOT term` exclude, `a|b` and `a OR b` are alternatives (OR binds tighter than
 *   the AND between words), quotes keep phrases, commas and operators in one piece.
 *
 * The parts of a query are combined as Bugzilla's boolean charts combine them, quirks included:
 * each word is a chart (charts are ANDed); a criterion of a word joins the current row as an
 * alternative, and a negated one closes the row, so the criteria after it start a new row.
 */

/** What quicksearch reads from the installation besides its field values. */
export interface QuicksearchContext {
  /**
   * The installation's keywords: a plain word that is one of them also searches keywords.
   * Without them, a plain word finds the bugs that have a keyword of that name.
   */
  keywords?: readonly string[];
  /**
   * The active custom fields' names, which `field:value` accepts with or without `cf_`. Without
   * them, any `cf_` name is accepted, and only with its `cf_`.
   */
  customFields?: readonly string[];
  /**
   * The request names the statuses itself (`status=`, `bug_status=`): then its statuses, not
   * quicksearch's default of open bugs, are the ones searched.
   */
  statusGiven?: boolean;
}

export interface QuicksearchPlan {
  /** The whole query, as criteria; ANDed with the request's other parameters. */
  node: SearchNode;
}

/** Quicksearch's operators, longest first so that `!=` is not read as `=`. */
const OPERATORS: ReadonlyArray<[RegExp, string]> = [
  [/!=/, 'notequals'],
  [/>=/, 'greaterthaneq'],
  [/<=/, 'lessthaneq'],
  [/:/, 'substring'],
  [/=/, 'equals'],
  [/>/, 'greaterthan'],
  [/</, 'lessthan'],
];

/** Fields searched with their own operator whatever the symbol (Quicksearch.pm FIELD_OPERATOR). */
const FIELD_OPERATOR: Readonly<Record<string, string>> = { content: 'matches', owner_idle_time: 'greaterthan' };

/** The negative operators, as the positive one negated (how the search tree holds them). */
const POSITIVE_OF: Readonly<Record<string, string>> = {
  notequals: 'equals',
  notsubstring: 'substring',
  notmatches: 'matches',
  nowords: 'anywords',
};

/** The positive operators negated, as Quicksearch.pm negateComparisonType names them. */
const NEGATIVE_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(POSITIVE_OF).map(([negative, positive]) => [positive, negative]),
);

/** Words too common in product and component names to search those by (Quicksearch.pm). */
const NOT_PRODUCT_WORDS = new Set(['row', 'new']);
const NOT_COMPONENT_WORDS = new Set(['hang']);

/** Words that look like a URL, a host name or an address, which also search the bug's URL. */
const URL_LIKE = [/[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+/, /^[A-Za-z]+(\.[A-Za-z]+)+/, /:[\\/][\\/]/, /localhost/, /mailto:?/];

const openStatuses = (values: FieldValues) => values.statusNames((status) => status.isOpen === true);

const WHITESPACE = /\s+/;
const COMMA = /,/;
const BAR = /\|/;

/**
 * Criteria laid out as Bugzilla's boolean charts: charts ANDed, the rows of a chart ANDed, the
 * criteria of a row ORed. An empty value is no criterion (Bugzilla skips it), but a negated one
 * still closes its row.
 */
class Charts {
  private readonly charts: SearchNode[][][] = [];
  private chart = 0;
  private row = 0;

  add(field: string, op: string, value: string | undefined, negate: boolean, keepEmpty = false): void {
    if (value !== undefined && (value !== '' || keepEmpty)) {
      // Bugzilla negates the operator (Quicksearch.pm negateComparisonType), and a negative operator
      // on comments or aliases holds per comment or alias: `-word` wants a bug with an alias without it.
      const applied = negate ? NEGATIVE_OF[op] : op;
      const positive = POSITIVE_OF[op];
      const node =
        applied !== undefined && holdsPerValue(field, applied)
          ? leaf(field, applied, value)
          : leaf(field, positive ?? op, value, positive ? !negate : negate);
      const rows = this.charts[this.chart] ?? [];
      this.charts[this.chart] = rows;
      const columns = rows[this.row] ?? [];
      rows[this.row] = columns;
      columns.push(node);
    }
    if (negate) this.row++;
  }

  nextChart(): void {
    this.chart++;
    this.row = 0;
  }

  nodes(): SearchNode[] {
    return this.charts.filter(Boolean).map((rows) => {
      const ors = rows.filter(Boolean).map((columns) => or(columns));
      return ors.length === 1 ? ors[0] : and(ors);
    });
  }
}

class QuicksearchParser {
  readonly charts = new Charts();
  /** Whether a `status:` or `resolution:` term chose the statuses searched. */
  statusChosen = false;
  private readonly unknownFields: string[] = [];
  private readonly ambiguousFields = new Map<string, string[]>();
  private readonly fieldMap: ReadonlyMap<string, string>;
  private readonly anyCustomField: boolean;
  private readonly keywords: ReadonlySet<string> | undefined;

  constructor(
    private readonly values: FieldValues,
    context: QuicksearchContext,
  ) {
    this.fieldMap = quicksearchFieldMap(context.customFields);
    this.anyCustomField = context.customFields === undefined;
    this.keywords = context.keywords && new Set(context.keywords.map((name) => name.toLowerCase()));
  }

  /** One word of the query: its `|` alternatives, each maybe negated. */
  word(word: string): void {
    for (const alternative of definedPieces(splitQuicksearch(BAR, true, word))) {
      const negate = alternative.startsWith('-');
      const term = negate ? alternative.slice(1) : alternative;
      if (this.specialFirstCharacter(term, negate) || this.fieldTerm(term, negate)) continue;
      for (const piece of definedPieces(splitQuicksearch(COMMA, false, term))) {
        if (piece === '') continue;
        if (!this.priorityWord(piece, negate)) this.plainWord(piece, negate);
        if (URL_LIKE.some((pattern) => pattern.test(piece)))
          this.charts.add('bug_file_loc', 'substring', piece, negate);
      }
    }
    this.charts.nextChart();
  }

  /** `#summary`, `:product-or-component`, `@assignee`, `[summary-or-whiteboard`, `!keyword`. */
  private specialFirstCharacter(term: string, negate: boolean): boolean {
    if (term.length <= 1) return false;
    const rest = term.slice(1);
    const each = rest.split(',');
    switch (term[0]) {
      case '#':
        this.charts.add('short_desc', 'substring', rest, negate);
        this.charts.add('content', 'matches', rest, negate);
        return true;
      case ':':
        for (const name of each) {
          this.charts.add('product', 'substring', name, negate);
          this.charts.add('component', 'substring', name, negate);
        }
        return true;
      case '@':
        for (const login of each) this.charts.add('assigned_to', 'substring', login, negate);
        return true;
      case '[':
        this.charts.add('short_desc', 'substring', rest, negate);
        this.charts.add('status_whiteboard', 'substring', rest, negate);
        return true;
      case '!':
        this.charts.add('keywords', 'anywords', rest, negate);
        return true;
      default:
        return false;
    }
  }

  /** `fields<op>values`, or the `flag?requestee` shortcut; false when the term is neither. */
  private fieldTerm(term: string, negate: boolean): boolean {
    for (const [symbol, symbolOperator] of OPERATORS) {
      const sides = splitQuicksearch(symbol, true, term);
      if (sides?.length !== 2) continue;
      const fields = definedPieces(splitQuicksearch(COMMA, true, sides[0] ?? ''));
      const values = sides[1] === undefined ? [] : (splitQuicksearch(COMMA, true, sides[1]) ?? []);
      for (const typed of fields) {
        const found = lookUpQuicksearchField(this.fieldMap, typed, this.anyCustomField);
        if (found.kind === 'unknown') this.unknownFields.push(typed);
        else if (found.kind === 'ambiguous') this.ambiguousFields.set(typed, found.names);
        else {
          const field = found.field;
          if (field === 'bug_status' || field === 'resolution') this.statusChosen = true;
          for (const raw of values) {
            if (raw === undefined) continue;
            const value = unquoted(raw);
            const request = field === 'flagtypes.name' ? /^([^?]+\?)([^?]+)$/.exec(value) : null;
            if (request) this.flag(request[1], request[2], negate);
            else this.charts.add(field, FIELD_OPERATOR[field] ?? symbolOperator, value, negate);
          }
        }
      }
      return true;
    }
    if (/^(["'])[^\n]*\1$/.test(term)) return false;
    const request = /^([^?]+\?)([^?]*)$/.exec(term);
    if (!request) return false;
    this.flag(request[1], request[2], negate);
    return true;
  }

  /**
   * A flag (`review?`, `approval+`) and maybe its requestee. The requestee is a chart of its own,
   * so it is ANDed with everything, whatever `|` or `OR` surround it (as in Bugzilla).
   */
  private flag(flag: string, requestee: string, negate: boolean): void {
    this.charts.add('flagtypes.name', 'substring', flag, negate);
    if (requestee === '') return;
    this.charts.nextChart();
    this.charts.add('requestees.login_name', 'substring', requestee, negate);
  }

  /**
   * `Pn` is the priority named Pn if there is one, else the nth active priority in display order;
   * `Pn-m` the priorities from one to the other (Quicksearch.pm _special_field_syntax).
   */
  private priorityWord(word: string, negate: boolean): boolean {
    const match = /^P(\d+)(?:-(\d+))?$/i.exec(word);
    if (!match) return false;
    const priorities = this.values.active('priority').map((priority) => priority.name);
    const named = (digits: string) => priorities.indexOf(`P${digits}`);
    let start = named(match[1]);
    if (start < 0) start = Math.max(0, Number(match[1]) - 1);
    let names = [priorities[start]];
    if (match[2] !== undefined) {
      let end = named(match[2]);
      if (end < 0) end = Math.max(0, Math.min(priorities.length, Number(match[2])) - 1);
      names = priorities.slice(Math.min(start, end), Math.max(start, end) + 1);
    }
    // A position past the last priority names none: Tracker then finds no bug (Bugzilla drops the criterion).
    this.charts.add('priority', 'anyexact', names.filter(Boolean).join(','), negate, true);
    return true;
  }

  /** A word searched where Bugzilla 5.2 looks for one (Quicksearch.pm _default_quicksearch_word). */
  private plainWord(word: string, negate: boolean): void {
    const lower = word.toLowerCase();
    if (word.length > 2 && !NOT_PRODUCT_WORDS.has(lower)) this.charts.add('product', 'substring', word, negate);
    if (word.length > 2 && !NOT_COMPONENT_WORDS.has(lower)) this.charts.add('component', 'substring', word, negate);
    // Without the keyword list: the bugs having a keyword of that name, which Bugzilla's search finds too.
    if (!this.keywords) this.charts.add('keywords', 'equals', word, negate);
    else if (this.keywords.has(lower)) this.charts.add('keywords', 'substring', word, negate);
    this.charts.add('alias', 'substring', word, negate);
    this.charts.add('short_desc', 'substring', word, negate);
    this.charts.add('status_whiteboard', 'substring', word, negate);
    this.charts.add('content', 'matches', word, negate);
  }

  /** Throws Bugzilla's quicksearch_unknown_field when a `field:value` named no single field. */
  checkFields(): void {
    if (this.unknownFields.length === 0 && this.ambiguousFields.size === 0) return;
    const problems = [
      ...this.unknownFields.map((field) => `'${field}' is not a valid field name.`),
      ...[...this.ambiguousFields].map(
        ([field, names]) => `'${field}' matches more than one field: ${names.join(', ')}.`,
      ),
    ];
    throw errors.invalidParameter(`There is a problem with your quicksearch: ${problems.join(' ')}`);
  }
}

/** A value in quotes (`"a, b"`, `'x'`) without them, its escaped quotes unescaped. */
function unquoted(value: string): string {
  const match = /^(["'])([\s\S]+)\1$/.exec(value);
  return match ? match[2].replace(/\\(["'])/g, '$1') : value;
}

const invalidQuery = (detail: string) => errors.invalidParameter(`Your quicksearch is invalid: ${detail}`);

/**
 * The words of the query with `AND`, `OR` and `NOT` applied: `NOT word` becomes `-word`, and
 * words joined by `OR` become one word `a|b` (OR binds tighter than AND).
 */
function joinedWords(words: string[]): string[] {
  if (/^(?:AND|OR)$/.test(words[0]) || /^(?:AND|OR|NOT)$/.test(words[words.length - 1]))
    throw invalidQuery(
      'it cannot start with AND or OR, nor end with AND, OR or NOT. Put these words in quotes to search for them.',
    );
  const cannotFollow = (first: string, second: string) => invalidQuery(`${first} cannot be followed by ${second}.`);
  const joined: string[] = [];
  let group: string[] = [];
  const pending = [...words];
  while (pending.length > 0) {
    const word = pending.shift()!;
    if (word === 'AND') {
      if (pending[0] === 'OR') throw cannotFollow('AND', 'OR');
    } else if (word === 'OR') {
      if (pending[0] === 'AND') throw cannotFollow('OR', 'AND');
    } else if (word === 'NOT') {
      const negated = pending.shift()!;
      if (negated === 'NOT') continue;
      if (negated === 'AND' || negated === 'OR') throw cannotFollow('NOT', negated);
      pending.unshift(`-${negated}`);
    } else {
      group.push(word);
      if (pending[0] !== 'OR') {
        joined.push(group.join('|'));
        group = [];
      }
    }
  }
  return joined;
}

/**
 * A first word that chooses statuses: `OPEN`, `ALL`, or comma-separated beginnings of the
 * installation's active status and resolution names (`UNCO,VERI`, `FIX`, `DUP`), in capitals.
 * A resolution adds every closed status. Null when the word is not one.
 */
function statusWord(word: string, values: FieldValues): SearchNode[] | null {
  if (word === 'ALL') return [];
  if (word === 'OPEN') return [leaf('bug_status', 'anyexact', openStatuses(values).join(','))];
  if (!/^[A-Z_]+(?:,[A-Z_]+)*$/.test(word)) return null;
  const statusNames = values.active('bug_status').map((status) => status.name);
  const resolutionNames = values
    .active('resolution')
    .map((resolution) => resolution.name)
    .filter(Boolean);
  const statuses = new Set<string>();
  const resolutions = new Set<string>();
  for (const beginning of word.split(',')) {
    for (const name of statusNames) if (name.startsWith(beginning)) statuses.add(name);
    for (const name of resolutionNames) if (name.startsWith(beginning)) resolutions.add(name);
  }
  if (statuses.size === 0 && resolutions.size === 0) return null;
  if (resolutions.size > 0) for (const name of statusNames) if (!values.isOpen(name)) statuses.add(name);
  const nodes = [leaf('bug_status', 'anyexact', [...statuses].join(','))];
  if (resolutions.size > 0) nodes.push(leaf('resolution', 'anyexact', [...resolutions].join(',')));
  return nodes;
}

export function parseQuicksearch(text: string, values: FieldValues, context: QuicksearchContext = {}): QuicksearchPlan {
  const query = text.replace(/^[\s,]+|[\s,]+$/g, '');
  // Bugzilla tests the text for truth, and Perl's "0" is false.
  if (query === '' || query === '0') throw errors.searchCriteriaRequired();
  if (/^[0-9,\s]*$/.test(query)) return { node: leaf('bug_id', 'anyexact', query.replace(/[,\s]+/g, ',')) };

  const words = splitQuicksearch(WHITESPACE, true, query);
  if (!words || words.length === 0)
    throw errors.invalidParameter(
      `Tracker cannot read the quicksearch ${query}: a quote is not closed. To search for a quote, type \\" instead of ".`,
    );
  const joined = joinedWords(definedPieces(words));
  const parser = new QuicksearchParser(values, context);
  const chosen = joined.length > 0 ? statusWord(joined[0], values) : null;
  if (chosen) joined.shift();
  for (const word of joined) parser.word(word);
  parser.checkFields();
  const openByDefault = !chosen && !parser.statusChosen && !context.statusGiven;
  const status = chosen ?? (openByDefault ? [leaf('bug_status', 'anyexact', openStatuses(values).join(','))] : []);
  return { node: and([...status, ...parser.charts.nodes()]) };
}
