import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../dynamoClient.ts';
import { bugKeys } from '../keys.ts';

/**
 * Reads about bugs that catalogue code needs: each bug item carries gsi2 `COMPONENT#<componentId>`
 * (docs/data-model.md §3), so a component that still has bugs is found with one small Query.
 */
export async function componentHasBugs(componentId: number): Promise<boolean> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': bugKeys.componentIndexPartition(componentId) },
      Limit: 1,
      Select: 'COUNT',
    }),
  );
  return (result.Count ?? 0) > 0;
}
