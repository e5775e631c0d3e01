/**
 * Failed password checks per account, for the login lockout (domain/identity/loginThrottle.ts):
 * claimed one slot at a time under a revision condition, so parallel requests cannot share a slot.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { claimSlot, LOCKOUT_WINDOW_MS } from '../../domain/identity/loginThrottle.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { loadParameters } from '../instance/parameterStore.ts';
import { keys } from '../keys.ts';

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
