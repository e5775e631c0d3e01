/**
 * The CDK stack, synthesized without bundling (test/unit/support/stackSynth.ts stubs the handler
 * entries), so the stack is checked independently of which handler modules exist yet; every
 * expectation is derived from the route table. The deployment settings and what they switch on
 * (monitoring, encryption, the API's endpoint, logging) are checked in test/unit/stack*.test.ts;
 * cdk-nag in test/unit/cdkNag.suite.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureFamilyOf } from '../../lib/featureStacks.ts';
import {
  AUTHENTICATION_WRITE_ACTIONS,
  AUTHENTICATION_WRITE_PARTITIONS,
  LOG_WRITE_ACTIONS,
  SEARCH_SNAPSHOT_PREFIX,
} from '../../lib/functionRoles.ts';
import { BOOTSTRAP_HANDLER, constructIdFor, type HandlerPlan, planHandlers } from '../../lib/handlerPlan.ts';
import { ALARMS, METRICS_PER_ALARM } from '../../lib/monitoring.ts';
import { SEARCH_NODE_OPTIONS } from '../../lib/searchSizing.ts';
import { DEFAULT_FUNCTION_SIZING } from '../../lib/stackSettings.ts';
import {
  BUNDLE_ALIASES,
  BUNDLING,
  bundlingFor,
  ESM_REQUIRE_BANNER,
  entryFor,
  FUNCTION_RUNTIME,
} from '../../lib/trackerFunction.ts';
import {
  API_BURST_LIMIT_CONTEXT,
  API_RATE_LIMIT_CONTEXT,
  ATTACHMENT_SWEEP_HOURS,
  ATTACHMENT_SWEEP_MODULE,
  ATTACHMENT_SWEEP_PARTITIONS,
  BOOTSTRAP_ENV,
  BOOTSTRAP_NONCE_CONTEXT,
  DEFAULT_API_BURST_LIMIT,
  DEFAULT_API_RATE_LIMIT,
  PROJECT_ROOT,
  SEARCH_FUNCTION_MEMORY_MB,
  SEARCH_INDEX_MODULES,
} from '../../lib/trackerStack.ts';
import { platformHandlers, type RouteDefinition, routes } from '../../shared/routes.ts';
import { TEST_MAIL_PREFIX } from '../../shared/storage/notification/sesMailSender.ts';
import {
  ENV,
  GLOBAL_INDEXES,
  KEY_ATTRIBUTES,
  PARTITION_KEY,
  SORT_KEY,
  TTL_ATTRIBUTE,
} from '../../shared/storage/tableSchema.ts';
import {
  allows,
  type Json,
  KEPT_LOGICAL_IDS,
  logicalIdOf,
  NONCE,
  referencedId,
  removeStubRoots,
  resourceCounts,
  resourcesOfType,
  SYNTH_TIMEOUT,
  type Synthesized,
  statementsOfRole,
  synthStack,
  TEMPLATE_RESOURCE_BUDGET,
  TEMPLATE_RESOURCE_LIMIT,
} from './support/stackSynth.ts';

/**
 * TransactWriteItems is not an IAM action (transactions are authorized per item as Put/Update/
 * DeleteItem), so a writer is not expected to have it, but a reader must not have it either.
 */
const DYNAMODB_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const FORBIDDEN_TO_READERS = [...DYNAMODB_WRITES, 'dynamodb:TransactWriteItems', 'dynamodb:ConditionCheckItem'];
const DYNAMODB_READS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];
/** Granted by CDK's grantReadData, used by no request function. */
const DYNAMODB_UNUSED = [
  'dynamodb:Scan',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:DescribeStream',
  'dynamodb:DescribeTable',
];
const S3_WRITES = ['s3:PutObject', 's3:DeleteObject'];
const S3_READS = ['s3:GetObject'];

const RUNTIME = FUNCTION_RUNTIME.name;
/** Logical ids of the web front end's BucketDeployment function, role and policy (CDK's singleton). */
const WEB_DEPLOYMENT_PREFIX = 'CustomCDKBucketDeployment';
/** Every alarm but the grouped function errors and throttles. */
const FIXED_ALARMS = Object.keys(ALARMS).length - 2;

/** The stack from `routeRows` with the deployment context `extraContext` (bootstrap nonce pinned unless given). */
function synth(routeRows: readonly RouteDefinition[], extraContext: Record<string, unknown> = {}): Synthesized {
  return synthStack({ routes: routeRows, context: extraContext });
}

afterAll(removeStubRoots);

// ---- template helpers -----------------------------------------------------------------------

/** Logical id of the function's execution role. */
function roleOf(json: Json, functionLogicalId: string): string {
  const roleId = referencedId(json.Resources[functionLogicalId].Properties.Role);
  expect(roleId, `role of ${functionLogicalId}`).toBeDefined();
  return roleId!;
}

/** A statement limited to items whose partition key matches patterns (dynamodb:LeadingKeys). */
const isPartitionScoped = (statement: Json): boolean =>
  Boolean(statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']);

/**
 * A statement that only reaches the search snapshot's frames in the bucket: checked on its own
 * ("search snapshot"), not as access to attachment bodies.
 */
const isSnapshotScoped = (statement: Json): boolean =>
  [statement.Resource].flat().every((resource: Json) => joined(resource).endsWith(`/${SEARCH_SNAPSHOT_PREFIX}*`)) ||
  JSON.stringify(statement.Condition?.StringLike?.['s3:prefix']) === JSON.stringify([`${SEARCH_SNAPSHOT_PREFIX}*`]);

/** A statement that reaches only the Test mail kept in the bucket (account mail, issue 40). */
const isTestMailScoped = (statement: Json): boolean =>
  [statement.Resource].flat().every((resource: Json) => joined(resource).endsWith(`/${TEST_MAIL_PREFIX}*`));

/** Statements of the function's role that only reach some partitions of the table. */
function partitionScopedStatements(json: Json, functionLogicalId: string): Json[] {
  const roleId = roleOf(json, functionLogicalId);
  return resourcesOfType(json, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles ?? []).some((role: Json) => referencedId(role) === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Json[])
    .filter(isPartitionScoped);
}

/** Every action the function's role allows on any item (from all policies attached to the role). */
function allowedActions(json: Json, functionLogicalId: string): string[] {
  const roleId = roleOf(json, functionLogicalId);
  const actions: string[] = [];
  for (const [, policy] of resourcesOfType(json, 'AWS::IAM::Policy')) {
    const roles: Json[] = policy.Properties.Roles ?? [];
    if (!roles.some((role) => referencedId(role) === roleId)) continue;
    for (const statement of policy.Properties.PolicyDocument.Statement) {
      if (
        statement.Effect !== 'Allow' ||
        isPartitionScoped(statement) ||
        isSnapshotScoped(statement) ||
        isTestMailScoped(statement)
      )
        continue;
      actions.push(...[statement.Action].flat());
    }
  }
  return actions;
}

/**
 * `Fn::Join` of strings, `{ Ref }`s and `{ Fn::GetAtt }`s -> a string with placeholders
 * (`{ Ref: 'X' }` -> `${X}`, `{ Fn::GetAtt: ['X', 'Arn'] }` -> `${X.Arn}`).
 */
function joined(value: Json): string {
  if (typeof value === 'string') return value;
  if (typeof value.Ref === 'string') return `\${${value.Ref}}`;
  if (Array.isArray(value['Fn::GetAtt'])) return `\${${value['Fn::GetAtt'].join('.')}}`;
  const [separator, parts]: [string, Json[]] = value['Fn::Join'];
  return parts.map(joined).join(separator);
}

/** IAM `ArnLike` on the resource part of an ARN: `*` matches any characters, `/` included. */
const arnLike = (pattern: string, arn: string): boolean =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(arn);

/**
 * The source ARN API Gateway presents when a request on the default stage matches `routeKey`
 * (`$default` has no method or path of its own: `<api>/<stage>/$default`).
 */
function invocationSourceArn(apiArnPrefix: string, routeKey: string): string {
  if (routeKey === '$default') return `${apiArnPrefix}/$default/$default`;
  const [method, routePath] = routeKey.split(' ');
  return `${apiArnPrefix}/$default/${method}${routePath.replace(/\{[^}]+\}/g, 'x')}`;
}

/** Logical ids of the functions the API routes to (every route, `$default` included). */
function routedFunctionIds(json: Json): Set<string> {
  return new Set(
    resourcesOfType(json, 'AWS::ApiGatewayV2::Route').map(([, route]) => functionBehindRoute(json, route)!),
  );
}

/** The function logical id an API Gateway route ends up invoking. */
function functionBehindRoute(json: Json, route: Json): string | undefined {
  const target = route.Properties.Target; // { Fn::Join: ['', ['integrations/', { Ref: integrationId }]] }
  const parts: Json[] = target?.['Fn::Join']?.[1] ?? [];
  const integrationId = parts.map(referencedId).find(Boolean);
  if (!integrationId) return undefined;
  const integration = json.Resources[integrationId];
  expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
  return referencedId(integration.Properties.IntegrationUri);
}

/** The access a module's function must have, derived from the route table independently of lib/handlerPlan.ts. */
/** Whether the module's function may use the attachment bucket: only routes that handle bodies. */
function expectedBucket(routeRows: readonly RouteDefinition[], module: string): boolean {
  return routeRows.some((row) => row.handler === module && row.attachments === true);
}

function expectedMail(routeRows: readonly RouteDefinition[], module: string): boolean {
  return routeRows.some((row) => row.handler === module && row.mail === true);
}

function expectedAccess(routeRows: readonly RouteDefinition[], module: string): 'none' | 'read' | 'readWrite' {
  if (module === BOOTSTRAP_HANDLER) return 'readWrite';
  const rows = routeRows.filter((row) => row.handler === module);
  if (rows.some((row) => !row.readOnly)) return 'readWrite';
  return rows.length > 0 ? 'read' : 'none';
}

/**
 * Functions with the same access share one execution role, distinct levels have distinct roles,
 * and the bootstrap's role is its own. Every role is Lambda's only, has no managed policy and
 * writes logs to the stack's function log group only.
 */
function expectSharedRoles(
  json: Json,
  routeRows: readonly RouteDefinition[],
  fnIds: ReadonlyMap<string, string>,
): void {
  const roleByModule = new Map([...fnIds].map(([module, fnId]) => [module, roleOf(json, fnId)]));
  const bootstrapRole = roleByModule.get(BOOTSTRAP_HANDLER)!;
  const roleByAccess = new Map<string, string>();
  for (const [module, roleId] of roleByModule) {
    if (module === BOOTSTRAP_HANDLER) continue;
    expect(roleId, module).not.toBe(bootstrapRole);
    const access = `${expectedAccess(routeRows, module)}${expectedBucket(routeRows, module) ? '+bucket' : ''}${SEARCH_INDEX_MODULES.includes(module) ? '+snapshots' : ''}${expectedMail(routeRows, module) ? '+mail' : ''}`;
    expect(roleId, `${module} (${access})`).toBe(roleByAccess.get(access) ?? roleId);
    roleByAccess.set(access, roleId);
  }
  expect(new Set(roleByAccess.values()).size, 'one role per access level').toBe(roleByAccess.size);
  for (const roleId of new Set(roleByModule.values())) {
    const props = json.Resources[roleId].Properties;
    expect(props.AssumeRolePolicyDocument.Statement, roleId).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
    ]);
    expect(props.ManagedPolicyArns, roleId).toBeUndefined();
    expectLogsOnlyToFunctionLogGroup(json, roleId);
  }
  // The shared roles, the bootstrap's, the search compactor's, the attachment sweep's, the
  // notification publisher's, the custom-resource framework's and the web deployment's: none per function.
  expect(resourcesOfType(json, 'AWS::IAM::Role')).toHaveLength(roleByAccess.size + 6);
}

/** The role may create log streams and put events in the function log group, and no other logs action anywhere. */
function expectLogsOnlyToFunctionLogGroup(json: Json, roleId: string): void {
  const logStatements = statementsOfRole(json, roleId).filter((statement) =>
    [statement.Action].flat().some((action: string) => action.startsWith('logs:')),
  );
  const [[logGroupId]] = resourcesOfType(json, 'AWS::Logs::LogGroup').filter(([id]) => id.startsWith('FunctionLogs'));
  expect(logStatements, roleId).toEqual([
    { Action: LOG_WRITE_ACTIONS, Effect: 'Allow', Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] } },
  ]);
}

/**
 * One API Gateway invoke permission per routed function, for any route of this API: its source
 * ARN covers the ARN API Gateway presents for every route key (`$default` included), and no
 * other API's.
 */
function expectOneInvokePermissionPerFunction(json: Json): void {
  const [[apiId]] = resourcesOfType(json, 'AWS::ApiGatewayV2::Api');
  const arnPrefix = (api: string) => `arn:\${AWS::Partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:\${${api}}`;
  const permissions = resourcesOfType(json, 'AWS::Lambda::Permission').filter(
    ([, permission]) => permission.Properties.Principal === 'apigateway.amazonaws.com',
  );
  const permitted = permissions.map(([, permission]) => referencedId(permission.Properties.FunctionName)!);
  expect(permitted.sort()).toEqual([...routedFunctionIds(json)].sort());
  for (const [, route] of resourcesOfType(json, 'AWS::ApiGatewayV2::Route')) {
    const routeKey: string = route.Properties.RouteKey;
    const [, permission] = permissions.find(
      ([, p]) => referencedId(p.Properties.FunctionName) === functionBehindRoute(json, route),
    )!;
    const sourceArn = joined(permission.Properties.SourceArn);
    expect(arnLike(sourceArn, invocationSourceArn(arnPrefix(apiId), routeKey)), routeKey).toBe(true);
    expect(arnLike(sourceArn, invocationSourceArn(arnPrefix('SomeOtherApi'), routeKey)), routeKey).toBe(false);
  }
  // Exactly `<api>/*`: any stage, method and path (checked against real route keys above).
  for (const [id, permission] of permissions) {
    expect(permission.Properties.Action, id).toBe('lambda:InvokeFunction');
    expect(joined(permission.Properties.SourceArn), id).toBe(`${arnPrefix(apiId)}/*`);
  }
}

/** One Lambda proxy integration per routed function, shared by all routes to it. */
function expectOneIntegrationPerFunction(json: Json): void {
  const integrations = resourcesOfType(json, 'AWS::ApiGatewayV2::Integration');
  expect(integrations.map(([, integration]) => referencedId(integration.Properties.IntegrationUri)).sort()).toEqual(
    [...routedFunctionIds(json)].sort(),
  );
}

const expectedRouteKeys = (routeRows: readonly RouteDefinition[]): string[] =>
  [
    ...routeRows.map((row) => `${row.method} ${row.path}`),
    ...routeRows.filter((row) => row.method === 'GET').map((row) => `HEAD ${row.path}`),
    'OPTIONS /{proxy+}',
    '$default',
  ].sort();

/** Route key -> handler module that must serve it. */
function expectedRouteModules(routeRows: readonly RouteDefinition[]): Map<string, string> {
  const expected = new Map<string, string>();
  for (const row of routeRows) {
    expected.set(`${row.method} ${row.path}`, row.handler);
    if (row.method === 'GET') expected.set(`HEAD ${row.path}`, row.handler);
  }
  expected.set('OPTIONS /{proxy+}', platformHandlers.options);
  expected.set('$default', platformHandlers.notFound);
  return expected;
}

// ---- the handler plan (pure) ----------------------------------------------------------------

describe('handler plan', () => {
  it('has one function per distinct handler module, plus the platform handlers and the bootstrap', () => {
    const plans = planHandlers(routes);
    const expected = new Set([
      ...routes.map((row) => row.handler),
      ...Object.values(platformHandlers),
      BOOTSTRAP_HANDLER,
    ]);
    expect(plans.map((plan) => plan.module).sort()).toEqual([...expected].sort());
    expect(plans.find((plan) => plan.module === BOOTSTRAP_HANDLER)?.kind).toBe('bootstrap');
    for (const module of Object.values(platformHandlers)) {
      expect(plans.find((plan) => plan.module === module)).toMatchObject({ kind: 'platform', access: 'none' });
    }
  });

  it('gives write access to a module used by any writing row, read access to read-only modules', () => {
    const rows: RouteDefinition[] = [
      { method: 'GET', path: '/rest/a', handler: 'x/mixed', readOnly: true },
      { method: 'PUT', path: '/rest/a', handler: 'x/mixed', readOnly: false },
      { method: 'GET', path: '/rest/b', handler: 'x/reader', readOnly: true },
      { method: 'POST', path: '/rest/c', handler: 'x/postReader', readOnly: true },
    ];
    const access = Object.fromEntries(planHandlers(rows).map((plan) => [plan.module, plan.access]));
    expect(access).toMatchObject({
      'x/mixed': 'readWrite',
      'x/reader': 'read',
      'x/postReader': 'read',
      [BOOTSTRAP_HANDLER]: 'readWrite',
    });
  });

  it('derives construct ids from module paths and rejects collisions and duplicate routes', () => {
    expect(constructIdFor('instance/getParameters')).toBe('InstanceGetParameters');
    expect(() =>
      planHandlers([
        { method: 'GET', path: '/rest/a', handler: 'a/b-c', readOnly: true },
        { method: 'GET', path: '/rest/b', handler: 'a/bC', readOnly: true },
      ]),
    ).toThrow(/same construct id/);
    expect(() =>
      planHandlers([
        { method: 'GET', path: '/rest/a', handler: 'a/one', readOnly: true },
        { method: 'GET', path: '/rest/a', handler: 'a/two', readOnly: true },
      ]),
    ).toThrow(/Duplicate route/);
  });
});

describe('project layout and bundling', () => {
  it('defaults to this repository as project root and functions/<module>.ts as entry', () => {
    expect(JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).name).toBe('tracker');
    expect(fs.existsSync(path.join(PROJECT_ROOT, 'package-lock.json'))).toBe(true);
    expect(entryFor(PROJECT_ROOT, 'instance/version')).toBe(
      path.join(PROJECT_ROOT, 'functions', 'instance', 'version.ts'),
    );
  });

  it('runs on the newest Node.js runtime aws-cdk-lib knows, and bundles for it', () => {
    const newest = Object.getOwnPropertyNames(Runtime)
      .filter((name) => /^NODEJS_\d+_X$/.test(name))
      .map((name) => (Runtime as unknown as Record<string, Runtime>)[name].name)
      .sort((a, b) => Number(/\d+/.exec(b)![0]) - Number(/\d+/.exec(a)![0]))[0];
    expect(RUNTIME).toBe(newest);
    expect(BUNDLING.target).toBe(`node${/\d+/.exec(RUNTIME)![0]}`);
  });

  it('bundles minified ESM with source maps and the AWS SDK inside the bundle', () => {
    expect(BUNDLING).toMatchObject({
      minify: true,
      sourceMap: true,
      format: 'esm',
      externalModules: [],
    });
    expect(BUNDLING.banner).toBe(ESM_REQUIRE_BANNER);
    expect(ESM_REQUIRE_BANNER).toContain('createRequire(import.meta.url)');
  });

  it('builds the runtime tracing switch into the bundles: off by default (no X-Ray SDK), on with `tracing`', () => {
    expect(BUNDLING.define).toEqual({ 'process.env.TRACKER_TRACING': '"off"' });
    expect(bundlingFor(PROJECT_ROOT).define).toEqual({ 'process.env.TRACKER_TRACING': '"off"' });
    expect(bundlingFor(PROJECT_ROOT, true).define).toEqual({ 'process.env.TRACKER_TRACING': '"on"' });
  });

  it("replaces the SDK's default credential chain by the Lambda one, through an absolute path that exists", () => {
    const args = bundlingFor(PROJECT_ROOT).esbuildArgs?.['--alias'];
    expect(args).toEqual([
      `@aws-sdk/credential-provider-node=${path.join(PROJECT_ROOT, 'shared/storage/lambdaCredentials.ts')}`,
    ]);
    for (const file of Object.values(BUNDLE_ALIASES)) expect(fs.existsSync(path.join(PROJECT_ROOT, file))).toBe(true);
  });

  it('cdk.json runs bin/tracker.ts with tsx and writes to cdk.out', () => {
    const cdkJson = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8'));
    expect(cdkJson.app).toBe('npx tsx bin/tracker.ts');
    expect(cdkJson.output ?? 'cdk.out').toBe('cdk.out');
  });
});

// ---- the stack built from the real route table ------------------------------------------------

describe('Tracker stack', () => {
  let synthesized: Synthesized;
  let json: Json;
  let plans: readonly HandlerPlan[];
  /** Handler module -> logical id of its function. */
  let fnIds: Map<string, string>;

  beforeAll(() => {
    synthesized = synth(routes);
    json = synthesized.json;
    plans = synthesized.stack.plans;
    fnIds = new Map(
      [...synthesized.stack.functions].map(([module, fn]) => [module, logicalIdOf(synthesized.stack, fn)]),
    );
  }, SYNTH_TIMEOUT);

  /** Logical ids of the search compactor and the attachment sweep. */
  const scheduledIds = () =>
    [synthesized.stack.searchCompactor, synthesized.stack.attachmentSweep].map((fn) =>
      logicalIdOf(synthesized.stack, fn),
    );
  /** The attachment bucket (the other bucket holds its server access logs). */
  const attachmentBucket = (): [string, Json] => {
    const id = logicalIdOf(synthesized.stack, synthesized.stack.storage.bucket);
    return [id, json.Resources[id]];
  };

  describe('functions', () => {
    it('has one arm64 function on the newest Node.js per handler module, plus only the custom-resource framework function', () => {
      const all = resourcesOfType(json, 'AWS::Lambda::Function');
      const ours = all.filter(
        ([, fn]) => fn.Properties.Runtime === RUNTIME && fn.Properties.Architectures?.includes('arm64'),
      );
      const framework = all.filter(([, fn]) =>
        String(fn.Properties.Description).startsWith('AWS CDK resource provider framework'),
      );
      // The web front end's BucketDeployment copies the built app into its bucket (webFrontEnd.ts).
      const webDeployment = all.filter(([id]) => id.startsWith(WEB_DEPLOYMENT_PREFIX));
      expect(webDeployment).toHaveLength(1);

      expect(ours.map(([id]) => id).sort()).toEqual(
        [
          ...fnIds.values(),
          logicalIdOf(synthesized.stack, synthesized.stack.searchCompactor),
          logicalIdOf(synthesized.stack, synthesized.stack.attachmentSweep),
          logicalIdOf(synthesized.stack, synthesized.stack.notifications.publisher),
        ].sort(),
      );
      // + the bootstrap, the scheduled search compactor and attachment sweep, and the notification
      // publisher (no webhook function without webhooks).
      expect(ours).toHaveLength(
        new Set(routes.map((row) => row.handler)).size + Object.keys(platformHandlers).length + 4,
      );
      expect(framework).toHaveLength(1); // Provider without isComplete: framework-onEvent only.
      expect(all).toHaveLength(ours.length + framework.length + webDeployment.length);
    });

    it('sizes every function: 512 MB (search functions more, for the index), 10 s (bootstrap 60 s), handler `handler`', () => {
      expect(DEFAULT_FUNCTION_SIZING.api).toEqual({ memoryMb: 512, timeoutSeconds: 10 });
      for (const plan of plans) {
        const props = json.Resources[fnIds.get(plan.module)!].Properties;
        expect(props, plan.module).toMatchObject({
          Runtime: RUNTIME,
          Architectures: ['arm64'],
          MemorySize: SEARCH_INDEX_MODULES.includes(plan.module) ? SEARCH_FUNCTION_MEMORY_MB : 512,
          Timeout: plan.kind === 'bootstrap' ? 60 : 10,
          Handler: 'index.handler',
        });
        // The search functions' young generation (searchSizing.ts); every other function runs as Node does.
        expect(props.Environment.Variables.NODE_OPTIONS, plan.module).toBe(
          SEARCH_INDEX_MODULES.includes(plan.module) ? SEARCH_NODE_OPTIONS : undefined,
        );
      }
    });

    it('logs every function to one shared log group kept one month (no deprecated log-retention function)', () => {
      const logGroupIds = [...plans.map((plan) => fnIds.get(plan.module)!), ...scheduledIds()].map((fnId) =>
        referencedId(json.Resources[fnId].Properties.LoggingConfig?.LogGroup),
      );
      expect(logGroupIds.every(Boolean)).toBe(true);
      expect(new Set(logGroupIds).size).toBe(1);
      expect(json.Resources[logGroupIds[0]!]).toMatchObject({
        Type: 'AWS::Logs::LogGroup',
        Properties: { RetentionInDays: 30 },
      });
      // That one and the API's access log.
      expect(resourcesOfType(json, 'AWS::Logs::LogGroup')).toHaveLength(2);
      expect(resourcesOfType(json, 'Custom::LogRetention')).toHaveLength(0);
    });

    it('marks every function with asset metadata that SAM CLI uses to find the code', () => {
      for (const plan of plans) {
        const metadata = json.Resources[fnIds.get(plan.module)!].Metadata;
        expect(metadata?.['aws:asset:property'], plan.module).toBe('Code');
        expect(typeof metadata?.['aws:asset:path'], plan.module).toBe('string');
      }
    });

    it('names the table and bucket in every function environment and runs as production, with no source-map NODE_OPTIONS (maps are read on error)', () => {
      const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
      const [bucketId] = attachmentBucket();
      for (const plan of plans) {
        const variables = json.Resources[fnIds.get(plan.module)!].Properties.Environment.Variables;
        expect(variables, plan.module).toMatchObject({
          [ENV.table]: { Ref: tableId },
          [ENV.bucket]: { Ref: bucketId },
          NODE_ENV: 'production',
        });
        expect(variables.NODE_OPTIONS ?? '', plan.module).not.toContain('source-maps');
        if (plan.kind !== 'bootstrap') {
          expect(variables[BOOTSTRAP_ENV.adminApiKeySecretArn], plan.module).toBeUndefined();
        }
      }
    });
  });

  describe('templates', () => {
    it(`leaves room to grow: every template under ${TEMPLATE_RESOURCE_BUDGET} of CloudFormation's ${TEMPLATE_RESOURCE_LIMIT} resources`, () => {
      const counts = resourceCounts(synthesized);
      // The root stack and one nested stack per feature family (lib/featureStacks.ts).
      expect(counts.size).toBe(1 + new Set(synthesized.stack.featureStacks.map((stack) => stack.family)).size);
      for (const [name, count] of counts) expect(count, name).toBeLessThan(TEMPLATE_RESOURCE_BUDGET);
      // What crosses a nested stack's boundary: parameters in (roles, table, bucket, log group, API),
      // outputs back (integration ids for the routes, function names for the alarms). CloudFormation
      // allows 200 of each per template; the same 60% holds for them.
      for (const [name, template] of synthesized.templates) {
        expect(Object.keys(template.Parameters ?? {}).length, name).toBeLessThan(120);
        expect(Object.keys(template.Outputs ?? {}).length, name).toBeLessThan(120);
      }
    });

    it('keeps the logical ids of the table, the buckets, the API, its stage and the secret in the root template', () => {
      const root = synthesized.templates.get('Tracker');
      for (const [id, type] of Object.entries(KEPT_LOGICAL_IDS)) expect(root.Resources[id]?.Type, id).toBe(type);
      expect(resourcesOfType(root, 'AWS::DynamoDB::Table').map(([id]) => id)).toEqual(['StorageTableB43FDCE7']);
      expect(resourcesOfType(root, 'AWS::ApiGatewayV2::Api').map(([id]) => id)).toEqual(['ApiF70053CD']);
    });

    it("serves the web app through one distribution, whose address is the WebUrl output and a new installation's urlbase", () => {
      const root = synthesized.templates.get('Tracker');
      const [[distributionId]] = resourcesOfType(root, 'AWS::CloudFront::Distribution');
      expect(resourcesOfType(json, 'AWS::CloudFront::Distribution')).toHaveLength(1);
      const url = {
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/']],
      };
      expect(root.Outputs.WebUrl.Value).toEqual(url);
      const [[, bootstrap]] = resourcesOfType(root, 'Custom::TrackerBootstrap');
      expect(bootstrap.Properties.Urlbase).toEqual(url);
    });

    it('keeps every route in the root template, under the id it had, and every API function in a feature stack', () => {
      const root = synthesized.templates.get('Tracker');
      const rootRoutes = resourcesOfType(root, 'AWS::ApiGatewayV2::Route');
      expect(rootRoutes).toHaveLength(resourcesOfType(json, 'AWS::ApiGatewayV2::Route').length);
      // The id of a route derives from its key alone (an update of an existing deployment changes its target only).
      const get = rootRoutes.find(([, route]) => route.Properties.RouteKey === 'GET /rest/bug');
      expect(get?.[0]).toBe('ApiGETrestbugA65A8BF9');
      expect(rootRoutes.find(([, route]) => route.Properties.RouteKey === '$default')?.[0]).toBe(
        'ApiDefaultRoute1D83B0D8',
      );
      for (const plan of plans) {
        const inRoot = fnIds.get(plan.module)! in root.Resources;
        expect(inRoot, plan.module).toBe(plan.kind === 'bootstrap');
      }
      for (const feature of synthesized.stack.featureStacks)
        for (const module of feature.functions.keys()) expect(featureFamilyOf(module), module).toBe(feature.family);
    });
  });

  describe('HTTP API', () => {
    it('is one HTTP API without CORS configuration and with an auto-deployed default stage', () => {
      const apis = resourcesOfType(json, 'AWS::ApiGatewayV2::Api');
      expect(apis).toHaveLength(1);
      expect(apis[0][1].Properties.ProtocolType).toBe('HTTP');
      expect(apis[0][1].Properties.CorsConfiguration).toBeUndefined();
      synthesized.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
      });
    });

    it(
      'throttles the stage by default, and by context when a deployment asks',
      () => {
        synthesized.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
          DefaultRouteSettings: {
            ThrottlingRateLimit: DEFAULT_API_RATE_LIMIT,
            ThrottlingBurstLimit: DEFAULT_API_BURST_LIMIT,
          },
        });
        const tuned = synth(routes, { [API_RATE_LIMIT_CONTEXT]: '25', [API_BURST_LIMIT_CONTEXT]: 50 });
        tuned.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
          DefaultRouteSettings: { ThrottlingRateLimit: 25, ThrottlingBurstLimit: 50 },
        });
        expect(() => synth(routes, { [API_RATE_LIMIT_CONTEXT]: 'lots' })).toThrow(/apiRateLimit/);
      },
      SYNTH_TIMEOUT,
    );

    it('has exactly one route per row, HEAD for every GET, OPTIONS /{proxy+} and $default', () => {
      const routeKeys = resourcesOfType(json, 'AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties.RouteKey);
      expect(routeKeys.sort()).toEqual(expectedRouteKeys(routes));
    });

    it('sends every route to the function of its handler module through a Lambda proxy integration', () => {
      const expected = expectedRouteModules(routes);
      for (const [, route] of resourcesOfType(json, 'AWS::ApiGatewayV2::Route')) {
        const routeKey: string = route.Properties.RouteKey;
        const module = expected.get(routeKey);
        expect(module, routeKey).toBeDefined();
        expect(functionBehindRoute(json, route), routeKey).toBe(fnIds.get(module!));
      }
      for (const [, integration] of resourcesOfType(json, 'AWS::ApiGatewayV2::Integration')) {
        expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      }
    });

    it('lets API Gateway invoke every routed function and nothing else', () => {
      const invokable = new Set(
        resourcesOfType(json, 'AWS::Lambda::Permission')
          .filter(([, permission]) => permission.Properties.Principal === 'apigateway.amazonaws.com')
          .map(([, permission]) => referencedId(permission.Properties.FunctionName)),
      );
      const routed = new Set([...expectedRouteModules(routes).values()].map((module) => fnIds.get(module)));
      expect([...invokable].sort()).toEqual([...routed].sort());
      expect(invokable.has(fnIds.get(BOOTSTRAP_HANDLER))).toBe(false);
    });

    it('grants API Gateway one invoke permission per function (not per route), for any route of this API only', () => {
      expectOneInvokePermissionPerFunction(json);
    });

    it('has one integration per function, shared by its routes (GET and HEAD, several paths)', () => {
      expectOneIntegrationPerFunction(json);
    });

    it('outputs the REST base URL', () => {
      const value = json.Outputs.ApiUrl.Value;
      const parts: Json[] = value['Fn::Join'][1];
      expect(parts[0]).toBe('https://');
      expect(parts).toContainEqual({ Ref: resourcesOfType(json, 'AWS::ApiGatewayV2::Api')[0][0] });
      expect(parts.at(-1)).toMatch(/\/rest$/);
    });
  });

  describe('storage', () => {
    it('outputs the table and bucket names, which the importer reads for --stack', () => {
      const ref = (type: string) => ({ Ref: resourcesOfType(json, type)[0][0] });
      expect(json.Outputs.TableName.Value).toEqual(ref('AWS::DynamoDB::Table'));
      expect(json.Outputs.BucketName.Value).toEqual({ Ref: attachmentBucket()[0] });
    });

    it('builds the table from tableSchema.ts: keys, every GSI with ALL projection, on-demand, PITR, TTL, retained', () => {
      const tables = resourcesOfType(json, 'AWS::DynamoDB::Table');
      expect(tables).toHaveLength(1);
      const [, table] = tables[0];
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      const props = table.Properties;
      expect(props.BillingMode).toBe('PAY_PER_REQUEST');
      expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(props.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
      expect(props.DeletionProtectionEnabled).toBe(true);
      expect(props.KeySchema).toEqual([
        { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
        { AttributeName: SORT_KEY, KeyType: 'RANGE' },
      ]);
      expect(props.AttributeDefinitions.map((d: Json) => `${d.AttributeName}:${d.AttributeType}`).sort()).toEqual(
        KEY_ATTRIBUTES.map((name) => `${name}:S`).sort(),
      );
      expect(props.GlobalSecondaryIndexes).toHaveLength(GLOBAL_INDEXES.length);
      for (const index of GLOBAL_INDEXES) {
        expect(props.GlobalSecondaryIndexes).toContainEqual({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        });
      }
    });

    it('keeps attachment bodies in a private, encrypted, versioned, retained bucket that requires TLS', () => {
      const [bucketId, bucket] = attachmentBucket();
      expect(bucket.DeletionPolicy).toBe('Retain');
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toContainEqual({
        ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' },
      });
      expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });

      const policies = resourcesOfType(json, 'AWS::S3::BucketPolicy').filter(
        ([, p]) => referencedId(p.Properties.Bucket) === bucketId,
      );
      expect(policies).toHaveLength(1);
      expect(policies[0][1].Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 's3:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    });
  });

  describe('least privilege', () => {
    it('the route table has both read-only and writing routes to check', () => {
      expect(plans.some((plan) => plan.kind === 'route' && plan.access === 'read')).toBe(true);
      expect(plans.some((plan) => plan.kind === 'route' && plan.access === 'readWrite')).toBe(true);
    });

    it("a read-only route's function can read but not write the table, and has no bucket unless it serves attachment bodies", () => {
      const readOnlyRow = routes.find(
        (row) =>
          row.readOnly && !row.attachments && !routes.some((other) => other.handler === row.handler && !other.readOnly),
      )!;
      const actions = allowedActions(json, fnIds.get(readOnlyRow.handler)!);
      for (const action of DYNAMODB_READS)
        expect(allows(actions, action), `${readOnlyRow.handler} ${action}`).toBe(true);
      for (const action of [...FORBIDDEN_TO_READERS, ...S3_READS, ...S3_WRITES])
        expect(allows(actions, action), `${readOnlyRow.handler} ${action}`).toBe(false);
    });

    it('lets read-only functions write only the partitions authentication stamps (API key use, failed logins)', () => {
      const readRow = routes.find((row) => row.readOnly && expectedAccess(routes, row.handler) === 'read')!;
      const scoped = partitionScopedStatements(json, fnIds.get(readRow.handler)!);
      expect(scoped).toHaveLength(1);
      expect([scoped[0].Action].flat().sort()).toEqual(['dynamodb:DeleteItem', 'dynamodb:UpdateItem']);
      expect(AUTHENTICATION_WRITE_ACTIONS).toEqual(['dynamodb:UpdateItem', 'dynamodb:DeleteItem']);
      expect(scoped[0].Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': AUTHENTICATION_WRITE_PARTITIONS },
        // Without it, a request that names no partition at all would pass ForAllValues.
        Null: { 'dynamodb:LeadingKeys': 'false' },
      });
      const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
      expect(scoped[0].Resource).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
    });

    it('the read-only roles have no write action, nothing the functions do not use, and only the bodies they read', () => {
      const readModules = [...fnIds.keys()].filter(
        (module) => module !== BOOTSTRAP_HANDLER && expectedAccess(routes, module) === 'read',
      );
      expect(readModules.some((module) => expectedBucket(routes, module))).toBe(true);
      expect(readModules.some((module) => !expectedBucket(routes, module))).toBe(true);
      for (const module of readModules) {
        const actions = allowedActions(json, fnIds.get(module)!);
        for (const action of [...FORBIDDEN_TO_READERS, ...DYNAMODB_UNUSED, ...S3_WRITES, 's3:ListBucket'])
          expect(allows(actions, action), `${module} ${action}`).toBe(false);
        // Reads on the table, Query on its indexes by name (no wildcard).
        const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
        const tableStatements = statementsOfRole(json, roleOf(json, fnIds.get(module)!)).filter((statement) =>
          [statement.Action].flat().some((action: string) => action.startsWith('dynamodb:')),
        );
        const resources = tableStatements.flatMap((statement) => [statement.Resource].flat()).map(joined);
        expect(new Set(resources)).toEqual(
          new Set([
            `\${${tableId}.Arn}`,
            ...GLOBAL_INDEXES.map((index) => `\${${tableId}.Arn}/index/${index.indexName}`),
          ]),
        );
      }
    });

    it('no request function may scan the table or read its streams; the search compactor alone scans', () => {
      for (const [module, fnId] of fnIds) {
        for (const action of DYNAMODB_UNUSED) expect(allows(allowedActions(json, fnId), action), module).toBe(false);
      }
      const [compactorId, sweepId] = scheduledIds();
      expect(allows(allowedActions(json, compactorId), 'dynamodb:Scan')).toBe(true);
      expect(allows(allowedActions(json, sweepId), 'dynamodb:Scan')).toBe(false);
      expect(roleOf(json, compactorId)).not.toBe(
        roleOf(json, fnIds.get(routes.find((row) => !row.readOnly)!.handler)!),
      );
    });

    it("a writing route's function can write the table, and the bucket only when it serves attachment bodies", () => {
      const writingRow = routes.find((row) => !row.readOnly && !expectedBucket(routes, row.handler))!;
      const actions = allowedActions(json, fnIds.get(writingRow.handler)!);
      for (const action of [...DYNAMODB_READS, ...DYNAMODB_WRITES])
        expect(allows(actions, action), `${writingRow.handler} ${action}`).toBe(true);
      for (const action of [...S3_READS, ...S3_WRITES])
        expect(allows(actions, action), `${writingRow.handler} ${action}`).toBe(false);
    });

    it('every function gets exactly the access its rows call for; platform handlers get none', () => {
      for (const module of fnIds.keys()) {
        const access = expectedAccess(routes, module);
        const actions = allowedActions(json, fnIds.get(module)!);
        const bucket = expectedBucket(routes, module);
        const reads = DYNAMODB_READS.map((action) => allows(actions, action));
        const writes = FORBIDDEN_TO_READERS.map((action) => allows(actions, action));
        expect(reads.every(Boolean), `${module} reads`).toBe(access !== 'none');
        expect(writes.some(Boolean), `${module} writes`).toBe(access === 'readWrite');
        expect(
          S3_READS.every((action) => allows(actions, action)),
          `${module} reads bodies`,
        ).toBe(bucket);
        expect(
          S3_WRITES.some((action) => allows(actions, action)),
          `${module} writes bodies`,
        ).toBe(bucket && access === 'readWrite');
        if (access === 'none') {
          expect(
            actions.filter((action) => /^(dynamodb|s3):/.test(action)),
            module,
          ).toEqual([]);
        }
        expect(allows(actions, 'secretsmanager:GetSecretValue'), `${module} secret`).toBe(module === BOOTSTRAP_HANDLER);
        // Account mail: Test mail put under outbox/mail/, and nothing else read or written there.
        const mailStatements = statementsOfRole(json, roleOf(json, fnIds.get(module)!)).filter(isTestMailScoped);
        expect(
          mailStatements.map((statement) => [statement.Action].flat()),
          `${module} keeps Test mail`,
        ).toEqual(expectedMail(routes, module) ? [['s3:PutObject']] : []);
      }
      for (const module of Object.values(platformHandlers)) {
        if (!routes.some((row) => row.handler === module)) expect(expectedAccess(routes, module)).toBe('none');
      }
    });

    it('shares one execution role per access level (no role per function); the bootstrap alone has its own', () => {
      expectSharedRoles(json, routes, fnIds);
    });
  });

  describe('scheduled functions', () => {
    /** The one EventBridge rule that targets the function, and its one invoke permission. */
    const scheduleOf = (fnId: string) => {
      const rules = resourcesOfType(json, 'AWS::Events::Rule').filter(([, rule]) =>
        rule.Properties.Targets.some((target: Json) => referencedId(target.Arn) === fnId),
      );
      expect(rules, fnId).toHaveLength(1);
      const [ruleId, rule] = rules[0]!;
      const permissions = resourcesOfType(json, 'AWS::Lambda::Permission').filter(
        ([, permission]) => referencedId(permission.Properties.FunctionName) === fnId,
      );
      expect(permissions, fnId).toHaveLength(1);
      expect(permissions[0]![1].Properties).toMatchObject({
        Action: 'lambda:InvokeFunction',
        Principal: 'events.amazonaws.com',
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      });
      return rule.Properties;
    };

    const failedRunQueueId = () => logicalIdOf(synthesized.stack, synthesized.stack.failedRuns);
    /** Lambda's own retries and on-failure destination for the function's asynchronous invocations. */
    const asyncInvokeConfigOf = (fnId: string) => {
      const configs = resourcesOfType(json, 'AWS::Lambda::EventInvokeConfig').filter(
        ([, config]) => referencedId(config.Properties.FunctionName) === fnId,
      );
      expect(configs, fnId).toHaveLength(1);
      return configs[0]![1].Properties;
    };

    it('runs the search compactor every 10 minutes, outside the API', () => {
      const fnId = logicalIdOf(synthesized.stack, synthesized.stack.searchCompactor);
      expect(scheduleOf(fnId)).toMatchObject({ ScheduleExpression: 'rate(10 minutes)', State: 'ENABLED' });
      expect(routedFunctionIds(json).has(fnId)).toBe(false);
    });

    it('retries a failed compaction twice, then sends it to the failed-run queue (until the next run is due)', () => {
      const fnId = logicalIdOf(synthesized.stack, synthesized.stack.searchCompactor);
      const queueArn = { 'Fn::GetAtt': [failedRunQueueId(), 'Arn'] };
      // EventBridge's side: delivering the event.
      expect(scheduleOf(fnId).Targets).toEqual([
        expect.objectContaining({
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 600 },
          DeadLetterConfig: { Arn: queueArn },
        }),
      ]);
      // Lambda's side: the run itself.
      expect(asyncInvokeConfigOf(fnId)).toEqual({
        FunctionName: { Ref: fnId },
        Qualifier: '$LATEST',
        MaximumRetryAttempts: 2,
        MaximumEventAgeInSeconds: 600,
        DestinationConfig: { OnFailure: { Destination: queueArn } },
      });
      expect(allows(allowedActions(json, fnId), 'sqs:SendMessage')).toBe(true);
    });

    it('keeps failed runs 14 days in an encrypted queue that refuses plain HTTP, writable by the two schedules', () => {
      const queueId = failedRunQueueId();
      expect(json.Resources[queueId].Properties).toEqual({
        MessageRetentionPeriod: 14 * 24 * 3600,
        SqsManagedSseEnabled: true,
      });
      const [[, policy]] = resourcesOfType(json, 'AWS::SQS::QueuePolicy').filter(([, p]) =>
        p.Properties.Queues.some((queue: Json) => referencedId(queue) === queueId),
      );
      const statements: Json[] = policy.Properties.PolicyDocument.Statement;
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
      const senders = statements
        .filter((statement) => statement.Effect === 'Allow')
        .map((statement) => {
          expect(statement).toMatchObject({
            Action: 'sqs:SendMessage',
            Principal: { Service: 'events.amazonaws.com' },
          });
          return referencedId(statement.Condition.ArnEquals['aws:SourceArn']);
        });
      expect(senders.sort()).toEqual(
        resourcesOfType(json, 'AWS::Events::Rule')
          .map(([id]) => id)
          .sort(),
      );
    });

    it(`runs the attachment orphan sweep every ${ATTACHMENT_SWEEP_HOURS} hours, outside the API, for up to 15 minutes`, () => {
      const fnId = logicalIdOf(synthesized.stack, synthesized.stack.attachmentSweep);
      const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
      const [bucketId] = attachmentBucket();
      expect(json.Resources[fnId].Properties).toMatchObject({
        Description: `Tracker ${ATTACHMENT_SWEEP_MODULE}`,
        Runtime: RUNTIME,
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Timeout: 900,
        Environment: { Variables: { [ENV.table]: { Ref: tableId }, [ENV.bucket]: { Ref: bucketId } } },
      });
      expect(scheduleOf(fnId)).toMatchObject({
        ScheduleExpression: 'rate(1 day)',
        State: 'ENABLED',
        // A missed run is made up by the next one; a failed one still lands in the failed-run queue.
        Targets: [
          expect.objectContaining({
            RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 3600 },
            DeadLetterConfig: { Arn: { 'Fn::GetAtt': [failedRunQueueId(), 'Arn'] } },
          }),
        ],
      });
      expect(asyncInvokeConfigOf(fnId)).toMatchObject({
        MaximumRetryAttempts: 0,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failedRunQueueId(), 'Arn'] } } },
      });
      expect(routedFunctionIds(json).has(fnId)).toBe(false);
    });

    it('gives the sweep a role of its own: list and delete bodies, read and claim attachment pointers, nothing else', () => {
      const fnId = logicalIdOf(synthesized.stack, synthesized.stack.attachmentSweep);
      const roleId = roleOf(json, fnId);
      for (const [module, otherId] of fnIds) expect(roleOf(json, otherId), module).not.toBe(roleId);
      expect(json.Resources[roleId].Properties.ManagedPolicyArns).toBeUndefined();
      expectLogsOnlyToFunctionLogGroup(json, roleId);
      const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
      const [bucketId] = attachmentBucket();
      const queueId = failedRunQueueId();
      const statements = statementsOfRole(json, roleId).filter(
        (statement) => ![statement.Action].flat()[0].startsWith('logs:'),
      );
      expect(statements).toEqual([
        {
          Action: 's3:ListBucket',
          Effect: 'Allow',
          Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] },
          Condition: { StringLike: { 's3:prefix': ['attachments/*'] } },
        },
        {
          Action: 's3:DeleteObject',
          Effect: 'Allow',
          Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/attachments/*']] },
        },
        {
          Action: ['dynamodb:BatchGetItem', 'dynamodb:PutItem'],
          Effect: 'Allow',
          Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
          Condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ATTACHMENT_SWEEP_PARTITIONS },
            Null: { 'dynamodb:LeadingKeys': 'false' },
          },
        },
        // Its failed runs, to the failed-run queue (the on-failure destination).
        {
          Action: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
          Effect: 'Allow',
          Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
        },
      ]);
      expect(ATTACHMENT_SWEEP_PARTITIONS).toEqual(['ATTACHMENT#*']);
      // Outside the pointer partitions: no table access at all; and never reading or writing a body.
      const unscoped = allowedActions(json, fnId);
      for (const action of [
        ...DYNAMODB_READS,
        ...FORBIDDEN_TO_READERS,
        'dynamodb:Scan',
        's3:GetObject',
        's3:PutObject',
      ])
        expect(allows(unscoped, action), action).toBe(false);
    });
  });

  describe('search snapshot in the bucket', () => {
    /** The role's statements that reach the snapshot's frames, as action -> joined resources. */
    const snapshotStatements = (roleId: string) =>
      statementsOfRole(json, roleId)
        .filter(isSnapshotScoped)
        .map((statement) => ({
          actions: [statement.Action].flat().sort(),
          resources: [statement.Resource].flat().map(joined),
          condition: statement.Condition,
        }));

    it('lets the search functions read the frames, and no other request function reach them', () => {
      const [bucketId] = attachmentBucket();
      for (const [module, fnId] of fnIds) {
        const statements = snapshotStatements(roleOf(json, fnId));
        if (module === BOOTSTRAP_HANDLER) continue;
        if (SEARCH_INDEX_MODULES.includes(module))
          expect(statements, module).toEqual([
            {
              actions: ['s3:GetObject'],
              resources: [`\${${bucketId}.Arn}/${SEARCH_SNAPSHOT_PREFIX}*`],
              condition: undefined,
            },
          ]);
        else expect(statements, module).toEqual([]);
      }
      expect(SEARCH_SNAPSHOT_PREFIX).toBe('search-snapshots/');
    });

    it('lets the compactor and the bootstrap write frames and list and delete old generations, nothing else there', () => {
      const [bucketId] = attachmentBucket();
      const [compactorId, sweepId] = scheduledIds();
      const writers = [roleOf(json, compactorId), roleOf(json, fnIds.get(BOOTSTRAP_HANDLER)!)];
      for (const roleId of writers)
        expect(snapshotStatements(roleId), roleId).toEqual([
          {
            actions: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'],
            resources: [`\${${bucketId}.Arn}/${SEARCH_SNAPSHOT_PREFIX}*`],
            condition: undefined,
          },
          {
            actions: ['s3:ListBucket'],
            resources: [`\${${bucketId}.Arn}`],
            condition: { StringLike: { 's3:prefix': [`${SEARCH_SNAPSHOT_PREFIX}*`] } },
          },
        ]);
      expect(snapshotStatements(roleOf(json, sweepId))).toEqual([]);
      // Neither reaches attachment bodies by it.
      for (const roleId of writers)
        for (const statement of statementsOfRole(json, roleId).filter((each) =>
          [each.Action].flat().some((action: string) => action.startsWith('s3:')),
        ))
          expect(isSnapshotScoped(statement), roleId).toBe(true);
    });
  });

  describe('deploy-time bootstrap', () => {
    it('generates the first administrator API key in Secrets Manager and outputs its ARN', () => {
      const secrets = resourcesOfType(json, 'AWS::SecretsManager::Secret');
      expect(secrets).toHaveLength(1);
      const [secretId, secret] = secrets[0];
      expect(secret.Properties.GenerateSecretString).toMatchObject({ ExcludePunctuation: true, PasswordLength: 40 });
      expect(json.Outputs.AdminApiKeySecretArn.Value).toEqual({ Ref: secretId });
    });

    it('takes the administrator login as the AdminEmail parameter', () => {
      expect(json.Parameters.AdminEmail).toMatchObject({ Type: 'String', Default: 'admin@example.com' });
    });

    it('gives the bootstrap function the admin login and secret ARN', () => {
      const [[secretId]] = resourcesOfType(json, 'AWS::SecretsManager::Secret');
      const variables = json.Resources[fnIds.get(BOOTSTRAP_HANDLER)!].Properties.Environment.Variables;
      expect(variables[BOOTSTRAP_ENV.adminLogin]).toEqual({ Ref: 'AdminEmail' });
      expect(variables[BOOTSTRAP_ENV.adminApiKeySecretArn]).toEqual({ Ref: secretId });
    });

    it('invokes the bootstrap function through the Provider framework on every deploy', () => {
      const customResources = resourcesOfType(json, 'Custom::TrackerBootstrap');
      expect(customResources).toHaveLength(1);
      const [, resource] = customResources[0];
      const frameworkId = referencedId(resource.Properties.ServiceToken)!;
      const framework = json.Resources[frameworkId];
      expect(framework.Type).toBe('AWS::Lambda::Function');
      expect(referencedId(framework.Properties.Environment.Variables.USER_ON_EVENT_FUNCTION_ARN)).toBe(
        fnIds.get(BOOTSTRAP_HANDLER),
      );
      expect(allows(allowedActions(json, frameworkId), 'lambda:InvokeFunction')).toBe(true);
      expect(resource.Properties).toMatchObject({ AdminLogin: { Ref: 'AdminEmail' }, DeployNonce: NONCE });
    });
  });
});

// ---- a stack from a synthetic route table ---------------------------------------------------

describe('Tracker stack with a module serving both a read-only and a writing route', () => {
  const rows: RouteDefinition[] = [
    { method: 'GET', path: '/rest/thing/{id}', handler: 'things/thing', readOnly: true, attachments: true },
    { method: 'PUT', path: '/rest/thing/{id}', handler: 'things/thing', readOnly: false },
    { method: 'GET', path: '/rest/other', handler: 'things/other', readOnly: true },
  ];
  let synthesized: Synthesized;

  beforeAll(() => {
    synthesized = synth(rows, { [BOOTSTRAP_NONCE_CONTEXT]: undefined }); // no pinned nonce
  }, SYNTH_TIMEOUT);

  it('routes both methods (and HEAD) to the one function of the module, which gets the write grants', () => {
    const { stack, json } = synthesized;
    const thingId = logicalIdOf(stack, stack.functions.get('things/thing')!);
    const otherId = logicalIdOf(stack, stack.functions.get('things/other')!);
    const routeKeys = resourcesOfType(json, 'AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual(expectedRouteKeys(rows));
    for (const [, route] of resourcesOfType(json, 'AWS::ApiGatewayV2::Route')) {
      if (String(route.Properties.RouteKey).endsWith('/rest/thing/{id}'))
        expect(functionBehindRoute(json, route)).toBe(thingId);
    }
    expect(allows(allowedActions(json, thingId), 'dynamodb:PutItem')).toBe(true);
    // One row handles attachment bodies and another writes: the module may write bodies.
    expect(allows(allowedActions(json, thingId), 's3:PutObject')).toBe(true);
    expect(allows(allowedActions(json, otherId), 'dynamodb:PutItem')).toBe(false);
    expect(allows(allowedActions(json, otherId), 's3:GetObject')).toBe(false);
  });

  it('without a pinned nonce, stamps the bootstrap resource with the synth time so every deploy runs it', () => {
    const [[, resource]] = resourcesOfType(synthesized.json, 'Custom::TrackerBootstrap');
    const nonce = resource.Properties.DeployNonce;
    expect(typeof nonce).toBe('string');
    expect(Number.isNaN(Date.parse(nonce))).toBe(false);
  });
});

// ---- a stack from a route table the size of the full product ---------------------------------

describe('Tracker stack at the size of the full product', () => {
  const MODULES = 60;
  const GET_ROWS = 45;
  const ROWS = 75;
  /**
   * Per module: a function, an integration and a permission in its feature stack, a route or two
   * and a fifth of an alarm pair in the root; each template stays under its budget
   * (TEMPLATE_RESOURCE_BUDGET).
   */
  const RESOURCE_BUDGET = TEMPLATE_RESOURCE_BUDGET;

  /**
   * Modules 0-44 serve a GET each (0-14 also a PUT, so they need write access); modules 45-59 a
   * POST each (59 a read-only one, as a search would be).
   */
  const rows: RouteDefinition[] = [];
  const moduleName = (m: number) => `area${m % 6}/handler${m}`;
  for (let m = 0; m < GET_ROWS; m++)
    rows.push({ method: 'GET', path: `/rest/area${m % 6}/thing${m}/{id}`, handler: moduleName(m), readOnly: true });
  for (let m = GET_ROWS; m < MODULES; m++) {
    rows.push({
      method: 'POST',
      path: `/rest/area${m % 6}/thing${m}`,
      handler: moduleName(m),
      readOnly: m === MODULES - 1,
    });
  }
  for (let m = 0; rows.length < ROWS; m++)
    rows.push({ method: 'PUT', path: `/rest/area${m % 6}/thing${m}/{id}`, handler: moduleName(m), readOnly: false });

  let synthesized: Synthesized;
  let json: Json;
  let fnIds: Map<string, string>;

  beforeAll(() => {
    // No raised resource limit: past 500 resources, CDK itself refuses to synthesize.
    synthesized = synth(rows);
    json = synthesized.json;
    fnIds = new Map(
      [...synthesized.stack.functions].map(([module, fn]) => [module, logicalIdOf(synthesized.stack, fn)]),
    );
  }, SYNTH_TIMEOUT);

  it('is built from a route table of the intended size', () => {
    expect(new Set(rows.map((row) => row.handler)).size).toBe(MODULES);
    expect(rows).toHaveLength(ROWS);
    expect(rows.filter((row) => row.method === 'GET')).toHaveLength(GET_ROWS);
    expect(new Set(rows.map((row) => `${row.method} ${row.path}`)).size).toBe(ROWS);
  });

  it(`stays under ${RESOURCE_BUDGET} resources a template: per function only the function, one integration and one permission`, () => {
    const count = (type: string) => resourcesOfType(json, type).length;
    const routedFunctions = MODULES + Object.keys(platformHandlers).length;
    // + the bootstrap, the search compactor, the attachment sweep and the notification publisher.
    const ourFunctions = routedFunctions + 4;
    expect(count('AWS::Lambda::Function')).toBe(ourFunctions + 2); // + the custom-resource framework, the web deployment
    expect(count('AWS::Logs::LogGroup')).toBe(2); // the functions', the API's access log
    expect(count('AWS::ApiGatewayV2::Integration')).toBe(routedFunctions);
    expect(count('AWS::Lambda::Permission')).toBe(routedFunctions + 2); // + the two schedules
    expect(count('AWS::ApiGatewayV2::Route')).toBe(ROWS + GET_ROWS + 2); // + HEAD per GET, OPTIONS, $default
    // Shared per access level (none, read, readWrite), the bootstrap's, the compactor's, the
    // sweep's, the publisher's, the framework's and the web deployment's.
    expect(count('AWS::IAM::Role')).toBe(9);
    // Every role but the framework's has a policy of its own (logs), the framework's too (invoke),
    // the web deployment's too (the buckets).
    expect(count('AWS::IAM::Policy')).toBe(9);
    // Errors and throttles per group of 10 functions, plus the fixed alarms (monitoring.ts).
    const groups = Math.ceil(ourFunctions / METRICS_PER_ALARM);
    expect(count('AWS::CloudWatch::Alarm')).toBe(2 * groups + FIXED_ALARMS);
    for (const [name, resources] of resourceCounts(synthesized)) expect(resources, name).toBeLessThan(RESOURCE_BUDGET);
  });

  it('keeps least privilege with shared roles: read-only modules cannot write, writing modules can', () => {
    expectSharedRoles(json, rows, fnIds);
    for (const [module, fnId] of fnIds) {
      const access = expectedAccess(rows, module);
      const actions = allowedActions(json, fnId);
      const writes = [...FORBIDDEN_TO_READERS, ...S3_WRITES].some((action) => allows(actions, action));
      expect(writes, module).toBe(access === 'readWrite');
      expect(allows(actions, 'secretsmanager:GetSecretValue'), module).toBe(module === BOOTSTRAP_HANDLER);
    }
    expect(expectedAccess(rows, moduleName(MODULES - 1))).toBe('read'); // a read-only POST
    expect(expectedAccess(rows, moduleName(0))).toBe('readWrite'); // GET + PUT
  });

  it('routes every row to its function, with one integration and one API-scoped permission per function', () => {
    const expected = expectedRouteModules(rows);
    const routeKeys = resourcesOfType(json, 'AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual(expectedRouteKeys(rows));
    for (const [, route] of resourcesOfType(json, 'AWS::ApiGatewayV2::Route')) {
      expect(functionBehindRoute(json, route), route.Properties.RouteKey).toBe(
        fnIds.get(expected.get(route.Properties.RouteKey)!),
      );
    }
    expectOneIntegrationPerFunction(json);
    expectOneInvokePermissionPerFunction(json);
  });
});
