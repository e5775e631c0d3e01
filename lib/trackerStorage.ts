/**
 * The persistent state of an installation: the one DynamoDB table (declared in
 * shared/storage/tableSchema.ts) and the bucket of attachment bodies and search snapshot
 * frames (docs/data-model.md §8.7), with the bucket that receives
 * the attachment bucket's server access logs. All three outlive the stack (RETAIN). The table's
 * stream feeds the notification publisher (notifications.ts).
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { searchKeys } from '../shared/storage/keys.ts';
import {
  GLOBAL_INDEXES,
  PARTITION_KEY,
  SORT_KEY,
  STREAM_VIEW_TYPE,
  TTL_ATTRIBUTE,
} from '../shared/storage/tableSchema.ts';

/**
 * How long an overwritten or deleted attachment body stays restorable (docs/operations.md,
 * "Restoring"). Bodies are never overwritten by the API; the orphan sweep deletes some.
 */
export const NONCURRENT_VERSION_DAYS = 30;
/** Uploads that never completed are debris: S3 keeps (and bills) their parts until told otherwise. */
export const INCOMPLETE_UPLOAD_DAYS = 1;
/** Server access logs of the attachment bucket. */
export const ACCESS_LOG_DAYS = 365;
export const ACCESS_LOG_PREFIX = 'attachments-bucket/';

export interface TrackerStorageProps {
  /** Customer-managed key for the table and the bucket; AWS-managed encryption without one. */
  encryptionKey?: kms.IKey;
}

export class TrackerStorage extends Construct {
  readonly table: dynamodb.Table;
  readonly bucket: s3.Bucket;
  /** Receives the attachment bucket's server access logs. */
  readonly accessLogBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: TrackerStorageProps = {}) {
    super(scope, id);
    const { encryptionKey } = props;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: PARTITION_KEY, type: dynamodb.AttributeType.STRING },
      sortKey: { name: SORT_KEY, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      removalPolicy: RemovalPolicy.RETAIN,
      // The installation's data: a stray `cdk destroy` or console click must not delete it.
      deletionProtection: true,
      // Every write's images before and after: the notification publisher reads bug changes from it.
      stream: dynamodb.StreamViewType[STREAM_VIEW_TYPE],
      ...(encryptionKey ? { encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED, encryptionKey } : {}),
    });
    for (const index of GLOBAL_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    // S3 server access logs can only be delivered to a bucket encrypted with S3-managed keys.
    this.accessLogBucket = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [
        { id: 'ExpireAccessLogs', expiration: Duration.days(ACCESS_LOG_DAYS) },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(INCOMPLETE_UPLOAD_DAYS) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.bucket = new s3.Bucket(this, 'Attachments', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      ...(encryptionKey
        ? // The bucket key makes S3 ask KMS once per bucket and period rather than once per object.
          { encryption: s3.BucketEncryption.KMS, encryptionKey, bucketKeyEnabled: true }
        : { encryption: s3.BucketEncryption.S3_MANAGED }),
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // A body deleted by mistake (or by the orphan sweep) can be restored for a while.
      versioned: true,
      lifecycleRules: [
        {
          id: 'ExpireOldVersions',
          noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
          expiredObjectDeleteMarker: true,
        },
        // A snapshot replaced every few minutes has nothing worth restoring: its old frames go
        // after a day, not with the bodies' versions.
        {
          id: 'ExpireOldSearchSnapshots',
          prefix: searchKeys.snapshotObjectPrefix,
          noncurrentVersionExpiration: Duration.days(1),
          expiredObjectDeleteMarker: true,
        },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(INCOMPLETE_UPLOAD_DAYS) },
      ],
      serverAccessLogsBucket: this.accessLogBucket,
      serverAccessLogsPrefix: ACCESS_LOG_PREFIX,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
