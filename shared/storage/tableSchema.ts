/**
 * The one DynamoDB table, declared once: the CDK stack and the local bootstrap both build it from
 * this. Every key attribute is a generic string; which entity uses which index with which key
 * prefix is documented in docs/data-model.md and encoded only in shared/storage/keys.ts.
 */
export const PARTITION_KEY = 'pk';
export const SORT_KEY = 'sk';
/** Epoch seconds; DynamoDB's TTL deletes login tokens, throttling windows and last visits. */
export const TTL_ATTRIBUTE = 'expiresAt';

/**
 * The table's change stream: every item's image before and after each write. The notification
 * publisher reads bug changes from it (shared/application/notification/changePublisher.ts).
 */
export const STREAM_VIEW_TYPE = 'NEW_AND_OLD_IMAGES';

export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey: string;
}

/** Overloaded secondary indexes: each entity puts its own prefixes in them (see keys.ts). */
export const GLOBAL_INDEXES: readonly IndexDefinition[] = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
];

export type IndexName = 'gsi1' | 'gsi2' | 'gsi3';

/** Every key attribute of the table and its indexes (all strings). */
export const KEY_ATTRIBUTES: readonly string[] = [
  PARTITION_KEY,
  SORT_KEY,
  ...GLOBAL_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey]),
];

/** Environment variables through which the stack and the local server name the resources. */
export const ENV = {
  table: 'TRACKER_TABLE',
  bucket: 'TRACKER_BUCKET',
  dynamodbEndpoint: 'TRACKER_DYNAMODB_ENDPOINT',
  s3Endpoint: 'TRACKER_S3_ENDPOINT',
} as const;
