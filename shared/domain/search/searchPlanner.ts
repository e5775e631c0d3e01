import { TrackerError } from '../../trackerError.ts';
import { PRIORITIES, SEVERITIES } from '../bug/bugFields.ts';
import { BUG_STATUSES, canonicalStatus, isOpenStatus, RESOLUTIONS } from '../bug/bugWorkflow.ts';
import type { Classification, ProductRecord } from '../catalog/catalog.ts';
import type { Keyword } from '../catalog/keywords.ts';
import type { GroupSummary } from '../identity/caller.ts';
import { nameTable } from '../nameTable.ts';
import { regexpProblem, safeRegexpTest } from '../safeRegexp.ts';
import type { CodeColumn, ListColumn, SearchIndex } from './searchIndex.ts';
import type { SearchNode } from './searchQuery.ts';

/**
 * Evaluates a search tree (searchQuery.ts) against the in-memory index (searchIndex.ts). Each
 * criterion compiles once into a function of a row; names (products, users, keywords, groups,
 * flag types) are resolved to ids up front, so the per-row work is array reads and comparisons.
 *
 * Comment text (`longdesc`, `content`, `commenter`, `description`) is not in the index. Those
 * criteria answer "maybe" in a first pass (three-valued logic: true, false, maybe); only the
 * rows still undecided have their comments read, and a second pass decides them.
 */
export const FALSE = 0;
export const TRUE = 1;
export const MAYBE = 2;
export type Truth = 0 | 1 | 2;
export type RowTest = (slot: number) => Truth;

export interface SearchUser {
  id: number;
  login: string;
  realName: string;
}

/** Everything a search needs to know besides the index, gathered by the application layer. */
export interface SearchEnvironment {
  index: SearchIndex;
  /** 0 when logged out. */
  callerId: number;
  callerLogin: string;
  products: readonly ProductRecord[];
  classifications: readonly Classification[];
  groups: readonly GroupSummary[];
  keywords: readonly Keyword[];
  flagTypes: ReadonlyArray<{ id: number; name: string }>;
  /** Users whose logins the criteria name exactly (lowercased login → id). */
  loginIds: ReadonlyMap<string, number>;
  /** Every user, when a criterion matches logins by pattern. */
  allUsers?: readonly SearchUser[];
  now: number;
  /** May read private comments (the insider group), so their words match too. */
  insider: boolean;
  /** Comments of the rows being decided in the second pass (absent in the first). */
  comments?: ReadonlyMap<number, ReadonlyArray<{ text: string; creatorId: number; count: number }>>;
}

/** Fields whose values are names of a user (matched against logins). */
export const USER_FIELDS = new Set([
  'assigned_to',
  'reporter',
  'qa_contact',
  'cc',
  'commenter',
  'setters.login_name',
  'requestees.login_name',
  'triage_owner',
]);
export const COMMENT_FIELDS = new Set(['longdesc', 'content', 'commenter', 'description']);

/** API names and display names accepted in `fN` → Bugzilla's column names. */
const FIELD_ALIASES: Readonly<Record<string, string>> = nameTable({
  id: 'bug_id',
  status: 'bug_status',
  summary: 'short_desc',
  severity: 'bug_severity',
  platform: 'rep_platform',
  whiteboard: 'status_whiteboard',
  url: 'bug_file_loc',
  creator: 'reporter',
  type: 'bug_type',
  depends_on: 'dependson',
  blocks: 'blocked',
  creation_time: 'creation_ts',
  last_change_time: 'delta_ts',
  changeddate: 'delta_ts',
  opendate: 'creation_ts',
  dupe_of: 'dup_id',
  groups: 'bug_group',
  tags: 'tag',
  regressions: 'regresses',
  comment: 'longdesc',
  long_desc: 'longdesc',
  is_cc_accessible: 'cclist_accessible',
  is_creator_accessible: 'reporter_accessible',
  is_confirmed: 'everconfirmed',
  actual_time: 'work_time',
  flags: 'flagtypes.name',
  longdescs_count: 'longdescs.count',
  comment_count: 'longdescs.count',
  assignee: 'assigned_to',
  assigned_to_realname: 'assigned_to',
  reporter_realname: 'reporter',
  qa_contact_realname: 'qa_contact',
  'attachments.count': 'attachments.count',
});

/** Column name → the field name the history uses (for changedbefore/after/from/to/by). */
const HISTORY_NAMES: Readonly<Record<string, string>> = nameTable({
  bug_status: 'status',
  short_desc: 'summary',
  bug_severity: 'severity',
  rep_platform: 'platform',
  status_whiteboard: 'whiteboard',
  bug_file_loc: 'url',
  bug_type: 'type',
  dependson: 'depends_on',
  blocked: 'blocks',
  bug_group: 'groups',
  regresses: 'regressions',
  cclist_accessible: 'is_cc_accessible',
  reporter_accessible: 'is_creator_accessible',
});

const CODE_FIELDS: Readonly<Record<string, CodeColumn>> = nameTable({
  bug_status: 'status',
  resolution: 'resolution',
  priority: 'priority',
  bug_severity: 'severity',
  rep_platform: 'platform',
  op_sys: 'opSys',
  version: 'version',
  target_milestone: 'targetMilestone',
  bug_type: 'bugType',
  filed_via: 'filedVia',
});
const TEXT_FIELDS = new Set(['short_desc', 'status_whiteboard', 'bug_file_loc', 'alias']);
const NUMBER_FIELDS = new Set([
  'bug_id',
  'longdescs.count',
  'attachments.count',
  'estimated_time',
  'remaining_time',
  'work_time',
  'everconfirmed',
  'cclist_accessible',
  'reporter_accessible',
  'dup_id',
  'votes',
  'days_elapsed',
]);
const TIME_FIELDS = new Set(['creation_ts', 'delta_ts', 'deadline']);
const ID_LIST_FIELDS: Readonly<Record<string, ListColumn>> = nameTable({
  dependson: 'dependsOn',
  blocked: 'blocks',
  regressed_by: 'regressedBy',
  regresses: 'regressions',
  duplicates: 'duplicates',
});
const OTHER_FIELDS = new Set([
  'product',
  'component',
  'classification',
  'keywords',
  'bug_group',
  'flagtypes.name',
  'see_also',
  'tag',
  '*',
  '[Bug creation]',
]);

export const canonicalField = (field: string): string => FIELD_ALIASES[field] ?? field;

export function isSearchableField(field: string): boolean {
  const name = canonicalField(field);
  return (
    name in CODE_FIELDS ||
    TEXT_FIELDS.has(name) ||
    NUMBER_FIELDS.has(name) ||
    TIME_FIELDS.has(name) ||
    name in ID_LIST_FIELDS ||
    OTHER_FIELDS.has(name) ||
    USER_FIELDS.has(name) ||
    COMMENT_FIELDS.has(name) ||
    name.startsWith('cf_')
  );
}

// ---- value matching ------------------------------------------------------------------------

const WORD_SPLIT = /[\s,]+/;
const wordsOf = (value: string) => value.toLowerCase().split(WORD_SPLIT).filter(Boolean);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A user's pattern, matched with RE2 (safeRegexp.ts): linear time whatever the pattern, so one
 * search with a pathological regexp cannot stall the instance over 100,000 rows. Patterns RE2
 * cannot run (backreferences, lookaround; MySQL's REGEXP has none either) are refused.
 */
function compileRegExp(value: string): (text: string) => boolean {
  const problem = regexpProblem(value);
  if (problem) throw new TrackerError(32000, `The regular expression '${value}' is not valid: ${problem}`);
  return (text) => safeRegexpTest(value, text, { caseInsensitive: true });
}

/** Bugzilla's relative dates (`-1d`, `-2w`, `-3h`, `-1m`, `-1y`, `Now`) and absolute ones, in ms. */
export function parseSearchTime(value: string, now: number): number {
  const text = value.trim();
  if (text === '') return Number.NaN;
  if (/^now$/i.test(text)) return now;
  const relative = /^-?(\d+)([hdwmy])$/i.exec(text);
  if (relative) {
    const amount = Number(relative[1]);
    const unit = relative[2].toLowerCase();
    const date = new Date(now);
    if (unit === 'h') return now - amount * 3_600_000;
    if (unit === 'd') date.setUTCDate(date.getUTCDate() - amount);
    if (unit === 'w') date.setUTCDate(date.getUTCDate() - 7 * amount);
    if (unit === 'm') date.setUTCMonth(date.getUTCMonth() - amount);
    if (unit === 'y') date.setUTCFullYear(date.getUTCFullYear() - amount);
    // Whole days and longer start at midnight, as Bugzilla's do.
    if (unit !== 'h') date.setUTCHours(0, 0, 0, 0);
    return date.getTime();
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return Date.parse(`${text}T00:00:00Z`);
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(text)) return Date.parse(`${text.replace(' ', 'T')}Z`);
  if (/^\d{8}T\d{2}:\d{2}:\d{2}$/.test(text))
    return Date.parse(`${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}T${text.slice(9)}Z`);
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) throw new TrackerError(56, `'${value}' is not a legal date.`);
  return parsed;
}

/** A test of one string value for a positive operator (negation is applied by the caller). */
export function textMatcher(op: string, value: string): (text: string) => boolean {
  const lower = value.toLowerCase();
  switch (op) {
    case 'equals':
      return (text) => text.toLowerCase() === lower;
    case 'anyexact': {
      const set = new Set(lower.split(',').map((part) => part.trim()));
      return (text) => set.has(text.toLowerCase());
    }
    case 'substring':
      return (text) => text.toLowerCase().includes(lower);
    case 'casesubstring':
      return (text) => text.includes(value);
    case 'anywordssubstr': {
      const words = wordsOf(value);
      return (text) => {
        const t = text.toLowerCase();
        return words.some((word) => t.includes(word));
      };
    }
    case 'allwordssubstr': {
      const words = wordsOf(value);
      return (text) => {
        const t = text.toLowerCase();
        return words.every((word) => t.includes(word));
      };
    }
    case 'regexp':
      return compileRegExp(value);
    case 'anywords':
    case 'allwords': {
      const patterns = wordsOf(value).map(
        (word) => new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRegExp(word)}($|[^\\p{L}\\p{N}_])`, 'iu'),
      );
      return op === 'anywords'
        ? (text) => patterns.some((pattern) => pattern.test(text))
        : (text) => patterns.length > 0 && patterns.every((pattern) => pattern.test(text));
    }
    case 'lessthan':
    case 'lessthaneq':
    case 'greaterthan':
    case 'greaterthaneq': {
      const numeric = value.trim() !== '' && Number.isFinite(Number(value));
      return (text) => {
        const order =
          numeric && text.trim() !== '' && Number.isFinite(Number(text))
            ? Math.sign(Number(text) - Number(value))
            : Math.sign(text.localeCompare(value));
        return op === 'lessthan'
          ? order < 0
          : op === 'lessthaneq'
            ? order <= 0
            : op === 'greaterthan'
              ? order > 0
              : order >= 0;
      };
    }
    case 'isempty':
      return (text) => text === '';
    case 'isnotempty':
      return (text) => text !== '';
    default:
      throw new TrackerError(68000, `Invalid operator '${op}' for this field.`);
  }
}

function numberMatcher(op: string, value: string): (number: number) => boolean {
  if (
    ['lessthan', 'lessthaneq', 'greaterthan', 'greaterthaneq', 'equals'].includes(op) &&
    value.trim() !== '' &&
    Number.isFinite(Number(value))
  ) {
    const target = Number(value);
    if (op === 'equals') return (n) => n === target;
    return op === 'lessthan'
      ? (n) => n < target
      : op === 'lessthaneq'
        ? (n) => n <= target
        : op === 'greaterthan'
          ? (n) => n > target
          : (n) => n >= target;
  }
  const text = textMatcher(op, value);
  return (n) => text(String(n));
}

function timeMatcher(op: string, value: string, now: number): (ms: number) => boolean {
  if (op === 'isempty') return (ms) => Number.isNaN(ms);
  if (op === 'isnotempty') return (ms) => !Number.isNaN(ms);
  if (['equals', 'lessthan', 'lessthaneq', 'greaterthan', 'greaterthaneq', 'anyexact'].includes(op)) {
    const targets = (op === 'anyexact' ? value.split(',') : [value]).map((part) => parseSearchTime(part, now));
    const target = targets[0];
    switch (op) {
      case 'equals':
        return (ms) => ms === target;
      case 'anyexact':
        return (ms) => targets.includes(ms);
      case 'lessthan':
        return (ms) => ms < target;
      case 'lessthaneq':
        return (ms) => ms <= target;
      case 'greaterthan':
        return (ms) => ms > target;
      default:
        return (ms) => ms >= target;
    }
  }
  const text = textMatcher(op, value);
  return (ms) => !Number.isNaN(ms) && text(new Date(ms).toISOString().replace('T', ' ').slice(0, 19));
}

// ---- compiling -----------------------------------------------------------------------------

const bool = (value: boolean): Truth => (value ? TRUE : FALSE);
const always =
  (truth: Truth): RowTest =>
  () =>
    truth;

function negated(test: RowTest): RowTest {
  return (slot) => {
    const value = test(slot);
    return value === MAYBE ? MAYBE : value === TRUE ? FALSE : TRUE;
  };
}

/** Whether a search tree needs comments (so the caller knows to plan a second pass). */
export function needsComments(node: SearchNode): boolean {
  if (node.kind === 'const') return false;
  if (node.kind === 'leaf') {
    const field = canonicalField(node.field);
    if ((field === 'content' || field === 'longdesc') && ['anywords', 'allwords', 'matches'].includes(node.op))
      return false;
    return COMMENT_FIELDS.has(field) && !node.op.startsWith('changed');
  }
  return node.children.some(needsComments);
}

/** Users named by the tree's user criteria: exact logins, and whether any needs the full list. */
export function userNeeds(
  node: SearchNode,
  out: { logins: Set<string>; all: boolean } = { logins: new Set(), all: false },
) {
  if (node.kind === 'const') return out;
  if (node.kind === 'leaf') {
    const field = canonicalField(node.field);
    const isUser = USER_FIELDS.has(field) || node.op === 'changedby';
    if (!isUser) return out;
    if (node.op === 'isempty' || node.op === 'isnotempty') return out;
    const value = node.value.trim();
    if (value === '%user%') return out;
    if (node.op === 'equals' || node.op === 'changedby') out.logins.add(value.toLowerCase());
    else if (node.op === 'anyexact') for (const part of value.split(',')) out.logins.add(part.trim().toLowerCase());
    else out.all = true;
    return out;
  }
  for (const child of node.children) userNeeds(child, out);
  return out;
}

function userIdTest(env: SearchEnvironment, op: string, value: string): (id: number) => boolean {
  if (op === 'isempty') return (id) => id === 0;
  if (op === 'isnotempty') return (id) => id !== 0;
  const resolved = value.trim() === '%user%' ? env.callerLogin : value.trim();
  if (op === 'equals' || op === 'anyexact') {
    const logins = op === 'equals' ? [resolved] : resolved.split(',').map((part) => part.trim());
    const ids = new Set(
      logins
        .map((login) =>
          login === env.callerLogin && env.callerId ? env.callerId : env.loginIds.get(login.toLowerCase()),
        )
        .filter((id): id is number => id !== undefined),
    );
    return (id) => ids.has(id);
  }
  const text = textMatcher(op, resolved);
  const ids = new Set(
    (env.allUsers ?? [])
      .filter(
        (user) =>
          text(user.login) || ((op === 'substring' || op === 'regexp') && user.realName !== '' && text(user.realName)),
      )
      .map((user) => user.id),
  );
  return (id) => ids.has(id);
}

function idSetTest(
  names: ReadonlyArray<{ id: number; name: string }>,
  op: string,
  value: string,
): (id: number) => boolean {
  const text = textMatcher(op, value);
  const ids = new Set(names.filter((entry) => text(entry.name)).map((entry) => entry.id));
  return (id) => ids.has(id);
}

/** A multi-valued field: a positive operator holds when any element matches; isempty when none exist. */
function anyOf<T>(op: string, elements: (slot: number) => readonly T[], test: (element: T) => boolean): RowTest {
  if (op === 'isempty') return (slot) => bool(elements(slot).length === 0);
  if (op === 'isnotempty') return (slot) => bool(elements(slot).length > 0);
  return (slot) => bool(elements(slot).some(test));
}

function changeTest(env: SearchEnvironment, field: string, op: string, value: string): RowTest {
  const { index } = env;
  const creation = field === '[Bug creation]' || field === 'creation_ts';
  const historyName = HISTORY_NAMES[field] ?? field;
  const matchesField = field === '*' ? () => true : (name: string) => name === historyName || name === field;
  if (op === 'changedrange') {
    const [from, to, wanted] = value.split('|');
    const start = from ? parseSearchTime(from, env.now) : -Infinity;
    const end = to ? parseSearchTime(to, env.now) : Infinity;
    const inRange = (ms: number) => ms >= start && ms <= end;
    const added = wanted ? textMatcher('equals', wanted) : () => true;
    return (slot) => {
      if ((creation || field === '*') && !wanted && inRange(index.creationTime[slot])) return TRUE;
      return bool(
        index.changes[slot].some((change) => matchesField(change.field) && inRange(change.at) && added(change.added)),
      );
    };
  }
  if (creation && (op === 'changedbefore' || op === 'changedafter')) {
    const at = parseSearchTime(value, env.now);
    return (slot) => bool(op === 'changedbefore' ? index.creationTime[slot] < at : index.creationTime[slot] > at);
  }
  switch (op) {
    case 'changedbefore':
    case 'changedafter': {
      const at = parseSearchTime(value, env.now);
      return (slot) =>
        bool(
          index.changes[slot].some(
            (change) => matchesField(change.field) && (op === 'changedbefore' ? change.at < at : change.at > at),
          ),
        );
    }
    case 'changedfrom':
    case 'changedto': {
      const lower = value.toLowerCase();
      const hit = (text: string) => text.toLowerCase() === lower || text.toLowerCase().split(', ').includes(lower);
      return (slot) =>
        bool(
          index.changes[slot].some(
            (change) => matchesField(change.field) && hit(op === 'changedfrom' ? change.removed : change.added),
          ),
        );
    }
    default: {
      const who = userIdTest(env, 'equals', value);
      return (slot) => bool(index.changes[slot].some((change) => matchesField(change.field) && who(change.who)));
    }
  }
}

/** Whole words of comments, from the index's inverted word lists: no comment is read. */
function commentWordTest(env: SearchEnvironment, op: string, value: string): RowTest {
  const table = commentWordTable(env, op, value);
  return (slot) => table[slot] as Truth;
}

/** TRUE or FALSE for every slot: whether its comments hold any (anywords) or all (allwords, matches) of the words. */
function commentWordTable(env: SearchEnvironment, op: string, value: string): Uint8Array {
  const { index } = env;
  const words = [...value.toLowerCase().matchAll(/[\p{L}\p{N}_]{2,40}/gu)].map((match) => match[0]);
  if (words.length === 0) return new Uint8Array(index.size).fill(op === 'allwords' ? TRUE : FALSE);
  // Per slot: how many of the words its comments hold. Common words have tens of thousands of
  // postings, so this counts in typed arrays rather than building sets and maps of bug ids.
  const unique = [...new Set(words)];
  const counts = new Uint16Array(index.size);
  const lastWord = new Uint16Array(index.size);
  unique.forEach((word, position) => {
    const mark = position + 1;
    for (const postings of [index.words.get(word), env.insider ? index.privateWords.get(word) : undefined]) {
      if (!postings) continue;
      for (const slot of postings) {
        // A bug with the word in a public and a private comment counts it once.
        if (lastWord[slot] !== mark) {
          lastWord[slot] = mark;
          counts[slot]++;
        }
      }
    }
  });
  const needed = op === 'allwords' || op === 'matches' ? unique.length : 1;
  const table = new Uint8Array(index.size);
  for (let slot = 0; slot < table.length; slot++) if (counts[slot]! >= needed) table[slot] = TRUE;
  return table;
}

function commentTest(env: SearchEnvironment, field: string, op: string, value: string): RowTest {
  if ((field === 'content' || field === 'longdesc') && (op === 'anywords' || op === 'allwords' || op === 'matches'))
    return commentWordTest(env, op, value);
  if (!env.comments) return always(MAYBE);
  const comments = env.comments;
  const { index } = env;
  if (field === 'commenter') {
    const who = userIdTest(env, op, value);
    return (slot) => bool((comments.get(index.id[slot]) ?? []).some((comment) => who(comment.creatorId)));
  }
  const text = textMatcher(op === 'matches' ? 'allwords' : op, value);
  if (field === 'description')
    return (slot) =>
      bool((comments.get(index.id[slot]) ?? []).some((comment) => comment.count === 0 && text(comment.text)));
  return (slot) => bool((comments.get(index.id[slot]) ?? []).some((comment) => text(comment.text)));
}

/** Bugzilla's statuses by name, with the legacy names scripts send and CLOSED for every closed status. */
function statusCodes(index: SearchIndex, op: string, value: string): Uint8Array {
  const vocabulary = index.vocabularies.status;
  const table = new Uint8Array(vocabulary.values.length + 1);
  if (op === 'isopen') {
    vocabulary.values.forEach((status, code) => {
      table[code] = isOpenStatus(status) ? 1 : 0;
    });
    return table;
  }
  const values =
    op === 'anyexact' ? value.split(',').map((part) => part.trim()) : op === 'equals' ? [value.trim()] : null;
  if (values) {
    const wanted = new Set<string>();
    for (const name of values) {
      if (name.toUpperCase() === 'CLOSED')
        for (const status of BUG_STATUSES) {
          if (!status.isOpen) wanted.add(status.name);
        }
      else if (name.toUpperCase() === 'OPEN')
        for (const status of BUG_STATUSES) {
          if (status.isOpen) wanted.add(status.name);
        }
      else wanted.add(canonicalStatus(name, null).toUpperCase());
    }
    vocabulary.values.forEach((status, code) => {
      table[code] = wanted.has(status.toUpperCase()) ? 1 : 0;
    });
    return table;
  }
  const text = textMatcher(op, value);
  vocabulary.values.forEach((status, code) => {
    table[code] = text(status) ? 1 : 0;
  });
  return table;
}

/** Fills the truths of one criterion for a list of slots (searchEvaluation.ts); `truths` starts all FALSE. */
export type LeafKernel = (slots: Int32Array, truths: Uint8Array) => void;

/**
 * The word operators over a bug's joined keywords, decided per keyword instead: a word has no
 * comma or space, so it is found in "a, b" exactly when it is found in a or in b. Each keyword gets
 * a bit per word it holds; a bug holds the words of its keywords' bits. Null past 32 words.
 */
function keywordWordKernel(env: SearchEnvironment, op: string, value: string): LeafKernel | null {
  if (op === 'regexp') return null;
  const words = wordsOf(value);
  if (words.length > 32) return null;
  const fixed = textMatcher(op, value)('') ? TRUE : FALSE;
  if (words.length === 0) return (slots, truths) => truths.fill(fixed, 0, slots.length);
  const single = op === 'anywords' || op === 'allwords' ? 'anywords' : 'anywordssubstr';
  const tests = words.map((word) => textMatcher(single, word));
  const masks = new Uint32Array(env.keywords.reduce((max, keyword) => Math.max(max, keyword.id), 0) + 1);
  for (const keyword of env.keywords)
    tests.forEach((test, w) => {
      if (test(keyword.name)) masks[keyword.id] |= 1 << w;
    });
  const full = words.length === 32 ? 0xffffffff : (1 << words.length) - 1;
  const any = op === 'anywords' || op === 'anywordssubstr';
  const lists = env.index.lists.keywordIds;
  return (slots, truths) => wordsHeld(lists, masks, full, any, slots, truths);
}

/** Operators Bugzilla applies to a bug's keywords joined into one text, not to each keyword. */
const KEYWORD_TEXT_OPERATORS: ReadonlySet<string> = new Set([
  'anywords',
  'allwords',
  'allwordssubstr',
  'anywordssubstr',
  'regexp',
]);

/** Nothing can match: every truth stays FALSE, and no slot is read. */
const NONE: LeafKernel = () => {};

/**
 * A criterion decided by a 0/1 table indexed by an integer column of the index: code columns,
 * product, component and classification (by id), whiteboard and alias (by code into their
 * distinct values). The table is built when first asked for (an alias's values can be as many as
 * the bugs, and asking whether a criterion has a kernel must stay cheap). Null for other criteria.
 */
interface ColumnCriterion {
  column: Int32Array;
  table(): Uint8Array;
}

function columnCriterion(env: SearchEnvironment, field: string, op: string, value: string): ColumnCriterion | null {
  const { index } = env;
  const once = (column: Int32Array, build: () => Uint8Array): ColumnCriterion => {
    let table: Uint8Array | undefined;
    return { column, table: () => (table ??= build()) };
  };
  const code = CODE_FIELDS[field];
  if (code) {
    const text = textMatcher(op, value);
    return once(index.codes[code], () =>
      field === 'bug_status'
        ? statusCodes(index, op, value)
        : Uint8Array.from(index.vocabularies[code].values, (entry) => (text(entry) ? TRUE : FALSE)),
    );
  }
  switch (field) {
    case 'product': {
      const test = idSetTest(
        env.products.map((record) => ({ id: record.product.id, name: record.product.name })),
        op,
        value,
      );
      return once(index.productId, () => idTable(env.products.map((record) => record.product.id).filter(test)));
    }
    case 'component': {
      const components = env.products.flatMap((record) => record.components);
      const test = idSetTest(
        components.map((component) => ({ id: component.id, name: component.name })),
        op,
        value,
      );
      return once(index.componentId, () => idTable(components.map((component) => component.id).filter(test)));
    }
    case 'classification': {
      const test = idSetTest(
        env.classifications.map((entry) => ({ id: entry.id, name: entry.name })),
        op,
        value,
      );
      return once(index.productId, () =>
        idTable(
          env.products.filter((record) => test(record.product.classificationId)).map((record) => record.product.id),
        ),
      );
    }
    case 'status_whiteboard':
    case 'alias': {
      const [column, values] =
        field === 'alias' ? [index.aliasCode, index.aliases.values] : [index.whiteboardCode, index.whiteboards.values];
      const text = textMatcher(op, value);
      return once(column, () => Uint8Array.from(values, (entry) => (text(entry) ? TRUE : FALSE)));
    }
    default:
      return null;
  }
}

/** A column criterion as a kernel; nothing is read when no value can match. */
function columnLookup(criterion: ColumnCriterion): LeafKernel {
  return (slots, truths) => {
    const table = criterion.table();
    if (table.includes(TRUE)) lookUp(criterion.column, table, slots, truths);
  };
}

/*
 * The loops of the kernels are plain module functions rather than closures made per search, so
 * each is one function for V8 to optimise, shared by every search.
 */
function lookUp(column: Int32Array, table: Uint8Array, slots: Int32Array, truths: Uint8Array): void {
  // Out-of-range reads give undefined, which a Uint8Array stores as 0: FALSE.
  for (let i = 0; i < slots.length; i++) truths[i] = table[column[slots[i]!]!]!;
}

export function lookUpSlots(table: Uint8Array, slots: Int32Array, truths: Uint8Array): void {
  for (let i = 0; i < slots.length; i++) truths[i] = table[slots[i]!]!;
}

function anyListedIn(
  lists: ReadonlyArray<readonly number[]>,
  table: Uint8Array,
  slots: Int32Array,
  truths: Uint8Array,
): void {
  for (let i = 0; i < slots.length; i++) {
    const ids = lists[slots[i]!]!;
    for (let j = 0; j < ids.length; j++) {
      if (table[ids[j]!] === TRUE) {
        truths[i] = TRUE;
        break;
      }
    }
  }
}

function wordsHeld(
  lists: ReadonlyArray<readonly number[]>,
  masks: Uint32Array,
  full: number,
  any: boolean,
  slots: Int32Array,
  truths: Uint8Array,
): void {
  for (let i = 0; i < slots.length; i++) {
    const ids = lists[slots[i]!]!;
    let held = 0;
    for (let j = 0; j < ids.length; j++) held |= masks[ids[j]!] ?? 0;
    truths[i] = (any ? held !== 0 : held >>> 0 === full >>> 0) ? TRUE : FALSE;
  }
}

const idTable = (ids: Iterable<number>): Uint8Array => {
  const list = [...ids];
  const table = new Uint8Array(list.length === 0 ? 0 : Math.max(...list) + 1);
  for (const id of list) table[id] = TRUE;
  return table;
};

/**
 * The criteria that a table lookup per slot decides, as tight loops over typed arrays: code
 * columns, product, component, classification, whiteboard and alias (through their distinct
 * values), keywords and groups. Null for every other criterion, which compileLeaf tests row by row.
 * Each gives exactly compileLeaf's answer; a criterion that no value can satisfy reads nothing.
 */
export function leafKernel(env: SearchEnvironment, rawField: string, op: string, value: string): LeafKernel | null {
  const field = canonicalField(rawField);
  const { index } = env;
  if (op.startsWith('changed')) return null;
  if ((field === 'content' || field === 'longdesc') && (op === 'anywords' || op === 'allwords' || op === 'matches')) {
    let table: Uint8Array | undefined;
    return (slots, truths) => {
      table ??= commentWordTable(env, op, value);
      return lookUpSlots(table, slots, truths);
    };
  }
  if (COMMENT_FIELDS.has(field)) return null;
  const column = columnCriterion(env, field, op, value);
  if (column) return columnLookup(column);
  switch (field) {
    case 'short_desc': {
      if (op !== 'substring') return null;
      const needle = value.toLowerCase();
      return (slots, truths) => {
        const found = index.summaryTrigrams().matching(needle, index.size);
        if (found) return lookUpSlots(found, slots, truths);
        for (let i = 0; i < slots.length; i++)
          truths[i] = index.summaryLower[slots[i]!]!.includes(needle) ? TRUE : FALSE;
      };
    }
    case 'keywords':
    case 'bug_group': {
      if (field === 'keywords' && KEYWORD_TEXT_OPERATORS.has(op)) {
        const byWord = keywordWordKernel(env, op, value);
        if (byWord) return byWord;
        // Matched against the keywords as one text; the many bugs without keywords all give the empty text's answer.
        const names = new Map(env.keywords.map((keyword) => [keyword.id, keyword.name]));
        const test = textMatcher(op, value);
        const none = test('') ? TRUE : FALSE;
        const lists = index.lists.keywordIds;
        return (slots, truths) => {
          for (let i = 0; i < slots.length; i++) {
            const ids = lists[slots[i]!]!;
            truths[i] = ids.length === 0 ? none : test(ids.map((id) => names.get(id) ?? '').join(', ')) ? TRUE : FALSE;
          }
        };
      }
      if (op === 'isempty' || op === 'isnotempty') return null;
      const named = field === 'keywords' ? env.keywords : env.groups;
      const test = idSetTest(named, op, value);
      const table = idTable(named.map((entry) => entry.id).filter(test));
      if (!table.includes(TRUE)) return NONE;
      const lists = field === 'keywords' ? index.lists.keywordIds : index.lists.groupIds;
      return (slots, truths) => anyListedIn(lists, table, slots, truths);
    }
    default:
      return null;
  }
}

/** One criterion's test of a row, without its negation (compileSearch and searchEvaluation.ts apply that). */
export function compileLeaf(env: SearchEnvironment, rawField: string, op: string, value: string): RowTest {
  const field = canonicalField(rawField);
  const { index } = env;
  if (
    op === 'changedbefore' ||
    op === 'changedafter' ||
    op === 'changedfrom' ||
    op === 'changedto' ||
    op === 'changedby' ||
    op === 'changedrange'
  ) {
    return changeTest(env, field, op, value);
  }
  if (COMMENT_FIELDS.has(field)) return commentTest(env, field, op, value);
  const column = columnCriterion(env, field, op, value);
  if (column) return (slot) => (column.table()[column.column[slot]!] ?? FALSE) as Truth;
  switch (field) {
    case 'bug_id': {
      if (op === 'anyexact' || op === 'equals') {
        const ids = new Set(value.split(',').map((part) => Number(part.trim())));
        return (slot) => bool(ids.has(index.id[slot]));
      }
      const test = numberMatcher(op, value);
      return (slot) => bool(test(index.id[slot]));
    }
    case 'short_desc': {
      if (op === 'substring') {
        const lower = value.toLowerCase();
        return (slot) => bool(index.summaryLower[slot].includes(lower));
      }
      const test = textMatcher(op, value);
      return (slot) => bool(test(index.summary[slot]));
    }
    case 'bug_file_loc': {
      const test = textMatcher(op, value);
      return (slot) => bool(test(index.url[slot]));
    }
    case 'longdescs.count': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(index.commentCount[slot]));
    }
    case 'attachments.count': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(index.attachmentCount[slot]));
    }
    case 'estimated_time': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(index.estimatedTime[slot]));
    }
    case 'remaining_time': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(index.remainingTime[slot]));
    }
    case 'work_time': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(index.actualTime[slot]));
    }
    case 'everconfirmed': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(index.bits[slot] & 1));
    }
    case 'cclist_accessible': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test((index.bits[slot] >> 1) & 1));
    }
    case 'reporter_accessible': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test((index.bits[slot] >> 2) & 1));
    }
    case 'votes': {
      const test = numberMatcher(op, value);
      return () => bool(test(0));
    }
    case 'days_elapsed': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(Math.floor((env.now - index.lastChangeTime[slot]) / 86_400_000)));
    }
    case 'dup_id': {
      if (op === 'isempty') return (slot) => bool(index.dupeOf[slot] === 0);
      if (op === 'isnotempty') return (slot) => bool(index.dupeOf[slot] !== 0);
      const test = numberMatcher(op, value);
      return (slot) => bool(index.dupeOf[slot] !== 0 && test(index.dupeOf[slot]));
    }
    case 'creation_ts': {
      const test = timeMatcher(op, value, env.now);
      return (slot) => bool(test(index.creationTime[slot]));
    }
    case 'delta_ts': {
      const test = timeMatcher(op, value, env.now);
      return (slot) => bool(test(index.lastChangeTime[slot]));
    }
    case 'deadline': {
      const test = timeMatcher(op, value, env.now);
      return (slot) => bool(test(index.deadline[slot]));
    }
    case 'assigned_to': {
      const test = userIdTest(env, op, value);
      return (slot) => bool(test(index.assigneeId[slot]));
    }
    case 'reporter': {
      const test = userIdTest(env, op, value);
      return (slot) => bool(test(index.reporterId[slot]));
    }
    case 'qa_contact': {
      const test = userIdTest(env, op, value);
      return (slot) => bool(test(index.qaContactId[slot]));
    }
    case 'cc': {
      const test = userIdTest(env, op, value);
      return anyOf(op, (slot) => index.lists.ccIds[slot], test);
    }
    case 'setters.login_name': {
      const test = userIdTest(env, op, value);
      return anyOf(
        op,
        (slot) => index.flags[slot],
        (flag) => test(flag.setterId),
      );
    }
    case 'requestees.login_name': {
      const test = userIdTest(env, op, value);
      return anyOf(
        op,
        (slot) => index.flags[slot],
        (flag) => test(flag.requesteeId ?? 0),
      );
    }
    case 'triage_owner': {
      const owner = userIdTest(env, op, value);
      const components = new Set(
        env.products
          .flatMap((record) => record.components)
          .filter((component) => owner(component.triageOwnerId ?? 0))
          .map((component) => component.id),
      );
      return (slot) => bool(components.has(index.componentId[slot]));
    }
    case 'keywords': {
      const names = new Map(env.keywords.map((keyword) => [keyword.id, keyword.name]));
      if (KEYWORD_TEXT_OPERATORS.has(op)) {
        // Bugzilla matches these against the bug's keywords as one comma-separated text.
        const test = textMatcher(op, value);
        return (slot) => bool(test(index.lists.keywordIds[slot].map((id) => names.get(id) ?? '').join(', ')));
      }
      const test = idSetTest(env.keywords, op, value);
      return anyOf(op, (slot) => index.lists.keywordIds[slot], test);
    }
    case 'bug_group': {
      const test = idSetTest(env.groups, op, value);
      return anyOf(op, (slot) => index.lists.groupIds[slot], test);
    }
    case 'flagtypes.name': {
      const names = new Map(env.flagTypes.map((type) => [type.id, type.name]));
      const test = textMatcher(op, value);
      return anyOf(
        op,
        (slot) => index.flags[slot],
        (flag) => test(`${names.get(flag.typeId) ?? ''}${flag.status}`),
      );
    }
    case 'see_also': {
      const test = textMatcher(op, value);
      return anyOf(op, (slot) => index.seeAlso[slot], test);
    }
    case 'tag': {
      const me = String(env.callerId);
      const test = textMatcher(op, value);
      return anyOf(op, (slot) => index.tags[slot]?.[me] ?? [], test);
    }
    default:
      break;
  }
  const list = ID_LIST_FIELDS[field];
  if (list) {
    const test = numberMatcher(op === 'anyexact' ? 'anyexact' : op, value);
    if (op === 'anyexact') {
      const ids = new Set(value.split(',').map((part) => Number(part.trim())));
      return anyOf(
        op,
        (slot) => index.lists[list][slot],
        (id) => ids.has(id),
      );
    }
    return anyOf(op, (slot) => index.lists[list][slot], test);
  }
  if (field.startsWith('cf_')) {
    const test = textMatcher(op, value);
    return (slot) => {
      const actual = index.custom[slot]?.[field];
      if (Array.isArray(actual))
        return op === 'isempty' ? bool(actual.length === 0) : bool(actual.some((entry) => test(String(entry))));
      return bool(test(actual === undefined || actual === null ? '' : String(actual)));
    };
  }
  throw new TrackerError(108, `Can't use ${rawField} as a field name.`);
}

export function compileSearch(env: SearchEnvironment, node: SearchNode): RowTest {
  if (node.kind === 'const') return always(bool(node.value));
  if (node.kind === 'leaf') {
    const test = compileLeaf(env, node.field, node.op, node.value);
    return node.negate ? negated(test) : test;
  }
  const children = node.children.map((child) => compileSearch(env, child));
  let test: RowTest;
  if (children.length === 0) test = always(TRUE);
  else if (children.length === 1) test = children[0];
  else if (node.kind === 'and') {
    test = (slot) => {
      let result: Truth = TRUE;
      for (const child of children) {
        const value = child(slot);
        if (value === FALSE) return FALSE;
        if (value === MAYBE) result = MAYBE;
      }
      return result;
    };
  } else {
    test = (slot) => {
      let result: Truth = FALSE;
      for (const child of children) {
        const value = child(slot);
        if (value === TRUE) return TRUE;
        if (value === MAYBE) result = MAYBE;
      }
      return result;
    };
  }
  return node.negate ? negated(test) : test;
}

/**
 * The slots worth testing. A search whose top level requires certain products (`product=`, the
 * criterion dashboards and the CLI send most) only needs to test those products' bugs; every
 * other search tests every slot (null). The full test still runs on each candidate.
 */
export function candidateSlots(env: SearchEnvironment, node: SearchNode): Int32Array | null {
  if (node.kind !== 'and' || node.negate) return null;
  const isProductLeaf = (child: SearchNode): child is Extract<SearchNode, { kind: 'leaf' }> =>
    child.kind === 'leaf' &&
    !child.negate &&
    canonicalField(child.field) === 'product' &&
    (child.op === 'equals' || child.op === 'anyexact');
  for (const child of node.children) {
    const leaves = isProductLeaf(child)
      ? [child]
      : child.kind === 'or' && !child.negate && child.children.length > 0 && child.children.every(isProductLeaf)
        ? (child.children as Array<Extract<SearchNode, { kind: 'leaf' }>>)
        : null;
    if (!leaves) continue;
    const products = env.products.map((record) => ({ id: record.product.id, name: record.product.name }));
    const ids = new Set<number>();
    for (const leaf of leaves) {
      const test = idSetTest(products, leaf.op, leaf.value);
      for (const product of products) if (test(product.id)) ids.add(product.id);
    }
    return env.index.slotsOfProducts(ids);
  }
  return null;
}

/** Checks every field and operator of a tree before anything is read (108, 68000). */
export function validateSearch(node: SearchNode): void {
  if (node.kind === 'const') return;
  if (node.kind === 'leaf') {
    if (!isSearchableField(node.field)) throw new TrackerError(108, `Can't use ${node.field} as a field name.`);
    return;
  }
  node.children.forEach(validateSearch);
}

// ---- visibility ----------------------------------------------------------------------------

/** Bugzilla's can_see_bug over index rows (bugAccess.ts canSeeBug holds the same rule for one bug). */
export function visibilityTest(
  index: SearchIndex,
  callerId: number,
  callerGroupIds: ReadonlySet<number>,
  orGroups: boolean,
): (slot: number) => boolean {
  const groups = index.lists.groupIds;
  return (slot) => {
    const bugGroups = groups[slot];
    if (bugGroups.length === 0) return true;
    if (callerId === 0) return false;
    if (index.assigneeId[slot] === callerId || index.qaContactId[slot] === callerId) return true;
    const bits = index.bits[slot];
    if ((bits & 4) !== 0 && index.reporterId[slot] === callerId) return true;
    if ((bits & 2) !== 0 && index.lists.ccIds[slot].includes(callerId)) return true;
    return orGroups ? bugGroups.some((id) => callerGroupIds.has(id)) : bugGroups.every((id) => callerGroupIds.has(id));
  };
}

// ---- order ---------------------------------------------------------------------------------

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
}

/** The user ids an order needs the logins of (to sort by assignee, reporter or QA contact). */
export function orderNeedsUsers(order: string | undefined): boolean {
  return parseOrder(order).some(({ column }) => ['assigned_to', 'reporter', 'qa_contact'].includes(column));
}

export function parseOrder(order: string | undefined): Array<{ column: string; descending: boolean }> {
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
        comparator = code('version');
        break;
      case 'target_milestone':
        comparator = code('targetMilestone');
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
