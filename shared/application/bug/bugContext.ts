import { createHmac } from 'node:crypto';
import type { Bug } from '../../domain/bug/bug.ts';
import type { BugNames } from '../../domain/bug/bugChanges.ts';
import { type BugEnvironment, unknownUser } from '../../domain/bug/bugEnvironment.ts';
import type { BugViewContext } from '../../domain/bug/bugView.ts';
import { bugValueNames } from '../../domain/catalog/bugValues.ts';
import type { CustomField } from '../../domain/catalog/customFields.ts';
import type { Keyword } from '../../domain/catalog/keywords.ts';
import { type Caller, callerFor, type GroupSummary, type UserAccount } from '../../domain/identity/caller.ts';
import { asList } from '../../domain/inputValues.ts';
import { toBugzillaDateTime } from '../../domain/time.ts';
import { oncePerRequest } from '../../runtime/requestScope.ts';
import { loadCustomFields } from '../../storage/catalog/fieldStore.ts';
import { loadKeywords } from '../../storage/catalog/keywordStore.ts';
import { findUserIdByLogin, getUserRecords, getUsers } from '../../storage/identity/userStore.ts';
import {
  type CatalogSnapshot,
  classificationNameIn,
  groupNameIn,
  loadCatalog,
  visibleProductIds,
} from '../catalog/catalogContext.ts';

/**
 * What bug requests read besides bugs: the catalogue, custom fields, keywords and the users a
 * request names or a response shows, each read once per request.
 */
export interface BugCatalog {
  catalog: CatalogSnapshot;
  customFields: CustomField[];
  keywords: Keyword[];
}

export async function loadBugCatalog(): Promise<BugCatalog> {
  const [catalog, customFields, keywords] = await Promise.all([
    loadCatalog(),
    oncePerRequest('customFields', loadCustomFields),
    oncePerRequest('keywords', loadKeywords),
  ]);
  return { catalog, customFields: customFields.map((stored) => stored.field), keywords };
}

/** Logins named anywhere in a bug request: people fields, CC changes and flag requestees. */
export function loginsIn(input: Record<string, unknown>): string[] {
  const logins: unknown[] = [input.assigned_to, input.qa_contact];
  const cc = input.cc;
  if (Array.isArray(cc) || typeof cc === 'string') logins.push(...[cc].flat());
  else if (cc && typeof cc === 'object') for (const part of Object.values(cc)) logins.push(...[part].flat());
  for (const flag of [input.flags].flat())
    if (flag && typeof flag === 'object') logins.push((flag as Record<string, unknown>).requestee);
  return [
    ...new Set(
      logins
        .filter((login): login is string => typeof login === 'string' && login.trim() !== '')
        .map((login) => login.trim()),
    ),
  ];
}

/** Resolves logins to user ids (their login guards, read together with whatever else the request asks for then). */
export async function resolveLogins(logins: readonly string[]): Promise<Map<string, number>> {
  const ids = await Promise.all(logins.map((login) => findUserIdByLogin(login)));
  const found = new Map<string, number>();
  logins.forEach((login, index) => {
    const id = ids[index];
    if (id !== null) found.set(login.toLowerCase(), id);
  });
  return found;
}

/** Logins named as flag requestees, in any of these lists of flag inputs. */
export function requesteesIn(...lists: unknown[]): string[] {
  return [
    ...new Set(
      lists
        .flatMap(asList)
        .map((flag) => (flag && typeof flag === 'object' ? (flag as Record<string, unknown>).requestee : undefined))
        .filter((login): login is string => typeof login === 'string' && login.trim() !== '')
        .map((login) => login.trim()),
    ),
  ];
}

/**
 * Flag requestees with their groups, by user id: who may be asked depends on what they can see.
 * One batch read for them all, and none for users this instance holds (the user cache), as after
 * usersById has read the people a bug request names.
 */
export async function loadRequestees(
  logins: readonly string[],
  userIds: ReadonlyMap<string, number>,
  groups: readonly GroupSummary[],
): Promise<Map<number, Caller>> {
  const ids = logins
    .map((login) => userIds.get(login.trim().toLowerCase()))
    .filter((id): id is number => id !== undefined);
  return usersWithGroups(ids, groups);
}

/** Users by id with their groups, for the rules that depend on what someone else can see. */
export async function usersWithGroups(
  ids: readonly number[],
  groups: readonly GroupSummary[],
): Promise<Map<number, Caller>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const records = await getUserRecords(unique);
  return new Map(records.map((record) => [record.user.id, callerFor(record.user, record.membership, groups)]));
}

/** The requestees a request's flag inputs name: their ids by login, and each with their groups. */
export interface Requestees {
  userIds: ReadonlyMap<string, number>;
  callers: ReadonlyMap<number, Caller>;
}

export async function resolveRequestees(groups: readonly GroupSummary[], ...flagLists: unknown[]): Promise<Requestees> {
  const logins = requesteesIn(...flagLists);
  const userIds = await resolveLogins(logins);
  return { userIds, callers: await loadRequestees(logins, userIds, groups) };
}

export function bugEnvironment(
  caller: Caller & { user: UserAccount },
  bugCatalog: BugCatalog,
  userIds: ReadonlyMap<string, number>,
  users: ReadonlyMap<number, UserAccount>,
  flagIds: number[],
  requestees: ReadonlyMap<number, Caller>,
): BugEnvironment {
  const { catalog } = bugCatalog;
  const groupName = (id: number) => catalog.groups.find((group) => group.id === id)?.name;
  let nextFlag = 0;
  return {
    caller,
    now: toBugzillaDateTime(new Date()),
    products: catalog.products,
    enterableProductIds: new Set(visibleProductIds(caller, catalog, ['enterable'])),
    groups: catalog.groups,
    groupName,
    flagTypes: catalog.flagTypes,
    customFields: bugCatalog.customFields,
    keywords: bugCatalog.keywords,
    parameters: catalog.parameters,
    values: catalog.fieldValues,
    findUserId: (login) => userIds.get(login.trim().toLowerCase()),
    userId(login, field, error) {
      const id = userIds.get(login.trim().toLowerCase());
      if (id === undefined) throw unknownUser(login, field, error);
      return id;
    },
    loginOf: (id) => (id === null ? '' : (users.get(id)?.login ?? '')),
    requestee: (id) => requestees.get(id),
    nextFlagId() {
      if (nextFlag >= flagIds.length) throw new Error('more flags were created than ids were allocated');
      return flagIds[nextFlag++];
    },
  };
}

/** Every user id a bug shows, so one batch read serves a whole response. */
export function userIdsOf(bugs: readonly Bug[], catalog: CatalogSnapshot): number[] {
  const ids = new Set<number>();
  // One lookup table per call: a 1,000-bug search page would otherwise search every product's components per bug.
  const components = new Map(
    catalog.products.flatMap((record) => record.components).map((component) => [component.id, component]),
  );
  for (const bug of bugs) {
    ids.add(bug.assigneeId);
    ids.add(bug.reporterId);
    if (bug.qaContactId !== null) ids.add(bug.qaContactId);
    for (const id of bug.ccIds) ids.add(id);
    for (const flag of bug.flags) {
      ids.add(flag.setterId);
      if (flag.requesteeId !== null) ids.add(flag.requesteeId);
    }
    const component = components.get(bug.componentId);
    if (component?.triageOwnerId) ids.add(component.triageOwnerId);
  }
  return [...ids];
}

export async function usersById(ids: readonly number[]): Promise<Map<number, UserAccount>> {
  return new Map((await getUsers(ids)).map((user) => [user.id, user]));
}

export function bugNames(bugCatalog: BugCatalog, users: ReadonlyMap<number, UserAccount>): BugNames {
  const { catalog } = bugCatalog;
  const components = catalog.products.flatMap((record) => record.components);
  const values = bugValueNames(catalog.products);
  return {
    product: (id) => catalog.products.find((record) => record.product.id === id)?.product.name ?? '',
    component: (id) => components.find((component) => component.id === id)?.name ?? '',
    version: values.version,
    milestone: values.milestone,
    login: (id) => (id === null ? '' : (users.get(id)?.login ?? '')),
    keyword: (id) => bugCatalog.keywords.find((keyword) => keyword.id === id)?.name ?? '',
    group: (id) => catalog.groups.find((group) => group.id === id)?.name ?? '',
    flagType: (id) => catalog.flagTypes.find((type) => type.id === id)?.name ?? '',
  };
}

export function bugViewContext(
  caller: Caller,
  bugCatalog: BugCatalog,
  users: ReadonlyMap<number, UserAccount>,
): Omit<BugViewContext, 'updateToken'> {
  const { catalog } = bugCatalog;
  const names = bugNames(bugCatalog, users);
  // Looked up once per bug of a page of a thousand: maps, not scans of the catalogue.
  const triageOwners = new Map(
    catalog.products.flatMap((record) => record.components).map((component) => [component.id, component.triageOwnerId]),
  );
  return {
    caller,
    parameters: catalog.parameters,
    customFields: bugCatalog.customFields,
    user: (id) => (id === null ? undefined : users.get(id)),
    productName: names.product,
    componentName: names.component,
    versionName: names.version,
    milestoneName: names.milestone,
    values: catalog.fieldValues,
    classificationName: classificationNameIn(catalog),
    keywordName: names.keyword,
    groupName: groupNameIn(catalog),
    flagTypeName: names.flagType,
    triageOwnerId: (componentId) => triageOwners.get(componentId) ?? null,
  };
}

/**
 * Bugzilla's update_token: a keyed hash of the viewer, the bug and its last change, so it changes
 * with every update of the bug. Tracker's API does not require it back; web forms built on the
 * API may use it to detect mid-air collisions.
 */
export function updateToken(userId: number, bug: Pick<Bug, 'id' | 'lastChangeTime'>): string {
  const secret = process.env.TRACKER_TOKEN_SECRET ?? process.env.TRACKER_TABLE ?? 'tracker';
  if (secret !== tokenSecret || issuedCount >= MAX_ISSUED_TOKENS) {
    issuedTokens.clear();
    issuedCount = 0;
    tokenSecret = secret;
  }
  let forUser = issuedTokens.get(userId);
  if (!forUser) {
    forUser = new Map();
    issuedTokens.set(userId, forUser);
  }
  const held = forUser.get(bug.id);
  // A search page asks for the same tokens on every poll; an HMAC each costs more than its bug's JSON.
  if (held && held.lastChangeTime === bug.lastChangeTime) return held.token;
  const issued = Math.floor(Date.parse(bug.lastChangeTime) / 1000);
  const token = `${issued}-${createHmac('sha256', secret).update(`${userId}:${bug.id}:${bug.lastChangeTime}`).digest('base64url')}`;
  forUser.set(bug.id, { lastChangeTime: bug.lastChangeTime, token });
  issuedCount++;
  return token;
}

/** Tokens computed by this instance (a pure function of the secret, viewer, bug and last change), by viewer and bug. */
const issuedTokens = new Map<number, Map<number, { lastChangeTime: string; token: string }>>();
let tokenSecret = '';
let issuedCount = 0;
const MAX_ISSUED_TOKENS = 100_000;
