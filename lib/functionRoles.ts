/**
 * Execution roles of the tracker's functions, shared per data-access level rather than one per
 * function: at ~70 functions, a role and a policy each would cost ~140 of CloudFormation's
 * 500 resources. Least privilege is unchanged, since the functions sharing a role are exactly
 * those that were granted the same actions on the same resources.
 *
 * The grants are written out rather than taken from CDK's `grantReadData` and friends, which
 * also give Scan, the stream actions, DescribeTable and the whole bucket: what the functions do
 * is only what shared/storage sends (GetItem, BatchGetItem, Query; PutItem, UpdateItem,
 * DeleteItem, BatchWriteItem and transactions; Scan only in the search compactor; bodies under
 * `attachments/` only).
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { attachmentKeys, searchKeys } from '../shared/storage/keys.ts';
import { TEST_MAIL_PREFIX } from '../shared/storage/notification/sesMailSender.ts';
import { GLOBAL_INDEXES } from '../shared/storage/tableSchema.ts';
import type { DataAccess } from './handlerPlan.ts';
import type { TrackerStorage } from './trackerStorage.ts';

/**
 * What a function needs to log: new streams and their events in the stack's function log group.
 * Written out rather than AWS's AWSLambdaBasicExecutionRole, which allows the same in every log
 * group of the account (and creating log groups).
 */
export const LOG_WRITE_ACTIONS = ['logs:CreateLogStream', 'logs:PutLogEvents'];

/**
 * Partition-key patterns that authentication writes to (see shared/storage/keys.ts: apiKey,
 * loginFailures). The failure items of one account, one per client address, all sit in its
 * `LOGINFAIL#<uid>` partition, so the pattern covers them whatever the address.
 */
export const AUTHENTICATION_WRITE_PARTITIONS = ['APIKEY#*', 'LOGINFAIL#*'];
/** What authentication writes there: a key's last use, a failed login counted or cleared. */
export const AUTHENTICATION_WRITE_ACTIONS = ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'];

/** Item reads; Query also on the indexes. */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
/** Item writes, and the condition checks of transactions (TransactWriteItems is authorized per item). */
export const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];
/** Where attachment bodies live in the bucket. */
export const ATTACHMENT_BODY_PREFIX = attachmentKeys.bodyPrefix;
/** Where the search snapshot's frames live in the bucket (docs/data-model.md §8.7). */
export const SEARCH_SNAPSHOT_PREFIX = searchKeys.snapshotObjectPrefix;

const KEY_READ_ACTIONS = ['kms:Decrypt', 'kms:DescribeKey'];
const KEY_WRITE_ACTIONS = [...KEY_READ_ACTIONS, 'kms:Encrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*'];

/** Shared roles by table access and, for the functions that handle attachment bodies, the bucket. */
const SHARED_ROLE_IDS: Record<DataAccess, { table: string; withBucket: string }> = {
  none: { table: 'NoDataAccessRole', withBucket: 'NoDataAccessRole' },
  read: { table: 'ReadRole', withBucket: 'AttachmentReadRole' },
  readWrite: { table: 'ReadWriteRole', withBucket: 'AttachmentReadWriteRole' },
};

const DESCRIPTIONS: Record<DataAccess, { table: string; withBucket: string }> = {
  none: {
    table: 'Tracker functions without table or bucket access (platform handlers)',
    withBucket: 'Tracker functions without table or bucket access (platform handlers)',
  },
  read: {
    table: 'Tracker functions that read the table',
    withBucket: 'Tracker functions that read the table and attachment bodies',
  },
  readWrite: {
    table: 'Tracker functions that read and write the table',
    withBucket: 'Tracker functions that read and write the table and attachment bodies',
  },
};

const RESERVED_ROLE_IDS = new Set(
  Object.values(SHARED_ROLE_IDS).flatMap((ids) =>
    [ids.table, ids.withBucket].flatMap((id) => [id, `Search${id}`, `Mail${id}`]),
  ),
);

export class FunctionRoles extends Construct {
  private readonly shared = new Map<string, iam.Role>();
  private readonly mailSenders: iam.Role[] = [];

  constructor(
    scope: Construct,
    id: string,
    private readonly storage: TrackerStorage,
    /** Where every function logs (trackerFunction.ts). */
    private readonly logGroup: logs.ILogGroup,
  ) {
    super(scope, id);
  }

  /**
   * The role shared by every function with this access; created on first use. The search
   * functions (`snapshots`) have roles of their own that also read the search snapshot, and the
   * functions that send account mail (`mail`) roles that also keep Test mail in the bucket (SES
   * is granted to them by the notifications, which know the identity: `mailRoles`).
   */
  sharedRole(access: DataAccess, bucket = false, snapshots = false, mail = false): iam.Role {
    const which = bucket && access !== 'none' ? 'withBucket' : 'table';
    const id = `${snapshots ? 'Search' : ''}${mail ? 'Mail' : ''}${SHARED_ROLE_IDS[access][which]}`;
    let role = this.shared.get(id);
    if (!role) {
      const description = DESCRIPTIONS[access][which];
      role = this.createRole(
        id,
        access,
        `${description}${snapshots ? ', and read the search snapshot' : ''}${mail ? ', and send account mail' : ''}`,
        which === 'withBucket',
      );
      if (snapshots) this.allowSnapshotRead(role);
      if (mail) {
        this.allowTestMailKeeping(role);
        this.mailSenders.push(role);
      }
      this.shared.set(id, role);
    }
    return role;
  }

  /** The shared roles of the functions that send account mail. */
  get mailRoles(): readonly iam.Role[] {
    return this.mailSenders;
  }

  /** Keeping mail as `.eml` objects under `outbox/mail/` (mail_delivery_method Test), and nothing else there. */
  allowTestMailKeeping(role: iam.IRole): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject'],
        resources: [this.storage.bucket.arnForObjects(`${TEST_MAIL_PREFIX}*`)],
      }),
    );
    FunctionRoles.allowKeyUse(this.storage.bucket.encryptionKey, role, true);
  }

  /** Reading the search snapshot's frames: what a cold search instance loads. */
  allowSnapshotRead(role: iam.IRole): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [this.storage.bucket.arnForObjects(`${SEARCH_SNAPSHOT_PREFIX}*`)],
      }),
    );
    FunctionRoles.allowKeyUse(this.storage.bucket.encryptionKey, role, false);
  }

  /**
   * Writing search snapshots (the compactor, the bootstrap's empty one): frames put, and the
   * frames of old generations listed and deleted.
   */
  allowSnapshotWrite(role: iam.IRole): void {
    const { bucket } = this.storage;
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
        resources: [bucket.arnForObjects(`${SEARCH_SNAPSHOT_PREFIX}*`)],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${SEARCH_SNAPSHOT_PREFIX}*`] } },
      }),
    );
    FunctionRoles.allowKeyUse(bucket.encryptionKey, role, true);
  }

  /** A role of one function's own, for a function that needs more than its access level (grant the rest to it). */
  dedicatedRole(id: string, access: DataAccess, description: string, bucket = false): iam.Role {
    if (RESERVED_ROLE_IDS.has(id)) throw new Error(`Role id '${id}' is reserved for a shared role`);
    return this.createRole(id, access, description, bucket);
  }

  /** Every shared and dedicated role created so far. */
  get roles(): iam.Role[] {
    return this.node.children.filter((child): child is iam.Role => child instanceof iam.Role);
  }

  /** Reading the whole table page by page: only the search compactor's recovery scan does. */
  allowTableScan(role: iam.IRole): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:Scan'], resources: [this.storage.table.tableArn] }),
    );
  }

  /** Key use for reading (`write` false) or also writing what the key encrypts. */
  static allowKeyUse(key: kms.IKey | undefined, role: iam.IRole, write: boolean): void {
    key?.grant(role, ...(write ? KEY_WRITE_ACTIONS : KEY_READ_ACTIONS));
  }

  private createRole(id: string, access: DataAccess, description: string, bucketAccess: boolean): iam.Role {
    const role = new iam.Role(this, id, {
      description,
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    });
    role.addToPolicy(new iam.PolicyStatement({ actions: LOG_WRITE_ACTIONS, resources: [this.logGroup.logGroupArn] }));
    if (access === 'none') return role;
    const { table, bucket } = this.storage;
    const indexArns = GLOBAL_INDEXES.map((index) => `${table.tableArn}/index/${index.indexName}`);
    role.addToPolicy(new iam.PolicyStatement({ actions: TABLE_READ_ACTIONS, resources: [table.tableArn] }));
    role.addToPolicy(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: indexArns }));
    if (access === 'read') {
      // Authenticating on any route may stamp an API key's last use or count a failed password
      // login; those writes, and only those, are allowed to read-only functions. The Null
      // condition makes the partition test apply to every request: ForAllValues alone would
      // also pass a request that carries no partition key at all.
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: AUTHENTICATION_WRITE_ACTIONS,
          resources: [table.tableArn],
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': AUTHENTICATION_WRITE_PARTITIONS },
            Null: { 'dynamodb:LeadingKeys': 'false' },
          },
        }),
      );
    } else {
      role.addToPolicy(new iam.PolicyStatement({ actions: TABLE_WRITE_ACTIONS, resources: [table.tableArn] }));
    }
    // Authentication writes even from read-only functions: every role with table access may encrypt.
    FunctionRoles.allowKeyUse(table.encryptionKey, role, true);
    if (bucketAccess) {
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: access === 'read' ? ['s3:GetObject'] : ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
          resources: [bucket.arnForObjects(`${ATTACHMENT_BODY_PREFIX}*`)],
        }),
      );
      // No ListBucket: nothing here lists bodies (only the orphan sweep, with a role of its own),
      // and a missing body is an error whether S3 says 403 or 404.
      FunctionRoles.allowKeyUse(bucket.encryptionKey, role, access === 'readWrite');
    }
    return role;
  }
}
