import type { FlagType } from '../domain/flagTypes.ts';
import { tableName } from './dynamoClient.ts';
import { catalogKeys } from './keys.ts';
import { queryAll } from './queryAll.ts';

/** Flag types: one item each (`FLAGTYPE#<id>`), inclusions and exclusions as list attributes. */
export async function loadFlagTypes(): Promise<FlagType[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': catalogKeys.flagTypesIndex },
  });
  return items.map((item) => {
    const { pk, sk, gsi1pk, gsi1sk, type, ...flagType } = item;
    void pk, sk, gsi1pk, gsi1sk, type;
    return flagType as unknown as FlagType;
  });
}
