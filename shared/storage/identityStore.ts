import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GroupSummary, Membership, UserAccount } from '../domain/caller.ts';
import { TrackerError } from '../trackerError.ts';
import { documentClient, tableName } from './dynamoClient.ts';
import { keys } from './keys.ts';
import type { WriteTransaction } from './transaction.ts';

/** Users, groups, memberships, API keys and login tokens: the items identity is made of. */

export interface ApiKeyRecord {
  id: number;
  userId: number;
  description: string;
  revoked: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface LoginTokenRecord {
  userId: number;
  expiresAt: number;
}

async function queryAll(input: ConstructorParameters<typeof QueryCommand>[0]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

const toUser = (item: Record<string, unknown>): UserAccount => ({
  id: Number(item.id),
  login: String(item.login),
  realName: String(item.realName ?? ''),
  disabledText: String(item.disabledText ?? ''),
  emailEnabled: item.emailEnabled !== false,
  passwordHash: item.passwordHash ? String(item.passwordHash) : undefined,
});

const toGroup = (item: Record<string, unknown>): GroupSummary => ({
  id: Number(item.id),
  name: String(item.name),
  description: String(item.description ?? ''),
  isActive: item.isActive !== false,
  isBugGroup: item.isBugGroup === true,
  userRegexp: String(item.userRegexp ?? ''),
});

/** The user and their direct memberships and bless rights: one query over the user's partition. */
export async function loadUserWithMembership(userId: number): Promise<{ user: UserAccount; membership: Membership } | null> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userPartition(userId) },
  });
  const userItem = items.find((item) => item.sk === 'USER');
  if (!userItem) return null;
  const idsWithPrefix = (prefix: string) =>
    items.filter((item) => String(item.sk).startsWith(prefix)).map((item) => Number(item.groupId));
  return {
    user: toUser(userItem),
    membership: { memberOf: idsWithPrefix(keys.membershipPrefix), canBless: idsWithPrefix(keys.blessPrefix) },
  };
}

export async function listGroups(): Promise<GroupSummary[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.groupsIndex('').gsi1pk },
  });
  return items.map(toGroup);
}

export async function findUserIdByLogin(login: string): Promise<number | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.loginGuard(login) }));
  return result.Item ? Number(result.Item.userId) : null;
}

export async function findApiKey(digest: string): Promise<ApiKeyRecord | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(digest) }));
  const item = result.Item;
  if (!item) return null;
  return {
    id: Number(item.id),
    userId: Number(item.userId),
    description: String(item.description ?? ''),
    revoked: item.revoked === true,
    createdAt: String(item.createdAt),
    lastUsedAt: item.lastUsedAt ? String(item.lastUsedAt) : null,
  };
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

export async function findLoginToken(digest: string): Promise<LoginTokenRecord | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.loginToken(digest) }));
  if (!result.Item) return null;
  return { userId: Number(result.Item.userId), expiresAt: Number(result.Item.expiresAt) };
}

export interface NewGroup {
  id: number;
  name: string;
  description: string;
  isBugGroup: boolean;
  userRegexp: string;
  isActive: boolean;
  iconUrl: string;
}

export function putNewGroup(transaction: WriteTransaction, group: NewGroup): void {
  const duplicate = () => new TrackerError(801, `The group ${group.name} already exists.`);
  transaction.putNew({ ...keys.groupNameGuard(group.name), type: 'groupName', groupId: group.id }, duplicate);
  transaction.putNew({ ...keys.group(group.id), ...keys.groupsIndex(group.name), type: 'group', ...group }, duplicate);
}

export interface NewUser {
  id: number;
  login: string;
  realName: string;
  passwordHash?: string;
  createdAt: string;
}

export function putNewUser(transaction: WriteTransaction, user: NewUser): void {
  const duplicate = () => new TrackerError(500, `There is already an account with the login name ${user.login}.`);
  transaction.putNew({ ...keys.loginGuard(user.login), type: 'login', userId: user.id }, duplicate);
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
    },
    duplicate,
  );
}

export function putMembership(transaction: WriteTransaction, userId: number, groupId: number): void {
  transaction.put({ ...keys.membership(userId, groupId), type: 'membership', userId, groupId });
}

export function putBlessRight(transaction: WriteTransaction, userId: number, groupId: number): void {
  transaction.put({ ...keys.blessRight(userId, groupId), type: 'blessRight', userId, groupId });
}

export function putNewApiKey(transaction: WriteTransaction, digest: string, record: Omit<ApiKeyRecord, 'revoked' | 'lastUsedAt'>): void {
  transaction.putNew(
    { ...keys.apiKey(digest), ...keys.apiKeysOfUser(record.userId, record.id), type: 'apiKey', ...record, revoked: false },
    () => new TrackerError(32000, 'That API key is already in use.'),
  );
}
