/**
 * Execution roles of the tracker's functions, shared per data-access level rather than one per
 * function: at ~60 functions, a role and a policy each would cost ~120 of CloudFormation's
 * 500 resources. Least privilege is unchanged, since the functions sharing a role are exactly
 * those that were granted the same actions on the same resources.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { DataAccess } from './handlerPlan.ts';
import type { TrackerStorage } from './trackerStorage.ts';

/** Lets a function write its logs (to its own log group); nothing else. */
export const BASIC_EXECUTION_POLICY = 'service-role/AWSLambdaBasicExecutionRole';

/**
 * Partition-key patterns that authentication writes to (see shared/storage/keys.ts: apiKey,
 * loginFailures). The failure items of one account, one per client address, all sit in its
 * `LOGINFAIL#<uid>` partition, so the pattern covers them whatever the address.
 */
export const AUTHENTICATION_WRITE_PARTITIONS = ['APIKEY#*', 'LOGINFAIL#*'];

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

const RESERVED_ROLE_IDS = new Set(Object.values(SHARED_ROLE_IDS).flatMap((ids) => [ids.table, ids.withBucket]));

export class FunctionRoles extends Construct {
  private readonly shared = new Map<string, iam.Role>();

  constructor(
    scope: Construct,
    id: string,
    private readonly storage: TrackerStorage,
  ) {
    super(scope, id);
  }

  /** The role shared by every function with this access; created on first use. */
  sharedRole(access: DataAccess, bucket = false): iam.Role {
    const which = bucket && access !== 'none' ? 'withBucket' : 'table';
    const id = SHARED_ROLE_IDS[access][which];
    let role = this.shared.get(id);
    if (!role) {
      role = this.createRole(id, access, DESCRIPTIONS[access][which], which === 'withBucket');
      this.shared.set(id, role);
    }
    return role;
  }

  /** A role of one function's own, for a function that needs more than its access level (grant the rest to it). */
  dedicatedRole(id: string, access: DataAccess, description: string, bucket = false): iam.Role {
    if (RESERVED_ROLE_IDS.has(id)) throw new Error(`Role id '${id}' is reserved for a shared role`);
    return this.createRole(id, access, description, bucket);
  }

  private createRole(id: string, access: DataAccess, description: string, bucketAccess: boolean): iam.Role {
    const role = new iam.Role(this, id, {
      description,
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName(BASIC_EXECUTION_POLICY)],
    });
    const { table, bucket } = this.storage;
    if (access === 'read') {
      table.grantReadData(role);
      if (bucketAccess) bucket.grantRead(role);
      // Authenticating on any route may stamp an API key's last use or count a failed password
      // login; those writes, and only those, are allowed to read-only functions.
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': AUTHENTICATION_WRITE_PARTITIONS } },
        }),
      );
    } else if (access === 'readWrite') {
      table.grantReadWriteData(role);
      if (bucketAccess) bucket.grantReadWrite(role);
    }
    return role;
  }
}
