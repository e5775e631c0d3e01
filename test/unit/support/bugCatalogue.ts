import type { Bug, BugFlag } from '../../../shared/domain/bug/bug.ts';
import { type BugNames, diffBugs } from '../../../shared/domain/bug/bugChanges.ts';
import { planNewBug } from '../../../shared/domain/bug/bugCreation.ts';
import { type BugEnvironment, unknownUser } from '../../../shared/domain/bug/bugEnvironment.ts';
import { FIELD_TYPE } from '../../../shared/domain/bug/bugFields.ts';
import { applyBugUpdate } from '../../../shared/domain/bug/bugUpdate.ts';
import { bugValueNames } from '../../../shared/domain/catalog/bugValues.ts';
import type { Component, GroupControl, ProductRecord, ProductValue } from '../../../shared/domain/catalog/catalog.ts';
import type { CustomField } from '../../../shared/domain/catalog/customFields.ts';
import { DEFAULT_FIELD_VALUES, type FieldValues } from '../../../shared/domain/catalog/fieldValues.ts';
import type { FlagType } from '../../../shared/domain/catalog/flagTypes.ts';
import type { Keyword } from '../../../shared/domain/catalog/keywords.ts';
import type { Caller, GroupSummary, UserAccount } from '../../../shared/domain/identity/caller.ts';
import { DEFAULT_PARAMETERS, type Parameters } from '../../../shared/domain/instance/parameters.ts';
import { plainBug } from './bugFixtures.ts';

/**
 * A small installation for driving the bug rules without storage: two open products, a closed
 * one and one the caller may not file in, people with the usual roles, bug groups, keywords,
 * flag types and a custom field. Factories build callers, environments, bugs and requests from it.
 */

export const USER = {
  admin: 1,
  reporter: 2,
  assignee: 3,
  qa: 4,
  watcher: 5,
  editor: 6,
  confirmer: 7,
  stranger: 8,
  insider: 9,
  granter: 10,
} as const;
export type UserName = keyof typeof USER;

export const loginOf = (name: UserName) => `${name}@tracker.test`;
const loginById = new Map(Object.entries(USER).map(([name, id]) => [id as number, loginOf(name as UserName)]));

export const GROUP = {
  admin: 1,
  editbugs: 2,
  canconfirm: 3,
  secret: 10,
  internal: 11,
  granters: 12,
  retiredGroup: 13,
} as const;

const group = (name: keyof typeof GROUP, isBugGroup: boolean, isActive = true): GroupSummary => ({
  id: GROUP[name],
  name,
  description: name,
  isActive,
  isBugGroup,
  userRegexp: '',
});
export const GROUPS: readonly GroupSummary[] = [
  group('admin', false),
  group('editbugs', false),
  group('canconfirm', false),
  group('secret', true),
  group('internal', true),
  group('granters', false),
  group('retiredGroup', true, false),
];

export const PRODUCT = { widgets: 1, gadgets: 2, retired: 3, hidden: 4 } as const;
export const COMPONENT = { core: 10, docs: 11, legacy: 12, gadgetCore: 20, engine: 21, main: 30, vault: 40 } as const;

const component = (id: number, productId: number, name: string, overrides: Partial<Component> = {}): Component => ({
  id,
  productId,
  name,
  description: name,
  defaultAssigneeId: USER.assignee,
  defaultQaContactId: null,
  triageOwnerId: null,
  defaultCcIds: [],
  defaultBugType: '',
  sortKey: 0,
  isActive: true,
  ...overrides,
});
const values = (productId: number, names: string[], inactive: string[] = []): ProductValue[] =>
  [...names, ...inactive].map((name, index) => ({
    id: productId * 100 + index,
    productId,
    name,
    sortKey: index,
    isActive: !inactive.includes(name),
  }));
const control = (productId: number, groupId: number, overrides: Partial<GroupControl>): GroupControl => ({
  productId,
  groupId,
  entry: false,
  memberControl: 'NA',
  otherControl: 'NA',
  canEdit: false,
  editComponents: false,
  editBugs: false,
  canConfirm: false,
  ...overrides,
});
const product = (id: number, name: string, overrides: Partial<ProductRecord['product']> = {}) => ({
  id,
  name,
  description: name,
  isActive: true,
  defaultBugType: 'defect',
  defaultMilestone: '---',
  hasUnconfirmed: true,
  classificationId: 1,
  ...overrides,
});

/**
 * Widgets: UNCONFIRMED allowed; Core has a QA contact and a default CC, Docs files tasks, Legacy is
 * inactive; `secret` is SHOWN to members and `internal` DEFAULT for members. Gadgets: no
 * UNCONFIRMED, default milestone G1, every bug in `internal`. Retired is closed for new bugs;
 * Hidden exists but is not enterable.
 */
export const PRODUCTS: readonly ProductRecord[] = [
  {
    product: product(PRODUCT.widgets, 'Widgets'),
    components: [
      component(COMPONENT.core, PRODUCT.widgets, 'Core', {
        defaultQaContactId: USER.qa,
        defaultCcIds: [USER.watcher],
      }),
      component(COMPONENT.docs, PRODUCT.widgets, 'Docs', { defaultAssigneeId: USER.editor, defaultBugType: 'task' }),
      component(COMPONENT.legacy, PRODUCT.widgets, 'Legacy', { isActive: false }),
    ],
    versions: values(PRODUCT.widgets, ['unspecified', '1.0'], ['0.9']),
    milestones: values(PRODUCT.widgets, ['---', 'M1'], ['M0']),
    groupControls: [
      control(PRODUCT.widgets, GROUP.secret, { memberControl: 'SHOWN' }),
      control(PRODUCT.widgets, GROUP.internal, { memberControl: 'DEFAULT' }),
    ],
  },
  {
    product: product(PRODUCT.gadgets, 'Gadgets', { hasUnconfirmed: false, defaultMilestone: 'G1' }),
    components: [
      component(COMPONENT.gadgetCore, PRODUCT.gadgets, 'Core', { defaultAssigneeId: USER.editor }),
      component(COMPONENT.engine, PRODUCT.gadgets, 'Engine', { defaultQaContactId: USER.qa }),
    ],
    versions: values(PRODUCT.gadgets, ['2.0', 'unspecified']),
    milestones: values(PRODUCT.gadgets, ['G1', 'G2']),
    groupControls: [
      control(PRODUCT.gadgets, GROUP.internal, { memberControl: 'MANDATORY', otherControl: 'MANDATORY' }),
    ],
  },
  {
    product: product(PRODUCT.retired, 'Retired', { isActive: false }),
    components: [component(COMPONENT.main, PRODUCT.retired, 'Main')],
    versions: values(PRODUCT.retired, ['unspecified']),
    milestones: values(PRODUCT.retired, ['---']),
    groupControls: [],
  },
  {
    product: product(PRODUCT.hidden, 'Hidden'),
    components: [component(COMPONENT.vault, PRODUCT.hidden, 'Vault')],
    versions: values(PRODUCT.hidden, ['unspecified']),
    milestones: values(PRODUCT.hidden, ['---']),
    groupControls: [],
  },
];

/** The id of a product's version by name (bugs keep ids). */
export function versionId(productId: number, name: string): number {
  const record = PRODUCTS.find((entry) => entry.product.id === productId)!;
  return record.versions.find((value) => value.name === name)!.id;
}

/** The id of a product's milestone by name. */
export function milestoneId(productId: number, name: string): number {
  const record = PRODUCTS.find((entry) => entry.product.id === productId)!;
  return record.milestones.find((value) => value.name === name)!.id;
}

export const KEYWORD = { crash: 1, regression: 2, obsolete: 3 } as const;
export const KEYWORDS: readonly Keyword[] = [
  { id: KEYWORD.crash, name: 'crash', description: 'crash', isActive: true },
  { id: KEYWORD.regression, name: 'regression', description: 'regression', isActive: true },
  { id: KEYWORD.obsolete, name: 'obsolete', description: 'obsolete', isActive: false },
];

export function flagType(id: number, name: string, overrides: Partial<FlagType> = {}): FlagType {
  return {
    id,
    name,
    description: name,
    ccList: '',
    sortKey: id,
    isActive: true,
    isRequestable: true,
    isRequesteeble: true,
    isMultiplicable: false,
    grantGroupId: null,
    requestGroupId: null,
    targetType: 'bug',
    inclusions: [{ productId: 0, componentId: 0 }],
    exclusions: [],
    ...overrides,
  };
}
export const FLAG_TYPE = { review: 1, qe: 2, multi: 3, retired: 4, docsOnly: 5, attachmentReview: 6 } as const;
/** review: only granters grant; qe: not requestable; multi: several allowed; docsOnly: Widgets/Docs only. */
export const FLAG_TYPES: readonly FlagType[] = [
  flagType(FLAG_TYPE.review, 'review', { grantGroupId: GROUP.granters }),
  flagType(FLAG_TYPE.qe, 'qe', { isRequestable: false, isRequesteeble: false }),
  flagType(FLAG_TYPE.multi, 'multi', { isMultiplicable: true, isRequesteeble: false }),
  flagType(FLAG_TYPE.retired, 'retired', { isActive: false }),
  flagType(FLAG_TYPE.docsOnly, 'docs', { inclusions: [{ productId: PRODUCT.widgets, componentId: COMPONENT.docs }] }),
  flagType(FLAG_TYPE.attachmentReview, 'review', { targetType: 'attachment' }),
];

export function customField(name: string, overrides: Partial<CustomField> = {}): CustomField {
  return {
    id: 1000,
    name,
    displayName: name,
    type: FIELD_TYPE.FREETEXT,
    isMandatory: false,
    isOnBugEntry: false,
    visibilityField: null,
    visibilityValues: [],
    valueField: null,
    sortKey: 0,
    isObsolete: false,
    values: [],
    ...overrides,
  };
}
export const CUSTOM_FIELDS: readonly CustomField[] = [
  customField('cf_browser', {
    type: FIELD_TYPE.SINGLE_SELECT,
    values: ['Firefox', 'Chrome'].map((value, index) => ({ name: value, sortKey: index, visibilityValues: [] })),
  }),
  customField('cf_note'),
  customField('cf_gone', { isObsolete: true }),
];

/** A logged-in caller in these groups (by name). */
export function callerAs(name: UserName, groups: string[] = []): Caller & { user: UserAccount } {
  return {
    user: { id: USER[name], login: loginOf(name), realName: name, disabledText: '', emailEnabled: true },
    groups: new Set(groups),
    blessGroups: new Set(),
  };
}

/** The groups an administrator is in: every group. */
export const EVERY_GROUP = GROUPS.map((entry) => entry.name);

export interface EnvironmentOptions {
  caller?: Caller & { user: UserAccount };
  parameters?: Partial<Parameters>;
  products?: readonly ProductRecord[];
  flagTypes?: readonly FlagType[];
  customFields?: readonly CustomField[];
  keywords?: readonly Keyword[];
  /** The installation's legal values and workflow (default: those of a new installation). */
  values?: FieldValues;
  now?: string;
  /** Flag requestees with their groups; by default everyone is in every group, so may be asked anywhere. */
  requestee?: (id: number) => Caller | undefined;
}

/** A user as a caller, by id, in these groups (by name): a flag requestee. */
export function userAsCaller(id: number, groups: readonly string[] = EVERY_GROUP): Caller & { user: UserAccount } {
  return {
    user: {
      id,
      login: loginById.get(id) ?? `user${id}@tracker.test`,
      realName: '',
      disabledText: '',
      emailEnabled: true,
    },
    groups: new Set(groups),
    blessGroups: new Set(),
  };
}

export const NOW = '2026-03-04T05:06:07Z';

export function bugEnvironment(options: EnvironmentOptions = {}): BugEnvironment {
  const products = options.products ?? PRODUCTS;
  const idByLogin = new Map([...loginById].map(([id, login]) => [login, id]));
  let nextFlag = 1000;
  return {
    caller: options.caller ?? callerAs('admin', EVERY_GROUP),
    now: options.now ?? NOW,
    products,
    enterableProductIds: new Set(products.map((record) => record.product.id).filter((id) => id !== PRODUCT.hidden)),
    groups: GROUPS,
    groupName: (id) => GROUPS.find((entry) => entry.id === id)?.name,
    flagTypes: options.flagTypes ?? FLAG_TYPES,
    customFields: options.customFields ?? CUSTOM_FIELDS,
    keywords: options.keywords ?? KEYWORDS,
    parameters: { ...DEFAULT_PARAMETERS, ...options.parameters } as Parameters,
    values: options.values ?? DEFAULT_FIELD_VALUES,
    findUserId: (login) => idByLogin.get(login.trim().toLowerCase()),
    userId(login, field, ...error) {
      const id = idByLogin.get(login.trim().toLowerCase());
      if (id === undefined) throw unknownUser(login, field, ...error);
      return id;
    },
    loginOf: (id) => (id === null ? '' : (loginById.get(id) ?? '')),
    requestee: options.requestee ?? ((id) => userAsCaller(id)),
    nextFlagId: () => nextFlag++,
  };
}

/** Names as `changes` and the history print them. */
export const NAMES: BugNames = {
  product: (id) => PRODUCTS.find((record) => record.product.id === id)?.product.name ?? '',
  component: (id) => PRODUCTS.flatMap((record) => record.components).find((entry) => entry.id === id)?.name ?? '',
  ...bugValueNames(PRODUCTS),
  login: (id) => (id === null ? '' : (loginById.get(id) ?? '')),
  keyword: (id) => KEYWORDS.find((keyword) => keyword.id === id)?.name ?? '',
  group: (id) => GROUPS.find((entry) => entry.id === id)?.name ?? '',
  flagType: (id) => FLAG_TYPES.find((type) => type.id === id)?.name ?? '',
};

/** The fields a client must send to file a bug in Widgets/Core, with these changes. */
export function newBugInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const input: Record<string, unknown> = {
    product: 'Widgets',
    component: 'Core',
    version: 'unspecified',
    summary: 'Toolbar crashes on resize',
    description: 'Steps to reproduce',
    op_sys: 'Linux',
    platform: 'PC',
    ...overrides,
  };
  for (const [name, value] of Object.entries(overrides)) if (value === undefined) delete input[name];
  return input;
}

export const NEW_BUG_ID = 500;

/** Files a bug (the plan only: nothing is stored). */
export const fileBug = (env: BugEnvironment, overrides: Record<string, unknown> = {}) =>
  planNewBug(env, newBugInput(overrides), NEW_BUG_ID, 'api');

/** A stored bug in Widgets/Core, CONFIRMED, filed by the reporter for the assignee and QA contact. */
export function aBug(id: number, overrides: Partial<Bug> = {}): Bug {
  return plainBug(id, {
    productId: PRODUCT.widgets,
    componentId: COMPONENT.core,
    versionId: versionId(PRODUCT.widgets, 'unspecified'),
    targetMilestoneId: milestoneId(PRODUCT.widgets, '---'),
    assigneeId: USER.assignee,
    reporterId: USER.reporter,
    qaContactId: USER.qa,
    creationTime: '2026-01-01T00:00:00Z',
    lastChangeTime: '2026-01-01T00:00:00Z',
    ...overrides,
  });
}

export function aFlag(id: number, typeId: number, overrides: Partial<BugFlag> = {}): BugFlag {
  return {
    id,
    typeId,
    status: '?',
    setterId: USER.reporter,
    requesteeId: null,
    creationDate: '2026-01-01T00:00:00Z',
    modificationDate: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

/** A request's working set as the application builds it: every bug, copied. */
export const workingSetOf = (bugs: Iterable<Bug>): Map<number, Bug> =>
  new Map([...bugs].map((bug) => [bug.id, structuredClone(bug)]));

/**
 * Applies one update to one bug of a set of bugs, as PUT /rest/bug does before writing: the
 * working set afterwards and the `changes` reported for the bug.
 */
export function updateBug(env: BugEnvironment, bugs: readonly Bug[], bugId: number, input: Record<string, unknown>) {
  const original = new Map(bugs.map((bug) => [bug.id, bug]));
  const working = workingSetOf(bugs);
  const outcome = applyBugUpdate(env, working, original, bugId, input, NAMES);
  const bug = working.get(bugId)!;
  return { outcome, working, bug, changes: diffBugs(original.get(bugId)!, bug, NAMES) };
}
