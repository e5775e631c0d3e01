/**
 * User items, their login guards and their membership and bless-right items: the one place that
 * knows how a user is stored, so reads and writes agree on `memberOf`/`canBless` kept on the item.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Membership, UserAccount } from '../../domain/identity/caller.ts';
import { errors } from '../../errors.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { readItem } from '../itemReads.ts';
import { keys } from '../keys.ts';
import { batchGetAll, queryAll, queryIndexPartition } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';
import { cachedUserItems } from './userCache.ts';

export interface UserRecord {
  user: UserAccount;
  membership: Membership;
  /** The user item's revision when read (0: written before revisions), for updateAtRevision. */
  rev: number;
}

const toUser = (item: Record<string, unknown>): UserAccount => ({
  id: Number(item.id),
  login: String(item.login),
  realName: String(item.realName ?? ''),
  disabledText: String(item.disabledText ?? ''),
  emailEnabled: item.emailEnabled !== false,
  passwordHash: item.passwordHash ? String(item.passwordHash) : undefined,
  passwordChangeRequired: item.passwordChangeRequired === true,
  tokensNotBefore: item.tokensNotBefore === undefined ? undefined : Number(item.tokensNotBefore),
});

/**
 * The user item carries the ids of the user's direct groups and bless rights, written in the same
 * transaction as the membership items (which serve "members of a group"), so one read of a user
 * item is enough to know their groups. Items written before that attribute existed fall back to
 * reading the membership items of the user's partition.
 */
async function toUserRecord(item: Record<string, unknown>, consistent = false): Promise<UserRecord> {
  return recordFromItem(item) ?? readMembershipItems(item, consistent);
}

/** The record from the user item alone, when it carries the memberships (every item written since they were added). */
function recordFromItem(item: Record<string, unknown>): UserRecord | undefined {
  if (!Array.isArray(item.memberOf) || !Array.isArray(item.canBless)) return undefined;
  return {
    user: toUser(item),
    rev: Number(item.rev ?? 0),
    membership: { memberOf: item.memberOf.map(Number), canBless: item.canBless.map(Number) },
  };
}

async function readMembershipItems(item: Record<string, unknown>, consistent: boolean): Promise<UserRecord> {
  const user = toUser(item);
  const rev = Number(item.rev ?? 0);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userPartition(user.id) },
    ConsistentRead: consistent,
  });
  const idsWithPrefix = (prefix: string) =>
    items.filter((entry) => String(entry.sk).startsWith(prefix)).map((entry) => Number(entry.groupId));
  return {
    user,
    rev,
    membership: { memberOf: idsWithPrefix(keys.membershipPrefix), canBless: idsWithPrefix(keys.blessPrefix) },
  };
}

/**
 * The user with their direct memberships and bless rights: one GetItem. Writers read with
 * `consistent` (they compare revisions, and a stale read would only lose the race again).
 */
export async function loadUserWithMembership(
  userId: number,
  options: { consistent?: boolean } = {},
): Promise<UserRecord | null> {
  const item = (await cachedUserItems([userId])).get(userId);
  return item ? toUserRecord(item, options.consistent) : null;
}

export async function findUserIdByLogin(login: string): Promise<number | null> {
  const guard = await readItem(keys.loginGuard(login));
  return guard ? Number(guard.userId) : null;
}

/** Users with their memberships, by id, in the order asked; unknown ids are left out. BatchGetItem, 100 keys a call. */
export async function getUserRecords(ids: readonly number[]): Promise<UserRecord[]> {
  const found = await cachedUserItems(ids);
  // A page of a thousand bugs names hundreds of people: no promise each when their items say it all.
  const records = ids.filter((id) => found.has(id)).map((id) => recordFromItem(found.get(id)!) ?? id);
  if (records.every((record) => typeof record !== 'number')) return records as UserRecord[];
  return Promise.all(
    records.map((record) => (typeof record === 'number' ? readMembershipItems(found.get(record)!, false) : record)),
  );
}

export async function getUsers(ids: readonly number[]): Promise<UserAccount[]> {
  return (await getUserRecords(ids)).map((record) => record.user);
}

/** Every user with their memberships, ordered by login (gsi1 `USERS`): the cost of matching, as in Bugzilla's SQL LIKE. */
export async function listAllUserRecords(): Promise<UserRecord[]> {
  return Promise.all((await queryIndexPartition('gsi1', keys.usersIndex('').gsi1pk)).map((item) => toUserRecord(item)));
}

export async function listAllUsers(): Promise<UserAccount[]> {
  return (await listAllUserRecords()).map((record) => record.user);
}

/** Every user's id and login, read strongly consistent by id (1 to the last id taken): what deriving a regexp's members needs. */
export async function listUserLoginsConsistently(): Promise<Array<{ id: number; login: string }>> {
  const counter = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.counter('user'), ConsistentRead: true }),
  );
  const last = Number(counter.Item?.value ?? 0);
  const items = await batchGetAll(
    Array.from({ length: last }, (_, index) => keys.user(index + 1)),
    { consistent: true },
  );
  return items.map((item) => ({ id: Number(item.id), login: String(item.login) }));
}

export interface NewUser {
  id: number;
  login: string;
  realName: string;
  passwordHash?: string;
  createdAt: string;
  /** Direct groups; put the membership items in the same transaction (putMembership). */
  memberOf?: number[];
}

const duplicateLogin = (login: string) => () => errors.accountExists(login);

export function putNewUser(transaction: WriteTransaction, user: NewUser): void {
  transaction.putNew({ ...keys.loginGuard(user.login), type: 'login', userId: user.id }, duplicateLogin(user.login));
  transaction.putNew(userItem({ ...user, disabledText: '', emailEnabled: true }), duplicateLogin(user.login));
}

export interface UserUpdate {
  userId: number;
  /** The revision the change was computed from: the write fails with RevisionConflict if it moved. */
  rev: number;
  previousLogin: string;
  login?: string;
  realName?: string;
  passwordHash?: string;
  passwordChangeRequired?: boolean;
  emailEnabled?: boolean;
  disabledText?: string;
  /** Set when tokens must die (e-mail change, disabling). */
  tokensNotBefore?: number;
  addGroups: number[];
  removeGroups: number[];
  addBless: number[];
  removeBless: number[];
  /** The complete lists after the change, kept on the user item. */
  memberOf?: number[];
  canBless?: number[];
}

/** Adds one user's changes (item, login guard, memberships) to a transaction shared by the whole request. */
export function addUserUpdate(transaction: WriteTransaction, update: UserUpdate): void {
  const assignments: string[] = [];
  const values: Record<string, unknown> = {};
  const set = (attribute: string, value: unknown) => {
    assignments.push(`${attribute} = :${attribute}`);
    values[`:${attribute}`] = value;
  };
  if (update.realName !== undefined) set('realName', update.realName);
  if (update.passwordHash !== undefined) set('passwordHash', update.passwordHash);
  if (update.passwordChangeRequired !== undefined) set('passwordChangeRequired', update.passwordChangeRequired);
  if (update.emailEnabled !== undefined) set('emailEnabled', update.emailEnabled);
  if (update.disabledText !== undefined) set('disabledText', update.disabledText);
  if (update.tokensNotBefore !== undefined) set('tokensNotBefore', update.tokensNotBefore);
  if (update.memberOf !== undefined) set('memberOf', update.memberOf);
  if (update.canBless !== undefined) set('canBless', update.canBless);
  if (update.login !== undefined && update.login !== update.previousLogin) {
    set('login', update.login);
    set('gsi1sk', keys.usersIndex(update.login).gsi1sk);
    if (update.login.toLowerCase() !== update.previousLogin.toLowerCase()) {
      transaction.delete(keys.loginGuard(update.previousLogin), {
        condition: 'userId = :owner',
        values: { ':owner': update.userId },
        onConditionFailed: () =>
          errors.invalidParameter(
            `The login of user ${update.userId} changed at the same moment; nothing was saved, please try again.`,
          ),
      });
      transaction.putNew(
        { ...keys.loginGuard(update.login), type: 'login', userId: update.userId },
        duplicateLogin(update.login),
      );
    }
  }
  // Always conditioned on the revision read, even for membership-only changes: memberOf on the
  // item and the MEMBER# items must describe the same, latest, set of groups.
  transaction.updateAtRevision(keys.user(update.userId), update.rev, {
    expression: assignments.length > 0 ? `SET ${assignments.join(', ')}` : '',
    values,
  });
  for (const groupId of update.addGroups) putMembership(transaction, update.userId, groupId);
  for (const groupId of update.removeGroups) transaction.delete(keys.membership(update.userId, groupId));
  for (const groupId of update.addBless) putBlessRight(transaction, update.userId, groupId);
  for (const groupId of update.removeBless) transaction.delete(keys.blessRight(update.userId, groupId));
}

export function putMembership(transaction: WriteTransaction, userId: number, groupId: number): void {
  transaction.put({ ...keys.membership(userId, groupId), type: 'membership', userId, groupId });
}

export function putBlessRight(transaction: WriteTransaction, userId: number, groupId: number): void {
  transaction.put({ ...keys.blessRight(userId, groupId), type: 'blessRight', userId, groupId });
}

export function deleteMembership(transaction: WriteTransaction, userId: number, groupId: number): void {
  transaction.delete(keys.membership(userId, groupId));
}

/** A user as an import brings it (local/import): the source's id and state, and its direct groups. */
export interface ImportedUser extends NewUser {
  disabledText: string;
  emailEnabled: boolean;
}

/**
 * Puts an imported user whole, with its login guard and membership items. The password hash is
 * kept only when the caller passes the one the installation already had for the same person.
 */
export function putImportedUser(transaction: WriteTransaction, user: ImportedUser): void {
  transaction.put({ ...keys.loginGuard(user.login), type: 'login', userId: user.id });
  transaction.put(userItem(user));
  for (const groupId of user.memberOf ?? []) putMembership(transaction, user.id, groupId);
}

/** The user item, found by id and, through the users index, by login. */
function userItem(user: ImportedUser) {
  return {
    ...keys.user(user.id),
    ...keys.usersIndex(user.login),
    type: 'user',
    id: user.id,
    login: user.login,
    realName: user.realName,
    passwordHash: user.passwordHash,
    disabledText: user.disabledText,
    emailEnabled: user.emailEnabled,
    createdAt: user.createdAt,
    memberOf: user.memberOf ?? [],
    canBless: [],
  };
}

/**
 * Every item of a user's partition (the user, memberships, bless rights, API key references,
 * last visits) with the API keys the references name and the login guard: what to delete to remove an account an
 * import replaces, so none of its credentials lets anyone in as the user who takes its id.
 */
export async function accountItemKeys(userId: number, login: string): Promise<Array<{ pk: string; sk: string }>> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userPartition(userId) },
    ConsistentRead: true,
  });
  const found = [keys.loginGuard(login), ...items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) }))];
  for (const item of items)
    if (String(item.sk).startsWith(keys.apiKeyReferencePrefix) && item.digest)
      found.push(keys.apiKey(String(item.digest)));
  return found;
}
