/**
 * The CDK stack, synthesized for tests without bundling. Handler entries are stubbed in a
 * throw-away project root (NodejsFunction insists that its entry file exists even when bundling
 * is skipped), so the stack is checked independently of which handler modules exist yet.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { planHandlers } from '../../../lib/handlerPlan.ts';
import {
  MAIL_FEEDBACK_MODULE,
  NOTIFICATION_PUBLISHER_MODULE,
  WEBHOOK_DELIVERY_MODULE,
} from '../../../lib/notifications.ts';
import { entryFor } from '../../../lib/trackerFunction.ts';
import {
  ATTACHMENT_SWEEP_MODULE,
  BOOTSTRAP_NONCE_CONTEXT,
  PROJECT_ROOT,
  SEARCH_COMPACTOR_MODULE,
  TrackerStack,
} from '../../../lib/trackerStack.ts';
import { type RouteDefinition, routes as routeTable } from '../../../shared/routes.ts';

// Synthesized CloudFormation is untyped JSON.
export type Json = any;

/**
 * A limit for a hung synthesis, not a speed target: seconds each, but the first test of the stack
 * suites also loads aws-cdk-lib and cdk-nag, and a machine shared by many test runs can make that minutes.
 */
export const SYNTH_TIMEOUT = 600_000;
export const NONCE = 'unit-test-nonce';

/** cdk.json's context (feature flags), so the tests synthesize what `cdk synth` would. */
export const cdkJsonContext: Record<string, unknown> =
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context ?? {};

const tempRoots: string[] = [];
const rootsByTable = new Map<readonly RouteDefinition[], string>();

/** A project root holding a lock file and a stub for every handler module the stack will need. */
export function stubProjectRoot(routeRows: readonly RouteDefinition[]): string {
  const existing = rootsByTable.get(routeRows);
  if (existing) return existing;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-cdk-test-'));
  tempRoots.push(root);
  rootsByTable.set(routeRows, root);
  fs.copyFileSync(path.join(PROJECT_ROOT, 'package-lock.json'), path.join(root, 'package-lock.json'));
  const unrouted = [
    SEARCH_COMPACTOR_MODULE,
    ATTACHMENT_SWEEP_MODULE,
    NOTIFICATION_PUBLISHER_MODULE,
    WEBHOOK_DELIVERY_MODULE,
    MAIL_FEEDBACK_MODULE,
  ];
  // A stand-in for the built web app (`npm run build:web`), which the stack copies to its bucket.
  fs.mkdirSync(path.join(root, 'web', 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, 'web', 'dist', 'index.html'), '<!doctype html><title>Tracker</title>\n');
  fs.writeFileSync(path.join(root, 'web', 'dist', 'app-TEST1234.js'), 'export {};\n');
  for (const module of [...planHandlers(routeRows).map((plan) => plan.module), ...unrouted]) {
    const entry = entryFor(root, module);
    fs.mkdirSync(path.dirname(entry), { recursive: true });
    fs.writeFileSync(entry, 'export const handler = async () => ({ statusCode: 200 });\n');
  }
  return root;
}

/** Removes the stub project roots (call from afterAll). */
export function removeStubRoots(): void {
  for (const root of tempRoots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  rootsByTable.clear();
  synthesizedStacks.clear();
}

export interface Synthesized {
  stack: TrackerStack;
  /** Over `json`. */
  template: Template;
  /**
   * The root template with every nested stack's resources merged in (featureStacks.ts), each
   * reference across a nested stack's boundary (parameter, output) replaced by what it stands
   * for: the stack as one template, as CloudFormation deploys it, whatever template holds what.
   */
  json: Json;
  /** Each template as synthesized: the root stack's (`Tracker`) and each nested stack's, by construct path. */
  templates: Map<string, Json>;
  /** With `validate`: CDK's CloudFormation schema findings, as `rule: construct path: description` lines. */
  schemaFindings: string[];
}

export interface SynthOptions {
  routes?: readonly RouteDefinition[];
  /** Deployment settings and other context, over cdk.json's and a pinned bootstrap nonce. */
  context?: Record<string, unknown>;
  /**
   * CDK's built-in CloudFormation schema validation of the template (`schemaFindings`). Several
   * seconds per synth: on for the tests that are about the template's validity only.
   */
  validate?: boolean;
}

/**
 * Synthesized stacks of this process, by route table and context: synthesizing (seconds each) is
 * most of what the stack tests cost, and the stack suites (test/unit/stack.test.ts) run in one
 * process so that each settings combination is synthesized once. Callers share the result and
 * must not change it.
 */
const synthesizedStacks = new Map<string, Synthesized & { validated: boolean }>();
const routeTableIds = new WeakMap<readonly RouteDefinition[], number>();
let nextRouteTableId = 0;

function cacheKey(routeRows: readonly RouteDefinition[], context: Record<string, unknown> = {}): string {
  let tableId = routeTableIds.get(routeRows);
  if (tableId === undefined) {
    tableId = nextRouteTableId++;
    routeTableIds.set(routeRows, tableId);
  }
  const entries = Object.entries(context)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => [key, value === undefined ? '(unset)' : value]);
  return JSON.stringify([tableId, entries]);
}

/** The stack as `cdk synth` would make it, synthesized once per route table and context in this process. */
export function synthStack(options: SynthOptions = {}): Synthesized {
  const routeRows = options.routes ?? routeTable;
  const key = cacheKey(routeRows, options.context);
  const cached = synthesizedStacks.get(key);
  if (cached && (cached.validated || !options.validate)) return cached;
  const synthesized = synthesizeStack(routeRows, options);
  synthesizedStacks.set(key, { ...synthesized, validated: options.validate ?? false });
  return synthesized;
}

function synthesizeStack(routeRows: readonly RouteDefinition[], options: SynthOptions): Synthesized {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-cdk-out-'));
  tempRoots.push(outdir);
  const app = new App({
    outdir,
    builtinCloudFormationValidation: options.validate ?? false,
    context: {
      ...cdkJsonContext,
      'aws:cdk:bundling-stacks': [],
      'aws:cdk:enable-asset-metadata': true,
      [BOOTSTRAP_NONCE_CONTEXT]: NONCE,
      ...options.context,
    },
  });
  const stack = new TrackerStack(app, 'Tracker', { projectRoot: stubProjectRoot(routeRows), routes: routeRows });
  const assembly = app.synth();
  const root = assembly.getStackByName(stack.stackName).template;
  const templates = new Map<string, Json>([[stack.node.path, root]]);
  const json = flattened(root, assembly.directory, templates, stack.node.path);
  return {
    stack,
    template: Template.fromJSON(json),
    json,
    templates,
    schemaFindings: schemaFindingsIn(assembly.directory),
  };
}

/** `value` with every `{ Ref: name }` of `refs` replaced (deeply). */
function substituted(value: Json, replace: (value: Json) => Json | undefined): Json {
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(value)) return value.map((item) => substituted(item, replace));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituted(item, replace)]));
  return value;
}

/** The template with its nested stacks' resources merged in (see `Synthesized.json`), recording each in `templates`. */
function flattened(template: Json, directory: string, templates: Map<string, Json>, path_: string): Json {
  const resources: Record<string, Json> = { ...template.Resources };
  const outputsOf = new Map<string, Record<string, Json>>();
  for (const [id, resource] of Object.entries<Json>(template.Resources)) {
    if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
    const file = resource.Metadata?.['aws:asset:path'];
    const nestedPath = `${path_}/${id}`;
    const raw = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8'));
    templates.set(nestedPath, raw);
    const parameters: Record<string, Json> = resource.Properties?.Parameters ?? {};
    const inner = substituted(flattened(raw, directory, templates, nestedPath), (value) =>
      value && typeof value === 'object' && typeof value.Ref === 'string' && value.Ref in parameters
        ? parameters[value.Ref]
        : undefined,
    );
    for (const [innerId, innerResource] of Object.entries<Json>(inner.Resources)) {
      if (innerId in resources) throw new Error(`Logical id ${innerId} is in two templates`);
      resources[innerId] = innerResource;
    }
    outputsOf.set(
      id,
      Object.fromEntries(Object.entries<Json>(inner.Outputs ?? {}).map(([name, output]) => [name, output.Value])),
    );
  }
  const merged = { ...template, Resources: resources };
  return substituted(merged, (value) => {
    const getAtt = value && typeof value === 'object' ? value['Fn::GetAtt'] : undefined;
    if (!Array.isArray(getAtt) || !outputsOf.has(getAtt[0]) || !String(getAtt[1]).startsWith('Outputs.'))
      return undefined;
    return outputsOf.get(getAtt[0])![String(getAtt[1]).slice('Outputs.'.length)];
  });
}

/** The findings of CDK's CloudFormation validation in a cloud assembly (none when it did not run). */
function schemaFindingsIn(directory: string): string[] {
  const file = path.join(directory, 'validation-report.json');
  if (!fs.existsSync(file)) return [];
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  return (report.pluginReports ?? []).flatMap((plugin: Json) =>
    (plugin.violations ?? []).flatMap((violation: Json) =>
      (violation.violatingConstructs ?? [{ constructPath: '?' }]).map(
        (construct: Json) => `${violation.ruleName}: ${construct.constructPath}: ${violation.description}`,
      ),
    ),
  );
}

export const CERTIFICATE_ARN = 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-aaaa-bbbb-cccc-1234567890ab';

/** Every setting switched away from its default. */
export const EVERY_OPTION: Record<string, string> = {
  domainName: 'bugs.example.org',
  certificateArn: CERTIFICATE_ARN,
  corsOrigins: 'https://dashboard.example.org,https://bugs.example.org',
  kmsKey: 'create',
  alarmEmail: 'ops@example.org',
  tracing: 'on',
  applicationLogLevel: 'DEBUG',
  systemLogLevel: 'INFO',
  logRetentionDays: '90',
  apiMemoryMb: '1024',
  apiTimeoutSeconds: '20',
  searchMemoryMb: '3008',
  searchTimeoutSeconds: '25',
  compactorMemoryMb: '2048',
  compactorTimeoutSeconds: '400',
  sweepMemoryMb: '1024',
  sweepTimeoutSeconds: '600',
  notificationMemoryMb: '1024',
  notificationTimeoutSeconds: '120',
  apiRateLimit: '50',
  apiBurstLimit: '100',
  eventAudience: 'full',
  sesIdentity: 'bugs.example.org',
  sesConfigurationSet: 'tracker-mail',
  webhooks: JSON.stringify([
    { url: 'https://ci.example.org/tracker', secret: 'whsec_ci' },
    { url: 'https://chat.example.org/hook', secret: ['whsec_new', 'whsec_old'], detailTypes: ['Bug Created'] },
    { url: 'https://deploys.example.org/hook', secretName: 'tracker/deploys' },
  ]),
};

// ---- template helpers -----------------------------------------------------------------------

/** Single sign-on through a Cognito user pool of the stack's own (lib/singleSignOn.ts). */
export const SINGLE_SIGN_ON_COGNITO: Record<string, string> = { oidc: 'cognito' };
/** Single sign-on through an issuer of the team's own, with a client secret in Secrets Manager. */
export const SINGLE_SIGN_ON_ISSUER: Record<string, string> = {
  oidc: 'https://login.example.org/realms/team',
  oidcClientId: 'tracker',
  oidcClientSecretName: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:tracker/oidc-AbCdEf',
  oidcProviderName: 'Example Login',
};

export const resourcesOfType = (json: Json, type: string): [string, Json][] =>
  Object.entries<Json>(json.Resources).filter(([, resource]) => resource.Type === type);

/** The construct's logical id in whichever template (root or nested, see `Synthesized.json`) holds it. */
export const logicalIdOf = (_stack: Stack, construct: { node: { defaultChild?: unknown } }): string => {
  const resource = construct.node.defaultChild as CfnFunction;
  return Stack.of(resource).getLogicalId(resource);
};

/** `{ Fn::GetAtt: [id, 'Arn'] }` or `{ Ref: id }` -> id. */
export function referencedId(value: Json): string | undefined {
  if (value && typeof value === 'object') {
    if (typeof value.Ref === 'string') return value.Ref;
    if (Array.isArray(value['Fn::GetAtt'])) return value['Fn::GetAtt'][0];
  }
  return undefined;
}

/** Every statement of the IAM policies attached to a role. */
export function statementsOfRole(json: Json, roleId: string): Json[] {
  return resourcesOfType(json, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles ?? []).some((role: Json) => referencedId(role) === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Json[]);
}

/** IAM wildcard semantics: does any granted action pattern cover `action`? */
export function allows(actions: readonly string[], action: string): boolean {
  return actions.some((pattern) => {
    if (pattern === '*') return true;
    const regex = new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      'i',
    );
    return regex.test(action);
  });
}

// ---- templates and their budget -------------------------------------------------------------

/** CloudFormation's limit of resources in one template. */
export const TEMPLATE_RESOURCE_LIMIT = 500;
/**
 * What any one template of the default stack may use, root or nested, so that features have room
 * to come (issue 38): 60% (the root held 286 after issue 42's delete routes).
 */
export const TEMPLATE_RESOURCE_BUDGET = Math.floor(TEMPLATE_RESOURCE_LIMIT * 0.6);
/**
 * The same with every option on (webhooks, SES with bounces, single sign-on, alarms by mail):
 * issue 42's delete routes took its root to 301. The root keeps every route (featureStacks.ts says
 * why), about 1.5 resources per route row, so it grows with the API whatever the feature stacks
 * do; 65% leaves ~25 more routes. Declaring new routes in their feature stack is the way to stop
 * the root growing (not done yet).
 */
export const TEMPLATE_RESOURCE_BUDGET_WITH_OPTIONS = Math.floor(TEMPLATE_RESOURCE_LIMIT * 0.65);

/** Resources in each template, by template (the root stack's is `Tracker`). */
export function resourceCounts(synthesized: Synthesized): Map<string, number> {
  return new Map([...synthesized.templates].map(([name, template]) => [name, Object.keys(template.Resources).length]));
}

/**
 * Logical ids of what holds data or what clients and operators hold on to, in the root template:
 * kept as they were before the functions moved to nested stacks (lib/featureStacks.ts), so that
 * updating an existing deployment replaces none of them. Never change these.
 */
export const KEPT_LOGICAL_IDS: Readonly<Record<string, string>> = {
  StorageTableB43FDCE7: 'AWS::DynamoDB::Table',
  StorageAttachments929F3104: 'AWS::S3::Bucket',
  StorageAccessLogs96FB524C: 'AWS::S3::Bucket',
  ApiF70053CD: 'AWS::ApiGatewayV2::Api',
  ApiDefaultStage189A7074: 'AWS::ApiGatewayV2::Stage',
  AdminApiKey4943A9E8: 'AWS::SecretsManager::Secret',
};
