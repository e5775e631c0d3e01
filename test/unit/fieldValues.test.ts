import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { FIXED_VALUES } from '../../shared/domain/bug/bugFields.ts';
import { BUG_STATUSES } from '../../shared/domain/bug/bugWorkflow.ts';
import { planNewValue, planValueUpdate, planWorkflow } from '../../shared/domain/catalog/fieldValueRules.ts';
import {
  DEFAULT_FIELD_VALUES,
  DEFAULT_TRANSITIONS,
  defaultValues,
  type FieldValue,
  FieldValues,
  type StoredFieldValues,
  VALUE_FIELDS,
  withCurrentNames,
} from '../../shared/domain/catalog/fieldValues.ts';
import { planParameterUpdate } from '../../shared/domain/instance/parameterChanges.ts';
import { DEFAULT_PARAMETERS, type Parameters } from '../../shared/domain/instance/parameters.ts';
import { compileSearch } from '../../shared/domain/search/evaluation/criterionCompiler.ts';
import { type SearchEnvironment, TRUE } from '../../shared/domain/search/evaluation/searchEnvironment.ts';
import { slotsMatching } from '../../shared/domain/search/evaluation/searchEvaluation.ts';
import { type OrderNames, orderComparator } from '../../shared/domain/search/evaluation/searchOrdering.ts';
import { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import { parseQuicksearch } from '../../shared/domain/search/query/quicksearch.ts';
import type { SearchNode } from '../../shared/domain/search/query/searchQuery.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';
import { aBug, bugEnvironment, callerAs, fileBug, updateBug } from './support/bugCatalogue.ts';

/**
 * The installation's own legal values and workflow (catalog/fieldValues.ts, fieldValueRules.ts):
 * what an installation that never changed them has, what administrators may change and what
 * they may not (Bugzilla's editvalues.cgi and editworkflow.cgi rules), and every reader of the
 * values (bug rules, search, quicksearch, ordering, parameters) reading the installation's.
 */
const parameters = { ...DEFAULT_PARAMETERS } as Parameters;
const refusal = (action: () => unknown) => {
  const error = trackerErrorOf(action);
  return { code: error.code, message: error.message };
};

/** Applies an edit as the application does: the field's list, and the workflow when it changed. */
const applied = (values: FieldValues, edit: ReturnType<typeof planNewValue>): FieldValues =>
  new FieldValues({
    lists: { ...values.stored.lists, [edit.field]: edit.list },
    transitions: edit.transitions ?? values.stored.transitions,
  });

/** Priorities P1..P5 (P3 the default), the old ones disabled: what the integration test builds over HTTP. */
const P_PRIORITIES: FieldValue[] = [
  ...['P1', 'P2', 'P3', 'P4', 'P5'].map((name, index) => ({ name, sortKey: 10 + index, isActive: true })),
  ...FIXED_VALUES.priority.map(({ name, sortKey }) => ({ name, sortKey: sortKey + 1000, isActive: name === '---' })),
];
const withPriorities = new FieldValues({ lists: { priority: P_PRIORITIES } });

describe('an installation that never changed its values', () => {
  it('has the values and workflow a new installation is bootstrapped with', () => {
    const stored: StoredFieldValues = {
      lists: Object.fromEntries(VALUE_FIELDS.map((field) => [field, defaultValues(field)])),
      transitions: DEFAULT_TRANSITIONS,
    };
    const bootstrapped = new FieldValues(stored);
    for (const field of VALUE_FIELDS) expect(DEFAULT_FIELD_VALUES.list(field)).toEqual(bootstrapped.list(field));
    for (const from of [null, ...BUG_STATUSES.map((status) => status.name)])
      expect(DEFAULT_FIELD_VALUES.transitionsFrom(from)).toEqual(bootstrapped.transitionsFrom(from));
    expect(DEFAULT_FIELD_VALUES.list('priority').map((value) => value.name)).toEqual([
      'Highest',
      'High',
      'Normal',
      'Low',
      'Lowest',
      '---',
    ]);
    expect(DEFAULT_FIELD_VALUES.duplicateStatuses()).toEqual(['RESOLVED']);
  });
});

describe('renamed values', () => {
  const renamed = planValueUpdate(DEFAULT_FIELD_VALUES, 'priority', 'Normal', { name: 'P3' }, parameters);
  const values = applied(DEFAULT_FIELD_VALUES, renamed);

  it('keep the former name, so bugs that stored it read the new one (no bug is rewritten)', () => {
    expect(renamed.changes).toEqual({ name: { removed: 'Normal', added: 'P3' } });
    expect(values.currentName('priority', 'Normal')).toBe('P3');
    expect(values.currentName('priority', 'P3')).toBe('P3');
    expect(values.currentName('priority', 'Unheard of')).toBe('Unheard of');
    const bug = aBug(1, { priority: 'Normal' });
    expect(withCurrentNames(bug, values).priority).toBe('P3');
    expect(withCurrentNames(aBug(2, { priority: 'High' }), values)).toEqual(aBug(2, { priority: 'High' }));
    // A second rename keeps both former names.
    const again = applied(values, planValueUpdate(values, 'priority', 'p3', { name: 'Medium' }, parameters));
    expect(again.currentName('priority', 'Normal')).toBe('Medium');
    expect(again.currentName('priority', 'P3')).toBe('Medium');
  });

  it('refuse a former name for another value: the bugs that carry it would change value', () => {
    expect(refusal(() => planNewValue(values, 'priority', { name: 'Normal' }, parameters))).toEqual({
      code: 32000,
      message:
        "'Normal' was the name of the priority 'P3' before a rename, and bugs filed before still carry it: choose another name.",
    });
    expect(refusal(() => planValueUpdate(values, 'priority', 'High', { name: 'Normal' }, parameters)).code).toBe(32000);
    // Without regard to case, as names are unique: 'normal' would take the bugs that carry 'Normal'.
    expect(refusal(() => planValueUpdate(values, 'priority', 'High', { name: 'normal' }, parameters)).message).toBe(
      "'normal' was the name of the priority 'P3' before a rename, and bugs filed before still carry it: choose another name.",
    );
    expect(refusal(() => planNewValue(values, 'priority', { name: 'NORMAL' }, parameters)).code).toBe(32000);
    // The value itself may take its old name back.
    const back = applied(values, planValueUpdate(values, 'priority', 'P3', { name: 'Normal' }, parameters));
    expect(back.currentName('priority', 'P3')).toBe('Normal');
  });

  it('carry the parameter that names the default along (Bugzilla SetParam)', () => {
    const edit = planValueUpdate(DEFAULT_FIELD_VALUES, 'bug_severity', 'enhancement', { name: 'wish' }, parameters);
    expect(edit.parameters).toEqual({ defaultseverity: { removed: 'enhancement', added: 'wish' } });
    expect(
      planValueUpdate(DEFAULT_FIELD_VALUES, 'bug_severity', 'major', { name: 'big' }, parameters).parameters,
    ).toEqual({});
  });

  it('take the workflow along when a status is renamed', () => {
    const edit = planValueUpdate(DEFAULT_FIELD_VALUES, 'bug_status', 'CONFIRMED', { name: 'NEW' }, parameters);
    const next = applied(DEFAULT_FIELD_VALUES, edit);
    expect(next.initialStatuses()).toEqual(['UNCONFIRMED', 'NEW', 'IN_PROGRESS']);
    expect(next.transitionsFrom('NEW').map((move) => move.to)).toEqual(['IN_PROGRESS', 'RESOLVED']);
    // A bug stored as CONFIRMED is in NEW now, and moves as NEW does.
    expect(next.canChange('CONFIRMED', 'IN_PROGRESS')).toBe(true);
    expect(next.isOpen('CONFIRMED')).toBe(true);
    // NEW is a real status now, no longer the old workflow's name for CONFIRMED.
    expect(next.canonicalStatus('new', null)).toBe('NEW');
  });
});

describe("what administrators may not do (Bugzilla's rules)", () => {
  it('checks names, sort keys and is_open', () => {
    const add = (field: 'priority' | 'bug_status', input: Record<string, unknown>) =>
      refusal(() => planNewValue(DEFAULT_FIELD_VALUES, field, input, parameters));
    expect(add('priority', { name: '  ' }).code).toBe(32000);
    expect(add('priority', { name: 'x'.repeat(65) }).message).toMatch(/limited to 64 characters/);
    expect(add('priority', { name: 'high' }).message).toBe('A priority named High already exists.');
    expect(add('priority', { name: 'P1', sort_key: 40_000 }).message).toMatch(/from 0 to 32767/);
    expect(add('priority', { name: 'P1', is_open: true }).message).toMatch(/Only statuses/);
    expect(add('bug_status', { name: 'Duplicate' }).message).toMatch(/reserved word/);
    expect(add('priority', { name: 'Bad\u202Ename' }).message).toMatch(/control or text-direction/);
  });

  it('never renames or disables the resolutions and statuses the rules name, nor disables a default', () => {
    const update = (field: 'resolution' | 'bug_status' | 'priority', name: string, input: Record<string, unknown>) =>
      refusal(() => planValueUpdate(DEFAULT_FIELD_VALUES, field, name, input, parameters));
    for (const name of ['FIXED', 'DUPLICATE', ''])
      expect(update('resolution', name, { is_active: false }).message).toMatch(/cannot be renamed or disabled/);
    expect(update('bug_status', 'UNCONFIRMED', { name: 'TRIAGE' }).message).toMatch(/cannot be renamed/);
    expect(update('bug_status', 'RESOLVED', { is_active: false }).message).toMatch(/duplicate_or_move_bug_status/);
    expect(update('priority', '---', { is_active: false })).toEqual({
      code: 32000,
      message:
        "The priority '---' is the default (the parameter defaultpriority), so it cannot be disabled: choose another default first.",
    });
    expect(update('bug_status', 'VERIFIED', { is_open: true }).message).toMatch(/between open and closed/);
    expect(update('priority', 'Nope', { sort_key: 1 }).code).toBe(51);
    // What may change: WONTFIX, a sort key, a value that is not the default.
    expect(
      planValueUpdate(DEFAULT_FIELD_VALUES, 'resolution', 'WONTFIX', { name: 'WONT_FIX' }, parameters).changes,
    ).toEqual({
      name: { removed: 'WONTFIX', added: 'WONT_FIX' },
    });
    expect(
      planValueUpdate(DEFAULT_FIELD_VALUES, 'priority', 'High', { sort_key: 5, is_active: false }, parameters).changes,
    ).toEqual({ sort_key: { removed: '200', added: '5' }, is_active: { removed: '1', added: '0' } });
  });
});

describe('the workflow', () => {
  /** A workflow with a status of its own: IN_REVIEW (open, after IN_PROGRESS). */
  const added = planNewValue(DEFAULT_FIELD_VALUES, 'bug_status', { name: 'IN_REVIEW', sort_key: 350 }, parameters);
  const withReview = applied(DEFAULT_FIELD_VALUES, added);

  it('lets a new open status reach the duplicates status at once (add_missing_bug_status_transitions)', () => {
    expect(added.transitions).toContainEqual({ from: 'IN_REVIEW', to: 'RESOLVED', commentRequired: false });
    const closed = planNewValue(DEFAULT_FIELD_VALUES, 'bug_status', { name: 'SHIPPED', is_open: false }, parameters);
    expect(closed.transitions).toEqual(DEFAULT_TRANSITIONS);
    expect(withReview.list('bug_status').map((status) => status.name)).toEqual([
      'UNCONFIRMED',
      'CONFIRMED',
      'IN_PROGRESS',
      'IN_REVIEW',
      'RESOLVED',
      'VERIFIED',
    ]);
    expect(withReview.isOpen('IN_REVIEW')).toBe(true);
    expect(withReview.canChange('IN_PROGRESS', 'IN_REVIEW')).toBe(false);
  });

  it('adds and removes moves, with comments required, and keeps every move to the duplicates status', () => {
    const edit = planWorkflow(
      withReview,
      {
        add: [
          { from: 'IN_PROGRESS', to: 'in_review' },
          { from: 'IN_REVIEW', to: 'VERIFIED', comment_required: true },
        ],
        remove: [{ from: 'IN_REVIEW', to: 'RESOLVED' }],
      },
      parameters,
    );
    expect(edit.added).toEqual([
      { from: 'IN_PROGRESS', to: 'IN_REVIEW', commentRequired: false },
      { from: 'IN_REVIEW', to: 'VERIFIED', commentRequired: true },
    ]);
    // Every open status stays able to move to duplicate_or_move_bug_status (Bugzilla's editworkflow.cgi).
    expect(edit.removed).toEqual([]);
    const next = new FieldValues({ lists: withReview.stored.lists, transitions: edit.transitions });
    expect(next.transitionsFrom('IN_PROGRESS').map((move) => move.to)).toEqual(['CONFIRMED', 'IN_REVIEW', 'RESOLVED']);
    expect(next.commentRequired('IN_REVIEW', 'VERIFIED')).toBe(true);
    expect(next.commentRequired('IN_REVIEW', 'IN_REVIEW')).toBe(false);
    expect(refusal(() => next.requireComment('IN_REVIEW', 'VERIFIED', ' '))).toEqual({
      code: 32000,
      message: 'You have to specify a comment when changing the status of a bug from IN_REVIEW to VERIFIED.',
    });
    expect(() => next.requireComment('IN_REVIEW', 'VERIFIED', 'Checked')).not.toThrow();
  });

  it('replaces the whole workflow, and refuses closed starts, self moves and unknown statuses', () => {
    const edit = planWorkflow(
      DEFAULT_FIELD_VALUES,
      {
        transitions: [
          { from: null, to: 'CONFIRMED' },
          { from: 'CONFIRMED', to: 'VERIFIED' },
        ],
      },
      parameters,
    );
    const next = new FieldValues({ lists: {}, transitions: edit.transitions });
    expect(next.initialStatuses()).toEqual(['CONFIRMED']);
    expect(next.transitionsFrom('CONFIRMED').map((move) => move.to)).toEqual(['RESOLVED', 'VERIFIED']);
    expect(next.transitionsFrom('UNCONFIRMED').map((move) => move.to)).toEqual(['RESOLVED']);
    expect(next.transitionsFrom('VERIFIED')).toEqual([]);
    expect(edit.removed.length).toBeGreaterThan(5);
    const workflow = (move: { from?: string | null; to: string }) =>
      refusal(() => planWorkflow(DEFAULT_FIELD_VALUES, { add: [move] }, parameters));
    expect(workflow({ from: '', to: 'RESOLVED' }).message).toBe(
      'A new bug cannot be filed in a closed status (RESOLVED).',
    );
    expect(workflow({ from: 'CONFIRMED', to: 'confirmed' }).message).toMatch(/cannot move to itself/);
    expect(workflow({ from: 'CONFIRMED', to: 'LIMBO' }).code).toBe(51);
    expect(refusal(() => planWorkflow(DEFAULT_FIELD_VALUES, {}, parameters)).code).toBe(50);
  });

  it('offers only active statuses, in their order, and files bugs as Bugzilla does', () => {
    const lists = {
      bug_status: [
        { name: 'NEW', sortKey: 1, isActive: true, isOpen: true },
        { name: 'UNCONFIRMED', sortKey: 0, isActive: true, isOpen: true },
        { name: 'ASSIGNED', sortKey: 2, isActive: false, isOpen: true },
        { name: 'CLOSED', sortKey: 3, isActive: true, isOpen: false },
      ],
    };
    const old = new FieldValues({
      lists,
      transitions: [
        { from: null, to: 'NEW', commentRequired: false },
        { from: null, to: 'UNCONFIRMED', commentRequired: true },
        { from: null, to: 'ASSIGNED', commentRequired: false },
        { from: 'NEW', to: 'CLOSED', commentRequired: false },
        { from: 'NEW', to: 'ASSIGNED', commentRequired: false },
        { from: 'UNCONFIRMED', to: 'CLOSED', commentRequired: false },
        { from: 'ASSIGNED', to: 'CLOSED', commentRequired: false },
      ],
    });
    expect(old.initialStatuses()).toEqual(['UNCONFIRMED', 'NEW']);
    expect(old.defaultInitialStatus(true, true)).toBe('NEW');
    expect(old.defaultInitialStatus(false, true)).toBe('UNCONFIRMED');
    expect(old.defaultInitialStatus(false, false)).toBe('NEW');
    // Real statuses named like the old workflow's are themselves.
    expect(old.canonicalStatus('new', null)).toBe('NEW');
    expect(old.canonicalStatus('closed', 'NEW')).toBe('CLOSED');
    expect(old.canonicalStatus('REOPENED', 'CLOSED')).toBe('REOPENED');
    expect(old.duplicateStatuses()).toEqual(['CLOSED']);
    expect(old.duplicateStatus('RESOLVED')).toBe('CLOSED');
    expect(old.commentRequired(null, 'UNCONFIRMED')).toBe(true);
  });
});

describe('the bug rules read the installation', () => {
  const admin = () => bugEnvironment({ values: withPriorities, parameters: { defaultpriority: 'P3' } });

  it('files and changes bugs with its priorities, refusing disabled ones unless the bug has it', () => {
    expect(fileBug(admin(), { priority: 'p1' }).bug.priority).toBe('P1');
    expect(fileBug(admin()).bug.priority).toBe('P3');
    expect(refusal(() => fileBug(admin(), { priority: 'Highest' }))).toEqual({
      code: 32000,
      message: "The priority 'Highest' is disabled: bugs keep it, but it cannot be chosen.",
    });
    expect(refusal(() => fileBug(admin(), { priority: 'P9' })).code).toBe(51);
    const old = aBug(1, { priority: 'Highest' });
    expect(updateBug(admin(), [old], 1, { priority: 'highest', summary: 'Still highest' }).bug.priority).toBe(
      'Highest',
    );
    expect(refusal(() => updateBug(admin(), [aBug(2)], 2, { priority: 'Highest' })).code).toBe(32000);
    expect(updateBug(admin(), [old], 1, { priority: 'P2' }).changes.priority).toEqual({
      removed: 'Highest',
      added: 'P2',
    });
  });

  it('files a bug in a status of its own, and asks for the comment the workflow requires', () => {
    const edit = planWorkflow(
      DEFAULT_FIELD_VALUES,
      { add: [{ from: null, to: 'IN_PROGRESS', comment_required: true }] },
      parameters,
    );
    const values = new FieldValues({ lists: {}, transitions: edit.transitions });
    const env = bugEnvironment({ values });
    expect(fileBug(env, { status: 'ASSIGNED' }).bug.status).toBe('IN_PROGRESS');
    expect(refusal(() => fileBug(env, { status: 'IN_PROGRESS', description: '' })).message).toBe(
      'You have to specify a comment when filing a bug as IN_PROGRESS.',
    );
    // Without canconfirm the status asked for is not the caller's to choose (Bugzilla).
    const plain = bugEnvironment({ values, caller: callerAs('reporter') });
    expect(fileBug(plain, { status: 'IN_PROGRESS', description: '' }).bug.status).toBe('UNCONFIRMED');
  });
});

describe('search reads the installation', () => {
  const bugs: Bug[] = [
    aBug(1, { priority: 'P2' }),
    aBug(2, { priority: 'P1' }),
    aBug(3, { priority: 'Normal' }),
    aBug(4, { priority: 'P5' }),
  ];
  /** One catalogue for every search here (a result kept between searches is kept for one catalogue). */
  const catalogue = { products: [], classifications: [], groups: [], keywords: [], flagTypes: [] };
  const environment = (index: SearchIndex, fieldValues: FieldValues): SearchEnvironment => ({
    index,
    callerId: 1,
    callerLogin: 'me@x.test',
    ...catalogue,
    values: fieldValues,
    loginIds: new Map(),
    now: Date.parse('2025-06-01T00:00:00Z'),
    insider: true,
  });
  const index = new SearchIndex();
  for (const bug of bugs) index.apply({ bug, rev: 1 });
  const found = (fieldValues: FieldValues, node: SearchNode) => {
    const test = compileSearch(environment(index, fieldValues), node);
    return Array.from({ length: index.size }, (_, slot) => slot)
      .filter((slot) => test(slot) === TRUE)
      .map((slot) => index.id[slot]);
  };

  it('quicksearches P1-P5 as the priorities named so, else by position (Quicksearch.pm)', () => {
    const priorities = (text: string, fieldValues: FieldValues) => {
      const node = parseQuicksearch(text, fieldValues).node as { children: SearchNode[] };
      const clause = node.children[1] as { children: Array<{ field?: string; value?: string }> };
      return clause.children.find((child) => child.field === 'priority')?.value;
    };
    expect(priorities('P1', withPriorities)).toBe('P1');
    expect(priorities('P2-4', withPriorities)).toBe('P2,P3,P4');
    expect(priorities('P1', DEFAULT_FIELD_VALUES)).toBe('Highest');
    expect(priorities('p4-2', DEFAULT_FIELD_VALUES)).toBe('High,Normal,Low');
    expect(priorities('P9', DEFAULT_FIELD_VALUES)).toBe('');
    expect(found(withPriorities, parseQuicksearch('P1', withPriorities).node)).toEqual([2]);
  });

  it('finds a bug stored under a former name by the current name only', () => {
    const byName = (fieldValues: FieldValues, name: string) =>
      found(fieldValues, { kind: 'leaf', field: 'priority', op: 'equals', value: name, negate: false });
    const renamed = applied(
      DEFAULT_FIELD_VALUES,
      planValueUpdate(DEFAULT_FIELD_VALUES, 'priority', 'Normal', { name: 'Medium' }, parameters),
    );
    expect(byName(DEFAULT_FIELD_VALUES, 'Normal')).toEqual([3]);
    expect(byName(renamed, 'medium')).toEqual([3]);
    expect(byName(renamed, 'Normal')).toEqual([]);
  });

  it('never reuses a result kept between searches across a rename', () => {
    const big = new SearchIndex();
    for (let id = 1; id <= 2_100; id++)
      big.apply({ bug: aBug(id, { priority: id % 100 === 0 ? 'Normal' : 'High' }), rev: 1 });
    const renamed = applied(
      DEFAULT_FIELD_VALUES,
      planValueUpdate(DEFAULT_FIELD_VALUES, 'priority', 'Normal', { name: 'Medium' }, parameters),
    );
    const normal: SearchNode = { kind: 'leaf', field: 'priority', op: 'equals', value: 'Normal', negate: false };
    expect(slotsMatching(environment(big, DEFAULT_FIELD_VALUES), normal)).toHaveLength(21);
    expect(slotsMatching(environment(big, renamed), normal)).toHaveLength(0);
    expect(slotsMatching(environment(big, renamed), { ...normal, value: 'Medium' })).toHaveLength(21);
  });

  it('orders by the sort keys of the values, unknown names last (Bugzilla: sortkey, then value)', () => {
    const order = (fieldValues: FieldValues, column: string) =>
      [0, 1, 2, 3]
        .sort(
          orderComparator(index, column, { values: fieldValues } as OrderNames, { insider: true, timeTracker: true }),
        )
        .map((slot) => index.id[slot]);
    // P1..P5 first (sort keys 10..14), then Normal (1300) among the old ones.
    expect(order(withPriorities, 'priority')).toEqual([2, 1, 4, 3]);
    expect(order(withPriorities, 'priority DESC')).toEqual([3, 4, 1, 2]);
    // The default installation knows no P1..P5: they sort after Normal, by name.
    expect(order(DEFAULT_FIELD_VALUES, 'priority')).toEqual([3, 2, 1, 4]);
  });
});

describe('parameters that name a value', () => {
  it('take an active value of the installation', () => {
    expect(planParameterUpdate(parameters, { defaultpriority: 'P1' }, withPriorities)).toEqual({
      defaultpriority: { removed: '---', added: 'P1' },
    });
    expect(refusal(() => planParameterUpdate(parameters, { defaultpriority: 'Highest' }, withPriorities)).message).toBe(
      "The parameter 'defaultpriority' must be a legal priority: one of P1, P2, P3, P4, P5, ---.",
    );
    expect(
      refusal(() => planParameterUpdate(parameters, { default_bug_type: 'story' }, DEFAULT_FIELD_VALUES)).code,
    ).toBe(32000);
  });
});
