/**
 * What an operator watches: the alarms (each notifies the alarm topic when it goes off and when
 * it clears; `-c alarmEmail=...` subscribes an address), and one dashboard with the same signals.
 * docs/operations.md says what each alarm means and what to do about it.
 *
 * Lambda's per-function metrics are summed in groups: a CloudWatch alarm reads at most 10
 * metrics, and one alarm per function would cost some 150 of the stack's 500 resources.
 */
import { Aws, Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DIMENSION, METRICS_NAMESPACE, SERVICE_METRIC } from '../shared/observability/metricNames.ts';
import type { FunctionFamily, StackSettings } from './stackSettings.ts';
import { FUNCTION_RUNTIME_ENVIRONMENT } from './trackerFunction.ts';

/** CloudWatch reads at most this many metrics in one alarm. */
export const METRICS_PER_ALARM = 10;
const FIVE_MINUTES = Duration.minutes(5);

/**
 * Metrics the functions emit themselves (Powertools Metrics as EMF log lines,
 * shared/observability/metricNames.ts), with the dimension `service` alone.
 */
const serviceMetric = (metricName: string, props: cloudwatch.MetricOptions) =>
  new cloudwatch.Metric({
    namespace: FUNCTION_RUNTIME_ENVIRONMENT.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { [DIMENSION.service]: FUNCTION_RUNTIME_ENVIRONMENT.POWERTOOLS_SERVICE_NAME },
    ...props,
  });

/** The DynamoDB operations the functions send (shared/storage), whose throttles and errors count. */
export const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.SCAN,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
];

/** Alarm construct ids, which (prefixed with the stack name) are also the alarms' names. */
export const ALARMS = {
  apiServerErrors: 'ApiServerErrors',
  apiClientErrors: 'ApiClientErrors',
  apiLatency: 'ApiLatency',
  searchLatency: 'SearchLatency',
  compactorDuration: 'CompactorDuration',
  sweepDuration: 'SweepDuration',
  functionErrors: 'FunctionErrors',
  functionThrottles: 'FunctionThrottles',
  tableThrottles: 'TableThrottles',
  tableSystemErrors: 'TableSystemErrors',
  compactorFailures: 'CompactorFailures',
  searchSnapshotStale: 'SearchSnapshotStale',
  failedRuns: 'FailedScheduledRuns',
  notificationFailures: 'NotificationFailures',
  notificationDelay: 'NotificationDelay',
  notificationErrors: 'NotificationErrors',
} as const;

/**
 * What the publisher logs when a batch stops at a change that failed (functions/notification/
 * publishChanges.ts): the stream hands it over again, which Lambda does not count as an error.
 */
export const PUBLISH_RETRY_LOG_MESSAGE = 'publishing stopped';
export const PUBLISH_RETRY_METRIC = 'NotificationRetries';

export interface MonitoringProps {
  api: HttpApi;
  /** Functions by family; `other` are the rest (the bootstrap): errors and throttles only. */
  functions: Readonly<Record<FunctionFamily | 'other', readonly lambda.IFunction[]>>;
  table: dynamodb.ITable;
  failedRuns: sqs.IQueue;
  notifications: { publisher: lambda.IFunction; failures: sqs.IQueue };
  /** Where every function logs: the publisher's retries are counted from it. */
  functionLogs: logs.ILogGroup;
  settings: StackSettings;
  encryptionKey?: kms.IKey;
}

export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;
  private readonly action: cloudwatch.IAlarmAction;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, functions, table, failedRuns, settings } = props;
    const thresholds = settings.alarms;
    const sizing = settings.functions;

    // CloudWatch can only publish to an encrypted topic if the key's policy lets it, which the
    // AWS-managed SNS key's does not: the topic is encrypted only with the stack's own key.
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `Tracker alarms (${Stack.of(this).stackName})`,
      enforceSSL: true,
      masterKey: props.encryptionKey,
    });
    // The topic's own policy (the TLS-only statement) replaces SNS's default one, which let this
    // account's principals publish: CloudWatch needs its allowance written out, for this
    // account's alarms only.
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowThisAccountsAlarms',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
        },
      }),
    );
    if (settings.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(settings.alarmEmail));
    this.action = new cloudwatchActions.SnsAction(this.topic);

    // --- API ----------------------------------------------------------------------------------
    const requests = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    // Each rate names its errors apart, as the dashboard draws both in one graph.
    const ratePercent = (name: string, errors: cloudwatch.IMetric, label: string) =>
      new cloudwatch.MathExpression({
        // Quiet while too few requests make a rate meaningless.
        expression: `IF(requests >= ${thresholds.minRequests}, 100 * ${name} / requests, 0)`,
        usingMetrics: { requests, [name]: errors },
        period: FIVE_MINUTES,
        label,
      });
    const serverErrorRate = ratePercent(
      'serverErrors',
      api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
      '5xx %',
    );
    const clientErrorRate = ratePercent(
      'clientErrors',
      api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' }),
      '4xx %',
    );
    this.alarm(ALARMS.apiServerErrors, {
      description: `More than ${thresholds.api5xxPercent}% of API requests answered 5xx in 2 of 3 five-minute periods`,
      metric: serverErrorRate,
      threshold: thresholds.api5xxPercent,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });
    this.alarm(ALARMS.apiClientErrors, {
      description: `More than ${thresholds.api4xxPercent}% of API requests answered 4xx for 15 minutes`,
      metric: clientErrorRate,
      threshold: thresholds.api4xxPercent,
      evaluationPeriods: 3,
    });

    // --- Latency per function family, against its timeout --------------------------------------
    const nearTimeout = (family: FunctionFamily) =>
      Math.round((sizing[family].timeoutSeconds * 1000 * thresholds.latencyPercentOfTimeout) / 100);
    // The API family is ~70 functions: API Gateway's integration latency (the functions' time as
    // API Gateway sees it) stands for all of them.
    const integrationLatency = api.metricIntegrationLatency({ period: FIVE_MINUTES, statistic: 'p99' });
    this.alarm(ALARMS.apiLatency, {
      description: `API integration latency p99 above ${nearTimeout('api')} ms (${thresholds.latencyPercentOfTimeout}% of the ${sizing.api.timeoutSeconds} s function timeout) for 15 minutes`,
      metric: integrationLatency,
      threshold: nearTimeout('api'),
      evaluationPeriods: 3,
    });
    const searchDuration = maximumOf(
      functions.search.map((fn) => fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' })),
      'search p99',
    );
    this.alarm(ALARMS.searchLatency, {
      description: `Search functions' p99 duration above ${nearTimeout('search')} ms (${thresholds.latencyPercentOfTimeout}% of their ${sizing.search.timeoutSeconds} s timeout) for 15 minutes`,
      metric: searchDuration,
      threshold: nearTimeout('search'),
      evaluationPeriods: 3,
    });
    const compactorDuration = maximumOf(
      functions.compactor.map((fn) => fn.metricDuration({ period: Duration.minutes(10), statistic: 'Maximum' })),
      'compactor duration',
    );
    this.alarm(ALARMS.compactorDuration, {
      description: `Search compactor runs took more than ${nearTimeout('compactor')} ms (${thresholds.latencyPercentOfTimeout}% of its ${sizing.compactor.timeoutSeconds} s timeout) twice in a row`,
      metric: compactorDuration,
      threshold: nearTimeout('compactor'),
      evaluationPeriods: 2,
    });
    const sweepDuration = maximumOf(
      functions.sweep.map((fn) => fn.metricDuration({ period: Duration.hours(1), statistic: 'Maximum' })),
      'sweep duration',
    );
    this.alarm(ALARMS.sweepDuration, {
      description: `The attachment sweep took more than ${nearTimeout('sweep')} ms (${thresholds.latencyPercentOfTimeout}% of its ${sizing.sweep.timeoutSeconds} s timeout)`,
      metric: sweepDuration,
      threshold: nearTimeout('sweep'),
      evaluationPeriods: 1,
    });

    // --- Function errors and throttles, per group of at most 10 functions ----------------------
    const all = [
      ...functions.api,
      ...functions.search,
      ...functions.compactor,
      ...functions.sweep,
      ...functions.notification,
      ...functions.other,
    ];
    const groups = groupsOf(all, METRICS_PER_ALARM);
    groups.forEach((group, index) => {
      const which = groups.length > 1 ? `${index + 1}` : '';
      const names = group.map((fn) => fn.node.id).join(', ');
      this.alarm(`${ALARMS.functionErrors}${which}`, {
        runbook: ALARMS.functionErrors,
        description: `At least ${thresholds.functionErrors} failed invocations (crashes, timeouts) in 5 minutes among: ${names}`,
        metric: sumOf(
          group.map((fn) => fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' })),
          'errors',
        ),
        threshold: thresholds.functionErrors,
        evaluationPeriods: 1,
        inclusive: true,
      });
      this.alarm(`${ALARMS.functionThrottles}${which}`, {
        runbook: ALARMS.functionThrottles,
        description: `At least ${thresholds.functionThrottles} throttled invocations in 5 minutes among: ${names}`,
        metric: sumOf(
          group.map((fn) => fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' })),
          'throttles',
        ),
        threshold: thresholds.functionThrottles,
        evaluationPeriods: 1,
        inclusive: true,
      });
    });

    // --- Table --------------------------------------------------------------------------------
    const tableThrottles = table.metricThrottledRequestsForOperations({
      operations: TABLE_OPERATIONS,
      period: FIVE_MINUTES,
    });
    const tableSystemErrors = table.metricSystemErrorsForOperations({
      operations: TABLE_OPERATIONS,
      period: FIVE_MINUTES,
    });
    this.alarm(ALARMS.tableThrottles, {
      description: `At least ${thresholds.tableThrottles} throttled table requests in 5 minutes`,
      metric: tableThrottles,
      threshold: thresholds.tableThrottles,
      evaluationPeriods: 1,
      inclusive: true,
    });
    this.alarm(ALARMS.tableSystemErrors, {
      description: `At least ${thresholds.tableSystemErrors} DynamoDB system errors in 5 minutes`,
      metric: tableSystemErrors,
      threshold: thresholds.tableSystemErrors,
      evaluationPeriods: 1,
      inclusive: true,
    });

    // --- Search snapshot and scheduled runs ----------------------------------------------------
    const compactorErrors = sumOf(
      functions.compactor.map((fn) => fn.metricErrors({ period: Duration.minutes(10), statistic: 'Sum' })),
      'compactor errors',
    );
    this.alarm(ALARMS.compactorFailures, {
      description: 'The search compactor failed in two 10-minute periods in a row',
      metric: compactorErrors,
      threshold: 1,
      evaluationPeriods: 2,
      inclusive: true,
    });
    // One per completed compaction (a snapshot written, or one already newer found).
    const compactorRuns = serviceMetric(SERVICE_METRIC.compactorRuns, {
      statistic: 'Sum',
      period: Duration.minutes(thresholds.searchStalenessMinutes),
      label: 'compactions completed',
    });
    this.alarm(ALARMS.searchSnapshotStale, {
      description: `No search snapshot written for ${thresholds.searchStalenessMinutes} minutes: new search instances replay an ever longer change log`,
      metric: compactorRuns,
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: 1,
      // No data point is exactly the case: no run reported a snapshot.
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });
    const failedRunMessages = failedRuns.metricApproximateNumberOfMessagesVisible({
      period: FIVE_MINUTES,
      statistic: 'Maximum',
    });
    this.alarm(ALARMS.failedRuns, {
      description: 'A scheduled run (search compaction or attachment sweep) failed for good: see the failed-run queue',
      metric: failedRunMessages,
      threshold: 1,
      evaluationPeriods: 1,
      inclusive: true,
    });

    // --- Notifications ------------------------------------------------------------------------------
    const { publisher } = props.notifications;
    const notificationFailures = props.notifications.failures.metricApproximateNumberOfMessagesVisible({
      period: FIVE_MINUTES,
      statistic: 'Maximum',
    });
    this.alarm(ALARMS.notificationFailures, {
      description:
        'Bug changes, webhook events or runs were set aside for good (mail, events or webhooks not sent): see the notification failure queue',
      metric: notificationFailures,
      threshold: 1,
      evaluationPeriods: 1,
      inclusive: true,
    });
    // How long the newest record of a batch waited in the stream: changes not yet told.
    const streamAge = publisher.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' });
    const delayMs = thresholds.notificationDelayMinutes * 60_000;
    this.alarm(ALARMS.notificationDelay, {
      description: `Bug changes waited more than ${thresholds.notificationDelayMinutes} minutes in the table stream for the notification publisher (changes older than 24 hours are set aside)`,
      metric: streamAge,
      threshold: delayMs,
      evaluationPeriods: 1,
    });
    const retries = new logs.MetricFilter(this, 'PublishRetries', {
      logGroup: props.functionLogs,
      filterPattern: logs.FilterPattern.stringValue('$.message', '=', `${PUBLISH_RETRY_LOG_MESSAGE}*`),
      metricNamespace: FUNCTION_RUNTIME_ENVIRONMENT.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
      metricName: PUBLISH_RETRY_METRIC,
      metricValue: '1',
    }).metric({ period: FIVE_MINUTES, statistic: 'Sum', label: 'batches stopped' });
    const publisherErrors = publisher.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: 'failed runs' });
    const notificationErrors = sumOf([publisherErrors, retries], 'publisher errors');
    this.alarm(ALARMS.notificationErrors, {
      description: `At least ${thresholds.functionErrors} publisher runs failed or stopped at a change in 5 minutes, in 2 of 3 periods`,
      metric: notificationErrors,
      threshold: thresholds.functionErrors,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      inclusive: true,
    });

    // --- Dashboard ------------------------------------------------------------------------------
    const allErrors = sumOf(
      all.map((fn) => fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' })),
      'failed invocations',
    );
    const allThrottles = sumOf(
      all.map((fn) => fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' })),
      'throttled invocations',
    );
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(24),
      widgets: [
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 4 })],
        [
          graph('API requests', [requests]),
          graph('API error rates (%)', [serverErrorRate, clientErrorRate]),
          graph('API latency (ms)', [
            api.metricLatency({ period: FIVE_MINUTES, statistic: 'p50', label: 'latency p50' }),
            api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99', label: 'latency p99' }),
            integrationLatency.with({ label: 'integration p99' }),
          ]),
        ],
        [
          graph('Functions: failed and throttled invocations', [allErrors, allThrottles], [], 6),
          graph('Search functions: duration p99 (ms)', [searchDuration], [], 6),
          // CDK names the per-operation metrics of both alike: one graph each.
          graph('Table: throttled requests', [tableThrottles], [], 6),
          graph('Table: system errors', [tableSystemErrors], [], 6),
        ],
        [
          graph(
            'Table: consumed capacity',
            [
              table.metricConsumedReadCapacityUnits({ period: FIVE_MINUTES, label: 'read units' }),
              table.metricConsumedWriteCapacityUnits({ period: FIVE_MINUTES, label: 'write units' }),
            ],
            [],
            6,
          ),
          graph('Search compactor: runs, failures, duration', [compactorRuns, compactorErrors], [compactorDuration], 6),
          graph(
            'Search: change log replayed at index load (ms)',
            [serviceMetric(SERVICE_METRIC.changeLogLag, { statistic: 'Maximum', period: FIVE_MINUTES, label: 'lag' })],
            [],
            6,
          ),
          graph('Failed scheduled runs (queue)', [failedRunMessages], [], 6),
        ],
        [
          graph('Notifications: stream age (ms)', [streamAge]),
          graph('Notifications: failed runs and stopped batches', [publisherErrors, retries]),
          graph('Notification failures (queue)', [notificationFailures]),
        ],
      ],
    });
  }

  private alarm(
    id: string,
    props: Omit<cloudwatch.AlarmProps, 'alarmName' | 'alarmDescription' | 'comparisonOperator'> & {
      description: string;
      /** The runbook section (docs/operations.md); the alarm's id unless one section covers several. */
      runbook?: string;
      inclusive?: boolean;
      comparisonOperator?: cloudwatch.ComparisonOperator;
    },
  ): cloudwatch.Alarm {
    const { description, runbook, inclusive, comparisonOperator, ...rest } = props;
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmName: `${Stack.of(this).stackName}-${id}`,
      alarmDescription: `${description}. Runbook: docs/operations.md, "${runbook ?? id}".`,
      comparisonOperator:
        comparisonOperator ??
        (inclusive
          ? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD
          : cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD),
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...rest,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }
}

function groupsOf<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let start = 0; start < items.length; start += size) groups.push(items.slice(start, start + size));
  return groups;
}

/** Ids for a math expression's metrics, unique per label (two expressions may share a graph). */
const metricIds = (label: string, metrics: readonly cloudwatch.IMetric[]) => {
  const prefix = label.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase());
  return Object.fromEntries(metrics.map((metric, index) => [`${prefix}${index}`, metric]));
};

/** One metric as is, several as the sum of their values (a missing one counts 0). */
function sumOf(metrics: readonly cloudwatch.IMetric[], label: string): cloudwatch.IMetric {
  if (metrics.length === 1) return metrics[0];
  return new cloudwatch.MathExpression({
    expression: 'SUM(METRICS())',
    usingMetrics: metricIds(label, metrics),
    label,
  });
}

function maximumOf(metrics: readonly cloudwatch.IMetric[], label: string): cloudwatch.IMetric {
  if (metrics.length === 1) return metrics[0];
  return new cloudwatch.MathExpression({
    expression: 'MAX(METRICS())',
    usingMetrics: metricIds(label, metrics),
    label,
  });
}

function graph(title: string, left: cloudwatch.IMetric[], right: cloudwatch.IMetric[] = [], width = 8) {
  return new cloudwatch.GraphWidget({ title, left, right, width, height: 6 });
}
