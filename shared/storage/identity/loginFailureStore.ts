/**
 * Failed password checks per account and client address (`source`, domain/identity/loginThrottle.ts
 * `failureSource`), for the login lockout: claimed one slot at a time under a revision condition,
 * so parallel requests cannot share a slot. One item per account and address, all in the
 * account's `LOGINFAIL#<uid>` partition (the one the read role may write, lib/functionRoles.ts).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { claimSlot, LOCKOUT_WINDOW_MS } from '../../domain/identity/loginThrottle.ts';
import { recordLoginLockout } from '../../observability/metrics.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { loadParameters } from '../instance/parameterStore.ts';
import { keys } from '../keys.ts';

/**
 * Claims one password check for an account from one source, counted as a failure until a login
 * from that source succeeds (which deletes the item). The claim is a conditional UpdateItem on
 * the revision read, so no two parallel requests can take the same free slot: at most
 * `maxAttempts` passwords are ever checked per account and source within the lockout window,
 * however many requests arrive at once. Returns false when the account is locked for that
 * source. (An UpdateItem: read-only functions may update only LOGINFAIL#/APIKEY# partitions,
 * data-model §8.1.)
 */
export async function claimLoginAttempt(
  userId: number,
  source: string,
  now: number,
  maxAttempts: number,
): Promise<boolean> {
  const key = keys.loginFailures(userId, source);
  // Each lost race means another request took a slot, so a request loses at most maxAttempts
  // times before it sees the account locked; the cap only bounds pathological cases.
  for (let attempt = 1; attempt <= Math.min(maxAttempts + 3, 30); attempt++) {
    const read = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }),
    );
    const claimed = claimSlot(((read.Item?.failures as number[] | undefined) ?? []).map(Number), maxAttempts, now);
    if (!claimed) {
      recordLoginLockout();
      return false;
    }
    const rev = Number(read.Item?.rev ?? 0);
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
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
export async function decoyLoginAttempt(source: string): Promise<void> {
  const key = keys.loginFailures(0, source);
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

/** Only this source's failures: a success elsewhere must not hand an attacker fresh guesses. */
export async function clearLoginFailures(userId: number, source: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: keys.loginFailures(userId, source) }));
}

export async function maxLoginAttempts(): Promise<number> {
  return Number((await loadParameters()).max_login_attempts) || 5;
}
