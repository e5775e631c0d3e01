/**
 * The notifications in the stack (lib/notifications.ts): the table's stream, the publisher and
 * its event source mapping, the event bus, the publisher's permissions with and without an SES
 * identity, the webhook function only when webhooks are configured, and their alarms.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARMS, PUBLISH_RETRY_LOG_MESSAGE, PUBLISH_RETRY_METRIC } from '../../lib/monitoring.ts';
import {
  NOTIFICATION_PUBLISHER_MODULE,
  WEBHOOK_DELIVERY_MODULE,
  WEBHOOK_EVENT_RETRIES,
  WEBHOOK_RUN_RETRIES,
} from '../../lib/notifications.ts';
import { PROJECT_ROOT } from '../../lib/trackerStack.ts';
import { NOTIFICATION_ENV } from '../../shared/domain/notification/notificationSettings.ts';
import { routes } from '../../shared/routes.ts';
import { attachmentKeys, bugKeys, keys, notificationKeys, searchKeys } from '../../shared/storage/keys.ts';
import { SES_ENV, TEST_MAIL_PREFIX } from '../../shared/storage/notification/sesMailSender.ts';
import { ENV, STREAM_VIEW_TYPE } from '../../shared/storage/tableSchema.ts';
import {
  allows,
  type Json,
  logicalIdOf,
  referencedId,
  removeStubRoots,
  resourcesOfType,
  SYNTH_TIMEOUT,
  type Synthesized,
  statementsOfRole,
  synthStack,
} from './support/stackSynth.ts';

afterAll(removeStubRoots);

const id = (synthesized: Synthesized, construct: { node: { defaultChild?: unknown } }) =>
  logicalIdOf(synthesized.stack, construct);

/** The statements of a function's role, logs left out. */
function roleStatements(json: Json, fnId: string): Json[] {
  return statementsOfRole(json, referencedId(json.Resources[fnId].Properties.Role)!).filter(
    (statement) => ![statement.Action].flat()[0].startsWith('logs:'),
  );
}

/** Actions a statement list allows without a partition condition. */
const unscopedActions = (statements: Json[]): string[] =>
  statements
    .filter((statement) => !statement.Condition?.['ForAllValues:StringLike'])
    .flatMap((statement) => [statement.Action].flat());

const SES_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'];

/** Whether a stream record with this partition key passes the mapping's filters (prefix patterns only). */
function passesFilters(filters: Json[], pk: string): boolean {
  return filters.some((filter) => {
    const pattern = JSON.parse(filter.Pattern);
    const rules: Json[] = pattern.dynamodb.Keys.pk.S;
    return rules.some((rule) => typeof rule.prefix === 'string' && pk.startsWith(rule.prefix));
  });
}

describe('notifications with default settings', () => {
  let synthesized: Synthesized;
  let json: Json;
  let publisherId: string;

  beforeAll(() => {
    synthesized = synthStack();
    json = synthesized.json;
    publisherId = id(synthesized, synthesized.stack.notifications.publisher);
  }, SYNTH_TIMEOUT);

  const mappingOf = (fnId: string): Json => {
    const mappings = resourcesOfType(json, 'AWS::Lambda::EventSourceMapping').filter(
      ([, mapping]) => referencedId(mapping.Properties.FunctionName) === fnId,
    );
    expect(mappings).toHaveLength(1);
    return mappings[0]![1].Properties;
  };

  it('gives the table a stream of old and new images', () => {
    const [[, table]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
    expect(STREAM_VIEW_TYPE).toBe('NEW_AND_OLD_IMAGES');
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: STREAM_VIEW_TYPE });
  });

  it('runs the publisher outside the API, 512 MB and 60 s, with the table, bucket, bus and audience', () => {
    const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
    const bucketId = id(synthesized, synthesized.stack.storage.bucket);
    const busId = id(synthesized, synthesized.stack.notifications.bus);
    const props = json.Resources[publisherId].Properties;
    expect(props).toMatchObject({
      Description: `Tracker ${NOTIFICATION_PUBLISHER_MODULE}`,
      MemorySize: 512,
      Timeout: 60,
      Architectures: ['arm64'],
    });
    const variables = props.Environment.Variables;
    expect(variables).toMatchObject({
      [ENV.table]: { Ref: tableId },
      [ENV.bucket]: { Ref: bucketId },
      [NOTIFICATION_ENV.eventBus]: { Ref: busId },
      [NOTIFICATION_ENV.eventAudience]: 'public',
    });
    expect(variables[NOTIFICATION_ENV.webhooks]).toBeUndefined();
    expect(variables[SES_ENV.configurationSet]).toBeUndefined();
    const invokers = resourcesOfType(json, 'AWS::Lambda::Permission').filter(
      ([, permission]) => referencedId(permission.Properties.FunctionName) === publisherId,
    );
    expect(invokers).toEqual([]);
  });

  it('reads the stream in order from its start, splits failing batches, retries from the failed record, then sets aside', () => {
    const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
    const failuresId = id(synthesized, synthesized.stack.notifications.failures);
    expect(mappingOf(publisherId)).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 2,
      ParallelizationFactor: 1,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 24 * 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failuresId, 'Arn'] } } },
    });
  });

  it('is invoked for bug items and the search change log only: not sessions, login failures or its own markers', () => {
    const filters: Json[] = mappingOf(publisherId).FilterCriteria.Filters;
    const passes = (pk: string) => passesFilters(filters, pk);
    for (const pk of [bugKeys.bug(42).pk, bugKeys.comment(42, 1).pk, attachmentKeys.attachment(42, 7).pk])
      expect(passes(pk), pk).toBe(true);
    expect(passes(searchKeys.logEntry('2026-11-25T02:00:00.000Z', 42, 8).pk)).toBe(true);
    for (const pk of [
      notificationKeys.deliveryPartition(42),
      keys.loginFailures(1, '192.0.2.1').pk,
      keys.loginToken('digest').pk,
      keys.apiKey('digest').pk,
      keys.user(1).pk,
      bugKeys.commentPointer(900).pk,
      attachmentKeys.attachmentPointer(7).pk,
      searchKeys.snapshotPointer().pk,
      keys.counter('bug').pk,
    ])
      expect(passes(pk), pk).toBe(false);
  });

  it("has a bus of the stack's own, which the publisher alone may put events on, named in the outputs", () => {
    const buses = resourcesOfType(json, 'AWS::Events::EventBus');
    expect(buses).toHaveLength(1);
    const [busId] = buses[0]!;
    expect(json.Outputs.EventBusName.Value).toEqual({ Ref: busId });
    const putEvents = roleStatements(json, publisherId).filter((statement) =>
      allows([statement.Action].flat(), 'events:PutEvents'),
    );
    expect(putEvents).toEqual([
      { Action: 'events:PutEvents', Effect: 'Allow', Resource: { 'Fn::GetAtt': [busId, 'Arn'] } },
    ]);
    const others = resourcesOfType(json, 'AWS::IAM::Policy').filter(([, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Json[]).some((statement) =>
        allows([statement.Action].flat(), 'events:PutEvents'),
      ),
    );
    expect(others).toHaveLength(1);
  });

  it('lets the publisher read items, mark its deliveries, keep Test mail and read the stream: nothing more', () => {
    const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
    const bucketId = id(synthesized, synthesized.stack.storage.bucket);
    const statements = roleStatements(json, publisherId);
    expect(statements).toContainEqual({
      Action: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
      Effect: 'Allow',
      Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
    });
    expect(statements).toContainEqual({
      Action: 'dynamodb:PutItem',
      Effect: 'Allow',
      Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
      Condition: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['NOTIFIED#*'] },
        Null: { 'dynamodb:LeadingKeys': 'false' },
      },
    });
    expect(notificationKeys.deliveryPartition(1)).toBe('NOTIFIED#1');
    expect(statements).toContainEqual({
      Action: 's3:PutObject',
      Effect: 'Allow',
      Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${TEST_MAIL_PREFIX}*`]] },
    });
    const unscoped = unscopedActions(statements);
    for (const action of ['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:DescribeStream'])
      expect(allows(unscoped, action), action).toBe(true);
    for (const action of [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:Scan',
      's3:GetObject',
      's3:DeleteObject',
      ...SES_ACTIONS,
    ])
      expect(allows(unscoped, action), action).toBe(false);
  });

  it('grants no SES at all without an SES identity', () => {
    const sending = resourcesOfType(json, 'AWS::IAM::Policy').filter(([, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Json[]).some((statement) =>
        SES_ACTIONS.some((action) => allows([statement.Action].flat(), action)),
      ),
    );
    expect(sending).toEqual([]);
  });

  it('has no webhook function and no rule on the bus without webhooks', () => {
    expect(synthesized.stack.notifications.webhookDelivery).toBeUndefined();
    const descriptions = resourcesOfType(json, 'AWS::Lambda::Function').map(([, fn]) => fn.Properties.Description);
    expect(descriptions).not.toContain(`Tracker ${WEBHOOK_DELIVERY_MODULE}`);
    const busRules = resourcesOfType(json, 'AWS::Events::Rule').filter(([, rule]) => rule.Properties.EventBusName);
    expect(busRules).toEqual([]);
  });

  it('keeps what failed for good in an encrypted, TLS-only queue of its own, named in the outputs', () => {
    const failuresId = id(synthesized, synthesized.stack.notifications.failures);
    expect(failuresId).not.toBe(id(synthesized, synthesized.stack.failedRuns));
    expect(json.Resources[failuresId].Properties).toEqual({
      MessageRetentionPeriod: 14 * 24 * 3600,
      SqsManagedSseEnabled: true,
    });
    const [[, policy]] = resourcesOfType(json, 'AWS::SQS::QueuePolicy').filter(([, p]) =>
      p.Properties.Queues.some((queue: Json) => referencedId(queue) === failuresId),
    );
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(json.Outputs.NotificationFailureQueueUrl.Value).toEqual({ Ref: failuresId });
    expect(allows(unscopedActions(roleStatements(json, publisherId)), 'sqs:SendMessage')).toBe(true);
  });

  describe('alarms', () => {
    const alarm = (name: string): Json => {
      const found = resourcesOfType(json, 'AWS::CloudWatch::Alarm').filter(
        ([, a]) => a.Properties.AlarmName === `Tracker-${name}`,
      );
      expect(found, name).toHaveLength(1);
      return found[0]![1].Properties;
    };

    it('alarms on anything in the notification failure queue', () => {
      const failuresId = id(synthesized, synthesized.stack.notifications.failures);
      expect(alarm(ALARMS.notificationFailures)).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [failuresId, 'QueueName'] } }],
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    });

    it("alarms when changes wait an hour in the stream (the publisher's iterator age), well before 24 hours", () => {
      expect(alarm(ALARMS.notificationDelay)).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'IteratorAge',
        Statistic: 'Maximum',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: publisherId } }],
        Threshold: 60 * 60_000,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    });

    it('alarms on failed publisher runs and on batches it stopped, counted from its log line', () => {
      const metrics = (alarm(ALARMS.notificationErrors).Metrics as Json[])
        .filter((query) => query.MetricStat)
        .map((query) => query.MetricStat.Metric);
      expect(metrics).toContainEqual({
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: publisherId } }],
      });
      expect(metrics).toContainEqual({ Namespace: 'Tracker', MetricName: PUBLISH_RETRY_METRIC });
      const [[, filter]] = resourcesOfType(json, 'AWS::Logs::MetricFilter');
      expect(filter.Properties).toMatchObject({
        LogGroupName: { Ref: id(synthesized, synthesized.stack.functionLogs) },
        FilterPattern: `{ $.message = "${PUBLISH_RETRY_LOG_MESSAGE}*" }`,
      });
      // The line the filter counts is the one the handler writes.
      const handler = fs.readFileSync(
        path.join(PROJECT_ROOT, 'functions', `${NOTIFICATION_PUBLISHER_MODULE}.ts`),
        'utf8',
      );
      expect(handler).toContain(`logger.error('${PUBLISH_RETRY_LOG_MESSAGE}`);
    });
  });
});

describe('notifications with an SES identity, a configuration set and webhooks', () => {
  const webhooks = [
    { url: 'https://ci.example.org/tracker', secret: 'whsec_ci' },
    { url: 'https://chat.example.org/hook', secret: ['whsec_new', 'whsec_old'], detailTypes: ['Bug Created'] },
  ];
  let synthesized: Synthesized;
  let json: Json;
  let publisherId: string;
  let webhookId: string;

  beforeAll(() => {
    synthesized = synthStack({
      context: {
        sesIdentity: 'bugs.example.org',
        sesConfigurationSet: 'tracker-mail',
        eventAudience: 'full',
        webhooks: JSON.stringify(webhooks),
      },
    });
    json = synthesized.json;
    publisherId = id(synthesized, synthesized.stack.notifications.publisher);
    webhookId = id(synthesized, synthesized.stack.notifications.webhookDelivery!);
  }, SYNTH_TIMEOUT);

  it('lets the publisher send mail as that identity, with that configuration set, and nothing else', () => {
    const sending = roleStatements(json, publisherId).filter((statement) =>
      SES_ACTIONS.some((action) => allows([statement.Action].flat(), action)),
    );
    expect(sending).toHaveLength(1);
    expect(sending[0].Action).toEqual(SES_ACTIONS);
    const arn = (resource: string) => ({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':ses:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          `:${resource}`,
        ],
      ],
    });
    expect(sending[0].Resource).toEqual([arn('identity/bugs.example.org'), arn('configuration-set/tracker-mail')]);
    const variables = json.Resources[publisherId].Properties.Environment.Variables;
    expect(variables[SES_ENV.configurationSet]).toBe('tracker-mail');
    expect(variables[NOTIFICATION_ENV.eventAudience]).toBe('full');
    // The webhook function posts the webhooks; the publisher posting them too would post each twice.
    expect(variables[NOTIFICATION_ENV.webhooks]).toBeUndefined();
  });

  it(
    'scopes SES to an address identity when the setting is an address',
    () => {
      const { json: other, stack } = synthStack({ context: { sesIdentity: 'bugs@example.org' } });
      const fnId = logicalIdOf(stack, stack.notifications.publisher);
      const sending = roleStatements(other, fnId).filter((statement) =>
        allows([statement.Action].flat(), 'ses:SendEmail'),
      );
      expect(sending).toHaveLength(1);
      expect(JSON.stringify(sending[0].Resource)).toContain(':identity/bugs@example.org');
      // No configuration set named: the stack's own, which reports bounces and complaints.
      const [[setId]] = resourcesOfType(other, 'AWS::SES::ConfigurationSet');
      expect(JSON.stringify(sending[0].Resource)).toContain(`{"Ref":"${setId}"}`);
      expect(other.Resources[fnId].Properties.Environment.Variables[SES_ENV.configurationSet]).toEqual({ Ref: setId });
      expect(stack.notifications.webhookDelivery).toBeUndefined();
    },
    SYNTH_TIMEOUT,
  );

  it(
    'lets the functions that send account mail, and no other API function, send as the identity with its set',
    () => {
      const { json: other, stack } = synthStack({ context: { sesIdentity: 'bugs@example.org' } });
      const [[setId]] = resourcesOfType(other, 'AWS::SES::ConfigurationSet');
      const mailing = new Set(routes.filter((row) => row.mail).map((row) => row.handler));
      expect([...mailing].sort()).toEqual([
        'account/inviteAccounts',
        'account/offerAccountByEmail',
        'account/requestPasswordReset',
        'rpc/rpcEndpoint',
        'user/updateOwnAccount',
      ]);
      for (const [module, fn] of stack.functions) {
        const fnId = logicalIdOf(stack, fn);
        const sending = roleStatements(other, fnId).filter((statement) =>
          allows([statement.Action].flat(), 'ses:SendRawEmail'),
        );
        const variables = other.Resources[fnId].Properties.Environment.Variables;
        if (!mailing.has(module)) {
          expect(sending, module).toEqual([]);
          expect(variables[SES_ENV.configurationSet], module).toBeUndefined();
          continue;
        }
        expect(sending, module).toHaveLength(1);
        expect(JSON.stringify(sending[0].Resource), module).toContain(':identity/bugs@example.org');
        expect(JSON.stringify(sending[0].Resource), module).toContain(`{"Ref":"${setId}"}`);
        // The function sits in a nested stack: the set's name reaches it as a parameter.
        expect(variables[SES_ENV.configurationSet], module).toBeDefined();
      }
    },
    SYNTH_TIMEOUT,
  );

  it('adds the webhook function with the webhooks in its environment, and only the delivery markers to its role', () => {
    const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
    const props = json.Resources[webhookId].Properties;
    expect(props.Description).toBe(`Tracker ${WEBHOOK_DELIVERY_MODULE}`);
    expect(props.Environment.Variables[ENV.table]).toEqual({ Ref: tableId });
    expect(JSON.parse(props.Environment.Variables[NOTIFICATION_ENV.webhooks])).toEqual(webhooks);
    const statements = roleStatements(json, webhookId);
    expect(statements).toContainEqual({
      Action: ['dynamodb:Query', 'dynamodb:PutItem'],
      Effect: 'Allow',
      Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
      Condition: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['NOTIFIED#*'] },
        Null: { 'dynamodb:LeadingKeys': 'false' },
      },
    });
    const unscoped = unscopedActions(statements);
    for (const action of ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 's3:PutObject', 'events:PutEvents'])
      expect(allows(unscoped, action), action).toBe(false);
    for (const action of SES_ACTIONS) expect(allows(unscoped, action), action).toBe(false);
    expect(referencedId(props.Role)).not.toBe(referencedId(json.Resources[publisherId].Properties.Role));
  });

  it('hands every Tracker event on the bus to the webhook function, with retries and the failure queue', () => {
    const busId = id(synthesized, synthesized.stack.notifications.bus);
    const failuresArn = { 'Fn::GetAtt': [id(synthesized, synthesized.stack.notifications.failures), 'Arn'] };
    const rules = resourcesOfType(json, 'AWS::Events::Rule').filter(([, rule]) => rule.Properties.EventBusName);
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(rule.Properties).toMatchObject({
      EventBusName: { Ref: busId },
      // One webhook takes every detail-type: no detail-type filter.
      EventPattern: { source: ['tracker'] },
      Targets: [
        expect.objectContaining({
          Arn: { 'Fn::GetAtt': [webhookId, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: WEBHOOK_EVENT_RETRIES, MaximumEventAgeInSeconds: 24 * 3600 },
          DeadLetterConfig: { Arn: failuresArn },
        }),
      ],
    });
    expect(rule.Properties.EventPattern['detail-type']).toBeUndefined();
    const [[, config]] = resourcesOfType(json, 'AWS::Lambda::EventInvokeConfig').filter(
      ([, c]) => referencedId(c.Properties.FunctionName) === webhookId,
    );
    expect(config.Properties).toMatchObject({
      MaximumRetryAttempts: WEBHOOK_RUN_RETRIES,
      DestinationConfig: { OnFailure: { Destination: failuresArn } },
    });
    const [[, permission]] = resourcesOfType(json, 'AWS::Lambda::Permission').filter(
      ([, p]) => referencedId(p.Properties.FunctionName) === webhookId,
    );
    expect(permission.Properties).toMatchObject({
      Principal: 'events.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
    });
  });

  it(
    'narrows the rule to the detail-types the webhooks want when every webhook names its own',
    () => {
      const { json: other } = synthStack({
        context: {
          webhooks: [
            { url: 'https://a.example.org/', secret: 's1', detailTypes: ['Bug Created', 'Comment Added'] },
            { url: 'https://b.example.org/', secret: 's2', detailTypes: ['Bug Created'] },
          ],
        },
      });
      const [[, rule]] = resourcesOfType(other, 'AWS::Events::Rule').filter(([, r]) => r.Properties.EventBusName);
      expect(rule.Properties.EventPattern).toEqual({
        source: ['tracker'],
        'detail-type': ['Bug Created', 'Comment Added'],
      });
    },
    SYNTH_TIMEOUT,
  );

  it(
    'lets the webhook function read the Secrets Manager secrets its webhooks name, and no other',
    () => {
      const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:tracker/chat-AbCdEf';
      const { json: other, stack } = synthStack({
        context: {
          webhooks: [
            { url: 'https://a.example.org/', secretName: 'tracker/ci' },
            { url: 'https://b.example.org/', secretName: arn },
            { url: 'https://c.example.org/', secret: 'inline' },
          ],
        },
      });
      const fnId = logicalIdOf(stack, stack.notifications.webhookDelivery!);
      const variables = other.Resources[fnId].Properties.Environment.Variables;
      expect(JSON.parse(variables[NOTIFICATION_ENV.webhooks])).toEqual([
        { url: 'https://a.example.org/', secretName: 'tracker/ci' },
        { url: 'https://b.example.org/', secretName: arn },
        { url: 'https://c.example.org/', secret: 'inline' },
      ]);
      const reading = roleStatements(other, fnId).filter((statement) =>
        allows([statement.Action].flat(), 'secretsmanager:GetSecretValue'),
      );
      expect(reading).toHaveLength(1);
      expect(reading[0].Action).toBe('secretsmanager:GetSecretValue');
      const [named, given] = reading[0].Resource;
      expect(JSON.stringify(named)).toContain(':secret:tracker/ci-??????');
      expect(given).toBe(arn);
      // The publisher never reads them.
      const publisher = logicalIdOf(stack, stack.notifications.publisher);
      expect(allows(unscopedActions(roleStatements(other, publisher)), 'secretsmanager:GetSecretValue')).toBe(false);
    },
    SYNTH_TIMEOUT,
  );

  it('has SES report bounces and complaints of the named configuration set to a function that may only turn mail off', () => {
    const [[topicId]] = resourcesOfType(json, 'AWS::SNS::Topic').filter(([topicId]) =>
      topicId.includes('MailFeedback'),
    );
    const [[, destination]] = resourcesOfType(json, 'AWS::SES::ConfigurationSetEventDestination');
    expect(destination.Properties).toMatchObject({
      ConfigurationSetName: 'tracker-mail',
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint'],
        SnsDestination: { TopicARN: { Ref: topicId } },
      },
    });
    // The named set is used as it is: the stack makes none of its own.
    expect(resourcesOfType(json, 'AWS::SES::ConfigurationSet')).toEqual([]);
    const feedbackId = id(synthesized, synthesized.stack.notifications.mailFeedback!);
    const [[, subscription]] = resourcesOfType(json, 'AWS::SNS::Subscription');
    expect(subscription.Properties).toMatchObject({
      Protocol: 'lambda',
      TopicArn: { Ref: topicId },
      Endpoint: { 'Fn::GetAtt': [feedbackId, 'Arn'] },
    });
    const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
    const statements = roleStatements(json, feedbackId);
    expect(statements).toContainEqual({
      Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
      Effect: 'Allow',
      Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
      Condition: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*', 'AUDIT#*', 'AUDIT'] },
        Null: { 'dynamodb:LeadingKeys': 'false' },
      },
    });
    const unscoped = unscopedActions(statements);
    for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 's3:PutObject'])
      expect(allows(unscoped, action), action).toBe(false);
    for (const action of SES_ACTIONS) expect(allows(unscoped, action), action).toBe(false);
  });

  it(
    'leaves bounces alone when told to',
    () => {
      const { json: other, stack } = synthStack({
        context: { sesIdentity: 'bugs.example.org', bounceHandling: 'off' },
      });
      expect(stack.notifications.mailFeedback).toBeUndefined();
      expect(resourcesOfType(other, 'AWS::SES::ConfigurationSetEventDestination')).toEqual([]);
      expect(resourcesOfType(other, 'AWS::SES::ConfigurationSet')).toEqual([]);
    },
    SYNTH_TIMEOUT,
  );

  it('watches the webhook function with the others', () => {
    const watched = resourcesOfType(json, 'AWS::CloudWatch::Alarm')
      .filter(([, alarm]) => /-FunctionErrors\d*$/.test(alarm.Properties.AlarmName))
      .flatMap(([, alarm]) =>
        alarm.Properties.MetricName
          ? [alarm.Properties.Dimensions[0].Value]
          : (alarm.Properties.Metrics as Json[]).map((query) => query.MetricStat?.Metric.Dimensions?.[0]?.Value),
      )
      .map(referencedId);
    expect(watched).toContain(webhookId);
    expect(watched).toContain(publisherId);
  });
});
