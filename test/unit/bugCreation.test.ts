import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INITIAL_STATUSES } from '../../shared/domain/bug/bugWorkflow.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';
import {
  bugEnvironment,
  COMPONENT,
  CUSTOM_FIELDS,
  callerAs,
  customField,
  type EnvironmentOptions,
  FLAG_TYPE,
  fileBug,
  GROUP,
  KEYWORD,
  loginOf,
  milestoneId,
  NEW_BUG_ID,
  NOW,
  PRODUCT,
  PRODUCTS,
  USER,
  versionId,
} from './support/bugCatalogue.ts';

/**
 * Filing a bug without storage (planNewBug): what a new bug gets when a field is left out, what
 * the caller's rights change, and every refusal with Bugzilla's code and message.
 */

const admin = (options: EnvironmentOptions = {}) => bugEnvironment(options);
/** An ordinary logged-in user: no editbugs, no canconfirm, no time tracking, not an insider. */
const ordinary = (parameters = {}) => bugEnvironment({ caller: callerAs('reporter'), parameters });
const refusal = (action: () => unknown) => {
  const error = trackerErrorOf(action);
  return { code: error.code, message: error.message };
};

describe('what a new bug gets when fields are left out', () => {
  it("takes the people from the component, the milestone from the product and the rest from Bugzilla's defaults", () => {
    const { bug, description } = fileBug(admin());
    expect(bug).toMatchObject({
      id: NEW_BUG_ID,
      alias: null,
      summary: 'Toolbar crashes on resize',
      status: 'CONFIRMED',
      resolution: '',
      isConfirmed: true,
      productId: PRODUCT.widgets,
      componentId: COMPONENT.core,
      versionId: versionId(PRODUCT.widgets, 'unspecified'),
      targetMilestoneId: milestoneId(PRODUCT.widgets, '---'),
      bugType: 'defect',
      priority: '---',
      severity: 'enhancement',
      platform: 'PC',
      opSys: 'Linux',
      assigneeId: USER.assignee,
      qaContactId: USER.qa,
      reporterId: USER.admin,
      ccIds: [USER.watcher],
      url: '',
      whiteboard: '',
      deadline: null,
      estimatedTime: 0,
      remainingTime: 0,
      actualTime: 0,
      isCcAccessible: true,
      isCreatorAccessible: true,
      creationTime: NOW,
      lastChangeTime: NOW,
      filedVia: 'api',
      keywordIds: [],
      dependsOn: [],
      blocks: [],
      regressedBy: [],
      regressions: [],
      duplicates: [],
      dupeOf: null,
      seeAlso: [],
      flags: [],
      commentCount: 1,
      attachmentCount: 0,
    });
    expect(description).toEqual({
      bugId: NEW_BUG_ID,
      creatorId: USER.admin,
      rawText: 'Steps to reproduce',
      isPrivate: false,
      isMarkdown: false,
      workTime: 0,
      creationTime: NOW,
    });
  });

  it('gives every custom field its empty value: --- for a single select, empty text for free text', () => {
    expect(fileBug(admin()).bug.custom).toEqual({ cf_browser: '---', cf_note: '' });
  });

  it('takes the default priority, severity, bug type, op_sys and platform from the parameters', () => {
    const env = bugEnvironment({
      parameters: {
        defaultpriority: 'Low',
        defaultseverity: 'major',
        default_bug_type: 'enhancement',
        defaultopsys: 'Windows',
        defaultplatform: 'Macintosh',
      },
    });
    const { bug } = fileBug(env, { op_sys: undefined, platform: undefined });
    expect(bug).toMatchObject({ priority: 'Low', severity: 'major', opSys: 'Windows', platform: 'Macintosh' });
    // Widgets has a default bug type of its own, which wins over the parameter.
    expect(bug.bugType).toBe('defect');
    const untyped = PRODUCTS.map((record) => ({ ...record, product: { ...record.product, defaultBugType: '' } }));
    const fallback = bugEnvironment({ products: untyped, parameters: { default_bug_type: 'enhancement' } });
    expect(fileBug(fallback).bug.bugType).toBe('enhancement');
  });

  it("prefers the component's default bug type to the product's", () => {
    expect(fileBug(admin(), { component: 'Docs' }).bug).toMatchObject({ bugType: 'task', assigneeId: USER.editor });
    expect(fileBug(admin(), { component: 'Docs', type: 'defect' }).bug.bugType).toBe('defect');
  });

  it('adds the CCs asked for to the default CC list, sorted and once each', () => {
    const { bug } = fileBug(admin(), { cc: [loginOf('stranger'), loginOf('watcher'), loginOf('editor')] });
    expect(bug.ccIds).toEqual([USER.watcher, USER.editor, USER.stranger].sort((a, b) => a - b));
    expect(fileBug(admin(), { component: 'Docs' }).bug.ccIds).toEqual([]);
  });

  it('leaves the QA contact empty when the installation does not use QA contacts', () => {
    const env = bugEnvironment({ parameters: { useqacontact: '0' } });
    expect(fileBug(env).bug.qaContactId).toBeNull();
    expect(fileBug(env, { qa_contact: loginOf('editor') }).bug.qaContactId).toBeNull();
  });

  it("puts the bug in the product's DEFAULT groups for members and in MANDATORY groups for everyone", () => {
    expect(fileBug(admin()).bug.groupIds).toEqual([GROUP.internal]);
    expect(fileBug(ordinary()).bug.groupIds).toEqual([]);
    const gadgets = { product: 'Gadgets', component: 'Engine', version: '2.0' };
    expect(fileBug(admin(), gadgets).bug.groupIds).toEqual([GROUP.internal]);
    expect(fileBug(ordinary(), gadgets).bug.groupIds).toEqual([GROUP.internal]);
    expect(fileBug(ordinary(), { ...gadgets, groups: [] }).bug.groupIds).toEqual([GROUP.internal]);
  });

  it('replaces the DEFAULT groups by the groups asked for, each of which the caller must be allowed to set', () => {
    expect(fileBug(admin(), { groups: ['secret'] }).bug.groupIds).toEqual([GROUP.secret]);
    expect(fileBug(admin(), { groups: [] }).bug.groupIds).toEqual([]);
    expect(refusal(() => fileBug(ordinary(), { groups: ['secret'] }))).toEqual({
      code: 120,
      message:
        "You tried to restrict a bug to the 'secret' group, but either this group does not exist, or you are not allowed to restrict bugs to this group in the 'Widgets' product.",
    });
    expect(refusal(() => fileBug(admin(), { groups: ['retiredGroup'] })).code).toBe(120);
    expect(refusal(() => fileBug(admin(), { groups: ['editbugs'] })).code).toBe(120);
  });

  it("starts in the product's default milestone unless the caller may and does choose one", () => {
    const gadgets = { product: 'Gadgets', component: 'Engine', version: '2.0' };
    const [g1, g2] = [milestoneId(PRODUCT.gadgets, 'G1'), milestoneId(PRODUCT.gadgets, 'G2')];
    expect(fileBug(admin(), gadgets).bug.targetMilestoneId).toBe(g1);
    expect(fileBug(admin(), { ...gadgets, target_milestone: 'g2' }).bug.targetMilestoneId).toBe(g2);
    const noChoice = ordinary({ letsubmitterchoosemilestone: '0' });
    expect(fileBug(noChoice, { ...gadgets, target_milestone: 'G2' }).bug.targetMilestoneId).toBe(g1);
    const unused = bugEnvironment({ parameters: { usetargetmilestone: '0' } });
    expect(fileBug(unused, { ...gadgets, target_milestone: 'G2' }).bug.targetMilestoneId).toBe(g1);
  });

  it('ignores the priority of a submitter who may not choose it', () => {
    expect(fileBug(ordinary(), { priority: 'High' }).bug.priority).toBe('High');
    expect(fileBug(ordinary({ letsubmitterchoosepriority: '0' }), { priority: 'High' }).bug.priority).toBe('---');
    const editor = bugEnvironment({
      caller: callerAs('editor', ['editbugs']),
      parameters: { letsubmitterchoosepriority: '0', defaultpriority: 'Low' },
    });
    expect(fileBug(editor, { priority: 'High' }).bug.priority).toBe('High');
    expect(fileBug(editor).bug.priority).toBe('Low');
  });

  it('matches legal values without regard to case and answers their canonical spelling', () => {
    const { bug } = fileBug(admin(), {
      product: 'widgets',
      component: 'core',
      version: 'UNSPECIFIED',
      op_sys: 'linux',
      platform: 'pc',
      priority: 'high',
      severity: 'MAJOR',
      keywords: ['CRASH'],
    });
    expect(bug).toMatchObject({
      productId: PRODUCT.widgets,
      componentId: COMPONENT.core,
      versionId: versionId(PRODUCT.widgets, 'unspecified'),
      opSys: 'Linux',
      platform: 'PC',
      priority: 'High',
      severity: 'major',
      keywordIds: [KEYWORD.crash],
    });
  });

  it('takes rep_platform as the platform, and platform over rep_platform', () => {
    expect(fileBug(admin(), { platform: undefined, rep_platform: 'Macintosh' }).bug.platform).toBe('Macintosh');
    expect(fileBug(admin(), { platform: 'All', rep_platform: 'Macintosh' }).bug.platform).toBe('All');
  });

  it('normalises the summary and keeps the description as given', () => {
    const { bug, description } = fileBug(admin(), { summary: '  Two\tlines\r\nhere ', description: ' raw\n' });
    expect(bug.summary).toBe('Two lines here');
    expect(description.rawText).toBe(' raw\n');
    expect(fileBug(admin(), { description: undefined }).description.rawText).toBe('');
  });
});

describe('who files the bug changes its status and people', () => {
  it('files an ordinary user UNCONFIRMED with the default assignee whatever they ask for', () => {
    const { bug } = fileBug(ordinary(), {
      status: 'IN_PROGRESS',
      assigned_to: loginOf('stranger'),
      qa_contact: loginOf('stranger'),
    });
    expect(bug).toMatchObject({
      status: 'UNCONFIRMED',
      isConfirmed: false,
      assigneeId: USER.assignee,
      qaContactId: USER.qa,
      reporterId: USER.reporter,
    });
    expect(fileBug(ordinary()).bug).toMatchObject({ status: 'UNCONFIRMED', isConfirmed: false });
  });

  it('files CONFIRMED where the product has no UNCONFIRMED, whoever files', () => {
    const gadgets = { product: 'Gadgets', component: 'Engine', version: '2.0' };
    expect(fileBug(ordinary(), gadgets).bug).toMatchObject({ status: 'CONFIRMED', isConfirmed: true });
    expect(fileBug(admin(), { ...gadgets, status: 'UNCONFIRMED' }).bug.status).toBe('CONFIRMED');
  });

  it('lets canconfirm choose any initial status, and editbugs the assignee and QA contact too', () => {
    const confirmer = bugEnvironment({ caller: callerAs('confirmer', ['canconfirm']) });
    expect(fileBug(confirmer).bug.status).toBe('CONFIRMED');
    expect(fileBug(confirmer, { status: 'unconfirmed' }).bug).toMatchObject({
      status: 'UNCONFIRMED',
      isConfirmed: false,
    });
    expect(fileBug(confirmer, { status: 'IN_PROGRESS', assigned_to: loginOf('stranger') }).bug).toMatchObject({
      status: 'IN_PROGRESS',
      assigneeId: USER.assignee,
    });
    const editor = bugEnvironment({ caller: callerAs('editor', ['editbugs']) });
    expect(
      fileBug(editor, { assigned_to: loginOf('stranger'), qa_contact: loginOf('editor'), status: 'IN_PROGRESS' }).bug,
    ).toMatchObject({ status: 'IN_PROGRESS', isConfirmed: true, assigneeId: USER.stranger, qaContactId: USER.editor });
  });

  it("reads the old workflow's status names as updates do, and still refuses CLOSED (123)", () => {
    const confirmer = bugEnvironment({ caller: callerAs('confirmer', ['canconfirm']) });
    const cases: Array<[string, string]> = [
      ['NEW', 'CONFIRMED'],
      ['assigned', 'IN_PROGRESS'],
      [' REOPENED ', 'CONFIRMED'],
    ];
    for (const [asked, filed] of cases)
      expect({ asked, status: fileBug(confirmer, { status: asked }).bug.status }).toEqual({ asked, status: filed });
    // An ordinary user's choice is still ignored.
    expect(fileBug(ordinary(), { status: 'NEW' }).bug.status).toBe('UNCONFIRMED');
    expect(refusal(() => fileBug(confirmer, { status: 'CLOSED' })).code).toBe(123);
  });

  it('takes time tracking only from the time-tracking group, remaining time defaulting to the estimate', () => {
    const times = { estimated_time: '4.456', deadline: '2027-01-31T10:00:00Z' };
    expect(fileBug(admin(), times).bug).toMatchObject({
      estimatedTime: 4.46,
      remainingTime: 4.46,
      deadline: '2027-01-31',
    });
    expect(fileBug(admin(), { ...times, remaining_time: 1 }).bug.remainingTime).toBe(1);
    expect(fileBug(ordinary(), { ...times, remaining_time: 1 }).bug).toMatchObject({
      estimatedTime: 0,
      remainingTime: 0,
      deadline: null,
    });
  });

  it('lets only insiders make the description private', () => {
    expect(fileBug(admin(), { comment_is_private: true }).description.isPrivate).toBe(true);
    expect(refusal(() => fileBug(ordinary(), { comment_is_private: true }))).toEqual({
      code: 113,
      message: 'You are not allowed to make the description private.',
    });
  });
});

describe('refusing a new bug', () => {
  it("answers each missing required field with Bugzilla's code and message", () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ product: undefined }, 50, 'You must select/enter a product.'],
      [{ product: '  ' }, 50, 'You must select/enter a product.'],
      [{ component: undefined }, 105, 'You must select a component for the bug.'],
      [{ summary: undefined }, 107, 'You must enter a summary for this bug.'],
      [{ summary: ' \t ' }, 107, 'You must enter a summary for this bug.'],
      [{ version: undefined }, 50, 'You must select/enter a version.'],
      [{ op_sys: undefined }, 50, 'You must select/enter an operating system (op_sys).'],
      [{ platform: undefined }, 50, 'You must select/enter a platform.'],
    ];
    for (const [overrides, code, message] of cases)
      expect({ overrides, ...refusal(() => fileBug(admin(), overrides)) }).toEqual({ overrides, code, message });
  });

  it('refuses products, components, versions and milestones that do not exist or are closed', () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ product: 'Nope' }, 106, "The product 'Nope' does not exist, or you may not file bugs in it."],
      [
        { product: 'Hidden', component: 'Vault' },
        106,
        "The product 'Hidden' does not exist, or you may not file bugs in it.",
      ],
      [{ product: 'retired', component: 'Main' }, 106, "The product 'Retired' is closed for new bugs."],
      [{ component: 'Nope' }, 51, "There is no component named 'Nope' in the product 'Widgets'."],
      [{ component: 'Legacy' }, 51, "There is no component named 'Legacy' in the product 'Widgets'."],
      [{ version: '0.9' }, 51, "There is no version named '0.9' in the product 'Widgets'."],
      [{ target_milestone: 'M0' }, 51, "There is no milestone named 'M0' in the product 'Widgets'."],
      [{ target_milestone: 'G1' }, 51, "There is no milestone named 'G1' in the product 'Widgets'."],
    ];
    for (const [overrides, code, message] of cases)
      expect({ overrides, ...refusal(() => fileBug(admin(), overrides)) }).toEqual({ overrides, code, message });
  });

  it('refuses values outside the legal lists with 51', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ priority: 'Urgent' }, "There is no priority named 'Urgent'."],
      [{ severity: 'huge' }, "There is no severity named 'huge'."],
      [{ type: 'bug' }, "There is no bug type named 'bug'."],
      [{ op_sys: 'BeOS' }, "There is no operating system named 'BeOS'."],
      [{ platform: 'Amiga' }, "There is no platform named 'Amiga'."],
      [{ keywords: ['obsolete'] }, "There is no keyword named 'obsolete'."],
      [{ keywords: 'nope' }, "There is no keyword named 'nope'."],
      [{ status: 'WAITING' }, "There is no status named 'WAITING'."],
      [{ cf_browser: 'Lynx' }, "There is no value of cf_browser named 'Lynx'."],
    ];
    for (const [overrides, message] of cases)
      expect({ overrides, ...refusal(() => fileBug(admin(), overrides)) }).toEqual({ overrides, code: 51, message });
  });

  it('refuses a default priority or severity that is not a legal value (51), as it does a default op_sys', () => {
    // Parameters are checked when changed; these are values stored before that.
    const cases: Array<[Record<string, string>, Record<string, unknown>, string]> = [
      [{ defaultpriority: 'Urgent' }, {}, "There is no priority named 'Urgent'."],
      [{ defaultseverity: 'huge' }, {}, "There is no severity named 'huge'."],
      [{ defaultopsys: 'BeOS' }, { op_sys: undefined }, "There is no operating system named 'BeOS'."],
    ];
    for (const [parameters, overrides, message] of cases)
      expect({ parameters, ...refusal(() => fileBug(admin({ parameters }), overrides)) }).toEqual({
        parameters,
        code: 51,
        message,
      });
    // A value given by the caller replaces the default, so the default is not needed.
    const stored = { defaultpriority: 'Urgent', defaultseverity: 'huge' };
    expect(fileBug(admin({ parameters: stored }), { priority: 'High', severity: 'minor' }).bug).toMatchObject({
      priority: 'High',
      severity: 'minor',
    });
  });

  it('refuses a closed status (123) and any resolution (122): a new bug is open', () => {
    expect(refusal(() => fileBug(admin(), { status: 'RESOLVED' }))).toEqual({
      code: 123,
      message:
        'A new bug cannot be filed with the status RESOLVED: it must start in a status the workflow allows (UNCONFIRMED, CONFIRMED, IN_PROGRESS).',
    });
    expect(refusal(() => fileBug(admin(), { status: 'verified' })).code).toBe(123);
    expect(refusal(() => fileBug(admin(), { resolution: 'FIXED' }))).toEqual({
      code: 122,
      message: 'A new bug is open, so it cannot have a resolution.',
    });
    expect(fileBug(admin(), { resolution: '' }).bug.resolution).toBe('');
  });

  it('refuses fields a new bug does not have (53), including unknown and obsolete custom fields', () => {
    expect(refusal(() => fileBug(admin(), { bogus_field: 1 }))).toEqual({
      code: 53,
      message: "The parameter 'bogus_field' is not a field of a new bug.",
    });
    expect(refusal(() => fileBug(admin(), { cf_nope: 'x' }))).toEqual({
      code: 53,
      message: "There is no custom field named 'cf_nope'.",
    });
    expect(refusal(() => fileBug(admin(), { cf_gone: 'x' })).code).toBe(53);
  });

  it('refuses people who do not exist: 504 in cc, 51 as assignee', () => {
    const nobody = 'nobody@nowhere.test';
    expect(refusal(() => fileBug(admin(), { cc: [nobody] }))).toEqual({
      code: 504,
      message: `There is no user named '${nobody}' (in cc). Either you misspelled it, or the person has not registered for a Tracker account.`,
    });
    expect(refusal(() => fileBug(admin(), { assigned_to: nobody })).code).toBe(51);
    // An ordinary user's assignee is ignored, so it is never looked up.
    expect(fileBug(ordinary(), { assigned_to: nobody }).bug.assigneeId).toBe(USER.assignee);
  });

  it('refuses bad aliases (103), over-long summaries (104), bad bug ids (100) and see-also URLs (112)', () => {
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ alias: '12345' }, 103],
      [{ alias: 'has space' }, 103],
      [{ alias: 'a'.repeat(41) }, 103],
      [{ summary: 'x'.repeat(256) }, 104],
      [{ blocks: ['abc'] }, 100],
      [{ depends_on: [0] }, 100],
      [{ see_also: ['javascript:alert(1)'] }, 112],
      [{ estimated_time: 'lots' }, 52],
      [{ deadline: '2027-02-30' }, 56],
    ];
    for (const [overrides, code] of cases)
      expect({ overrides, code: refusal(() => fileBug(admin(), overrides)).code }).toEqual({ overrides, code });
    expect(fileBug(admin(), { alias: ' crash-1 ', summary: 'x'.repeat(255) }).bug.alias).toBe('crash-1');
  });

  it('refuses a bug that both depends on and blocks the same bug (116)', () => {
    expect(refusal(() => fileBug(admin(), { depends_on: [7, 8], blocks: [8] }))).toEqual({
      code: 116,
      message: 'A bug cannot both depend on and block the same bug: that would be a dependency loop.',
    });
    expect(fileBug(admin(), { depends_on: ['8', 7, 8], blocks: 9 }).bug).toMatchObject({
      dependsOn: [7, 8],
      blocks: [9],
    });
  });

  it('refuses over-long descriptions (114) and markdown where it is off (140)', () => {
    expect(refusal(() => fileBug(admin(), { description: 'x'.repeat(65_536) })).code).toBe(114);
    expect(fileBug(admin(), { description: 'x'.repeat(65_535) }).description.rawText).toHaveLength(65_535);
    expect(fileBug(admin(), { is_markdown: true }).description.isMarkdown).toBe(true);
    expect(
      refusal(() => fileBug(bugEnvironment({ parameters: { markdown_enabled: '0' } }), { is_markdown: true })),
    ).toEqual({ code: 140, message: 'Markdown is disabled on this installation.' });
  });

  it('requires a mandatory custom field shown on bug entry (50) and checks custom values by type', () => {
    const fields = [
      ...CUSTOM_FIELDS,
      customField('cf_team', { isMandatory: true, isOnBugEntry: true, displayName: 'Team' }),
    ];
    const env = bugEnvironment({ customFields: fields });
    expect(refusal(() => fileBug(env))).toEqual({
      code: 50,
      message: 'You must select/enter a value for Team (cf_team).',
    });
    expect(fileBug(env, { cf_team: 'Platform', cf_browser: 'chrome' }).bug.custom).toEqual({
      cf_browser: 'Chrome',
      cf_note: '',
      cf_team: 'Platform',
    });
    // Mandatory but not on bug entry: filled in later, so filing without it is fine.
    const later = [customField('cf_team', { isMandatory: true, isOnBugEntry: false })];
    expect(fileBug(bugEnvironment({ customFields: later })).bug.custom).toEqual({ cf_team: '' });
  });
});

describe('flags on a new bug', () => {
  it('sets flags of the types that apply to the component, set by the reporter at filing time', () => {
    const env = bugEnvironment({ caller: callerAs('granter', ['granters']) });
    const { bug } = fileBug(env, {
      flags: [
        { name: 'review', status: '?', requestee: loginOf('editor') },
        { type_id: FLAG_TYPE.multi, status: '+' },
      ],
    });
    expect(bug.flags).toEqual([
      {
        id: 1000,
        typeId: FLAG_TYPE.review,
        status: '?',
        setterId: USER.granter,
        requesteeId: USER.editor,
        creationDate: NOW,
        modificationDate: NOW,
      },
      {
        id: 1001,
        typeId: FLAG_TYPE.multi,
        status: '+',
        setterId: USER.granter,
        requesteeId: null,
        creationDate: NOW,
        modificationDate: NOW,
      },
    ]);
  });

  it("refuses flag types of another component, and flags the caller may not grant, with Bugzilla's codes", () => {
    expect(refusal(() => fileBug(admin(), { flags: [{ type_id: FLAG_TYPE.docsOnly, status: '+' }] }))).toEqual({
      code: 51,
      message: `The flag type ${FLAG_TYPE.docsOnly} does not apply to this bug's product and component.`,
    });
    expect(fileBug(admin(), { component: 'Docs', flags: [{ name: 'docs', status: '+' }] }).bug.flags).toHaveLength(1);
    expect(refusal(() => fileBug(ordinary(), { flags: [{ name: 'review', status: '+' }] }))).toEqual({
      code: 130,
      message: "You are not allowed to grant the flag 'review'.",
    });
    // Attachment flag types never apply to a bug, even under the same name.
    expect(
      refusal(() => fileBug(admin(), { flags: [{ type_id: FLAG_TYPE.attachmentReview, status: '+' }] })).code,
    ).toBe(51);
  });
});

describe('properties of every new bug', () => {
  const loginArb = fc.constantFrom(...(['reporter', 'assignee', 'qa', 'watcher', 'editor', 'stranger'] as const));
  const callerArb = fc.record({
    name: fc.constantFrom(...(['reporter', 'confirmer', 'editor', 'admin'] as const)),
    groups: fc.subarray(['canconfirm', 'editbugs', 'admin', 'secret', 'internal']),
  });
  const inputArb = fc.record(
    {
      product: fc.constantFrom('Widgets', 'Gadgets'),
      status: fc.constantFrom(...INITIAL_STATUSES, 'in_progress'),
      cc: fc.array(loginArb.map(loginOf), { maxLength: 4 }),
      priority: fc.constantFrom('High', 'low', '---'),
      assigned_to: loginArb.map(loginOf),
      keywords: fc.subarray(['crash', 'regression']),
    },
    { requiredKeys: ['product'] },
  );

  it('is open, unresolved, confirmed exactly when not UNCONFIRMED, and keeps the default CCs and mandatory groups', () => {
    fc.assert(
      fc.property(callerArb, inputArb, (who, input) => {
        const env = bugEnvironment({ caller: callerAs(who.name, who.groups) });
        const gadgets = input.product === 'Gadgets';
        const { bug } = fileBug(env, {
          ...input,
          ...(gadgets ? { component: 'Engine', version: '2.0' } : {}),
        });
        expect(INITIAL_STATUSES).toContain(bug.status);
        expect(bug.resolution).toBe('');
        expect(bug.dupeOf).toBeNull();
        expect(bug.isConfirmed).toBe(bug.status !== 'UNCONFIRMED');
        if (gadgets) expect(bug.status).not.toBe('UNCONFIRMED');
        const mayConfirm = who.groups.includes('canconfirm') || who.groups.includes('editbugs');
        if (!mayConfirm && !gadgets) expect(bug.status).toBe('UNCONFIRMED');
        expect(bug.ccIds).toEqual([...new Set(bug.ccIds)].sort((a, b) => a - b));
        if (!gadgets) expect(bug.ccIds).toContain(USER.watcher);
        if (gadgets) expect(bug.groupIds).toContain(GROUP.internal);
        if (!who.groups.includes('editbugs')) expect(bug.assigneeId).toBe(USER.assignee);
        else expect(bug.assigneeId).toBe(env.userId(input.assigned_to ?? loginOf('assignee'), 'assigned_to'));
        expect(bug.reporterId).toBe(USER[who.name]);
      }),
      { numRuns: 150 },
    );
  });

  it("never lets an ordinary user's status, assignee, QA contact or milestone choice matter", () => {
    fc.assert(
      fc.property(inputArb, fc.constantFrom('M1', '---'), (input, milestone) => {
        const overrides = input.product === 'Gadgets' ? { ...input, component: 'Engine', version: '2.0' } : input;
        const env = ordinary({ letsubmitterchoosemilestone: '0' });
        const chosen = fileBug(env, { ...overrides, target_milestone: milestone, qa_contact: loginOf('stranger') }).bug;
        const plain = fileBug(env, { ...overrides, status: undefined, assigned_to: undefined }).bug;
        expect(chosen).toEqual(plain);
        // An editor's choices do matter: the same input is not ignored for them.
        const editor = bugEnvironment({ caller: callerAs('editor', ['editbugs', 'internal']) });
        if (input.assigned_to !== undefined)
          expect(fileBug(editor, overrides).bug.assigneeId).toBe(env.findUserId(input.assigned_to));
      }),
      { numRuns: 60 },
    );
  });
});
