/**
 * The Tracker stack: storage, one Lambda per handler module of the route table behind an HTTP
 * API, the scheduled search compactor and attachment sweep, the notification publisher on the
 * table's stream (notifications.ts), a deploy-time bootstrap that creates the first
 * administrator, and the monitoring; shaped by the deployment settings
 * (stackSettings.ts, docs/operations.md).
 *
 * Sized for CloudFormation's 500-resource limit per template: the API's functions, with their
 * integrations and invoke permissions, live in one nested stack per feature family
 * (featureStacks.ts); this root stack keeps the data, the HTTP API with its routes (one per
 * route row, two for GET: GET and HEAD), the shared execution roles (one per access level), the
 * one function log group, the scheduled and notification functions and the monitoring (errors
 * and throttles watched in groups of ten functions). test/unit/trackerStack.suite.ts keeps every
 * template under 60% of the limit.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, CfnParameter, CustomResource, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpMethod as ApiMethod, HttpApi, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { SINGLE_SIGN_ON_ENV } from '../shared/domain/identity/singleSignOn.ts';
import { platformHandlers, type RouteDefinition, routes as routeTable } from '../shared/routes.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import { apiBaseUrl, apiEndpoint, configureDefaultStage } from './apiEndpoint.ts';
import { FeatureStack, featureFamilyOf, featureStackId, type NestedLambdaIntegration } from './featureStacks.ts';
import { ATTACHMENT_BODY_PREFIX, FunctionRoles } from './functionRoles.ts';
import { BOOTSTRAP_HANDLER, type HandlerPlan, planHandlers } from './handlerPlan.ts';
import { Monitoring } from './monitoring.ts';
import { applyNagSuppressions } from './nagSuppressions.ts';
import { Notifications } from './notifications.ts';
import { createFailedRunQueue, schedule } from './scheduledRuns.ts';
import { SEARCH_NODE_OPTIONS } from './searchSizing.ts';
import { clientSecretArnOf, ISSUER_CLIENT_MODULES, SINGLE_SIGN_ON_MODULES, SingleSignOn } from './singleSignOn.ts';
import { stackKey } from './stackEncryption.ts';
import {
  CONTEXT,
  DEFAULT_FUNCTION_SIZING,
  type FunctionFamily,
  readStackSettings,
  type StackSettings,
} from './stackSettings.ts';
import { createFunctionLogGroup, createTrackerFunction, type FunctionObservability } from './trackerFunction.ts';
import { TrackerStorage } from './trackerStorage.ts';
import { WebFrontEnd } from './webFrontEnd.ts';

/** The repository root (this file is lib/trackerStack.ts). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Handler modules that keep the in-memory search index (the `search` function family). The RPC
 * function runs Bug.search and Bug.possible_duplicates in-process, so it builds and keeps an
 * index of its own and needs their memory. So do the catalogue deletes, which count on the index
 * the bugs that still use what is deleted (rarely called: their memory costs only when they run).
 */
export const SEARCH_INDEX_MODULES: readonly string[] = [
  'bug/searchBugs',
  'bug/possibleDuplicates',
  'rpc/rpcEndpoint',
  // Deleting a catalogue value first counts the bugs that use it, on the index (valueUsage.ts).
  'keyword/deleteKeyword',
  'product/deleteProduct',
  'product/deleteVersion',
  'product/deleteMilestone',
  'flagType/deleteFlagType',
];
export const SEARCH_FUNCTION_MEMORY_MB = DEFAULT_FUNCTION_SIZING.search.memoryMb;
export const SEARCH_COMPACTOR_MODULE = 'search/compactSearchIndex';
export const SEARCH_COMPACTION_MINUTES = 10;
/**
 * A failed compaction is tried twice more (Lambda waits about 1 and 2 minutes); after that, or
 * once the next scheduled run is due, it goes to the failed-run queue.
 */
export const SEARCH_COMPACTION_RETRIES = 2;
/** The scheduled attachment orphan sweep (shared/application/bug/attachmentSweep.ts). */
export const ATTACHMENT_SWEEP_MODULE = 'attachment/sweepOrphanBodies';
export const ATTACHMENT_SWEEP_HOURS = 24;
/** Listing the bucket is the long part: 15 minutes (Lambda's most) covers millions of bodies. */
export const ATTACHMENT_SWEEP_TIMEOUT = Duration.seconds(DEFAULT_FUNCTION_SIZING.sweep.timeoutSeconds);
/** The table partitions the sweep reads and claims: attachment pointers (shared/storage/keys.ts). */
export const ATTACHMENT_SWEEP_PARTITIONS = ['ATTACHMENT#*'];

/** Environment of the bootstrap function, besides the table and bucket names. */
export const BOOTSTRAP_ENV = {
  adminLogin: 'TRACKER_ADMIN_LOGIN',
  adminApiKeySecretArn: 'TRACKER_ADMIN_API_KEY_SECRET_ARN',
} as const;

export const BOOTSTRAP_TIMEOUT = Duration.seconds(60);

/** Context keys (`-c apiRateLimit=...`) for the API's stage-wide throttling, in requests per second. */
export const API_RATE_LIMIT_CONTEXT = CONTEXT.apiRateLimit;
export const API_BURST_LIMIT_CONTEXT = CONTEXT.apiBurstLimit;
export { DEFAULT_API_BURST_LIMIT, DEFAULT_API_RATE_LIMIT } from './stackSettings.ts';

/** Context key that pins the bootstrap custom resource's per-deploy nonce (tests, reproducible synth). */
export const BOOTSTRAP_NONCE_CONTEXT = 'bootstrapNonce';

export interface TrackerStackProps extends StackProps {
  /** Holds package-lock.json and functions/; defaults to this repository. */
  projectRoot?: string;
  /** Defaults to shared/routes.ts. */
  routes?: readonly RouteDefinition[];
  /** The built web app (index.html and its assets); defaults to web/dist under the project root (`npm run build:web`). */
  webAssetDirectory?: string;
}

/** The sizing family of a planned function. */
export function familyOf(plan: HandlerPlan): FunctionFamily | 'other' {
  if (plan.kind === 'bootstrap') return 'other';
  return SEARCH_INDEX_MODULES.includes(plan.module) ? 'search' : 'api';
}

export class TrackerStack extends Stack {
  readonly settings: StackSettings;
  /** The customer-managed key, when the deployment asks for one (`-c kmsKey=...`). */
  readonly encryptionKey?: kms.IKey;
  readonly storage: TrackerStorage;
  readonly api: HttpApi;
  readonly adminApiKey: secretsmanager.Secret;
  readonly roles: FunctionRoles;
  readonly plans: readonly HandlerPlan[];
  /** Handler module -> its function. */
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  /** The nested stacks of the API's functions, one per feature family (featureStacks.ts). */
  readonly featureStacks: readonly FeatureStack[];
  /** The scheduled search snapshot compactor (not an API route). */
  readonly searchCompactor: NodejsFunction;
  /** The scheduled attachment orphan sweep (not an API route). */
  readonly attachmentSweep: NodejsFunction;
  /** Scheduled runs that failed for good (both scheduled functions). */
  readonly failedRuns: sqs.Queue;
  /** The event bus, the publisher on the table's stream and, when configured, the webhook function. */
  readonly notifications: Notifications;
  readonly functionLogs: logs.LogGroup;
  readonly apiAccessLogs: logs.LogGroup;
  readonly monitoring: Monitoring;
  /** The web app and the API behind one CloudFront distribution (webFrontEnd.ts). */
  readonly web: WebFrontEnd;
  /** Single sign-on, when `-c oidc=...` switches it on (singleSignOn.ts). */
  readonly singleSignOn?: SingleSignOn;

  constructor(scope: Construct, id: string, props: TrackerStackProps = {}) {
    super(scope, id, props);
    const projectRoot = props.projectRoot ?? PROJECT_ROOT;
    const routes = props.routes ?? routeTable;
    const settings = readStackSettings(this);
    this.settings = settings;
    const sizing = settings.functions;

    this.encryptionKey = stackKey(this, 'EncryptionKey', settings.encryption);
    const encryptionKey = this.encryptionKey;
    this.storage = new TrackerStorage(this, 'Storage', { encryptionKey });
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
      encryptionKey,
      // The administrator it belongs to lives in the retained table.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // --- Functions --------------------------------------------------------------------------
    const observability: FunctionObservability = {
      applicationLogLevel: settings.applicationLogLevel,
      systemLogLevel: settings.systemLogLevel,
      tracing: settings.tracing,
    };
    const storageEnvironment = () => ({ [ENV.table]: table.tableName, [ENV.bucket]: bucket.bucketName });
    this.plans = planHandlers(routes);
    // One role per access level (table, and the bucket for attachment functions); only the bootstrap has one of its own (it also reads the secret).
    const logGroup = createFunctionLogGroup(this, 'FunctionLogs', { retention: settings.logRetention, encryptionKey });
    this.functionLogs = logGroup;
    this.roles = new FunctionRoles(this, 'FunctionRoles', this.storage, logGroup);
    const bootstrapRole = this.roles.dedicatedRole('BootstrapRole', 'readWrite', 'Tracker deploy-time bootstrap');
    this.adminApiKey.grantRead(bootstrapRole);
    // It writes a new installation's empty search snapshot.
    this.roles.allowSnapshotWrite(bootstrapRole);
    // The functions that talk to the issuer read its client secret, when it has one: a role of
    // their own, so that no other function may.
    const clientSecretArn = clientSecretArnOf(this, settings.singleSignOn);
    const signInRole = clientSecretArn
      ? this.roles.dedicatedRole('SingleSignOnRole', 'readWrite', 'Tracker single sign-on (reads the client secret)')
      : undefined;
    if (signInRole && clientSecretArn)
      signInRole.addToPolicy(
        new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [clientSecretArn] }),
      );
    const functions = new Map<string, NodejsFunction>();
    const byFamily: Record<FunctionFamily | 'other', lambda.IFunction[]> = {
      api: [],
      search: [],
      compactor: [],
      sweep: [],
      notification: [],
      other: [],
    };
    const createPlannedFunction = (scope: Construct, plan: HandlerPlan): NodejsFunction => {
      const environment: Record<string, string> = storageEnvironment();
      if (plan.kind === 'bootstrap') {
        environment[BOOTSTRAP_ENV.adminLogin] = adminEmail.valueAsString;
        environment[BOOTSTRAP_ENV.adminApiKeySecretArn] = this.adminApiKey.secretArn;
      }
      const family = familyOf(plan);
      const size = family === 'other' ? undefined : sizing[family];
      if (family === 'search') environment.NODE_OPTIONS = SEARCH_NODE_OPTIONS;
      return createTrackerFunction(scope, `${plan.constructId}Function`, {
        projectRoot,
        module: plan.module,
        environment,
        role:
          plan.kind === 'bootstrap'
            ? bootstrapRole
            : signInRole && (ISSUER_CLIENT_MODULES as readonly string[]).includes(plan.module)
              ? signInRole
              : this.roles.sharedRole(plan.access, plan.bucket, family === 'search', plan.mail),
        logGroup,
        observability,
        timeout: size ? Duration.seconds(size.timeoutSeconds) : BOOTSTRAP_TIMEOUT,
        memorySize: size?.memoryMb,
      });
    };

    // --- HTTP API ---------------------------------------------------------------------------
    // Without `corsOrigins`, no CORS configuration: the options handler answers OPTIONS itself.
    const endpoint = apiEndpoint(this, settings);
    this.api = new HttpApi(this, 'Api', {
      apiName: this.stackName,
      description: 'Tracker: Bugzilla-compatible REST API',
      ...endpoint.props,
    });

    // The API's functions, one nested stack per feature family (featureStacks.ts), each with one
    // integration per function (shared by all of its routes) and one invoke permission. The
    // bootstrap stays here, beside the custom resource that runs it.
    const families = new Map<string, HandlerPlan[]>();
    for (const plan of this.plans) {
      if (plan.kind === 'bootstrap') continue;
      const family = featureFamilyOf(plan.module);
      families.set(family, [...(families.get(family) ?? []), plan]);
    }
    const featureStacks = new Map<string, FeatureStack>();
    for (const [family, plans] of families) {
      featureStacks.set(
        family,
        new FeatureStack(this, featureStackId(family), {
          family,
          plans,
          api: this.api,
          createFunction: createPlannedFunction,
        }),
      );
    }
    this.featureStacks = [...featureStacks.values()];
    const integrations = new Map<string, NestedLambdaIntegration>();
    for (const plan of this.plans) {
      const fn =
        plan.kind === 'bootstrap'
          ? createPlannedFunction(this, plan)
          : featureStacks.get(featureFamilyOf(plan.module))?.functions.get(plan.module);
      if (!fn) throw new Error(`No function for handler module '${plan.module}'`);
      const integration = featureStacks.get(featureFamilyOf(plan.module))?.routeIntegrations.get(plan.module);
      if (integration) integrations.set(plan.module, integration);
      functions.set(plan.module, fn);
      byFamily[familyOf(plan)].push(fn);
    }

    // --- Scheduled functions ----------------------------------------------------------------
    this.failedRuns = createFailedRunQueue(this, 'FailedScheduledRuns', encryptionKey);

    // Writes a fresh search snapshot on a schedule, so a new search instance replays minutes of
    // the change log, not days, and the log can expire (docs/data-model.md §8.7). Its own role:
    // it alone scans the table (the snapshot's recovery path).
    const compactorRole = this.roles.dedicatedRole('SearchCompactorRole', 'readWrite', 'Tracker search compactor');
    this.roles.allowTableScan(compactorRole);
    this.roles.allowSnapshotWrite(compactorRole);
    const compactor = createTrackerFunction(this, 'SearchCompactorFunction', {
      projectRoot,
      module: SEARCH_COMPACTOR_MODULE,
      environment: storageEnvironment(),
      role: compactorRole,
      logGroup,
      observability,
      timeout: Duration.seconds(sizing.compactor.timeoutSeconds),
      memorySize: sizing.compactor.memoryMb,
    });
    this.searchCompactor = compactor;
    byFamily.compactor.push(compactor);
    schedule(this, 'SearchCompactorSchedule', compactor, {
      description: 'Tracker: write a fresh search snapshot',
      schedule: events.Schedule.rate(Duration.minutes(SEARCH_COMPACTION_MINUTES)),
      retryAttempts: SEARCH_COMPACTION_RETRIES,
      // Past this the next scheduled run is due anyway.
      maxEventAge: Duration.minutes(SEARCH_COMPACTION_MINUTES),
      failedRuns: this.failedRuns,
    });

    // Deletes bodies whose upload died before its metadata's transaction (docs/data-model.md §3).
    // Its own role with only what it does: list and delete bodies, and read and claim attachment
    // pointers (BatchGetItem and a conditional PutItem, on `ATTACHMENT#` partitions only).
    const sweepRole = this.roles.dedicatedRole('AttachmentSweepRole', 'none', 'Tracker attachment orphan sweep');
    sweepRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${ATTACHMENT_BODY_PREFIX}*`] } },
      }),
    );
    sweepRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:DeleteObject'],
        resources: [bucket.arnForObjects(`${ATTACHMENT_BODY_PREFIX}*`)],
      }),
    );
    sweepRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:BatchGetItem', 'dynamodb:PutItem'],
        resources: [table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ATTACHMENT_SWEEP_PARTITIONS },
          Null: { 'dynamodb:LeadingKeys': 'false' },
        },
      }),
    );
    FunctionRoles.allowKeyUse(table.encryptionKey, sweepRole, true);
    const sweep = createTrackerFunction(this, 'AttachmentSweepFunction', {
      projectRoot,
      module: ATTACHMENT_SWEEP_MODULE,
      environment: storageEnvironment(),
      role: sweepRole,
      logGroup,
      observability,
      timeout: Duration.seconds(sizing.sweep.timeoutSeconds),
      memorySize: sizing.sweep.memoryMb,
    });
    this.attachmentSweep = sweep;
    byFamily.sweep.push(sweep);
    schedule(this, 'AttachmentSweepSchedule', sweep, {
      description: 'Tracker: delete attachment bodies that no attachment refers to',
      schedule: events.Schedule.rate(Duration.hours(ATTACHMENT_SWEEP_HOURS)),
      // A missed run is made up by the next one; a failed one still shows in the queue.
      retryAttempts: 0,
      maxEventAge: Duration.hours(1),
      failedRuns: this.failedRuns,
    });

    // --- Notifications (not API routes) ------------------------------------------------------
    this.notifications = new Notifications(this, 'Notifications', {
      projectRoot,
      storage: this.storage,
      roles: this.roles,
      logGroup,
      observability,
      settings,
      encryptionKey,
    });
    byFamily.notification.push(this.notifications.publisher);
    if (this.notifications.webhookDelivery) byFamily.notification.push(this.notifications.webhookDelivery);
    if (this.notifications.mailFeedback) byFamily.notification.push(this.notifications.mailFeedback);
    // Account mail (sign-up, password reset, e-mail change, invitations) leaves from the request
    // that asks for it, through SES as bug mail does.
    for (const role of this.roles.mailRoles) this.notifications.allowMailSending(role);
    for (const plan of this.plans.filter((candidate) => candidate.mail))
      for (const [name, value] of Object.entries(this.notifications.mailEnvironment))
        functions.get(plan.module)?.addEnvironment(name, value);

    this.functions = functions;
    const functionFor = (module: string): NodejsFunction => {
      const fn = functions.get(module);
      if (!fn) throw new Error(`No function for handler module '${module}'`);
      return fn;
    };
    const integrationFor = (module: string): NestedLambdaIntegration => {
      const integration = integrations.get(module);
      if (!integration) throw new Error(`No integration for handler module '${module}'`);
      return integration;
    };

    // The routes stay in this stack under their old logical ids (featureStacks.ts says why).
    // The $default route: anything no route matches gets Bugzilla's "unknown method" error.
    new HttpRoute(this.api, 'DefaultRoute', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: integrationFor(platformHandlers.notFound),
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

    this.apiAccessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: settings.logRetention,
      encryptionKey,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    configureDefaultStage(this.api, settings, this.apiAccessLogs);
    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the Bugzilla REST API',
      value: `${apiBaseUrl(this.api, settings)}rest`,
    });
    // What to give the clients of Bugzilla's older protocols (shared/http/rpc/).
    new CfnOutput(this, 'XmlRpcUrl', {
      description: 'URL of the Bugzilla XML-RPC endpoint (python-bugzilla without /rest, pybugz, Mylyn)',
      value: `${apiBaseUrl(this.api, settings)}xmlrpc.cgi`,
    });
    new CfnOutput(this, 'JsonRpcUrl', {
      description: 'URL of the Bugzilla JSON-RPC endpoint',
      value: `${apiBaseUrl(this.api, settings)}jsonrpc.cgi`,
    });
    const domain = endpoint.domainName;
    if (domain) {
      new CfnOutput(this, 'ApiDomainTarget', {
        description: `DNS: point ${settings.customDomain?.domainName} at this name (CNAME, or an alias record with ApiDomainHostedZoneId)`,
        value: domain.regionalDomainName,
      });
      new CfnOutput(this, 'ApiDomainHostedZoneId', {
        description: 'Hosted zone of ApiDomainTarget, for a Route 53 alias record',
        value: domain.regionalHostedZoneId,
      });
    }

    // --- Web front end ---------------------------------------------------------------------
    this.web = new WebFrontEnd(this, 'Web', {
      assetDirectory: props.webAssetDirectory ?? path.join(projectRoot, 'web', 'dist'),
      api: this.api,
      apiDomainName: settings.customDomain?.domainName,
      accessLogBucket: this.storage.accessLogBucket,
    });
    new CfnOutput(this, 'WebUrl', {
      description: 'The web app, and the API on the same origin (/rest, /xmlrpc.cgi, /jsonrpc.cgi): the urlbase',
      value: this.web.url,
    });

    // --- Single sign-on (optional) -----------------------------------------------------------
    if (settings.singleSignOn) {
      const singleSignOn = new SingleSignOn(this, 'SingleSignOn', {
        setting: settings.singleSignOn,
        webUrl: this.web.url,
      });
      this.singleSignOn = singleSignOn;
      for (const module of SINGLE_SIGN_ON_MODULES) {
        const fn = functions.get(module);
        if (!fn) continue;
        for (const [name, value] of Object.entries(singleSignOn.environment)) fn.addEnvironment(name, value);
      }
      new CfnOutput(this, 'SingleSignOnIssuer', {
        description: 'The OpenID Connect issuer the login form signs people in with',
        value: singleSignOn.environment[SINGLE_SIGN_ON_ENV.issuer]!,
      });
      if (singleSignOn.userPool && singleSignOn.domain) {
        new CfnOutput(this, 'UserPoolId', {
          description: 'Cognito user pool of the people who sign in (add them there)',
          value: singleSignOn.userPool.userPoolId,
        });
        new CfnOutput(this, 'UserPoolSignInUrl', {
          description: "The user pool's sign-in domain",
          value: singleSignOn.domain.baseUrl(),
        });
      }
    }

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
        // A new installation's urlbase: the origin of the web app and the API.
        Urlbase: this.web.url,
        // Changes on every synth, so CloudFormation updates the resource (and the idempotent
        // bootstrap runs) on every deploy.
        DeployNonce: typeof nonce === 'string' ? nonce : new Date().toISOString(),
      },
    });

    // --- Monitoring -------------------------------------------------------------------------
    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api,
      functions: byFamily,
      table,
      failedRuns: this.failedRuns,
      notifications: this.notifications,
      functionLogs: logGroup,
      settings,
      encryptionKey,
    });

    // The importer (`npm run import -- --stack <name>`) finds the table and bucket here.
    new CfnOutput(this, 'TableName', { description: 'DynamoDB table of the installation', value: table.tableName });
    new CfnOutput(this, 'BucketName', { description: 'S3 bucket of attachment bodies', value: bucket.bucketName });
    new CfnOutput(this, 'AdminApiKeySecretArn', {
      description: "Secrets Manager secret holding the first administrator's API key",
      value: this.adminApiKey.secretArn,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic every alarm notifies (subscribe more endpoints to it)',
      value: this.monitoring.topic.topicArn,
    });
    new CfnOutput(this, 'FailedRunQueueUrl', {
      description: 'SQS queue of scheduled runs that failed for good',
      value: this.failedRuns.queueUrl,
    });
    new CfnOutput(this, 'EventBusName', {
      description: 'EventBridge bus of the bug change events (docs/events.md): add rules to it',
      value: this.notifications.bus.eventBusName,
    });
    new CfnOutput(this, 'NotificationFailureQueueUrl', {
      description: 'SQS queue of stream batches, webhook events and runs the notifications failed for good',
      value: this.notifications.failures.queueUrl,
    });
    new CfnOutput(this, 'DashboardName', {
      description: 'CloudWatch dashboard of the installation',
      value: this.monitoring.dashboard.dashboardName,
    });

    applyNagSuppressions(this);
  }
}
