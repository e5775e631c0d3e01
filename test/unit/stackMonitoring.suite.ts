/**
 * The stack's monitoring (lib/monitoring.ts): the alarm topic, which alarms exist and what they
 * watch, the thresholds the deployment settings move, and the dashboard.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARMS, METRICS_PER_ALARM } from '../../lib/monitoring.ts';
import { DEFAULT_ALARM_THRESHOLDS } from '../../lib/stackSettings.ts';
import { PROJECT_ROOT, SEARCH_INDEX_MODULES } from '../../lib/trackerStack.ts';
import { SERVICE_METRIC } from '../../shared/observability/metricNames.ts';
import {
  type Json,
  logicalIdOf,
  referencedId,
  removeStubRoots,
  resourcesOfType,
  SYNTH_TIMEOUT,
  type Synthesized,
  synthStack,
} from './support/stackSynth.ts';

afterAll(removeStubRoots);

/** Alarm name (without the stack prefix) -> its properties. */
function alarmsOf(json: Json): Map<string, Json> {
  return new Map(
    resourcesOfType(json, 'AWS::CloudWatch::Alarm').map(([, alarm]) => [
      String(alarm.Properties.AlarmName).replace(/^Tracker-/, ''),
      alarm.Properties,
    ]),
  );
}

/** Every metric an alarm reads: namespace, name, statistic, dimensions (logical ids for references). */
function metricsOf(alarm: Json): { namespace: string; name: string; stat: string; dimensions: Record<string, Json> }[] {
  const dims = (dimensions: Json[] = []) =>
    Object.fromEntries(dimensions.map((d) => [d.Name, referencedId(d.Value) ?? d.Value]));
  if (alarm.MetricName)
    return [
      {
        namespace: alarm.Namespace,
        name: alarm.MetricName,
        stat: alarm.Statistic ?? alarm.ExtendedStatistic,
        dimensions: dims(alarm.Dimensions),
      },
    ];
  return (alarm.Metrics as Json[])
    .filter((query) => query.MetricStat)
    .map((query) => ({
      namespace: query.MetricStat.Metric.Namespace,
      name: query.MetricStat.Metric.MetricName,
      stat: query.MetricStat.Stat,
      dimensions: dims(query.MetricStat.Metric.Dimensions),
    }));
}

const periodOf = (alarm: Json): number =>
  alarm.Period ?? (alarm.Metrics as Json[]).find((query) => query.MetricStat)?.MetricStat.Period;

describe('monitoring with default settings', () => {
  let synthesized: Synthesized;
  let json: Json;
  let alarms: Map<string, Json>;
  let topicId: string;

  beforeAll(() => {
    synthesized = synthStack();
    json = synthesized.json;
    alarms = alarmsOf(json);
    const topics = resourcesOfType(json, 'AWS::SNS::Topic');
    expect(topics).toHaveLength(1);
    topicId = topics[0]![0];
  }, SYNTH_TIMEOUT);

  const fnId = (fn: { node: { defaultChild?: unknown } }) => logicalIdOf(synthesized.stack, fn);

  it('notifies one TLS-only topic, which CloudWatch alarms of this account may publish to, with no subscription', () => {
    expect(resourcesOfType(json, 'AWS::SNS::Subscription')).toHaveLength(0);
    const [[, policy]] = resourcesOfType(json, 'AWS::SNS::TopicPolicy');
    const statements: Json[] = policy.Properties.PolicyDocument.Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Condition: expect.objectContaining({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } }),
      }),
    );
    // Unencrypted without the stack's own key: CloudWatch cannot use the AWS-managed SNS key.
    expect(json.Resources[topicId].Properties.KmsMasterKeyId).toBeUndefined();
    expect(json.Outputs.AlarmTopicArn.Value).toEqual({ Ref: topicId });
  });

  it('has every alarm of the runbook, each notifying the topic when it fires and when it clears', () => {
    const fixed = Object.values(ALARMS).filter((name) => name !== 'FunctionErrors' && name !== 'FunctionThrottles');
    for (const name of fixed) expect(alarms.has(name), name).toBe(true);
    const grouped = [...alarms.keys()].filter((name) => /^Function(Errors|Throttles)\d*$/.test(name));
    expect(alarms.size).toBe(fixed.length + grouped.length);
    for (const [name, alarm] of alarms) {
      expect(alarm.AlarmActions, name).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions, name).toEqual([{ Ref: topicId }]);
      expect(alarm.AlarmDescription, name).toContain(`docs/operations.md, "${name.replace(/\d+$/, '')}"`);
    }
  });

  it('has a runbook section for every alarm', () => {
    const doc = fs.readFileSync(path.join(PROJECT_ROOT, 'docs', 'operations.md'), 'utf8');
    const sections = new Set([...doc.matchAll(/^#### `?([A-Za-z]+)`?/gm)].map((match) => match[1]));
    for (const name of Object.values(ALARMS)) expect(sections.has(name), name).toBe(true);
  });

  it('watches errors and throttles of every function of the stack, at most 10 functions per alarm', () => {
    const ours = [
      ...[...synthesized.stack.functions.values()].map(fnId),
      fnId(synthesized.stack.searchCompactor),
      fnId(synthesized.stack.attachmentSweep),
      fnId(synthesized.stack.notifications.publisher),
    ];
    for (const metric of ['Errors', 'Throttles']) {
      const watched = [...alarms]
        .filter(([name]) => name.startsWith(metric === 'Errors' ? 'FunctionErrors' : 'FunctionThrottles'))
        .flatMap(([name, alarm]) => {
          const metrics = metricsOf(alarm);
          expect(metrics.length, name).toBeLessThanOrEqual(METRICS_PER_ALARM);
          for (const m of metrics)
            expect(m, name).toMatchObject({ namespace: 'AWS/Lambda', name: metric, stat: 'Sum' });
          expect(alarm.Threshold, name).toBe(
            metric === 'Errors' ? DEFAULT_ALARM_THRESHOLDS.functionErrors : DEFAULT_ALARM_THRESHOLDS.functionThrottles,
          );
          return metrics.map((m) => m.dimensions.FunctionName);
        });
      expect(watched.sort(), metric).toEqual([...ours].sort());
    }
  });

  it('alarms on the API 5xx and 4xx rates, quiet under the minimum request count', () => {
    const [[apiId]] = resourcesOfType(json, 'AWS::ApiGatewayV2::Api');
    for (const [name, errors, threshold] of [
      [ALARMS.apiServerErrors, '5xx', DEFAULT_ALARM_THRESHOLDS.api5xxPercent],
      [ALARMS.apiClientErrors, '4xx', DEFAULT_ALARM_THRESHOLDS.api4xxPercent],
    ] as const) {
      const alarm = alarms.get(name)!;
      expect(
        metricsOf(alarm)
          .map((m) => `${m.namespace} ${m.name} ${m.stat} ${m.dimensions.ApiId}`)
          .sort(),
      ).toEqual([`AWS/ApiGateway ${errors} Sum ${apiId}`, `AWS/ApiGateway Count Sum ${apiId}`].sort());
      const expression = (alarm.Metrics as Json[]).find((query) => query.Expression)!.Expression;
      expect(expression).toMatch(new RegExp(`^IF\\(requests >= ${DEFAULT_ALARM_THRESHOLDS.minRequests}, 100 \\* `));
      expect(alarm).toMatchObject({ Threshold: threshold, ComparisonOperator: 'GreaterThanThreshold' });
      expect(periodOf(alarm)).toBe(300);
    }
  });

  it('alarms when a function family runs close to its timeout', () => {
    const [[apiId]] = resourcesOfType(json, 'AWS::ApiGatewayV2::Api');
    expect(metricsOf(alarms.get(ALARMS.apiLatency)!)).toEqual([
      { namespace: 'AWS/ApiGateway', name: 'IntegrationLatency', stat: 'p99', dimensions: { ApiId: apiId } },
    ]);
    expect(alarms.get(ALARMS.apiLatency)!.Threshold).toBe(8_000); // 80% of 10 s
    const search = metricsOf(alarms.get(ALARMS.searchLatency)!);
    expect(search.map((m) => m.dimensions.FunctionName).sort()).toEqual(
      SEARCH_INDEX_MODULES.map((module) => fnId(synthesized.stack.functions.get(module)!)).sort(),
    );
    for (const m of search) expect(m).toMatchObject({ name: 'Duration', stat: 'p99' });
    expect(alarms.get(ALARMS.searchLatency)!.Threshold).toBe(8_000);
    expect(metricsOf(alarms.get(ALARMS.compactorDuration)!)).toEqual([
      {
        namespace: 'AWS/Lambda',
        name: 'Duration',
        stat: 'Maximum',
        dimensions: { FunctionName: fnId(synthesized.stack.searchCompactor) },
      },
    ]);
    expect(alarms.get(ALARMS.compactorDuration)!.Threshold).toBe(240_000); // 80% of 300 s
    expect(alarms.get(ALARMS.sweepDuration)!.Threshold).toBe(720_000); // 80% of 900 s
  });

  it('alarms on table throttles and DynamoDB system errors, over every operation the functions send', () => {
    const [[tableId]] = resourcesOfType(json, 'AWS::DynamoDB::Table');
    for (const [name, metric] of [
      [ALARMS.tableThrottles, 'ThrottledRequests'],
      [ALARMS.tableSystemErrors, 'SystemErrors'],
    ] as const) {
      const metrics = metricsOf(alarms.get(name)!);
      expect(metrics.length).toBeLessThanOrEqual(METRICS_PER_ALARM);
      expect(metrics.map((m) => m.dimensions.Operation).sort()).toEqual(
        [
          'BatchGetItem',
          'BatchWriteItem',
          'DeleteItem',
          'GetItem',
          'PutItem',
          'Query',
          'Scan',
          'TransactWriteItems',
          'UpdateItem',
        ].sort(),
      );
      for (const m of metrics)
        expect(m).toMatchObject({ namespace: 'AWS/DynamoDB', name: metric, dimensions: { TableName: tableId } });
    }
  });

  it('alarms on compactor failures, on a search snapshot gone stale, and on failed scheduled runs', () => {
    expect(metricsOf(alarms.get(ALARMS.compactorFailures)!)).toEqual([
      {
        namespace: 'AWS/Lambda',
        name: 'Errors',
        stat: 'Sum',
        dimensions: { FunctionName: fnId(synthesized.stack.searchCompactor) },
      },
    ]);
    const stale = alarms.get(ALARMS.searchSnapshotStale)!;
    expect(metricsOf(stale)).toEqual([
      { namespace: 'Tracker', name: SERVICE_METRIC.compactorRuns, stat: 'Sum', dimensions: { service: 'tracker' } },
    ]);
    expect(periodOf(stale)).toBe(DEFAULT_ALARM_THRESHOLDS.searchStalenessMinutes * 60);
    expect(stale).toMatchObject({
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      // No completed compaction reported at all is the very case.
      TreatMissingData: 'breaching',
    });
    const queueId = fnId(synthesized.stack.failedRuns);
    expect(metricsOf(alarms.get(ALARMS.failedRuns)!)).toEqual([
      {
        namespace: 'AWS/SQS',
        name: 'ApproximateNumberOfMessagesVisible',
        stat: 'Maximum',
        dimensions: { QueueName: queueId }, // its GetAtt QueueName
      },
    ]);
    expect(alarms.get(ALARMS.failedRuns)).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('draws one dashboard with every alarm and the key graphs', () => {
    const dashboards = resourcesOfType(json, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const [dashboardId, dashboard] = dashboards[0]!;
    const parts: Json[] = dashboard.Properties.DashboardBody['Fn::Join'][1];
    const text = parts.filter((part) => typeof part === 'string').join('');
    for (const title of [
      'Alarms',
      'API requests',
      'API error rates (%)',
      'API latency (ms)',
      'Functions: failed and throttled invocations',
      'Table: throttled requests',
      'Search compactor: runs, failures, duration',
      'Failed scheduled runs (queue)',
    ])
      expect(text, title).toContain(`"title":"${title}"`);
    const alarmIds = new Set(resourcesOfType(json, 'AWS::CloudWatch::Alarm').map(([id]) => id));
    const referenced = new Set(parts.map(referencedId).filter((id) => alarmIds.has(id!)));
    expect(referenced).toEqual(alarmIds);
    expect(json.Outputs.DashboardName.Value).toEqual({ Ref: dashboardId });
  });
});

describe('monitoring with an alarm e-mail and thresholds of its own', () => {
  let json: Json;
  let alarms: Map<string, Json>;

  beforeAll(() => {
    json = synthStack({
      context: {
        alarmEmail: 'ops@example.org',
        alarmApi5xxPercent: '3',
        alarmMinRequests: '100',
        apiTimeoutSeconds: '20',
        alarmLatencyPercentOfTimeout: '50',
        alarmSearchStalenessMinutes: '60',
        alarmFunctionErrors: '2',
      },
    }).json;
    alarms = alarmsOf(json);
  }, SYNTH_TIMEOUT);

  it('subscribes the address to the alarm topic by e-mail', () => {
    const subscriptions = resourcesOfType(json, 'AWS::SNS::Subscription');
    expect(subscriptions).toHaveLength(1);
    const [[topicId]] = resourcesOfType(json, 'AWS::SNS::Topic');
    expect(subscriptions[0]![1].Properties).toEqual({
      Protocol: 'email',
      Endpoint: 'ops@example.org',
      TopicArn: { Ref: topicId },
    });
  });

  it('moves the thresholds the context sets, and derives latency thresholds from the timeouts', () => {
    const serverErrors = alarms.get(ALARMS.apiServerErrors)!;
    expect(serverErrors.Threshold).toBe(3);
    expect((serverErrors.Metrics as Json[]).find((query) => query.Expression).Expression).toContain('requests >= 100');
    expect(alarms.get(ALARMS.apiLatency)!.Threshold).toBe(10_000); // 50% of 20 s
    expect(alarms.get(ALARMS.searchLatency)!.Threshold).toBe(5_000); // 50% of the search functions' 10 s
    expect(periodOf(alarms.get(ALARMS.searchSnapshotStale)!)).toBe(3600);
    expect(alarms.get(`${ALARMS.functionErrors}1`)!.Threshold).toBe(2);
  });
});
