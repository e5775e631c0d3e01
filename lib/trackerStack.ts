/**
 * The Tracker stack: storage, one Lambda per handler module of the route table behind an HTTP
 * API, and a deploy-time bootstrap that creates the first administrator.
 *
 * Sized for CloudFormation's 500-resource limit: what grows with the route table is, per function,
 * the function, its log group, one integration and one invoke permission (execution roles are
 * shared per access level), and per route row one route (two for GET: GET and HEAD).
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, CfnParameter, CustomResource, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpMethod as ApiMethod, type CfnStage, HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { platformHandlers, type RouteDefinition, routes as routeTable } from '../shared/routes.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import { ApiLambdaIntegration } from './apiIntegration.ts';
import { FunctionRoles } from './functionRoles.ts';
import { BOOTSTRAP_HANDLER, type HandlerPlan, planHandlers } from './handlerPlan.ts';
import { createFunctionLogGroup, createTrackerFunction } from './trackerFunction.ts';
import { TrackerStorage } from './trackerStorage.ts';

/** The repository root (this file is lib/trackerStack.ts). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Handler modules that keep the in-memory search index, and the memory they get (MB). */
export const SEARCH_INDEX_MODULES: readonly string[] = ['bug/searchBugs', 'bug/possibleDuplicates'];
export const SEARCH_FUNCTION_MEMORY_MB = 1536;
export const SEARCH_COMPACTOR_MODULE = 'search/compactSearchIndex';
export const SEARCH_COMPACTION_MINUTES = 10;
/** The scheduled attachment orphan sweep (shared/application/bug/attachmentSweep.ts). */
export const ATTACHMENT_SWEEP_MODULE = 'attachment/sweepOrphanBodies';
export const ATTACHMENT_SWEEP_HOURS = 24;
/** Listing the bucket is the long part: 15 minutes (Lambda's most) covers millions of bodies. */
export const ATTACHMENT_SWEEP_TIMEOUT = Duration.minutes(15);
/** The table partitions the sweep reads and claims: attachment pointers (shared/storage/keys.ts). */
export const ATTACHMENT_SWEEP_PARTITIONS = ['ATTACHMENT#*'];

/** Environment of the bootstrap function, besides the table and bucket names. */
export const BOOTSTRAP_ENV = {
  adminLogin: 'TRACKER_ADMIN_LOGIN',
  adminApiKeySecretArn: 'TRACKER_ADMIN_API_KEY_SECRET_ARN',
} as const;

export const BOOTSTRAP_TIMEOUT = Duration.seconds(60);

/** Context keys (`-c apiRateLimit=...`) for the API's stage-wide throttling, in requests per second. */
export const API_RATE_LIMIT_CONTEXT = 'apiRateLimit';
export const API_BURST_LIMIT_CONTEXT = 'apiBurstLimit';
export const DEFAULT_API_RATE_LIMIT = 200;
export const DEFAULT_API_BURST_LIMIT = 400;

function numberFromContext(scope: Construct, key: string, fallback: number): number {
  const value: unknown = scope.node.tryGetContext(key);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new Error(`Context ${key} must be a positive number, not '${String(value)}'`);
  return number;
}

/** Context key that pins the bootstrap custom resource's per-deploy nonce (tests, reproducible synth). */
export const BOOTSTRAP_NONCE_CONTEXT = 'bootstrapNonce';

export interface TrackerStackProps extends StackProps {
  /** Holds package-lock.json and functions/; defaults to this repository. */
  projectRoot?: string;
  /** Defaults to shared/routes.ts. */
  routes?: readonly RouteDefinition[];
}

export class TrackerStack extends Stack {
  readonly storage: TrackerStorage;
  readonly api: HttpApi;
  readonly adminApiKey: secretsmanager.Secret;
  readonly roles: FunctionRoles;
  readonly plans: readonly HandlerPlan[];
  /** Handler module -> its function. */
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  /** The scheduled search snapshot compactor (not an API route). */
  readonly searchCompactor: NodejsFunction;
  /** The scheduled attachment orphan sweep (not an API route). */
  readonly attachmentSweep: NodejsFunction;

  constructor(scope: Construct, id: string, props: TrackerStackProps = {}) {
    super(scope, id, props);
    const projectRoot = props.projectRoot ?? PROJECT_ROOT;
    const routes = props.routes ?? routeTable;

    this.storage = new TrackerStorage(this, 'Storage');
    const { table, bucket } = this.storage;

    // --- Bootstrap inputs -------------------------------------------------------------------
    const adminEmail = new CfnParameter(this, 'AdminEmail', {
      type: 'String',
      default: 'admin@example.com',
      description: 'Login (e-mail address) of the first administrator, created on the first deploy.',
      allowedPattern: '^[^@\\s]+@[^@\\s]+$',
      constraintDescription: 'must be an e-mail address',
    });
    this.adminApiKey = new secretsmanager.Secret(this, 'AdminApiKey', {
      description: 'API key of the first Tracker administrator',
      generateSecretString: { excludePunctuation: true, passwordLength: 40 },
      // The administrator it belongs to lives in the retained table.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // --- Functions --------------------------------------------------------------------------
    this.plans = planHandlers(routes);
    // One role per access level (table, and the bucket for attachment functions); only the bootstrap has one of its own (it also reads the secret).
    this.roles = new FunctionRoles(this, 'FunctionRoles', this.storage);
    const bootstrapRole = this.roles.dedicatedRole('BootstrapRole', 'readWrite', 'Tracker deploy-time bootstrap');
    this.adminApiKey.grantRead(bootstrapRole);
    const functions = new Map<string, NodejsFunction>();
    const logGroup = createFunctionLogGroup(this, 'FunctionLogs');
    for (const plan of this.plans) {
      const environment: Record<string, string> = { [ENV.table]: table.tableName, [ENV.bucket]: bucket.bucketName };
      if (plan.kind === 'bootstrap') {
        environment[BOOTSTRAP_ENV.adminLogin] = adminEmail.valueAsString;
        environment[BOOTSTRAP_ENV.adminApiKeySecretArn] = this.adminApiKey.secretArn;
      }
      const fn = createTrackerFunction(this, `${plan.constructId}Function`, {
        projectRoot,
        module: plan.module,
        environment,
        role: plan.kind === 'bootstrap' ? bootstrapRole : this.roles.sharedRole(plan.access, plan.bucket),
        logGroup,
        timeout: plan.kind === 'bootstrap' ? BOOTSTRAP_TIMEOUT : undefined,
        memorySize: SEARCH_INDEX_MODULES.includes(plan.module) ? SEARCH_FUNCTION_MEMORY_MB : undefined,
      });
      functions.set(plan.module, fn);
    }

    // --- Search snapshot compactor ----------------------------------------------------------
    // Writes a fresh search snapshot on a schedule, so a new search instance replays minutes of
    // the change log, not days, and the log can expire (docs/data-model.md §8.7).
    const compactor = createTrackerFunction(this, 'SearchCompactorFunction', {
      projectRoot,
      module: SEARCH_COMPACTOR_MODULE,
      environment: { [ENV.table]: table.tableName, [ENV.bucket]: bucket.bucketName },
      role: this.roles.sharedRole('readWrite'),
      logGroup,
      timeout: Duration.minutes(5),
      memorySize: SEARCH_FUNCTION_MEMORY_MB,
    });
    this.searchCompactor = compactor;
    new events.Rule(this, 'SearchCompactorSchedule', {
      description: 'Tracker: write a fresh search snapshot',
      schedule: events.Schedule.rate(Duration.minutes(SEARCH_COMPACTION_MINUTES)),
      targets: [new eventTargets.LambdaFunction(compactor, { retryAttempts: 0 })],
    });

    // --- Attachment orphan sweep ------------------------------------------------------------
    // Deletes bodies whose upload died before its metadata's transaction (docs/data-model.md §3).
    // Its own role with only what it does: list and delete bodies, and read and claim attachment
    // pointers (BatchGetItem and a conditional PutItem, on `ATTACHMENT#` partitions only).
    const sweepRole = this.roles.dedicatedRole('AttachmentSweepRole', 'none', 'Tracker attachment orphan sweep');
    sweepRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': ['attachments/*'] } },
      }),
    );
    sweepRole.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:DeleteObject'], resources: [bucket.arnForObjects('attachments/*')] }),
    );
    sweepRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:BatchGetItem', 'dynamodb:PutItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ATTACHMENT_SWEEP_PARTITIONS } },
      }),
    );
    const sweep = createTrackerFunction(this, 'AttachmentSweepFunction', {
      projectRoot,
      module: ATTACHMENT_SWEEP_MODULE,
      environment: { [ENV.table]: table.tableName, [ENV.bucket]: bucket.bucketName },
      role: sweepRole,
      logGroup,
      timeout: ATTACHMENT_SWEEP_TIMEOUT,
    });
    this.attachmentSweep = sweep;
    new events.Rule(this, 'AttachmentSweepSchedule', {
      description: 'Tracker: delete attachment bodies that no attachment refers to',
      schedule: events.Schedule.rate(Duration.hours(ATTACHMENT_SWEEP_HOURS)),
      // A missed run is made up by the next one.
      targets: [new eventTargets.LambdaFunction(sweep, { retryAttempts: 0 })],
    });

    this.functions = functions;
    const functionFor = (module: string): NodejsFunction => {
      const fn = functions.get(module);
      if (!fn) throw new Error(`No function for handler module '${module}'`);
      return fn;
    };

    // --- HTTP API ---------------------------------------------------------------------------
    // One integration per function, shared by all of its routes, and with it one invoke permission
    // per function (for any route of this API). No corsPreflight: the options handler answers
    // OPTIONS itself.
    const integrations = new Map<string, ApiLambdaIntegration>();
    const integrationFor = (module: string): ApiLambdaIntegration => {
      let integration = integrations.get(module);
      if (!integration) {
        integration = new ApiLambdaIntegration(`${functionFor(module).node.id}Integration`, functionFor(module));
        integrations.set(module, integration);
      }
      return integration;
    };

    this.api = new HttpApi(this, 'Api', {
      apiName: this.stackName,
      description: 'Tracker: Bugzilla-compatible REST API',
      // The $default route: anything no route matches gets Bugzilla's "unknown method" error.
      defaultIntegration: integrationFor(platformHandlers.notFound),
    });
    for (const row of routes) {
      const methods = row.method === 'GET' ? [ApiMethod.GET, ApiMethod.HEAD] : [ApiMethod[row.method]];
      this.api.addRoutes({ path: row.path, methods, integration: integrationFor(row.handler) });
    }
    this.api.addRoutes({
      path: '/{proxy+}',
      methods: [ApiMethod.OPTIONS],
      integration: integrationFor(platformHandlers.options),
    });

    if (!this.api.url) throw new Error('The HTTP API has no default stage');
    // Stage-wide throttling: a runaway script gets HTTP 429 from API Gateway instead of using up
    // the account's Lambda concurrency and DynamoDB capacity. Tunable per deployment.
    const stage = this.api.defaultStage?.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = {
      throttlingRateLimit: numberFromContext(this, API_RATE_LIMIT_CONTEXT, DEFAULT_API_RATE_LIMIT),
      throttlingBurstLimit: numberFromContext(this, API_BURST_LIMIT_CONTEXT, DEFAULT_API_BURST_LIMIT),
    };
    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the Bugzilla REST API', value: `${this.api.url}rest` });

    // --- Deploy-time bootstrap --------------------------------------------------------------
    const bootstrap = functionFor(BOOTSTRAP_HANDLER);
    const provider = new Provider(this, 'BootstrapProvider', {
      onEventHandler: bootstrap,
      logGroup,
    });
    const nonce: unknown = this.node.tryGetContext(BOOTSTRAP_NONCE_CONTEXT);
    new CustomResource(this, 'Bootstrap', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::TrackerBootstrap',
      properties: {
        AdminLogin: adminEmail.valueAsString,
        AdminApiKeySecretArn: this.adminApiKey.secretArn,
        TableName: table.tableName,
        BucketName: bucket.bucketName,
        // Changes on every synth, so CloudFormation updates the resource (and the idempotent
        // bootstrap runs) on every deploy.
        DeployNonce: typeof nonce === 'string' ? nonce : new Date().toISOString(),
      },
    });
    // The importer (`npm run import -- --stack <name>`) finds the table and bucket here.
    new CfnOutput(this, 'TableName', { description: 'DynamoDB table of the installation', value: table.tableName });
    new CfnOutput(this, 'BucketName', { description: 'S3 bucket of attachment bodies', value: bucket.bucketName });
    new CfnOutput(this, 'AdminApiKeySecretArn', {
      description: "Secrets Manager secret holding the first administrator's API key",
      value: this.adminApiKey.secretArn,
    });
  }
}
