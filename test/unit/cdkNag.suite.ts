/**
 * cdk-nag's AwsSolutions and Serverless rule packs on the synthesized stack, with the default
 * settings and with every option on: no finding, error or warning, is left unacknowledged
 * (lib/nagSuppressions.ts holds each acknowledgement and its reason). Two of the synths also run
 * CDK's own CloudFormation schema validation, which must find nothing either.
 */
import { App, Duration, type PolicyValidationPluginReport, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EVERY_OPTION,
  removeStubRoots,
  SINGLE_SIGN_ON_COGNITO,
  SINGLE_SIGN_ON_ISSUER,
  SYNTH_TIMEOUT,
  synthStack,
} from './support/stackSynth.ts';

afterAll(removeStubRoots);

/** Findings as `rule: construct path` lines, for a readable failure. */
function findings(report: PolicyValidationPluginReport): string[] {
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.ruleName}: ${resource.constructPath}`),
  );
}

/** Name, context, and whether to run CDK's schema validation too (seconds per synth: not on every case). */
const CASES: [string, Record<string, string>, boolean][] = [
  ['default settings', {}, true],
  ['every option on', EVERY_OPTION, true],
  [
    'an existing KMS key, tracing off',
    { kmsKey: 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab' },
    false,
  ],
  ['single sign-on through a Cognito user pool of the stack', SINGLE_SIGN_ON_COGNITO, true],
  ['single sign-on through an issuer of the team', SINGLE_SIGN_ON_ISSUER, false],
];

describe.each(CASES)('cdk-nag with %s', (_name, context, validate) => {
  it(
    'has no unacknowledged AwsSolutions or Serverless finding',
    () => {
      const { stack, schemaFindings } = synthStack({ context, validate });
      expect(schemaFindings, 'CloudFormation schema').toEqual([]);
      for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
        const report = pack.validateScope(stack);
        expect(findings(report), pack.name).toEqual([]);
        expect(report.success).toBe(true);
      }
    },
    SYNTH_TIMEOUT,
  );
});

describe('the acknowledgements', () => {
  it(
    'each give a reason',
    () => {
      const { stack } = synthStack({ context: EVERY_OPTION });
      const acknowledgements = stack.node
        .findAll()
        .flatMap((construct) => construct.node.metadata)
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) => Object.entries(entry.data as Record<string, string>));
      expect(acknowledgements.length).toBeGreaterThan(0);
      for (const [id, reason] of acknowledgements) expect(reason.length, id).toBeGreaterThan(40);
    },
    SYNTH_TIMEOUT,
  );

  it('name rules the packs really report (an unacknowledged stack of the same kinds of resources)', () => {
    const stack = new Stack(new App(), 'Bare');
    const fn = new lambda.Function(stack, 'Fn', {
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({})'),
      memorySize: 512,
      timeout: Duration.seconds(10),
    });
    const api = new HttpApi(stack, 'Api');
    api.addRoutes({ path: '/x', methods: [HttpMethod.GET], integration: new HttpLambdaIntegration('Fn', fn) });
    new sqs.Queue(stack, 'Queue', { enforceSSL: true });
    new secretsmanager.Secret(stack, 'Secret');
    Template.fromStack(stack);
    const reported = [new AwsSolutionsChecks(), new ServerlessChecks()].flatMap((pack) =>
      pack.validateScope(stack).violations.map((violation) => violation.ruleName),
    );
    for (const rule of [
      'AwsSolutions-APIG4',
      'AwsSolutions-SMG4',
      'AwsSolutions-SQS3',
      'Serverless-SQSRedrivePolicy',
      'Serverless-LambdaDLQ',
      'Serverless-LambdaTracing',
    ])
      expect(reported, rule).toContain(rule);
  });
});
