import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GroupSummary, Membership, UserAccount } from '../../domain/identity/caller.ts';
import { claimSlot, LOCKOUT_WINDOW_MS } from '../../domain/identity/loginThrottle.ts';
import type { AuditEntry } from '../../domain/instance/audit.ts';
import { TrackerError } from '../../trackerError.ts';
import { cachedCatalogRead } from '../catalog/catalogCache.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { recordAudit } from '../instance/auditStore.ts';
import { loadParameters } from '../instance/parameterStore.ts';
import { readItem } from '../itemReads.ts';
import { keys } from '../keys.ts';
import { batchGetAll, queryAll, queryIndexPartition, queryPartition } from '../tableReads.ts';
import { WriteTransaction } from '../transaction.ts';
import { cachedUserItems } from './userCache.ts';

/** Users, groups, memberships, API keys, login tokens and login failures. */

export interface ApiKeyRecord {
  id: number;
  userId: number;
  description: string;
  revoked: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  /** Revision when read; the last-used stamp does not raise it. */
  rev?: number;
}

export interface LoginTokenRecord {
  userId: number;
  expiresAt: number;
  createdAt: number;
}

export interface GroupRecord extends GroupSummary {
  iconUrl: string;
  /** Revision of the group item when read (absent: not yet revised), for updateAtRevision. */
  rev?: number;
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

const toGroup = (item: Record<string, unknown>): GroupRecord => ({
  id: Number(item.id),
  name: String(item.name),
  description: String(item.description ?? ''),
  isActive: item.isActive !== false,
  isBugGroup: item.isBugGroup === true,
  userRegexp: String(item.userRegexp ?? ''),
  regexpMembers: item.regexpMembers === undefined ? undefined : String(item.regexpMembers),
  iconUrl: String(item.iconUrl ?? ''),
  rev: Number(item.rev ?? 0),
});

const toApiKey = (item: Record<string, unknown>): ApiKeyRecord => ({
  id: Number(item.id),
  userId: Number(item.userId),
  description: String(item.description ?? ''),
  revoked: item.revoked === true,
  createdAt: String(item.createdAt),
  lastUsedAt: item.lastUsedAt ? String(item.lastUsedAt) : null,
  rev: Number(item.rev ?? 0),
});

// ---- users -------------------------------------------------------------------------------

export interface UserRecord {
  user: UserAccount;
  membership: Membership;
  /** The user item's revision when read (0: written before revisions), for updateAtRevision. */
  rev: number;
}

/**
 * The user item carries the ids of the user's direct groups and bless rights, written in the same
 * transaction as the membership items (which serve "members of a group"), so one read of a user
 * item is enough to know their groups. Items written before that attribute existed fall back to
 * reading the membership items of the user's partition.
 */
async function toUserRecord(item: Record<string, unknown>, consistent = false): Promise<UserRecord> {
  const user = toUser(item);
  const rev = Number(item.rev ?? 0);
  if (Array.isArray(item.memberOf) && Array.isArray(item.canBless)) {
    return { user, rev, membership: { memberOf: item.memberOf.map(Number), canBless: item.canBless.map(Number) } };
  }
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
  return Promise.all(ids.filter((id) => found.has(id)).map((id) => toUserRecord(found.get(id)!)));
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

export interface NewUser {
  id: number;
  login: string;
  realName: string;
  passwordHash?: string;
  createdAt: string;
  /** Direct groups; put the membership items in the same transaction (putMembership). */
  memberOf?: number[];
}

const duplicateLogin = (login: string) => () =>
  new TrackerError(500, `There is already an account with the login name ${login}.`);

export function putNewUser(transaction: WriteTransaction, user: NewUser): void {
  transaction.putNew({ ...keys.loginGuard(user.login), type: 'login', userId: user.id }, duplicateLogin(user.login));
  transaction.putNew(
    {
      ...keys.user(user.id),
      ...keys.usersIndex(user.login),
      type: 'user',
      id: user.id,
      login: user.login,
      realName: user.realName,
      passwordHash: user.passwordHash,
      disabledText: '',
      emailEnabled: true,
      createdAt: user.createdAt,
      memberOf: user.memberOf ?? [],
      canBless: [],
    },
    duplicateLogin(user.login),
  );
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
          new TrackerError(
            32000,
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

// ---- groups ------------------------------------------------------------------------------

export function listGroups(): Promise<GroupRecord[]> {
  return cachedCatalogRead('groups', async () => (await queryPartition(keys.groupsPartition)).map(toGroup));
}

/** Ids of the users put directly in a group (gsi1 `GROUP#<id>#MEMBERS`). */
export async function directMemberIds(groupId: number): Promise<number[]> {
  const items = await queryIndexPartition('gsi1', keys.groupMembersIndex(groupId));
  return items.map((item) => Number(item.userId));
}

export type NewGroup = GroupRecord;

const duplicateGroup = (name: string) => () => new TrackerError(801, `The group ${name} already exists.`);

export function putNewGroup(transaction: WriteTransaction, group: NewGroup): void {
  transaction.putNew(
    { ...keys.groupNameGuard(group.name), type: 'groupName', groupId: group.id },
    duplicateGroup(group.name),
  );
  transaction.putNew({ ...keys.group(group.id), type: 'group', ...group, rev: undefined }, duplicateGroup(group.name));
}

export interface GroupUpdate {
  previous: GroupRecord;
  next: GroupRecord;
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

/** A group's regexp members after a user was created or changed login (at the group's revision). */
export function addRegexpMembersUpdate(transaction: WriteTransaction, group: GroupRecord, regexpMembers: string): void {
  transaction.updateAtRevision(keys.group(group.id), group.rev ?? 0, {
    expression: 'SET regexpMembers = :members',
    values: { ':members': regexpMembers },
  });
}

export function addGroupUpdate(transaction: WriteTransaction, { previous, next }: GroupUpdate): void {
  if (previous.name.toLowerCase() !== next.name.toLowerCase()) {
    transaction.delete(keys.groupNameGuard(previous.name));
    transaction.putNew(
      { ...keys.groupNameGuard(next.name), type: 'groupName', groupId: next.id },
      duplicateGroup(next.name),
    );
  }
  transaction.updateAtRevision(keys.group(next.id), previous.rev ?? 0, {
    // Members are written only when derived: a group not yet derived stays so, for bootstrap to derive.
    expression: `SET #name = :name, description = :description, userRegexp = :userRegexp, isActive = :isActive, iconUrl = :iconUrl${next.regexpMembers === undefined ? '' : ', regexpMembers = :regexpMembers'}`,
    names: { '#name': 'name' },
    values: {
      ...(next.regexpMembers === undefined ? {} : { ':regexpMembers': next.regexpMembers }),
      ':name': next.name,
      ':description': next.description,
      ':userRegexp': next.userRegexp,
      ':isActive': next.isActive,
      ':iconUrl': next.iconUrl,
    },
  });
}

// ---- API keys ----------------------------------------------------------------------------

export async function findApiKey(digest: string): Promise<ApiKeyRecord | null> {
  const item = await readItem(keys.apiKey(digest));
  return item ? toApiKey(item) : null;
}

/** Best effort: a lost last-used stamp must never fail the request that used the key. */
export async function markApiKeyUsed(digest: string, at: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiKey(digest),
      UpdateExpression: 'SET lastUsedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}

export function putNewApiKey(
  transaction: WriteTransaction,
  digest: string,
  record: Omit<ApiKeyRecord, 'revoked' | 'lastUsedAt'>,
): void {
  transaction.putNew(
    { ...keys.apiKey(digest), type: 'apiKey', ...record, rev: undefined, revoked: false },
    () => new TrackerError(32000, 'That API key is already in use.'),
  );
  transaction.put({
    ...keys.apiKeyReference(record.userId, record.id),
    type: 'apiKeyReference',
    keyId: record.id,
    digest,
  });
}

/** `ownerRev`: the owner's user item as read (its revision is raised: the key count changed). */
export async function createApiKey(
  digest: string,
  record: Omit<ApiKeyRecord, 'revoked' | 'lastUsedAt'>,
  audit: AuditEntry,
  ownerRev: number,
): Promise<void> {
  const transaction = new WriteTransaction();
  putNewApiKey(transaction, digest, record);
  transaction.updateAtRevision(keys.user(record.userId), ownerRev);
  recordAudit(transaction, audit);
  await transaction.commit();
}

/** A user's keys with the hidden digest each is stored under, for updates. */
/**
 * A user's keys, with the digest each is stored under (for updates): the references in the user's
 * partition, then the key items, both read strongly consistent, so a key just created is listed.
 */
export async function listApiKeys(userId: number): Promise<Array<ApiKeyRecord & { digest: string }>> {
  const references = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': keys.apiKeyReferencePrefix },
    ConsistentRead: true,
  });
  const digests = references.map((reference) => String(reference.digest));
  const items = await batchGetAll(
    digests.map((digest) => keys.apiKey(digest)),
    { consistent: true },
  );
  const found = new Map(items.map((item) => [String(item.pk).slice('APIKEY#'.length), item]));
  return digests.filter((digest) => found.has(digest)).map((digest) => ({ ...toApiKey(found.get(digest)!), digest }));
}

export async function updateApiKey(
  digest: string,
  rev: number,
  changes: { revoked?: boolean; description?: string },
  audit: AuditEntry,
): Promise<void> {
  const assignments: string[] = [];
  const values: Record<string, unknown> = {};
  if (changes.revoked !== undefined) {
    assignments.push('revoked = :revoked');
    values[':revoked'] = changes.revoked;
  }
  if (changes.description !== undefined) {
    assignments.push('description = :description');
    values[':description'] = changes.description;
  }
  if (assignments.length === 0) return;
  const transaction = new WriteTransaction();
  transaction.updateAtRevision(keys.apiKey(digest), rev, { expression: `SET ${assignments.join(', ')}`, values });
  recordAudit(transaction, audit);
  await transaction.commit();
}

// ---- login tokens and failures -----------------------------------------------------------

export async function findLoginToken(digest: string): Promise<LoginTokenRecord | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.loginToken(digest) }));
  if (!result.Item) return null;
  return {
    userId: Number(result.Item.userId),
    expiresAt: Number(result.Item.expiresAt),
    createdAt: Number(result.Item.createdAt),
  };
}

export async function putLoginToken(digest: string, token: LoginTokenRecord): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.loginToken(digest), ...keys.loginTokensOfUser(token.userId), type: 'loginToken', ...token },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function deleteLoginToken(digest: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: keys.loginToken(digest) }));
}

/**
 * Claims one password check for an account, counted as a failure until the login succeeds
 * (which deletes the item). The claim is a conditional UpdateItem on the revision read, so no
 * two parallel requests can take the same free slot: at most `maxAttempts` passwords are ever
 * checked per account within the lockout window, however many requests arrive at once.
 * Returns false when the account is locked. (An UpdateItem: read-only functions may update
 * only LOGINFAIL#/APIKEY# partitions, data-model §8.1.)
 */
export async function claimLoginAttempt(userId: number, now: number, maxAttempts: number): Promise<boolean> {
  // Each lost race means another request took a slot, so a request loses at most maxAttempts
  // times before it sees the account locked; the cap only bounds pathological cases.
  for (let attempt = 1; attempt <= Math.min(maxAttempts + 3, 30); attempt++) {
    const read = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.loginFailures(userId), ConsistentRead: true }),
    );
    const claimed = claimSlot(((read.Item?.failures as number[] | undefined) ?? []).map(Number), maxAttempts, now);
    if (!claimed) return false;
    const rev = Number(read.Item?.rev ?? 0);
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.loginFailures(userId),
          UpdateExpression: 'SET failures = :failures, expiresAt = :expires, #type = :type, #rev = :next',
          ConditionExpression: rev > 0 ? '#rev = :read' : 'attribute_not_exists(#rev)',
          ExpressionAttributeNames: { '#type': 'type', '#rev': 'rev' },
          ExpressionAttributeValues: {
            ':failures': claimed,
            ':expires': Math.ceil((now + LOCKOUT_WINDOW_MS) / 1000),
            ':type': 'loginFailures',
            ':next': rev + 1,
            ...(rev > 0 ? { ':read': rev } : {}),
          },
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * attempt));
    }
  }
  return false;
}

/**
 * What a claim costs, for a login that names no account: the same reads and a write that cannot
 * succeed, so the answer's timing does not tell which logins exist.
 */
export async function decoyLoginAttempt(): Promise<void> {
  const key = keys.loginFailures(0);
  await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET failures = :none',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(pk)',
        ExpressionAttributeValues: { ':none': [] },
      }),
    )
    .catch((error) => {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
}

export async function clearLoginFailures(userId: number): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: keys.loginFailures(userId) }));
}

export async function maxLoginAttempts(): Promise<number> {
  return Number((await loadParameters()).max_login_attempts) || 5;
}
