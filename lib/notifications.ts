/**
 * How a committed change leaves the stack (docs/events.md): the table's stream feeds the
 * notification publisher, which puts events on the stack's own EventBridge bus and sends bug
 * mail through SES; with webhooks configured, a bus rule hands every event to a function that
 * signs and posts it. What fails for good, whichever part failed, lands in one queue, which
 * monitoring alarms on.
 *
 * The publisher sees only the partitions of bug changes: the stream's filter leaves out
 * sessions, login failures, the catalogue and the publisher's own delivery markers, so they
 * cost no invocation.
 */
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '../shared/domain/notification/bugEvents.ts';
import { NOTIFICATION_ENV } from '../shared/domain/notification/notificationSettings.ts';
import { bugKeys, keys as identityKeys, notificationKeys, searchKeys } from '../shared/storage/keys.ts';
import { SES_ENV, TEST_MAIL_PREFIX } from '../shared/storage/notification/sesMailSender.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import { FunctionRoles, TABLE_READ_ACTIONS } from './functionRoles.ts';
import { createFailedRunQueue } from './scheduledRuns.ts';
import type { StackSettings } from './stackSettings.ts';
import { createTrackerFunction, type FunctionObservability } from './trackerFunction.ts';
import type { TrackerStorage } from './trackerStorage.ts';

export const NOTIFICATION_PUBLISHER_MODULE = 'notification/publishChanges';
export const WEBHOOK_DELIVERY_MODULE = 'notification/deliverWebhook';
export const MAIL_FEEDBACK_MODULE = 'notification/handleMailFeedback';

/** `BUG#42` -> `BUG#`: the prefix of a kind of partition, from keys.ts. */
const prefixOf = (partition: string) => partition.replace(/\d+$/, '');

/**
 * The partitions the publisher reads from the stream: a bug's items, and the search change log,
 * whose entries say for certain what history a change has (streamRecords.ts).
 */
export const STREAM_PARTITION_PREFIXES = [prefixOf(bugKeys.bug(0).pk), searchKeys.logPartition('')];
/** Where the publisher and the webhook function mark what they delivered (deliveryLog.ts). */
export const DELIVERY_MARKER_PARTITIONS = [`${prefixOf(notificationKeys.deliveryPartition(0))}*`];
/**
 * What turning an account's mail off writes (mailFeedback.ts): the user item, and the audit entry
 * with the latest audit time.
 */
export const MAIL_FEEDBACK_WRITE_PARTITIONS = [
  `${prefixOf(identityKeys.user(0).pk)}*`,
  `${identityKeys.auditEntry('', '', '').pk}*`,
  identityKeys.auditLatestPartition,
];
/** `mail_delivery_method` Test keeps each mail here in the bucket. */
export const TEST_MAIL_OBJECTS = `${TEST_MAIL_PREFIX}*`;

/**
 * The event source mapping. One batch per shard at a time (no parallelization): a bug's changes
 * are published in order. A failed change is handed over again from its first record (partial
 * batch response); one that keeps failing is split off (bisect) and, after the retries or once
 * older than the stream keeps anything, set aside in the failure queue with its stream position.
 */
export const STREAM_BATCH = {
  batchSize: 100,
  maxBatchingWindow: Duration.seconds(2),
  retryAttempts: 10,
  maxRecordAge: Duration.hours(24),
} as const;

/** EventBridge's side of a webhook event: delivering it to the function. */
export const WEBHOOK_EVENT_RETRIES = 8;
export const WEBHOOK_EVENT_AGE = Duration.hours(24);
/** Lambda's side: the function's run (2 is Lambda's most), about 1 and 2 minutes apart. */
export const WEBHOOK_RUN_RETRIES = 2;
export const WEBHOOK_RUN_AGE = Duration.hours(6);

export interface NotificationsProps {
  projectRoot: string;
  storage: TrackerStorage;
  roles: FunctionRoles;
  logGroup: logs.ILogGroup;
  observability: FunctionObservability;
  settings: StackSettings;
  encryptionKey?: kms.IKey;
}

export class Notifications extends Construct {
  readonly bus: events.EventBus;
  readonly publisher: NodejsFunction;
  /** Only with an SES identity and bounce handling on: SES's bounces and complaints. */
  readonly mailFeedbackTopic?: sns.Topic;
  readonly mailFeedback?: NodejsFunction;
  /** Only with the `webhooks` setting. */
  readonly webhookDelivery?: NodejsFunction;
  /** Stream batches, webhook events and runs that failed for good. */
  readonly failures: sqs.Queue;
  /**
   * What a function that sends mail (the publisher, and the API's account mail) needs in its
   * environment: the configuration set SES reports bounces and complaints through, if any.
   */
  readonly mailEnvironment: Readonly<Record<string, string>>;
  private readonly sesResources: string[];

  constructor(scope: Construct, id: string, props: NotificationsProps) {
    super(scope, id);
    const { storage, roles, settings } = props;
    const { table, bucket } = storage;
    const notifications = settings.notifications;
    const sizing = settings.functions.notification;
    const functionProps = {
      projectRoot: props.projectRoot,
      logGroup: props.logGroup,
      observability: props.observability,
      timeout: Duration.seconds(sizing.timeoutSeconds),
      memorySize: sizing.memoryMb,
    };

    this.bus = new events.EventBus(this, 'Bus', { description: 'Tracker: bug changes (docs/events.md)' });
    this.failures = createFailedRunQueue(this, 'Failures', props.encryptionKey);

    // --- Bounces and complaints -------------------------------------------------------------------
    // SES reports them through a configuration set (the one named, or the stack's own) to a topic;
    // a function turns the address's mail off. Mail then always goes out with that set.
    let configurationSetName = notifications.sesConfigurationSet;
    if (notifications.sesIdentity && notifications.bounceHandling === 'disable-mail') {
      const configurationSet = configurationSetName
        ? ses.ConfigurationSet.fromConfigurationSetName(this, 'MailConfigurationSet', configurationSetName)
        : new ses.ConfigurationSet(this, 'MailConfigurationSet', {});
      configurationSetName = configurationSet.configurationSetName;
      this.mailFeedbackTopic = this.createMailFeedback(configurationSet, props, functionProps);
      this.mailFeedback = this.node.findChild('MailFeedbackFunction') as NodejsFunction;
    }

    // --- The publisher ----------------------------------------------------------------------------
    // Its own role with only what it does: read the bug, the people and the catalogue; mark its
    // deliveries; put events on the bus; send mail as the configured identity, or keep Test mail.
    const role = roles.dedicatedRole('NotificationPublisherRole', 'none', 'Tracker notification publisher');
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
        resources: [table.tableArn],
      }),
    );
    allowDeliveryMarkers(role, table.tableArn, ['dynamodb:PutItem']);
    FunctionRoles.allowKeyUse(table.encryptionKey, role, true);
    role.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [bucket.arnForObjects(TEST_MAIL_OBJECTS)] }),
    );
    FunctionRoles.allowKeyUse(bucket.encryptionKey, role, true);
    this.sesResources = sendingResources(this, notifications.sesIdentity, configurationSetName);
    this.mailEnvironment = configurationSetName ? { [SES_ENV.configurationSet]: configurationSetName } : {};
    this.allowMailSending(role);

    this.publisher = createTrackerFunction(this, 'PublisherFunction', {
      ...functionProps,
      module: NOTIFICATION_PUBLISHER_MODULE,
      role,
      environment: {
        [ENV.table]: table.tableName,
        [ENV.bucket]: bucket.bucketName,
        [NOTIFICATION_ENV.eventBus]: this.bus.eventBusName,
        [NOTIFICATION_ENV.eventAudience]: notifications.eventAudience,
        ...this.mailEnvironment,
        // Webhooks are posted by the webhook function from the bus, with EventBridge's and
        // Lambda's retries: TRACKER_WEBHOOKS stays unset here, or each would be posted twice.
      },
    });
    this.bus.grantPutEventsTo(this.publisher);
    this.publisher.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        ...STREAM_BATCH,
        parallelizationFactor: 1,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.failures),
        filters: STREAM_PARTITION_PREFIXES.map((prefix) =>
          lambda.FilterCriteria.filter({ dynamodb: { Keys: { pk: { S: lambda.FilterRule.beginsWith(prefix) } } } }),
        ),
      }),
    );

    // --- Webhooks ---------------------------------------------------------------------------------
    if (notifications.webhooks.length === 0) return;
    const webhookRole = roles.dedicatedRole('WebhookDeliveryRole', 'none', 'Tracker webhook delivery');
    allowDeliveryMarkers(webhookRole, table.tableArn, ['dynamodb:Query', 'dynamodb:PutItem']);
    FunctionRoles.allowKeyUse(table.encryptionKey, webhookRole, true);
    const webhookDelivery = createTrackerFunction(this, 'WebhookFunction', {
      ...functionProps,
      module: WEBHOOK_DELIVERY_MODULE,
      role: webhookRole,
      environment: {
        [ENV.table]: table.tableName,
        // A `secretName` keeps the secret in Secrets Manager, read by the function; a `secret`
        // sits in the function's configuration and so in the template (docs/operations.md, "Webhooks").
        [NOTIFICATION_ENV.webhooks]: JSON.stringify(notifications.webhooks),
      },
    });
    const secretArns = notifications.webhooks.flatMap((webhook) =>
      webhook.secretName ? [secretArnOf(this, webhook.secretName)] : [],
    );
    if (secretArns.length > 0)
      webhookRole.addToPolicy(
        new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [...new Set(secretArns)] }),
      );
    this.webhookDelivery = webhookDelivery;
    webhookDelivery.configureAsyncInvoke({
      retryAttempts: WEBHOOK_RUN_RETRIES,
      maxEventAge: WEBHOOK_RUN_AGE,
      onFailure: new destinations.SqsDestination(this.failures),
    });
    // Only the detail-types some webhook wants, when every webhook names its own.
    const wanted = notifications.webhooks.every((webhook) => webhook.detailTypes)
      ? [...new Set(notifications.webhooks.flatMap((webhook) => webhook.detailTypes ?? []))]
      : undefined;
    new events.Rule(this, 'WebhookRule', {
      description: 'Tracker: every event to the webhook function',
      eventBus: this.bus,
      eventPattern: { source: [EVENT_SOURCE], ...(wanted ? { detailType: wanted } : {}) },
      targets: [
        new eventTargets.LambdaFunction(webhookDelivery, {
          retryAttempts: WEBHOOK_EVENT_RETRIES,
          maxEventAge: WEBHOOK_EVENT_AGE,
          deadLetterQueue: this.failures,
        }),
      ],
    });
  }

  /**
   * Sending through SES as the stack's identity, with its configuration set. No identity, no
   * SES at all: mail then goes nowhere unless mail_delivery_method is Test or None.
   */
  allowMailSending(role: iam.IRole): void {
    if (this.sesResources.length > 0)
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: ['ses:SendEmail', 'ses:SendRawEmail'], resources: this.sesResources }),
      );
  }

  /** The topic SES reports to, and the function that turns mail off, subscribed to it. */
  private createMailFeedback(
    configurationSet: ses.IConfigurationSet,
    props: NotificationsProps,
    functionProps: Omit<Parameters<typeof createTrackerFunction>[2], 'module' | 'role' | 'environment'>,
  ): sns.Topic {
    const { table } = props.storage;
    // Encrypted with the stack's key only: SES can use a customer managed key whose policy lets
    // it (stackEncryption.ts), not the AWS managed SNS key.
    const topic = new sns.Topic(this, 'MailFeedbackTopic', {
      displayName: `Tracker mail bounces and complaints (${Stack.of(this).stackName})`,
      enforceSSL: true,
      masterKey: props.encryptionKey,
    });
    // The destination also writes the topic policy that lets SES publish, for this set only.
    new ses.ConfigurationSetEventDestination(this, 'MailFeedbackDestination', {
      configurationSet,
      destination: ses.EventDestination.snsTopic(topic),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });
    const role = props.roles.dedicatedRole('MailFeedbackRole', 'none', 'Tracker mail bounces and complaints');
    role.addToPolicy(new iam.PolicyStatement({ actions: TABLE_READ_ACTIONS, resources: [table.tableArn] }));
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
        resources: [table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': MAIL_FEEDBACK_WRITE_PARTITIONS },
          Null: { 'dynamodb:LeadingKeys': 'false' },
        },
      }),
    );
    FunctionRoles.allowKeyUse(table.encryptionKey, role, true);
    const handler = createTrackerFunction(this, 'MailFeedbackFunction', {
      ...functionProps,
      module: MAIL_FEEDBACK_MODULE,
      role,
      environment: { [ENV.table]: table.tableName },
    });
    handler.configureAsyncInvoke({
      retryAttempts: WEBHOOK_RUN_RETRIES,
      maxEventAge: WEBHOOK_RUN_AGE,
      onFailure: new destinations.SqsDestination(this.failures),
    });
    topic.addSubscription(new subscriptions.LambdaSubscription(handler));
    return topic;
  }
}

/** Reading and writing the delivery markers, and no other partition (the Null condition: see functionRoles.ts). */
function allowDeliveryMarkers(role: iam.IRole, tableArn: string, actions: string[]): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions,
      resources: [tableArn],
      conditions: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': DELIVERY_MARKER_PARTITIONS },
        Null: { 'dynamodb:LeadingKeys': 'false' },
      },
    }),
  );
}

/**
 * A webhook secret's ARN for the policy. A name matches the six random characters Secrets Manager
 * appends to it (`-??????`), and nothing else; an ARN is taken as given.
 */
export function secretArnOf(scope: Construct, secretName: string): string {
  if (secretName.startsWith('arn:')) return secretName;
  return Stack.of(scope).formatArn({
    service: 'secretsmanager',
    resource: 'secret',
    resourceName: `${secretName}-??????`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}

/** The SES identity mail is sent as and its configuration set: SES authorizes a send on both. */
function sendingResources(
  scope: Construct,
  identity: string | undefined,
  configurationSet: string | undefined,
): string[] {
  if (!identity) return [];
  const stack = Stack.of(scope);
  return [
    stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
    ...(configurationSet
      ? [stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: configurationSet })]
      : []),
  ];
}
