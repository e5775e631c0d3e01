import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { insideRequest } from '../runtime/requestScope.ts';
import { serviceName } from './logger.ts';
import { BUGZILLA_ERROR_METRIC, DIMENSION, METRICS_NAMESPACE, REQUEST_METRIC, SERVICE_METRIC } from './metricNames.ts';
import { routineOutputOff } from './routineOutput.ts';

const options = () => ({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || METRICS_NAMESPACE,
  serviceName: serviceName(),
});

/**
 * Powertools' Metrics, written as CloudWatch embedded metric format (one JSON object with an `_aws`
 * member per dimension set) on stdout, which CloudWatch Logs turns into metrics. Two changes:
 * publishing with nothing recorded writes nothing (Powertools warns, and the chain publishes every
 * set on every request, most of them empty), and TRACKER_REQUEST_LOG=off writes nothing at all.
 */
class TrackerMetrics extends Metrics {
  override publishStoredMetrics(): this {
    if (this.hasStoredMetrics() && !routineOutputOff()) return super.publishStoredMetrics();
    this.clearMetrics();
    this.clearDimensions();
    this.clearMetadata();
    return this;
  }

  /** Powertools' ColdStart metric is one of these: it keeps quiet with the rest. */
  override singleMetric(): Metrics {
    return new TrackerMetrics({ ...options(), singleMetric: true });
  }
}

/**
 * One instance per dimension set, since every metric of one published object shares its
 * dimensions. The chain publishes all three after every request (endpointChain.ts, logMetrics);
 * on Lambda one invocation runs at a time per instance, or Powertools keeps each invocation's
 * metrics apart (the local emulator runs requests the same way).
 */
export const requestMetrics = new TrackerMetrics(options());
export const bugzillaErrorMetrics = new TrackerMetrics(options());
export const serviceMetrics = new TrackerMetrics(options());

export interface RequestOutcome {
  route: string | undefined;
  status: number;
  errorCode?: number;
  durationMs: number;
  dynamodbCalls: number;
}

export function recordRequest(outcome: RequestOutcome): void {
  const failed = outcome.status >= 400;
  requestMetrics
    .addDimension(DIMENSION.route, outcome.route || 'unknown')
    .addMetric(REQUEST_METRIC.requests, MetricUnit.Count, 1)
    .addMetric(REQUEST_METRIC.latency, MetricUnit.Milliseconds, outcome.durationMs)
    .addMetric(REQUEST_METRIC.errors, MetricUnit.Count, failed ? 1 : 0)
    .addMetric(REQUEST_METRIC.faults, MetricUnit.Count, outcome.status >= 500 ? 1 : 0)
    .addMetric(REQUEST_METRIC.dynamodbCalls, MetricUnit.Count, outcome.dynamodbCalls);
  if (failed && outcome.errorCode !== undefined)
    bugzillaErrorMetrics
      .addDimension(DIMENSION.code, String(outcome.errorCode))
      .addMetric(BUGZILLA_ERROR_METRIC, MetricUnit.Count, 1);
}

/**
 * Within a request, a service metric goes out with the request's (logMetrics); outside one (the
 * compactor, `npm start`'s timer, scripts) it is written at once, since nothing else would.
 */
function recordServiceMetrics(record: (metrics: Metrics) => void): void {
  record(serviceMetrics);
  if (!insideRequest()) serviceMetrics.publishStoredMetrics();
}

export function recordSearchIndexCatchUp(bugs: number, changeLogEntries: number): void {
  recordServiceMetrics((metrics) =>
    metrics
      .addMetric(SERVICE_METRIC.searchIndexBugs, MetricUnit.Count, bugs)
      .addMetric(SERVICE_METRIC.changeLogEntries, MetricUnit.Count, changeLogEntries),
  );
}

/** `changeLogLagMs`: undefined when the index was built without a snapshot. */
export function recordSearchIndexLoad(loadMs: number, changeLogLagMs: number | undefined): void {
  recordServiceMetrics((metrics) => {
    metrics.addMetric(SERVICE_METRIC.searchIndexLoadTime, MetricUnit.Milliseconds, loadMs);
    if (changeLogLagMs !== undefined)
      metrics.addMetric(SERVICE_METRIC.changeLogLag, MetricUnit.Milliseconds, changeLogLagMs);
  });
}

export function recordLoginLockout(): void {
  recordServiceMetrics((metrics) => metrics.addMetric(SERVICE_METRIC.loginLockouts, MetricUnit.Count, 1));
}

export function recordCompaction(outcome: 'completed' | 'failed'): void {
  const name = outcome === 'completed' ? SERVICE_METRIC.compactorRuns : SERVICE_METRIC.compactorFailures;
  recordServiceMetrics((metrics) => metrics.addMetric(name, MetricUnit.Count, 1));
}
