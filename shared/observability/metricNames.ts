/**
 * Every metric Tracker publishes (CloudWatch embedded metric format, metrics.ts), in one namespace:
 * `Tracker` unless POWERTOOLS_METRICS_NAMESPACE names another. Every metric carries the dimension
 * `service` (`tracker`); the ones below carry at most one more, from a small fixed set of values,
 * so that the number of metrics CloudWatch keeps stays bounded. An alarm names the exact set.
 */
export const METRICS_NAMESPACE = 'Tracker';

export const DIMENSION = {
  service: 'service',
  /** The route key of the route table, e.g. `GET /rest/bug/{id}` (`$default`: no route matched). */
  route: 'route',
  /** A Bugzilla error code (shared/errors.ts). */
  code: 'code',
} as const;

/** One of each per API request, with dimensions `service` and `route`. */
export const REQUEST_METRIC = {
  /** Count, 1. */
  requests: 'Requests',
  /** Milliseconds from the chain's first step to the answer. */
  latency: 'Latency',
  /** Count, 1 when the answer is a Bugzilla error (4xx or 5xx), else 0: its average is the error rate. */
  errors: 'Errors',
  /** Count, 1 when the answer is a 5xx (Tracker's fault, not the caller's), else 0. */
  faults: 'Faults',
  /** Count: DynamoDB calls the request made (retries included). */
  dynamodbCalls: 'DynamoDBCalls',
} as const;

/** Count, 1 per error answer, with dimensions `service` and `code`. */
export const BUGZILLA_ERROR_METRIC = 'BugzillaError';

/** Metrics of a function instance or scheduled task, with the dimension `service` alone. */
export const SERVICE_METRIC = {
  /** Count: bugs in a search instance's index, after each catch-up with the change log. */
  searchIndexBugs: 'SearchIndexBugs',
  /** Count: change log entries a catch-up read (the overlap re-read included). */
  changeLogEntries: 'ChangeLogEntries',
  /** Milliseconds an index load (or reload, from a newer snapshot) took. */
  searchIndexLoadTime: 'SearchIndexLoadTime',
  /**
   * Milliseconds: at an index load, how far the snapshot lagged behind the change log, i.e. how much
   * change log the load replayed. The compactor keeps it to minutes; growing, the compactor is failing.
   */
  changeLogLag: 'ChangeLogLag',
  /** Count: password logins refused because the account is locked for that client address. */
  loginLockouts: 'LoginLockouts',
  /** Count, 1 per completed search compaction (snapshot written or superseded). */
  compactorRuns: 'CompactorRuns',
  /** Count, 1 per failed search compaction. */
  compactorFailures: 'CompactorFailures',
} as const;

/** Powertools' own, once per function instance, with dimensions `service` and `function_name`. */
export const COLD_START_METRIC = 'ColdStart';
