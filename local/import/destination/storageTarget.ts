import { ENV } from '../../../shared/storage/tableSchema.ts';

/**
 * Where the storage modules write: they read the table and bucket names (and, locally, the
 * engines' endpoints) from the environment at call time (dynamoClient.ts), so pointing the
 * importer at a target is setting them before the first call.
 */
export interface StorageTarget {
  table: string;
  bucket: string;
  /** Local engines; absent for AWS (the operator's credentials and region apply). */
  dynamodbEndpoint?: string;
  s3Endpoint?: string;
  /** For the report: `.data`, `stack tracker-prod`, ... */
  description?: string;
}

export function pointStorageAt(target: StorageTarget): void {
  process.env[ENV.table] = target.table;
  process.env[ENV.bucket] = target.bucket;
  if (target.dynamodbEndpoint) process.env[ENV.dynamodbEndpoint] = target.dynamodbEndpoint;
  if (target.s3Endpoint) process.env[ENV.s3Endpoint] = target.s3Endpoint;
}
