/**
 * The CDK stack, synthesized for tests without bundling. Handler entries are stubbed in a
 * throw-away project root (NodejsFunction insists that its entry file exists even when bundling
 * is skipped), so the stack is checked independently of which handler modules exist yet.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
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

/** Synthesizing the whole stack takes seconds, more on a loaded machine. */
export const SYNTH_TIMEOUT = 120_000;
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
}

export interface Synthesized {
  stack: TrackerStack;
  template: Template;
  json: Json;
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

export function synthStack(options: SynthOptions = {}): Synthesized {
  const routeRows = options.routes ?? routeTable;
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
  const template = Template.fromJSON(assembly.getStackByName(stack.stackName).template);
  return { stack, template, json: template.toJSON(), schemaFindings: schemaFindingsIn(assembly.directory) };
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

export const resourcesOfType = (json: Json, type: string): [string, Json][] =>
  Object.entries<Json>(json.Resources).filter(([, resource]) => resource.Type === type);

export const logicalIdOf = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string =>
  stack.getLogicalId(construct.node.defaultChild as CfnFunction);

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
