/**
 * What the deployment settings change in the template (lib/stackSettings.ts): logging and
 * tracing of every function, the API's access log, custom domain and CORS, function sizing, and
 * the customer-managed KMS key; and what holds whatever the settings (versioned, logged bucket).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_FORMAT, CORS_ALLOWED_HEADERS } from '../../lib/apiEndpoint.ts';
import { KEY_USER_SERVICES } from '../../lib/stackEncryption.ts';
import { FUNCTION_RUNTIME_ENVIRONMENT } from '../../lib/trackerFunction.ts';
import { ACCESS_LOG_PREFIX, INCOMPLETE_UPLOAD_DAYS, NONCURRENT_VERSION_DAYS } from '../../lib/trackerStorage.ts';
import { METRICS_NAMESPACE } from '../../shared/observability/metricNames.ts';
import {
  allows,
  CERTIFICATE_ARN,
  EVERY_OPTION,
  type Json,
  KEPT_LOGICAL_IDS,
  logicalIdOf,
  referencedId,
  removeStubRoots,
  resourceCounts,
  resourcesOfType,
  SYNTH_TIMEOUT,
  type Synthesized,
  statementsOfRole,
  synthStack,
  TEMPLATE_RESOURCE_BUDGET_WITH_OPTIONS,
  TEMPLATE_RESOURCE_LIMIT,
} from './support/stackSynth.ts';

afterAll(removeStubRoots);

const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

/** Logical ids of the stack's own functions (not the custom-resource framework's). */
const ourFunctionIds = ({ stack }: Synthesized): string[] =>
  [
    ...stack.functions.values(),
    stack.searchCompactor,
    stack.attachmentSweep,
    stack.notifications.publisher,
    ...(stack.notifications.webhookDelivery ? [stack.notifications.webhookDelivery] : []),
  ].map((fn) => logicalIdOf(stack, fn));

/** The failed-run queue and the notification failure queue. */
const queuesOf = (json: Json): Json[] => {
  const queues = resourcesOfType(json, 'AWS::SQS::Queue');
  expect(queues).toHaveLength(2);
  return queues.map(([, queue]) => queue.Properties);
};

const only = <T>(items: T[]): T => {
  expect(items).toHaveLength(1);
  return items[0]!;
};

describe('with default settings', () => {
  let synthesized: Synthesized;
  let json: Json;

  beforeAll(() => {
    synthesized = synthStack();
    json = synthesized.json;
  }, SYNTH_TIMEOUT);

  it('logs every function as JSON to the function log group, INFO and up from the code, WARN and up from Lambda', () => {
    const logGroupId = logicalIdOf(synthesized.stack, synthesized.stack.functionLogs);
    for (const fnId of ourFunctionIds(synthesized)) {
      expect(json.Resources[fnId].Properties.LoggingConfig, fnId).toEqual({
        LogFormat: 'JSON',
        ApplicationLogLevel: 'INFO',
        SystemLogLevel: 'WARN',
        LogGroup: { Ref: logGroupId },
      });
    }
  });

  it('names the service and metric namespace, and turns tracing off, in every function', () => {
    expect(FUNCTION_RUNTIME_ENVIRONMENT.POWERTOOLS_METRICS_NAMESPACE).toBe(METRICS_NAMESPACE);
    for (const fnId of ourFunctionIds(synthesized)) {
      const props = json.Resources[fnId].Properties;
      expect(props.TracingConfig, fnId).toBeUndefined();
      expect(props.Environment.Variables, fnId).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'tracker',
        POWERTOOLS_METRICS_NAMESPACE: 'Tracker',
        POWERTOOLS_TRACE_ENABLED: 'false',
        TRACKER_TRACING: 'off',
      });
      expect(
        allows(
          statementsOfRole(json, referencedId(props.Role)!).flatMap((s) => [s.Action].flat()),
          'xray:PutTraceSegments',
        ),
        fnId,
      ).toBe(false);
    }
  });

  it('writes a JSON access log line per request to a log group of its own, never the query string', () => {
    const stage = only(resourcesOfType(json, 'AWS::ApiGatewayV2::Stage'))[1].Properties;
    const accessLogsId = logicalIdOf(synthesized.stack, synthesized.stack.apiAccessLogs);
    expect(stage.AccessLogSettings.DestinationArn).toEqual({ 'Fn::GetAtt': [accessLogsId, 'Arn'] });
    const format = JSON.parse(stage.AccessLogSettings.Format);
    expect(format).toEqual(ACCESS_LOG_FORMAT);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      routeKey: '$context.routeKey',
      integrationRequestId: '$context.integration.requestId',
    });
    for (const variable of Object.values<string>(format))
      expect(variable).not.toMatch(/querystring|requestUri|authorizer/i);
    expect(json.Resources[accessLogsId].Properties).toEqual({ RetentionInDays: 30 });
    expect(accessLogsId).not.toBe(logicalIdOf(synthesized.stack, synthesized.stack.functionLogs));
  });

  it('serves the API on its execute-api address, with no custom domain', () => {
    const api = only(resourcesOfType(json, 'AWS::ApiGatewayV2::Api'))[1].Properties;
    expect(api.DisableExecuteApiEndpoint).toBeUndefined();
    expect(resourcesOfType(json, 'AWS::ApiGatewayV2::DomainName')).toHaveLength(0);
    expect(json.Outputs.ApiDomainTarget).toBeUndefined();
    expect(JSON.stringify(json.Outputs.ApiUrl.Value)).toContain('execute-api');
  });

  it('uses no key of its own: every service encrypts with its AWS key', () => {
    expect(resourcesOfType(json, 'AWS::KMS::Key')).toHaveLength(0);
    expect(JSON.stringify(json)).not.toMatch(/KmsKeyId|KMSMasterKeyId|KmsMasterKeyId/);
    for (const queue of queuesOf(json)) expect(queue.SqsManagedSseEnabled).toBe(true);
  });

  it('keeps bodies restorable for a while (versioning, noncurrent versions expire) and logs access to the bucket', () => {
    const bucketId = logicalIdOf(synthesized.stack, synthesized.stack.storage.bucket);
    const logBucketId = logicalIdOf(synthesized.stack, synthesized.stack.storage.accessLogBucket);
    const bucket = json.Resources[bucketId].Properties;
    expect(bucket.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.LifecycleConfiguration.Rules).toEqual([
      {
        Id: 'ExpireOldVersions',
        Status: 'Enabled',
        NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS },
        ExpiredObjectDeleteMarker: true,
      },
      // Search snapshots are replaced every few minutes: their old versions go after a day.
      {
        Id: 'ExpireOldSearchSnapshots',
        Status: 'Enabled',
        Prefix: 'search-snapshots/',
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
        ExpiredObjectDeleteMarker: true,
      },
      {
        Id: 'AbortIncompleteUploads',
        Status: 'Enabled',
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: INCOMPLETE_UPLOAD_DAYS },
      },
    ]);
    expect(bucket.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logBucketId },
      LogFilePrefix: ACCESS_LOG_PREFIX,
    });
    const logBucket = json.Resources[logBucketId];
    expect(logBucket.DeletionPolicy).toBe('Retain');
    expect(logBucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([
      { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
    ]);
    expect(logBucket.Properties.PublicAccessBlockConfiguration).toMatchObject({ BlockPublicPolicy: true });
    const logPolicy = resourcesOfType(json, 'AWS::S3::BucketPolicy').find(
      ([, policy]) => referencedId(policy.Properties.Bucket) === logBucketId,
    )![1].Properties.PolicyDocument.Statement as Json[];
    // TLS only, and S3's log delivery may write there (by bucket policy, not an ACL).
    expect(logPolicy).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(logPolicy).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 's3:PutObject',
        Principal: { Service: 'logging.s3.amazonaws.com' },
      }),
    );
  });
});

describe('with every option on (a key of its own)', () => {
  let synthesized: Synthesized;
  let json: Json;
  let keyId: string;

  beforeAll(() => {
    synthesized = synthStack({ context: EVERY_OPTION });
    json = synthesized.json;
    keyId = only(resourcesOfType(json, 'AWS::KMS::Key'))[0];
  }, SYNTH_TIMEOUT);

  const keyArn = () => ({ 'Fn::GetAtt': [keyId, 'Arn'] });

  it(`keeps every template under ${TEMPLATE_RESOURCE_BUDGET_WITH_OPTIONS} of CloudFormation's ${TEMPLATE_RESOURCE_LIMIT} resources`, () => {
    for (const [name, count] of resourceCounts(synthesized))
      expect(count, name).toBeLessThan(TEMPLATE_RESOURCE_BUDGET_WITH_OPTIONS);
  });

  it('keeps the logical ids of the key, the table, the buckets, the API and the secret in the root template', () => {
    const root = synthesized.templates.get('Tracker');
    for (const [id, type] of Object.entries({ ...KEPT_LOGICAL_IDS, EncryptionKey1B843E66: 'AWS::KMS::Key' }))
      expect(root.Resources[id]?.Type, id).toBe(type);
  });

  it('traces every function with X-Ray and tells the runtime so', () => {
    for (const fnId of ourFunctionIds(synthesized)) {
      const props = json.Resources[fnId].Properties;
      expect(props.TracingConfig, fnId).toEqual({ Mode: 'Active' });
      expect(props.Environment.Variables, fnId).toMatchObject({
        POWERTOOLS_TRACE_ENABLED: 'true',
        TRACKER_TRACING: 'on',
      });
      expect(props.LoggingConfig, fnId).toMatchObject({ ApplicationLogLevel: 'DEBUG', SystemLogLevel: 'INFO' });
      const actions = statementsOfRole(json, referencedId(props.Role)!).flatMap((s) => [s.Action].flat());
      expect(allows(actions, 'xray:PutTraceSegments'), fnId).toBe(true);
    }
  });

  it('sizes each function family as configured', () => {
    const { stack } = synthesized;
    const props = (fn: { node: { defaultChild?: unknown } }) => json.Resources[logicalIdOf(stack, fn)].Properties;
    expect(props(stack.functions.get('instance/version')!)).toMatchObject({ MemorySize: 1024, Timeout: 20 });
    expect(props(stack.functions.get('bug/searchBugs')!)).toMatchObject({ MemorySize: 3008, Timeout: 25 });
    expect(props(stack.searchCompactor)).toMatchObject({ MemorySize: 2048, Timeout: 400 });
    expect(props(stack.attachmentSweep)).toMatchObject({ MemorySize: 1024, Timeout: 600 });
    expect(props(stack.notifications.publisher)).toMatchObject({ MemorySize: 1024, Timeout: 120 });
    expect(props(stack.notifications.webhookDelivery!)).toMatchObject({ MemorySize: 1024, Timeout: 120 });
    expect(props(stack.functions.get('platform/bootstrap')!)).toMatchObject({ Timeout: 60 });
  });

  it('serves the API at the custom domain only: the execute-api endpoint is disabled', () => {
    const api = only(resourcesOfType(json, 'AWS::ApiGatewayV2::Api'));
    expect(api[1].Properties.DisableExecuteApiEndpoint).toBe(true);
    const [domainId, domain] = only(resourcesOfType(json, 'AWS::ApiGatewayV2::DomainName'));
    expect(domain.Properties).toEqual({
      DomainName: 'bugs.example.org',
      DomainNameConfigurations: [
        { CertificateArn: CERTIFICATE_ARN, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' },
      ],
    });
    expect(only(resourcesOfType(json, 'AWS::ApiGatewayV2::ApiMapping'))[1].Properties).toEqual({
      ApiId: { Ref: api[0] },
      DomainName: { Ref: domainId },
      Stage: '$default',
    });
    expect(json.Outputs.ApiUrl.Value).toBe('https://bugs.example.org/rest');
    expect(json.Outputs.ApiDomainTarget.Value).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
    expect(json.Outputs.ApiDomainHostedZoneId.Value).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] });
  });

  it('lets browsers on the configured origins call the API (API Gateway answers their preflights)', () => {
    expect(only(resourcesOfType(json, 'AWS::ApiGatewayV2::Api'))[1].Properties.CorsConfiguration).toEqual({
      AllowOrigins: ['https://dashboard.example.org', 'https://bugs.example.org'],
      AllowMethods: ['*'],
      AllowHeaders: CORS_ALLOWED_HEADERS,
      ExposeHeaders: ['ETag'],
      MaxAge: 600,
      AllowCredentials: false,
    });
  });

  it('keeps function and access logs as long as configured', () => {
    for (const [id, group] of resourcesOfType(json, 'AWS::Logs::LogGroup'))
      expect(group.Properties.RetentionInDays, id).toBe(90);
  });

  it('throttles the stage as configured', () => {
    expect(only(resourcesOfType(json, 'AWS::ApiGatewayV2::Stage'))[1].Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: 50,
      ThrottlingBurstLimit: 100,
    });
  });

  it('encrypts table, bucket, log groups, queue, topic and secret with a retained, rotating key of its own', () => {
    const key = json.Resources[keyId];
    expect(key.DeletionPolicy).toBe('Retain');
    expect(key.Properties.EnableKeyRotation).toBe(true);
    const tableProps = only(resourcesOfType(json, 'AWS::DynamoDB::Table'))[1].Properties;
    expect(tableProps.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: keyArn() });
    const bucketProps = json.Resources[logicalIdOf(synthesized.stack, synthesized.stack.storage.bucket)].Properties;
    expect(bucketProps.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([
      { BucketKeyEnabled: true, ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: keyArn() } },
    ]);
    for (const [id, group] of resourcesOfType(json, 'AWS::Logs::LogGroup'))
      expect(group.Properties.KmsKeyId, id).toEqual(keyArn());
    for (const queue of queuesOf(json)) expect(queue.KmsMasterKeyId).toEqual(keyArn());
    // The alarm topic, and the topic SES reports bounces and complaints to.
    const topics = resourcesOfType(json, 'AWS::SNS::Topic');
    expect(topics).toHaveLength(2);
    for (const [id, topic] of topics) expect(topic.Properties.KmsMasterKeyId, id).toEqual(keyArn());
    expect(only(resourcesOfType(json, 'AWS::SecretsManager::Secret'))[1].Properties.KmsKeyId).toEqual(keyArn());
  });

  it("lets the services that encrypt on their own use the key, CloudWatch Logs for this account's log groups only", () => {
    const statements: Json[] = json.Resources[keyId].Properties.KeyPolicy.Statement;
    for (const service of KEY_USER_SERVICES) {
      const statement = statements.find((s) => s.Sid === service.sid);
      expect(statement, service.sid).toBeDefined();
      expect(statement.Effect).toBe('Allow');
    }
    const logs = statements.find((s) => s.Sid === 'CloudWatchLogsEncryptsTheLogGroups')!;
    expect(Object.keys(logs.Condition.ArnLike)).toEqual(['kms:EncryptionContext:aws:logs:arn']);
    expect(statements.find((s) => s.Sid === 'CloudWatchAlarmsPublishToTheTopic')!.Principal).toEqual({
      Service: 'cloudwatch.amazonaws.com',
    });
    expect(statements.find((s) => s.Sid === 'SesReportsBouncesToTheTopic')!.Principal).toEqual({
      Service: 'ses.amazonaws.com',
    });
  });

  it('lets functions use the key only as far as their data: readers of bodies decrypt, the platform handlers nothing', () => {
    const { stack } = synthesized;
    const keyActions = (module: string) =>
      statementsOfRole(
        json,
        referencedId(json.Resources[logicalIdOf(stack, stack.functions.get(module)!)].Properties.Role)!,
      )
        .filter((s) => JSON.stringify(s.Resource) === JSON.stringify(keyArn()))
        .flatMap((s) => [s.Action].flat());
    expect(keyActions('platform/notFound')).toEqual([]);
    expect(allows(keyActions('attachment/downloadAttachment'), 'kms:Decrypt')).toBe(true);
    expect(allows(keyActions('attachment/createAttachment'), 'kms:GenerateDataKey')).toBe(true);
  });
});

describe('with an existing key', () => {
  let json: Json;

  beforeAll(() => {
    json = synthStack({ context: { kmsKey: KEY_ARN } }).json;
  }, SYNTH_TIMEOUT);

  it('encrypts everything with that key, creates none, and grants the functions its use by ARN', () => {
    expect(resourcesOfType(json, 'AWS::KMS::Key')).toHaveLength(0);
    const tableProps = only(resourcesOfType(json, 'AWS::DynamoDB::Table'))[1].Properties;
    expect(tableProps.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: KEY_ARN });
    for (const [id, group] of resourcesOfType(json, 'AWS::Logs::LogGroup'))
      expect(group.Properties.KmsKeyId, id).toBe(KEY_ARN);
    for (const queue of queuesOf(json)) expect(queue.KmsMasterKeyId).toBe(KEY_ARN);
    expect(only(resourcesOfType(json, 'AWS::SNS::Topic'))[1].Properties.KmsMasterKeyId).toBe(KEY_ARN);
    const granted = resourcesOfType(json, 'AWS::IAM::Policy').some(([, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Json[]).some(
        (s) => s.Resource === KEY_ARN && [s.Action].flat().includes('kms:Decrypt'),
      ),
    );
    expect(granted).toBe(true);
  });
});
