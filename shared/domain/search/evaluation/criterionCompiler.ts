/**
 * Compiles a search tree (searchQuery.ts) into a test of one row of the index (searchIndex.ts).
 * Names (products, users, keywords, groups, flag types) are resolved to ids up front, so the
 * per-row work is array reads and comparisons. Comment text is not in the index: those criteria
 * answer MAYBE until the comments of the rows still undecided are read (commentCriteria.ts).
 */
import { errors } from '../../../errors.ts';
import { isTimeTrackingField } from '../../bug/privateActivity.ts';
import { CC_ACCESSIBLE_BIT, CONFIRMED_BIT, CREATOR_ACCESSIBLE_BIT, UNKNOWN_COUNT } from '../index/columns.ts';
import { COMMENT_FIELDS, canonicalField, ID_LIST_FIELDS, KEYWORD_TEXT_OPERATORS } from '../query/searchFields.ts';
import type { SearchNode } from '../query/searchQuery.ts';
import { columnCriterion } from './columnCriteria.ts';
import { commentTest } from './commentCriteria.ts';
import { idSetTest, userIdTest } from './criterionNames.ts';
import { changeTest } from './historyCriteria.ts';
import {
  always,
  bool,
  FALSE,
  MAYBE,
  negated,
  type RowTest,
  type SearchEnvironment,
  TRUE,
  type Truth,
} from './searchEnvironment.ts';
import { numberMatcher, textMatcher, timeMatcher } from './valueMatchers.ts';

/** A criterion over one family of fields; null for a field of another family. */
type FamilyTest = (env: SearchEnvironment, field: string, op: string, value: string) => RowTest | null;

const CHANGE_OPERATORS: ReadonlySet<string> = new Set([
  'changedbefore',
  'changedafter',
  'changedfrom',
  'changedto',
  'changedby',
  'changedrange',
]);

/** One criterion's test of a row, without its negation (compileSearch and searchEvaluation.ts apply that). */
export function compileLeaf(env: SearchEnvironment, rawField: string, op: string, value: string): RowTest {
  const field = canonicalField(rawField);
  // Outside the time-tracking group these fields are not search fields at all (searchPlanner.ts refuses them first).
  if (isTimeTrackingField(field) && !env.timeTracker) throw errors.unusableSearchField(rawField);
  if (CHANGE_OPERATORS.has(op)) return changeTest(env, field, op, value);
  if (COMMENT_FIELDS.has(field)) return commentTest(env, field, op, value);
  const column = columnCriterion(env, field, op, value);
  if (column) return (slot) => (column.table()[column.column[slot]!] ?? FALSE) as Truth;
  for (const family of FIELD_FAMILIES) {
    const test = family(env, field, op, value);
    if (test) return test;
  }
  throw errors.unusableSearchField(rawField);
}

/** 1 when the bug's yes/no field stored as `bit` of the index's `bits` is set. */
const bitValue = (bits: number, bit: number): number => ((bits & bit) === 0 ? 0 : 1);

const numberTest: FamilyTest = (env, field, op, value) => {
  const { index } = env;
  switch (field) {
    case 'bug_id': {
      if (op === 'anyexact' || op === 'equals') {
        const ids = new Set(value.split(',').map((part) => Number(part.trim())));
        return (slot) => bool(ids.has(index.id[slot]));
      }
      const test = numberMatcher(op, value);
      return (slot) => bool(test(index.id[slot]));
    }
    case 'longdescs.count': {
      const test = numberMatcher(op, value);
      if (env.insider) return (slot) => bool(test(index.commentCount[slot]));
      // As Bugzilla and comment_count: outsiders count the comments they may read. A count the index
      // does not know yet is decided from the comments read, as comment text is (the readable ones).
      const comments = env.comments;
      return (slot) => {
        const hidden = index.privateCommentCount[slot];
        if (hidden !== UNKNOWN_COUNT) return bool(test(index.commentCount[slot] - hidden));
        const readable = comments?.get(index.id[slot]);
        return readable ? bool(test(readable.length)) : MAYBE;
      };
    }
    case 'attachments.count': {
      const test = numberMatcher(op, value);
      // As counts.attachments: a private attachment counts for insiders and for whoever attached it.
      // A bug whose list is unknown (stored before bugs kept it, not backfilled yet) shows outsiders none.
      const hidden = (slot: number) => {
        if (env.insider) return 0;
        const marks = index.privateAttachmentsAt(slot);
        return marks === undefined
          ? index.attachmentCount[slot]
          : marks.filter((mark) => mark.creatorId !== env.callerId).length;
      };
      return (slot) => bool(test(index.attachmentCount[slot] - hidden(slot)));
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
      return (slot) => bool(test(bitValue(index.bits[slot], CONFIRMED_BIT)));
    }
    case 'cclist_accessible': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(bitValue(index.bits[slot], CC_ACCESSIBLE_BIT)));
    }
    case 'reporter_accessible': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(bitValue(index.bits[slot], CREATOR_ACCESSIBLE_BIT)));
    }
    case 'votes': {
      const test = numberMatcher(op, value);
      return () => bool(test(0));
    }
    case 'days_elapsed': {
      const test = numberMatcher(op, value);
      return (slot) => bool(test(Math.floor((env.now - index.lastChangeTime[slot]) / 86_400_000)));
    }
    default:
      return null;
  }
};

const textTest: FamilyTest = (env, field, op, value) => {
  const { index } = env;
  switch (field) {
    case 'short_desc': {
      if (op === 'substring') {
        const lower = value.toLowerCase();
        return (slot) => bool(index.summaryLower[slot].includes(lower));
      }
      const test = textMatcher(op, value);
      const summaries = index.summary;
      return (slot) => bool(test(summaries[slot]!));
    }
    case 'bug_file_loc': {
      const test = textMatcher(op, value);
      return (slot) => bool(test(index.url.get(slot)));
    }
    default:
      break;
  }
  if (field.startsWith('cf_')) {
    const test = textMatcher(op, value);
    return (slot) => {
      const actual = index.custom.get(slot)?.[field];
      if (Array.isArray(actual))
        return op === 'isempty' ? bool(actual.length === 0) : bool(actual.some((entry) => test(String(entry))));
      return bool(test(actual === undefined || actual === null ? '' : String(actual)));
    };
  }
  return null;
};

const timeTest: FamilyTest = (env, field, op, value) => {
  const { index } = env;
  switch (field) {
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
    default:
      return null;
  }
};

const userTest: FamilyTest = (env, field, op, value) => {
  const { index } = env;
  switch (field) {
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
      return anyOf(op, (slot) => index.lists.ccIds.get(slot), test);
    }
    case 'setters.login_name': {
      const test = userIdTest(env, op, value);
      return anyOf(
        op,
        (slot) => index.flags.get(slot),
        (flag) => test(flag.setterId),
      );
    }
    case 'requestees.login_name': {
      const test = userIdTest(env, op, value);
      return anyOf(
        op,
        (slot) => index.flags.get(slot),
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
    default:
      return null;
  }
};

/** Multi-valued fields: keywords, groups, flags, see-also URLs, personal tags and bug relations. */
const listTest: FamilyTest = (env, field, op, value) => {
  const { index } = env;
  switch (field) {
    case 'keywords': {
      const names = new Map(env.keywords.map((keyword) => [keyword.id, keyword.name]));
      if (KEYWORD_TEXT_OPERATORS.has(op)) {
        // Bugzilla matches these against the bug's keywords as one comma-separated text.
        const test = textMatcher(op, value);
        return (slot) =>
          bool(
            test(
              index.lists.keywordIds
                .get(slot)
                .map((id) => names.get(id) ?? '')
                .join(', '),
            ),
          );
      }
      const test = idSetTest(env.keywords, op, value);
      return anyOf(op, (slot) => index.lists.keywordIds.get(slot), test);
    }
    case 'bug_group': {
      const test = idSetTest(env.groups, op, value);
      return anyOf(op, (slot) => index.lists.groupIds.get(slot), test);
    }
    case 'flagtypes.name': {
      const names = new Map(env.flagTypes.map((type) => [type.id, type.name]));
      const test = textMatcher(op, value);
      return anyOf(
        op,
        (slot) => index.flags.get(slot),
        (flag) => test(`${names.get(flag.typeId) ?? ''}${flag.status}`),
      );
    }
    case 'see_also': {
      const test = textMatcher(op, value);
      return anyOf(op, (slot) => index.seeAlso.get(slot), test);
    }
    case 'tag': {
      const me = String(env.callerId);
      const test = textMatcher(op, value);
      return anyOf(op, (slot) => index.tags.get(slot)?.[me] ?? [], test);
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
        (slot) => index.lists[list].get(slot),
        (id) => ids.has(id),
      );
    }
    return anyOf(op, (slot) => index.lists[list].get(slot), test);
  }
  return null;
};

const FIELD_FAMILIES: readonly FamilyTest[] = [numberTest, textTest, timeTest, userTest, listTest];

/** A multi-valued field: a positive operator holds when any element matches; isempty when none exist. */
function anyOf<T>(op: string, elements: (slot: number) => readonly T[], test: (element: T) => boolean): RowTest {
  if (op === 'isempty') return (slot) => bool(elements(slot).length === 0);
  if (op === 'isnotempty') return (slot) => bool(elements(slot).length > 0);
  return (slot) => bool(elements(slot).some(test));
}

/** A whole tree as one row test: the second pass, once the undecided rows' comments are read. */
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
