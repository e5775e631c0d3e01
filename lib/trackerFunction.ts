/**
 * One Lambda function of the tracker: an esbuild-bundled handler module under functions/ with
 * the shared runtime settings (JSON logs at the deployment's levels, tracing as configured), the
 * stack's one function log group and an execution role supplied by the caller (shared between
 * functions with the same access, see functionRoles.ts).
 */
import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DEFAULT_FUNCTION_SIZING, DEFAULT_LOG_RETENTION_DAYS } from './stackSettings.ts';

/** The newest Node.js runtime of this aws-cdk-lib; BUNDLING's target follows it. */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_24_X;
export const FUNCTION_ARCHITECTURE = lambda.Architecture.ARM_64;
/** The API functions' defaults (stackSettings.ts: `-c apiMemoryMb=… -c apiTimeoutSeconds=…`). */
export const FUNCTION_MEMORY_MB = DEFAULT_FUNCTION_SIZING.api.memoryMb;
/**
 * Every DynamoDB and S3 call gives up well before this (shared/storage/sdkTimeouts.ts: attempts ×
 * request timeout plus the retry waits, checked against this value by test/unit/sdkTimeouts.test.ts),
 * so a stalled service gets the caller a 500 envelope, not Lambda's bare timeout.
 */
export const FUNCTION_TIMEOUT = Duration.seconds(DEFAULT_FUNCTION_SIZING.api.timeoutSeconds);
export const LOG_RETENTION = DEFAULT_LOG_RETENTION_DAYS;
/** Set in every function's environment. No source-map NODE_OPTIONS: maps are read only when an error is logged (search functions set a V8 heap option, searchSizing.ts). */
export const FUNCTION_RUNTIME_ENVIRONMENT: Readonly<Record<string, string>> = {
  NODE_ENV: 'production',
  // Powertools Logger and Metrics (shared/http): the service every log line and metric names,
  // and the CloudWatch namespace of the metrics the functions emit as EMF log lines.
  POWERTOOLS_SERVICE_NAME: 'tracker',
  POWERTOOLS_METRICS_NAMESPACE: 'Tracker',
};

/** The environment that switches the runtime's tracing (Powertools Tracer) with the functions' X-Ray tracing. */
export function tracingEnvironment(tracing: boolean): Record<string, string> {
  return { POWERTOOLS_TRACE_ENABLED: String(tracing), TRACKER_TRACING: tracing ? 'on' : 'off' };
}

/** ESM bundles need `require` for the CommonJS dependencies esbuild inlines. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export const BUNDLING: BundlingOptions = {
  minify: true,
  // Source maps ship beside each bundle so that a logged stack trace names the TypeScript file and
  // line: the error log reads the map when it logs one (shared/http/sourceMappedStack.ts), rather
  // than Node reading it at every cold start (--enable-source-maps, about 20 ms of module load).
  // Without the sources' text inside, the map is about a third of the size; the text is in the
  // repository anyway.
  sourceMap: true,
  sourcesContent: false,
  format: OutputFormat.ESM,
  target: `node${/nodejs(\d+)/.exec(FUNCTION_RUNTIME.name)?.[1]}`,
  banner: ESM_REQUIRE_BANNER,
  // Prefer packages' ESM builds (the AWS SDK ships one), which esbuild tree-shakes better.
  mainFields: ['module', 'main'],
  // Bundle everything, the AWS SDK v3 included: the pinned SDK version is what runs, not the
  // runtime's, and cold starts do not pay for resolving the runtime's copy.
  externalModules: [],
  // X-Ray tracing is chosen when the bundles are built: `off` lets esbuild drop Powertools' Tracer
  // and the X-Ray SDK (~125 KiB) from every bundle (shared/observability/tracing.ts). The stack
  // builds with the deployment's `tracing` setting (bundlingFor); this is the default, off.
  define: tracingDefine(false),
};

/** The build-time switch of the runtime's tracing, as esbuild `define`s. */
export function tracingDefine(tracing: boolean): Record<string, string> {
  return { 'process.env.TRACKER_TRACING': JSON.stringify(tracingEnvironment(tracing).TRACKER_TRACING) };
}

/**
 * Modules replaced in the deployed bundles, by the one under the project root that stands in for
 * them. The SDK's default credential chain becomes the environment (and container endpoint) only:
 * that is where Lambda puts the role's credentials, and the rest of the chain is about 130 KiB
 * of every bundle (shared/storage/lambdaCredentials.ts says why).
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': 'shared/storage/lambdaCredentials.ts',
};

/**
 * BUNDLING with the aliases as esbuild arguments, built for the deployment's tracing setting.
 * esbuild resolves an alias path from its working directory; the paths are made absolute so that
 * they do not depend on where CDK runs it.
 */
export function bundlingFor(projectRoot: string, tracing = false): BundlingOptions {
  return {
    ...BUNDLING,
    define: { ...BUNDLING.define, ...tracingDefine(tracing) },
    esbuildArgs: {
      '--alias': Object.entries(BUNDLE_ALIASES).map(([module, file]) => `${module}=${path.join(projectRoot, file)}`),
    },
  };
}

export function entryFor(projectRoot: string, module: string): string {
  return path.join(projectRoot, 'functions', `${module}.ts`);
}

export interface TrackerFunctionProps {
  /** Repository root: holds package-lock.json and functions/. */
  projectRoot: string;
  /** Module under functions/, without extension; it exports `handler`. */
  module: string;
  environment: Record<string, string>;
  /**
   * Execution role. Required, so that no function silently gets a role (and a policy) of its own;
   * it must allow writing to `logGroup` (functionRoles.ts gives exactly that), as the default role would.
   */
  role: iam.IRole;
  /**
   * Shared by every function of the stack (Lambda's advanced logging): one resource rather than
   * one per function keeps the stack far from CloudFormation's 500-resource limit. Each line
   * names its route and request id; log streams carry the function's name.
   */
  logGroup: logs.ILogGroup;
  timeout?: Duration;
  /** MB; the search functions hold the in-memory search index and get more (trackerStack.ts). */
  memorySize?: number;
  observability: FunctionObservability;
}

/** How every function logs and traces (stackSettings.ts). */
export interface FunctionObservability {
  applicationLogLevel: lambda.ApplicationLogLevel;
  systemLogLevel: lambda.SystemLogLevel;
  tracing: boolean;
}

export function createFunctionLogGroup(
  scope: Construct,
  id: string,
  options: { retention?: logs.RetentionDays; encryptionKey?: kms.IKey } = {},
): logs.LogGroup {
  return new logs.LogGroup(scope, id, {
    retention: options.retention ?? LOG_RETENTION,
    encryptionKey: options.encryptionKey,
    // Logs are diagnostics, not data: do not leave orphaned log groups behind a deleted stack.
    removalPolicy: RemovalPolicy.DESTROY,
  });
}

export function createTrackerFunction(scope: Construct, id: string, props: TrackerFunctionProps): NodejsFunction {
  return new NodejsFunction(scope, id, {
    description: `Tracker ${props.module}`,
    entry: entryFor(props.projectRoot, props.module),
    handler: 'handler',
    projectRoot: props.projectRoot,
    depsLockFilePath: path.join(props.projectRoot, 'package-lock.json'),
    runtime: FUNCTION_RUNTIME,
    architecture: FUNCTION_ARCHITECTURE,
    memorySize: props.memorySize ?? FUNCTION_MEMORY_MB,
    timeout: props.timeout ?? FUNCTION_TIMEOUT,
    role: props.role,
    logGroup: props.logGroup,
    // One JSON object per line, application lines at the deployment's level (Lambda drops the
    // rest before they are stored), the platform's own lines only from WARN.
    loggingFormat: lambda.LoggingFormat.JSON,
    applicationLogLevelV2: props.observability.applicationLogLevel,
    systemLogLevelV2: props.observability.systemLogLevel,
    tracing: props.observability.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
    environment: {
      ...props.environment,
      ...FUNCTION_RUNTIME_ENVIRONMENT,
      ...tracingEnvironment(props.observability.tracing),
    },
    bundling: bundlingFor(props.projectRoot, props.observability.tracing),
  });
}
