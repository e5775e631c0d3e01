/**
 * Login tokens (from POST /login), stored by the digest of the token, with the owner on gsi1 so
 * a user's tokens can be found; DynamoDB's TTL on `expiresAt` removes the expired ones.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../dynamoClient.ts';
import { keys } from '../keys.ts';

export interface LoginTokenRecord {
  userId: number;
  expiresAt: number;
  createdAt: number;
}

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
