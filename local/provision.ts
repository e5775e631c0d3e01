import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  GLOBAL_INDEXES,
  KEY_ATTRIBUTES,
  PARTITION_KEY,
  SORT_KEY,
  STREAM_VIEW_TYPE,
  TTL_ATTRIBUTE,
} from '../shared/storage/tableSchema.ts';

/**
 * Creates, on the local engines, what the CDK stack creates on AWS: the table (from the same
 * declaration in tableSchema.ts) and the attachment bucket. Both calls are idempotent.
 */
const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };
/** s3rver accepts only its own fixed key pair. */
const s3rverCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const STREAM = { StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE } as const;

/**
 * The table with its change stream, which the notification publisher reads (docs/events.md). A
 * table created before the stream existed (an older `.data`) gets it now: its changes from here
 * on are published. `stream: false` leaves it out (a bulk benchmark that publishes nothing).
 */
export async function ensureTable(
  endpoint: string,
  tableName: string,
  options: { stream?: boolean } = {},
): Promise<void> {
  const stream = options.stream ?? true;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: localCredentials });
  try {
    const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (stream && table?.StreamSpecification?.StreamEnabled !== true)
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: STREAM }));
    client.destroy();
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      ...(stream ? { StreamSpecification: STREAM } : {}),
      AttributeDefinitions: KEY_ATTRIBUTES.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
        { AttributeName: SORT_KEY, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    }),
  );
  client.destroy();
}

export async function ensureBucket(endpoint: string, bucket: string): Promise<void> {
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3rverCredentials });
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  }
  client.destroy();
}
