import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';
import {
  aBug,
  bugEnvironment,
  COMPONENT,
  callerAs,
  GROUP,
  KEYWORD,
  loginOf,
  milestoneId,
  NAMES,
  NOW,
  PRODUCT,
  PRODUCTS,
  USER,
  type UserName,
  updateBug,
  versionId,
} from './support/bugCatalogue.ts';

/**
 * Changing one bug's own fields without storage (applyBugUpdate on a working set): what each
 * field accepts, what `changes` reports, who may change what, and the refusals with their codes.
 * Status, duplicates and relations: bugUpdateWorkflow.test.ts and bugRelations.test.ts.
 */

const admin = () => bugEnvironment();
const as = (name: UserName, groups: string[] = []) => bugEnvironment({ caller: callerAs(name, groups) });
const refusal = (action: () => unknown) => {
  const error = trackerErrorOf(action);
  return { code: error.code, message: error.message };
};
const change = (input: Record<string, unknown>, bug: Bug = aBug(1), env = admin()) =>
  updateBug(env, [bug], bug.id, input);

describe('changing plain fields', () => {
  it("reports each change in Bugzilla's words and leaves everything else alone", () => {
    const { bug, changes, outcome } = change({
      summary: ' Crash on\tstart ',
      priority: 'high',
      severity: 'MAJOR',
      type: 'task',
      platform: 'macintosh',
      op_sys: 'windows',
      url: ' https://example.com/1 ',
      whiteboard: 'triaged ',
      alias: 'start-crash',
      is_cc_accessible: false,
    });
    expect(changes).toEqual({
      summary: { removed: 'Bug 1', added: 'Crash on start' },
      alias: { removed: '', added: 'start-crash' },
      type: { removed: 'defect', added: 'task' },
      priority: { removed: '---', added: 'High' },
      severity: { removed: 'normal', added: 'major' },
      platform: { removed: 'PC', added: 'Macintosh' },
      op_sys: { removed: 'Linux', added: 'Windows' },
      url: { removed: '', added: 'https://example.com/1' },
      whiteboard: { removed: '', added: 'triaged' },
      is_cc_accessible: { removed: '1', added: '0' },
    });
    expect(bug).toEqual({
      ...aBug(1),
      summary: 'Crash on start',
      alias: 'start-crash',
      bugType: 'task',
      priority: 'High',
      severity: 'major',
      platform: 'Macintosh',
      opSys: 'Windows',
      url: 'https://example.com/1',
      whiteboard: 'triaged',
      isCcAccessible: false,
    });
    expect(outcome).toEqual({ comments: [], dependencyRoots: [], duplicateLinks: [], extraHistory: new Map() });
  });

  it('takes an alias as a value, a list or {set} / {add}, and clears it with an empty value or {remove}', () => {
    const named = aBug(1, { alias: 'old' });
    expect(change({ alias: ['first', 'second'] }, named).bug.alias).toBe('first');
    expect(change({ alias: { set: 'set-one' } }, named).bug.alias).toBe('set-one');
    expect(change({ alias: { add: ['added'] } }, named).bug.alias).toBe('added');
    expect(change({ alias: { remove: ['old'] } }, named).changes.alias).toEqual({ removed: 'old', added: '' });
    expect(change({ alias: '' }, named).bug.alias).toBeNull();
  });

  it("refuses bad values with each field's code", () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ summary: '  ' }, 107, 'You must enter a summary for this bug.'],
      [{ summary: 'x'.repeat(256) }, 104, 'The summary is too long: at most 255 characters.'],
      [{ summary: 'bell\u0007' }, 32000, 'The summary contains control characters.'],
      [{ priority: 'Urgent' }, 51, "There is no priority named 'Urgent'."],
      [{ severity: 'huge' }, 51, "There is no severity named 'huge'."],
      [{ rep_platform: 'Amiga' }, 51, "There is no platform named 'Amiga'."],
      [
        { alias: '42' },
        103,
        "The alias '42' is all digits: an alias must contain a letter so it cannot be mistaken for a bug id.",
      ],
      [
        { see_also: { add: ['ftp://example.com/1'] } },
        112,
        "'ftp://example.com/1' is not a valid URL to a bug: see_also takes http or https URLs.",
      ],
      [{ cf_nope: 'x' }, 51, "There is no custom field named 'cf_nope'."],
      [{ cf_browser: 'Lynx' }, 51, "There is no value of cf_browser named 'Lynx'."],
      [{ comment: 5 }, 32000, 'The comment must be an object such as {"body": "..."}.'],
      [{ comment: { body: 5 } }, 32000, 'The comment body must be text.'],
    ];
    for (const [input, code, message] of cases)
      expect({ input, ...refusal(() => change(input)) }).toEqual({ input, code, message });
  });

  it('changes time tracking only for the time-tracking group and refuses it from others (115, as 5.2)', () => {
    const times = { estimated_time: 4.5, remaining_time: '3', deadline: '2027-01-31' };
    expect(change(times).changes).toEqual({
      estimated_time: { removed: '0.00', added: '4.5' },
      remaining_time: { removed: '0.00', added: '3' },
      deadline: { removed: '', added: '2027-01-31' },
    });
    const editor = as('editor', ['editbugs']);
    expect(refusal(() => change({ ...times, summary: 'Also this' }, aBug(1), editor)).code).toBe(115);
    expect(change({ estimated_time: 0, summary: 'Also this' }, aBug(1), editor).changes).toEqual({
      summary: { removed: 'Bug 1', added: 'Also this' },
    });
    expect(change({ deadline: null }, aBug(1, { deadline: '2027-01-31' })).bug.deadline).toBeNull();
    expect(refusal(() => change({ remaining_time: -1 })).code).toBe(55);
    expect(refusal(() => change({ estimated_time: 100_000 })).code).toBe(54);
  });

  it('adds work time to the actual time with a comment carrying it, kept out of `changes` but in the history', () => {
    const { bug, changes, outcome } = change({ work_time: '1.5', comment: { body: 'Spent some time' } });
    expect(bug.actualTime).toBe(1.5);
    expect(changes).toEqual({});
    expect(outcome.comments).toEqual([
      {
        bugId: 1,
        creatorId: USER.admin,
        rawText: 'Spent some time',
        isPrivate: false,
        isMarkdown: false,
        workTime: 1.5,
        creationTime: NOW,
      },
    ]);
    expect(outcome.extraHistory.get(1)).toEqual([{ field_name: 'work_time', removed: '', added: '1.50' }]);
    expect(change({ work_time: 2 }).outcome.comments).toMatchObject([{ rawText: '', workTime: 2 }]);
    expect(change({ work_time: 2 }, aBug(1), as('editor', ['editbugs'])).outcome.comments).toEqual([]);
  });

  it('takes a comment as text or {body}, with privacy for insiders only, never an empty one', () => {
    expect(change({ comment: 'Plain' }).outcome.comments).toMatchObject([{ rawText: 'Plain', isPrivate: false }]);
    expect(change({ comment: { body: 'Secret', is_private: '1' } }).outcome.comments).toMatchObject([
      { rawText: 'Secret', isPrivate: true },
    ]);
    expect(change({ comment: { body: '   ' } }).outcome.comments).toEqual([]);
    const reporter = as('reporter');
    expect(refusal(() => change({ comment: { body: 'Hush', is_private: true } }, aBug(1), reporter))).toEqual({
      code: 113,
      message: 'You are not allowed to make comments private.',
    });
    expect(refusal(() => change({ comment: { body: 'x'.repeat(65_536) } })).code).toBe(114);
    const noMarkdown = bugEnvironment({ parameters: { markdown_enabled: '0' } });
    expect(refusal(() => change({ comment: { body: '*hi*', is_markdown: true } }, aBug(1), noMarkdown)).code).toBe(140);
  });

  it('validates custom fields by type and reports them by name', () => {
    const { changes } = change(
      { cf_browser: 'firefox', cf_note: ' hello ' },
      aBug(1, { custom: { cf_browser: '---' } }),
    );
    expect(changes).toEqual({
      cf_browser: { removed: '---', added: 'Firefox' },
      cf_note: { removed: '', added: 'hello' },
    });
    // An obsolete field is neither changed nor accepted.
    expect(refusal(() => change({ cf_gone: 'x' })).code).toBe(51);
  });
});

describe('people, keywords, groups and see-also', () => {
  it('changes the assignee, clears the QA contact, and resets both to the component defaults', () => {
    const moved = aBug(1, { assigneeId: USER.stranger, qaContactId: USER.stranger });
    expect(change({ assigned_to: loginOf('editor'), qa_contact: '' }, moved).changes).toEqual({
      assigned_to: { removed: loginOf('stranger'), added: loginOf('editor') },
      qa_contact: { removed: loginOf('stranger'), added: '' },
    });
    expect(change({ reset_assigned_to: true, reset_qa_contact: true }, moved).bug).toMatchObject({
      assigneeId: USER.assignee,
      qaContactId: USER.qa,
    });
    expect(
      change({ reset_qa_contact: true }, moved, bugEnvironment({ parameters: { useqacontact: '0' } })).bug.qaContactId,
    ).toBeNull();
    expect(change({ assigned_to: '' }, moved).changes).toEqual({});
    expect(refusal(() => change({ assigned_to: 'nobody@nowhere.test' })).code).toBe(51);
  });

  it('adds to, removes from and replaces the CC list, reporting logins', () => {
    const watched = aBug(1, { ccIds: [USER.watcher] });
    expect(change({ cc: { add: [loginOf('stranger')], remove: [loginOf('watcher')] } }, watched).changes.cc).toEqual({
      removed: loginOf('watcher'),
      added: loginOf('stranger'),
    });
    expect(change({ cc: [loginOf('qa'), loginOf('editor')] }, watched).bug.ccIds).toEqual([USER.qa, USER.editor]);
    expect(refusal(() => change({ cc: { add: ['nobody@nowhere.test'] } })).code).toBe(51);
    expect(refusal(() => change({ cc: { append: [] } }))).toEqual({
      code: 32000,
      message: "The cc change takes add, remove or set, not 'append'.",
    });
  });

  it('keeps an inactive keyword already on the bug but refuses to add one', () => {
    const tagged = aBug(1, { keywordIds: [KEYWORD.obsolete] });
    expect(change({ keywords: { add: ['crash'] } }, tagged).bug.keywordIds).toEqual([KEYWORD.crash, KEYWORD.obsolete]);
    expect(change({ keywords: ['obsolete', 'regression'] }, tagged).changes).toEqual({
      keywords: { removed: '', added: 'regression' },
    });
    expect(refusal(() => change({ keywords: { add: ['obsolete'] } }))).toEqual({
      code: 51,
      message: 'The keyword obsolete is inactive.',
    });
    expect(refusal(() => change({ keywords: { add: ['nope'] } }))).toEqual({
      code: 51,
      message: "There is no keyword named 'nope'.",
    });
  });

  it("puts a bug in and out of groups as the product's controls allow (120)", () => {
    expect(change({ groups: { add: ['secret'] } }).changes).toEqual({ groups: { removed: '', added: 'secret' } });
    const member = as('editor', ['editbugs']);
    expect(refusal(() => change({ groups: { add: ['secret'] } }, aBug(1), member))).toEqual({
      code: 120,
      message:
        "You tried to restrict bug 1 to the 'secret' group, but either this group does not exist, or you are not allowed to restrict bugs to this group in the 'Widgets' product.",
    });
    expect(refusal(() => change({ groups: { add: ['nope'] } }))).toEqual({
      code: 120,
      message: "There is no bug group named 'nope', or it cannot restrict bugs of the product Widgets.",
    });
    const gadget = aBug(2, {
      productId: PRODUCT.gadgets,
      componentId: COMPONENT.engine,
      versionId: versionId(PRODUCT.gadgets, '2.0'),
      targetMilestoneId: milestoneId(PRODUCT.gadgets, 'G1'),
      groupIds: [GROUP.internal],
    });
    expect(refusal(() => change({ groups: [] }, gadget))).toEqual({
      code: 120,
      message:
        "You tried to remove bug 2 from the 'internal' group, but either this group does not exist, or you are not allowed to remove bugs from this group in the 'Gadgets' product. The group is mandatory for bugs of the product.",
    });
    // As in Bugzilla 5.2 (Bug.pm remove_group), only members of a group take a bug out of it
    // (others only while moving the bug to another product), editbugs or not.
    const secretBug = aBug(1, { groupIds: [GROUP.secret], assigneeId: USER.assignee });
    expect(refusal(() => change({ groups: { remove: ['secret'] } }, secretBug, as('assignee'))).code).toBe(120);
    expect(refusal(() => change({ groups: { remove: ['secret'] } }, secretBug, member)).code).toBe(120);
    expect(change({ groups: { remove: ['secret'] } }, secretBug).bug.groupIds).toEqual([]);
  });

  it('adds and removes see-also URLs in order', () => {
    const linked = aBug(1, { seeAlso: ['https://a.example/1'] });
    expect(
      change({ see_also: { add: ['https://b.example/2'], remove: ['https://a.example/1'] } }, linked).bug.seeAlso,
    ).toEqual(['https://b.example/2']);
  });
});

describe('moving a bug to another product', () => {
  it("keeps the component of the same name, takes the product's default milestone and its mandatory groups", () => {
    const { bug, changes } = change(
      { product: 'gadgets', version: '2.0' },
      aBug(1, { targetMilestoneId: milestoneId(PRODUCT.widgets, 'M1') }),
    );
    expect(bug).toMatchObject({
      productId: PRODUCT.gadgets,
      componentId: COMPONENT.gadgetCore,
      versionId: versionId(PRODUCT.gadgets, '2.0'),
      targetMilestoneId: milestoneId(PRODUCT.gadgets, 'G1'),
      groupIds: [GROUP.internal],
    });
    // The component keeps its name but is another product's: Bugzilla reports it all the same.
    expect(changes).toEqual({
      product: { removed: 'Widgets', added: 'Gadgets' },
      component: { removed: 'Core', added: 'Core' },
      version: { removed: 'unspecified', added: '2.0' },
      target_milestone: { removed: 'M1', added: 'G1' },
      groups: { removed: '', added: 'internal' },
    });
  });

  it('drops groups the new product does not allow, and keeps a version both products have', () => {
    const { bug } = change({ product: 'Gadgets' }, aBug(1, { groupIds: [GROUP.secret] }));
    expect(bug).toMatchObject({ versionId: versionId(PRODUCT.gadgets, 'unspecified'), groupIds: [GROUP.internal] });
  });

  it('asks for a component when the new product has none of that name, and refuses unknown or closed ones', () => {
    const docs = aBug(1, { componentId: COMPONENT.docs });
    expect(refusal(() => change({ product: 'Gadgets' }, docs))).toEqual({
      code: 32000,
      message: "The product 'Gadgets' has no component named 'Docs': choose one for the bug with 'component'.",
    });
    expect(change({ product: 'Gadgets', component: 'engine' }, docs).bug.componentId).toBe(COMPONENT.engine);
    expect(refusal(() => change({ product: 'Gadgets', component: 'Wheels' }, docs))).toEqual({
      code: 51,
      message: "There is no component named 'Wheels' in the product 'Gadgets'.",
    });
    expect(refusal(() => change({ product: 'Hidden' }))).toEqual({
      code: 106,
      message: "The product 'Hidden' does not exist, or you may not move bugs into it.",
    });
    expect(refusal(() => change({ product: 'Nope' })).code).toBe(106);
  });

  it('refuses to move a bug to an inactive component, version or milestone but keeps the ones it has', () => {
    expect(refusal(() => change({ component: 'Legacy' }))).toEqual({
      code: 51,
      message: "The component 'Legacy' of the product 'Widgets' is inactive.",
    });
    expect(refusal(() => change({ version: '0.9' })).code).toBe(51);
    expect(refusal(() => change({ target_milestone: 'M0' })).code).toBe(51);
    const old = aBug(1, {
      versionId: versionId(PRODUCT.widgets, '0.9'),
      targetMilestoneId: milestoneId(PRODUCT.widgets, 'M0'),
      componentId: COMPONENT.legacy,
    });
    expect(change({ version: '0.9', target_milestone: 'm0', component: 'Legacy' }, old).changes).toEqual({});
  });
});

describe('who may change what', () => {
  const reporter = as('reporter');
  const denied = (input: Record<string, unknown>, env = reporter, bug = aBug(1)) =>
    refusal(() => change(input, bug, env));

  it('lets the reporter change ordinary fields and close the bug, but not people, milestone or an open status', () => {
    expect(change({ summary: 'Reworded', severity: 'major' }, aBug(1), reporter).bug.summary).toBe('Reworded');
    expect(change({ status: 'RESOLVED', resolution: 'INVALID' }, aBug(1), reporter).bug.status).toBe('RESOLVED');
    expect(denied({ assigned_to: loginOf('stranger') })).toEqual({
      code: 115,
      message: `You tried to change the assigned_to field from '${loginOf('assignee')}' to '${loginOf('stranger')}', but only the bug's assignee, its QA contact or a user with editbugs rights may make this change.`,
    });
    for (const input of [{ qa_contact: '' }, { target_milestone: 'M1' }, { status: 'IN_PROGRESS' }])
      expect({ input, code: denied(input).code }).toEqual({ input, code: 115 });
  });

  it('lets the reporter choose the priority only where submitters may', () => {
    const strict = bugEnvironment({ caller: callerAs('reporter'), parameters: { letsubmitterchoosepriority: '0' } });
    expect(change({ priority: 'High' }, aBug(1), reporter).bug.priority).toBe('High');
    expect(denied({ priority: 'High' }, strict).code).toBe(115);
  });

  it('lets the assignee and the QA contact change anything but confirm an unconfirmed bug', () => {
    const unconfirmed = aBug(1, { status: 'UNCONFIRMED', isConfirmed: false });
    for (const name of ['assignee', 'qa'] as const) {
      const env = as(name);
      expect(change({ assigned_to: loginOf('stranger'), target_milestone: 'M1' }, unconfirmed, env).changes).toEqual({
        target_milestone: { removed: '---', added: 'M1' },
        assigned_to: { removed: loginOf('assignee'), added: loginOf('stranger') },
      });
      expect(denied({ status: 'CONFIRMED' }, env, unconfirmed)).toEqual({
        code: 115,
        message:
          "You tried to change the status field from 'UNCONFIRMED' to 'CONFIRMED', but only the bug's assignee, its QA contact or a user with editbugs or canconfirm rights may make this change.",
      });
    }
    const confirmed = change({ status: 'CONFIRMED' }, unconfirmed, as('confirmer', ['canconfirm'])).bug;
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', isConfirmed: true });
  });

  it('needs canconfirm to confirm a never-confirmed bug by way of a closed status, or to unconfirm a confirmed one', () => {
    // The reporter closes their unconfirmed bug (allowed), then reopens it as CONFIRMED: that confirms it.
    const unconfirmed = aBug(1, { status: 'UNCONFIRMED', isConfirmed: false });
    const closed = change({ status: 'RESOLVED', resolution: 'INVALID' }, unconfirmed, reporter).bug;
    expect(closed).toMatchObject({ status: 'RESOLVED', isConfirmed: false });
    expect(denied({ status: 'CONFIRMED' }, reporter, closed)).toEqual({
      code: 115,
      message:
        "You tried to change the status field from 'RESOLVED' to 'CONFIRMED', but only the bug's assignee, its QA contact or a user with editbugs or canconfirm rights may make this change.",
    });
    expect(denied({ status: 'CONFIRMED' }, as('assignee'), closed).code).toBe(115);
    for (const env of [as('reporter', ['canconfirm']), as('editor', ['editbugs'])])
      expect(change({ status: 'CONFIRMED' }, closed, env).bug).toMatchObject({
        status: 'CONFIRMED',
        isConfirmed: true,
      });
    // Reopening it as UNCONFIRMED confirms nothing: the reporter may.
    expect(change({ status: 'UNCONFIRMED' }, closed, reporter).bug.status).toBe('UNCONFIRMED');

    // A confirmed bug moved back to UNCONFIRMED is unconfirmed: Bugzilla asks canconfirm of everyone, assignee included.
    const fixed = aBug(1, { status: 'RESOLVED', resolution: 'FIXED', isConfirmed: true });
    for (const name of ['reporter', 'assignee'] as const)
      expect({ name, code: denied({ status: 'UNCONFIRMED' }, as(name), fixed).code }).toEqual({ name, code: 115 });
    expect(change({ status: 'UNCONFIRMED' }, fixed, as('reporter', ['canconfirm'])).bug.status).toBe('UNCONFIRMED');
    expect(change({ status: 'CONFIRMED' }, fixed, reporter).bug.status).toBe('CONFIRMED');
  });

  it('gives the QA contact no rights when the installation does not use QA contacts', () => {
    const env = bugEnvironment({ caller: callerAs('qa'), parameters: { useqacontact: '0' } });
    expect(denied({ severity: 'major' }, env).code).toBe(115);
  });

  it('lets anyone else only add or remove themselves on the CC list', () => {
    const stranger = as('stranger');
    expect(denied({ summary: 'Hijacked' }, stranger)).toEqual({
      code: 115,
      message:
        "You tried to change the summary field from 'Bug 1' to 'Hijacked', but only the bug's reporter, assignee or QA contact, or a user with editbugs rights may make this change.",
    });
    expect(change({ cc: { add: [loginOf('stranger')] } }, aBug(1), stranger).changes).toEqual({
      cc: { removed: '', added: loginOf('stranger') },
    });
    expect(denied({ cc: { add: [loginOf('qa')] } }, stranger)).toEqual({
      code: 115,
      message:
        'You may add or remove only yourself on the CC list of this bug; changing others needs the reporter, assignee, QA contact or editbugs rights.',
    });
    // A comment alone is fine: it is not a field change.
    expect(change({ comment: 'Me too' }, aBug(1), stranger).outcome.comments).toHaveLength(1);
  });

  it("honours the product's canedit control for everyone outside the group (109)", () => {
    const locked = PRODUCTS.map((record) =>
      record.product.id === PRODUCT.widgets
        ? {
            ...record,
            groupControls: [
              ...record.groupControls,
              {
                productId: PRODUCT.widgets,
                groupId: GROUP.granters,
                entry: false,
                memberControl: 'NA' as const,
                otherControl: 'NA' as const,
                canEdit: true,
                editComponents: false,
                editBugs: false,
                canConfirm: false,
              },
            ],
          }
        : record,
    );
    const outsider = bugEnvironment({ caller: callerAs('reporter'), products: locked });
    expect(refusal(() => change({ comment: 'let me in' }, aBug(1), outsider))).toEqual({
      code: 109,
      message: 'You are not allowed to edit bugs of the product Widgets.',
    });
    const member = bugEnvironment({ caller: callerAs('granter', ['granters']), products: locked });
    expect(change({ comment: 'members may' }, aBug(1), member).outcome.comments).toHaveLength(1);
  });
});

describe('properties of any update', () => {
  /** A bug with a random but valid state, as the factory builds it. */
  const bugArb = fc.record({
    summary: fc.constantFrom('Crash', 'Slow start', 'Typo in docs'),
    priority: fc.constantFrom('Highest', 'High', 'Normal', '---'),
    severity: fc.constantFrom('blocker', 'normal', 'enhancement'),
    platform: fc.constantFrom('PC', 'All', 'Macintosh'),
    opSys: fc.constantFrom('Linux', 'Windows', 'Mac OS'),
    alias: fc.constantFrom(null, 'an-alias'),
    ccIds: fc.subarray([USER.watcher, USER.editor, USER.stranger]),
    keywordIds: fc.subarray([KEYWORD.crash, KEYWORD.regression, KEYWORD.obsolete]),
    targetMilestoneId: fc.constantFrom('---', 'M1', 'M0').map((name) => milestoneId(PRODUCT.widgets, name)),
    versionId: fc.constantFrom('unspecified', '1.0', '0.9').map((name) => versionId(PRODUCT.widgets, name)),
    whiteboard: fc.constantFrom('', 'triaged'),
    assigneeId: fc.constantFrom(USER.assignee, USER.editor),
    qaContactId: fc.constantFrom(USER.qa, null),
    status: fc.constantFrom('UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS'),
  });
  const loginFor = (id: number | null) =>
    id === null ? '' : loginOf(Object.entries(USER).find(([, v]) => v === id)![0] as UserName);
  const names: Record<number, string> = {
    [KEYWORD.crash]: 'crash',
    [KEYWORD.regression]: 'regression',
    [KEYWORD.obsolete]: 'obsolete',
  };
  const shout = (text: string) => fc.constantFrom(text, text.toUpperCase(), ` ${text.toLowerCase()} `);

  /** An input restating some of the bug's own values, spelt as clients might. */
  const restating = (bug: Bug) =>
    fc
      .record({
        summary: fc.constant(`  ${bug.summary} `),
        priority: shout(bug.priority),
        severity: shout(bug.severity),
        platform: shout(bug.platform),
        op_sys: shout(bug.opSys),
        alias: fc.constant(bug.alias ?? ''),
        cc: fc.constant(bug.ccIds.map(loginFor)),
        keywords: fc.constant({ set: bug.keywordIds.map((id) => names[id].toUpperCase()) }),
        target_milestone: shout(NAMES.milestone(bug.targetMilestoneId)),
        version: shout(NAMES.version(bug.versionId)),
        whiteboard: fc.constant(bug.whiteboard),
        assigned_to: fc.constant(loginFor(bug.assigneeId).toUpperCase()),
        qa_contact: fc.constant(loginFor(bug.qaContactId)),
        status: shout(bug.status),
        resolution: fc.constant(''),
        product: shout('Widgets'),
        component: shout('Core'),
        groups: fc.constant({ set: [] }),
        depends_on: fc.constant([]),
        see_also: fc.constant({ remove: ['https://never.example/'] }),
        is_cc_accessible: fc.constant(true),
        comment: fc.constant({ body: '   ' }),
      })
      .chain((all) =>
        fc
          .subarray(Object.keys(all))
          .map((keys) => Object.fromEntries(keys.map((key) => [key, all[key as keyof typeof all]]))),
      );

  it('reports no changes and writes no comment when the request restates what the bug already has', () => {
    fc.assert(
      fc.property(
        bugArb.chain((fields) => {
          const bug = aBug(1, { ...fields, isConfirmed: fields.status !== 'UNCONFIRMED' });
          return fc.tuple(fc.constant(bug), restating(bug), fc.constantFrom<UserName>('admin', 'assignee', 'reporter'));
        }),
        ([bug, input, who]) => {
          const env = who === 'admin' ? admin() : as(who);
          const result = change(input, bug, env);
          expect(result.changes).toEqual({});
          expect(result.bug).toEqual(bug);
          expect(result.outcome.comments).toEqual([]);
          expect(result.outcome.dependencyRoots).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reports exactly the fields whose values differ, and a refused request changes nothing it was given', () => {
    const fieldArb = fc.record(
      {
        priority: fc.constantFrom('Highest', 'High', '---'),
        severity: fc.constantFrom('blocker', 'normal'),
        whiteboard: fc.constantFrom('', 'triaged', 'later'),
        summary: fc.constantFrom('Bug 1', 'Renamed'),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fieldArb, fc.constantFrom<UserName>('admin', 'reporter', 'stranger'), (input, who) => {
        const before = aBug(1);
        const env = who === 'admin' ? admin() : as(who);
        const expected = Object.fromEntries(
          Object.entries(input)
            .map(([field, value]) => [field, { removed: String(before[field as keyof Bug]), added: value }] as const)
            .filter(([, entry]) => entry.removed !== entry.added),
        );
        if (who === 'stranger' && Object.keys(expected).length > 0) {
          expect(refusal(() => change(input, before, env)).code).toBe(115);
          return;
        }
        expect(change(input, before, env).changes).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });
});
