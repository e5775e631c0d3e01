import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../dynamoClient.ts';
import { keys } from '../keys.ts';
import type { WriteTransaction } from '../transaction.ts';

/** The marker item that says an installation has been bootstrapped. */
export async function isInstalled(): Promise<boolean> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.installation() }));
  return result.Item !== undefined;
}

/** Written in the bootstrap's transaction, so a concurrent second bootstrap fails as a whole. */
export function putInstallationMarker(
  transaction: WriteTransaction,
  installedAt: string,
  onAlreadyInstalled: () => Error,
): void {
  transaction.put(
    { ...keys.installation(), type: 'installation', installedAt },
    { condition: 'attribute_not_exists(pk)', onConditionFailed: onAlreadyInstalled },
  );
}
