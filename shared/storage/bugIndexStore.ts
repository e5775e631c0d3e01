import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamoClient.ts';

/**
 * Reads of the bug search index that catalogue code needs (docs/data-model.md: each bug's
 * search item carries gsi2 `COMPONENT#<componentId>`).
 */
export async function componentHasBugs(componentId: number): Promise<boolean> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': `COMPONENT#${componentId}` },
      Limit: 1,
      Select: 'COUNT',
    }),
  );
  return (result.Count ?? 0) > 0;
}
