/**
 * Started single sign-ons (shared/domain/identity/singleSignOn.ts), one item each under the
 * digest of its state. Finishing one deletes it in the same request that reads it, so a state
 * is good for one finish only; DynamoDB's TTL on `expiresAt` removes those never finished.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StartedSignIn } from '../../domain/identity/singleSignOn.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { keys } from '../keys.ts';

export async function putStartedSignIn(stateDigest: string, started: StartedSignIn): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.signInState(stateDigest), type: 'signInState', ...started },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** The started sign-in, deleted as it is read: of two finishes racing with one state, one gets it. */
export async function takeStartedSignIn(stateDigest: string): Promise<StartedSignIn | null> {
  const answer = await documentClient().send(
    new DeleteCommand({ TableName: tableName(), Key: keys.signInState(stateDigest), ReturnValues: 'ALL_OLD' }),
  );
  const item = answer.Attributes;
  if (!item) return null;
  return {
    nonceDigest: String(item.nonceDigest),
    codeChallenge: String(item.codeChallenge),
    expiresAt: Number(item.expiresAt),
  };
}
