/**
 * Mailed account tokens and the limits on mailing them (docs/data-model.md, "Account tokens").
 * A token item is keyed by the SHA-256 digest of the token, never the token; DynamoDB's TTL on
 * `expiresAt` removes lapsed ones, and every use checks `validUntil` too (TTL deletes late). A
 * token is used by deleting it under a condition, in the transaction that does what it allows, so
 * it works once however many requests bring it at the same moment.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AccountToken, AccountTokenKind } from '../../domain/identity/accountTokens.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { keys } from '../keys.ts';
import type { WriteTransaction } from '../transaction.ts';

export interface StoredAccountToken extends AccountToken {
  digest: string;
  /** The other half of an e-mail change (emailnew ↔ emailold), so either can cancel both. */
  pairDigest?: string;
}

const seconds = (ms: number) => Math.ceil(ms / 1000);

export async function putAccountToken(token: StoredAccountToken): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.accountToken(token.digest),
        type: 'accountToken',
        kind: token.kind,
        login: token.login,
        ...(token.userId !== undefined ? { userId: token.userId } : {}),
        ...(token.previousLogin !== undefined ? { previousLogin: token.previousLogin } : {}),
        ...(token.pairDigest !== undefined ? { pairDigest: token.pairDigest } : {}),
        createdAt: token.createdAt,
        validUntil: token.expiresAt,
        expiresAt: seconds(token.expiresAt),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function findAccountToken(digest: string): Promise<StoredAccountToken | null> {
  const { Item: item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.accountToken(digest), ConsistentRead: true }),
  );
  if (!item) return null;
  return {
    digest,
    kind: String(item.kind) as AccountTokenKind,
    login: String(item.login),
    ...(item.userId !== undefined ? { userId: Number(item.userId) } : {}),
    ...(item.previousLogin !== undefined ? { previousLogin: String(item.previousLogin) } : {}),
    ...(item.pairDigest !== undefined ? { pairDigest: String(item.pairDigest) } : {}),
    createdAt: Number(item.createdAt),
    expiresAt: Number(item.validUntil),
  };
}

/**
 * Uses a token in `transaction`: the write lands only if the token is still there and valid, so
 * of two requests bringing it, one does what it allows and the other fails with `spent`.
 */
export function spendAccountToken(
  transaction: WriteTransaction,
  digest: string,
  now: number,
  spent: () => Error,
): void {
  transaction.delete(keys.accountToken(digest), {
    condition: 'attribute_exists(pk) AND validUntil > :now',
    values: { ':now': now },
    onConditionFailed: spent,
  });
}

/** Deletes a token (a cancelled request); false when it was no longer there. */
export async function deleteAccountToken(digest: string): Promise<boolean> {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.accountToken(digest),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Claims the right to mail a token of `kind` to an address: granted when none was mailed to it
 * in the last `intervalMs` (Bugzilla's ACCOUNT_CHANGE_INTERVAL). One conditional write, so two
 * requests at once cannot both be granted. Whether the address has an account plays no part.
 */
export async function claimAddressInterval(
  kind: string,
  addressDigest: string,
  now: number,
  intervalMs: number,
): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.accountMailToAddress(kind, addressDigest),
          type: 'accountMailThrottle',
          mailedAt: now,
          expiresAt: seconds(now + intervalMs),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR mailedAt <= :cutoff',
        ExpressionAttributeValues: { ':cutoff': now - intervalMs },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Counts one request from a client address in the current window; false once `max` were counted
 * (the count is an atomic ADD under a condition, so a burst cannot overshoot it).
 */
export async function claimClientRequest(source: string, now: number, max: number, windowMs: number): Promise<boolean> {
  const window = Math.floor(now / windowMs);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.accountMailFromClient(source, window),
        UpdateExpression: 'ADD requests :one SET #type = :type, expiresAt = :expires',
        ConditionExpression: 'attribute_not_exists(requests) OR requests < :max',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':max': max,
          ':type': 'accountMailThrottle',
          ':expires': seconds((window + 1) * windowMs),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
