import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENV } from './tableSchema.ts';

/**
 * One client per Lambda container, created on first use. Locally, TRACKER_DYNAMODB_ENDPOINT
 * points it at DynamoDB Local; on AWS the default credential chain and region apply.
 */
let client: DynamoDBDocumentClient | undefined;

export function documentClient(): DynamoDBDocumentClient {
  if (!client) {
    const endpoint = process.env[ENV.dynamodbEndpoint];
    const base = new DynamoDBClient(
      endpoint
        ? { endpoint, region: process.env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {},
    );
    client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  }
  return client;
}

/** Read at call time, so a test file can point the same process at its own fresh table. */
export function tableName(): string {
  const name = process.env[ENV.table];
  if (!name) throw new Error(`${ENV.table} is not set`);
  return name;
}
