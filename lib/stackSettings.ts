/**
 * Every deployment setting of the stack, read from CDK context (`-c key=value` or cdk.json's
 * "context") in this one place, validated, with its default. `-c` gives strings; cdk.json may
 * give numbers, booleans and arrays: both are accepted. docs/operations.md lists the same
 * settings (test/unit/stackSettings.test.ts keeps the two in step).
 */
import { ApplicationLogLevel, SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DETAIL_TYPES } from '../shared/domain/notification/bugEvents.ts';
import { webhookTargetsFrom } from '../shared/domain/notification/notificationSettings.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, MAX_RETRY_BACKOFF_MS, SDK_MAX_ATTEMPTS } from '../shared/storage/sdkTimeouts.ts';
import {
  BASE_PROCESS_MEMORY_MB,
  COMPACTOR_BYTES_PER_BUG,
  compactorMemoryForBugs,
  MAX_LAMBDA_MEMORY_MB,
  MIN_SEARCH_MEMORY_MB,
  SEARCH_BYTES_PER_BUG,
  SearchTooLargeError,
  searchMemoryForBugs,
} from './searchSizing.ts';

/**
 * Functions sized alike: the API's, the two that hold the search index, the two scheduled ones,
 * and the notification publisher with the webhook delivery.
 */
export type FunctionFamily = 'api' | 'search' | 'compactor' | 'sweep' | 'notification';
export const FUNCTION_FAMILIES: readonly FunctionFamily[] = ['api', 'search', 'compactor', 'sweep', 'notification'];

export interface FunctionSizing {
  memoryMb: number;
  timeoutSeconds: number;
}

/** Where the table, bucket, logs, queues, topic and secret are encrypted. */
export type EncryptionSetting =
  | { kind: 'aws' } // AWS-owned or AWS-managed keys, per service
  | { kind: 'create' } // a customer-managed key of the stack's own, retained
  | { kind: 'import'; keyArn: string }; // an existing customer-managed key

export interface AlarmThresholds {
  /** Percent of API requests answered 5xx (in a 5-minute period) that raises the alarm. */
  api5xxPercent: number;
  /** Percent of API requests answered 4xx. */
  api4xxPercent: number;
  /** Rate alarms stay quiet below this many requests in a period (one error of three is no trend). */
  minRequests: number;
  /** A function family's p99 duration, as a percent of its timeout, that raises its latency alarm. */
  latencyPercentOfTimeout: number;
  /** Failed invocations (crashes, timeouts; not requests answered with an error) per 5 minutes. */
  functionErrors: number;
  /** Throttled invocations per 5 minutes. */
  functionThrottles: number;
  /** Throttled table requests per 5 minutes. */
  tableThrottles: number;
  /** DynamoDB system errors (its 500s) per 5 minutes. */
  tableSystemErrors: number;
  /** Minutes without a successful search compaction before the snapshot counts as stale. */
  searchStalenessMinutes: number;
  /** Minutes the oldest unpublished change may wait in the table's stream (the publisher's iterator age). */
  notificationDelayMinutes: number;
}

/** Who the events on the bus are for (docs/events.md, "What an event may say"). */
export type EventAudienceName = 'public' | 'full';
export const EVENT_AUDIENCES: readonly EventAudienceName[] = ['public', 'full'];

export type BounceHandling = 'disable-mail' | 'off';

/** One webhook of the `webhooks` setting, as the webhook function reads it (TRACKER_WEBHOOKS). */
export interface WebhookSetting {
  url: string;
  /** The signing secret(s) themselves: then they are in the template too. */
  secret?: string | string[];
  /** Or the name or ARN of a Secrets Manager secret holding them: the webhook function may read only that. */
  secretName?: string;
  detailTypes?: string[];
}

/** How bug mail, events and webhooks leave the stack (lib/notifications.ts). */
export interface NotificationSettings {
  eventAudience: EventAudienceName;
  /** The SES identity mail is sent as (a domain or an address); without one the publisher may not send mail. */
  sesIdentity?: string;
  sesConfigurationSet?: string;
  /**
   * `disable-mail` (with an SES identity): bounces and complaints turn the address's mail off
   * (mailFeedback.ts), through a configuration set of the stack's own when none is named.
   */
  bounceHandling: BounceHandling;
  /** Empty: no webhook function, no bus rule. */
  webhooks: readonly WebhookSetting[];
}

/**
 * Single sign-on through an OpenID Connect issuer (lib/singleSignOn.ts, docs/operations.md):
 * a Cognito user pool the stack makes, or an issuer the team already has.
 */
export type SingleSignOnSetting =
  | { kind: 'cognito'; providerName: string; domainPrefix?: string }
  | { kind: 'issuer'; issuer: string; clientId: string; clientSecretName?: string; providerName: string };

export interface StackSettings {
  apiRateLimit: number;
  apiBurstLimit: number;
  /** The number of bugs the installation is sized for: the search and compactor memory follow from it. */
  expectedBugs: number;
  /** When set, the API is served at https://domainName/ only (the execute-api endpoint is disabled). */
  customDomain?: { domainName: string; certificateArn: string };
  /** Origins browsers may call the API from; empty: the functions' own `Access-Control-Allow-Origin: *`. */
  corsOrigins: readonly string[];
  functions: Readonly<Record<FunctionFamily, FunctionSizing>>;
  logRetention: RetentionDays;
  encryption: EncryptionSetting;
  alarmEmail?: string;
  tracing: boolean;
  applicationLogLevel: ApplicationLogLevel;
  systemLogLevel: SystemLogLevel;
  alarms: AlarmThresholds;
  notifications: NotificationSettings;
  /** Off when undefined. */
  singleSignOn?: SingleSignOnSetting;
}

/**
 * The shortest timeout a function that calls DynamoDB or S3 may have: every SDK call's budget
 * (attempts × request timeout plus the retry waits, shared/storage/sdkTimeouts.ts) and a second
 * to answer. Below it a stalled service would get Lambda's bare timeout instead of the 500 envelope.
 */
export const MIN_FUNCTION_TIMEOUT_SECONDS = Math.ceil(
  (SDK_MAX_ATTEMPTS * DEFAULT_REQUEST_TIMEOUT_MS + MAX_RETRY_BACKOFF_MS + 1_000) / 1_000,
);
/** API Gateway HTTP APIs give an integration at most 30 s; a longer function timeout is never used. */
export const MAX_API_TIMEOUT_SECONDS = 30;
/** Lambda's own limit. */
export const MAX_FUNCTION_TIMEOUT_SECONDS = 900;
/** The compactor runs every 10 minutes (trackerStack.ts); a run must end before the next starts. */
export const MAX_COMPACTOR_TIMEOUT_SECONDS = 600;

/** The installation size (`expectedBugs`) the stack is sized for when none is given, and its limits. */
export const DEFAULT_EXPECTED_BUGS = 100_000;
export const MIN_EXPECTED_BUGS = 1_000;
export const MAX_EXPECTED_BUGS = 5_000_000;

/** Families whose memory follows `expectedBugs` unless their memory is set (lib/searchSizing.ts). */
const MEMORY_FOR_BUGS: Partial<Record<FunctionFamily, (bugs: number) => number>> = {
  search: searchMemoryForBugs,
  compactor: compactorMemoryForBugs,
};

export const DEFAULT_FUNCTION_SIZING: Readonly<Record<FunctionFamily, FunctionSizing>> = {
  api: { memoryMb: 512, timeoutSeconds: 10 },
  // The search functions keep the in-memory search index; the compactor builds it. Their memory
  // is sized for `expectedBugs` (1536 MB at the default 100,000).
  search: { memoryMb: searchMemoryForBugs(DEFAULT_EXPECTED_BUGS), timeoutSeconds: 10 },
  compactor: { memoryMb: compactorMemoryForBugs(DEFAULT_EXPECTED_BUGS), timeoutSeconds: 300 },
  // Listing the bucket is the long part: 15 minutes (Lambda's most) covers millions of bodies.
  sweep: { memoryMb: 512, timeoutSeconds: 900 },
  // A batch of up to 100 stream records: each change's events, its mails (one SES call each) and
  // their delivery markers, one after another.
  notification: { memoryMb: 512, timeoutSeconds: 60 },
};

const TIMEOUT_LIMITS: Record<FunctionFamily, number> = {
  api: MAX_API_TIMEOUT_SECONDS,
  search: MAX_API_TIMEOUT_SECONDS,
  compactor: MAX_COMPACTOR_TIMEOUT_SECONDS,
  sweep: MAX_FUNCTION_TIMEOUT_SECONDS,
  notification: MAX_FUNCTION_TIMEOUT_SECONDS,
};

export const DEFAULT_ALARM_THRESHOLDS: Readonly<AlarmThresholds> = {
  api5xxPercent: 1,
  api4xxPercent: 25,
  minRequests: 20,
  latencyPercentOfTimeout: 80,
  functionErrors: 5,
  functionThrottles: 1,
  tableThrottles: 10,
  tableSystemErrors: 1,
  searchStalenessMinutes: 30,
  notificationDelayMinutes: 60,
};

/** One context key: its name, its default as the docs show it, and what it means. */
export interface SettingDescription {
  key: string;
  default: string;
  meaning: string;
}

const FAMILY_NAMES: Record<FunctionFamily, string> = {
  api: 'the API functions',
  search: 'the two search functions (they hold the search index)',
  compactor: 'the search compactor',
  sweep: 'the attachment orphan sweep',
  notification: 'the notification publisher and the webhook function',
};

const sizingKeys = (family: FunctionFamily) => ({ memory: `${family}MemoryMb`, timeout: `${family}TimeoutSeconds` });

const ALARM_KEYS: Record<keyof AlarmThresholds, { key: string; meaning: string }> = {
  api5xxPercent: { key: 'alarmApi5xxPercent', meaning: 'percent of API requests answered 5xx in 5 minutes' },
  api4xxPercent: { key: 'alarmApi4xxPercent', meaning: 'percent of API requests answered 4xx in 5 minutes' },
  minRequests: { key: 'alarmMinRequests', meaning: 'requests in 5 minutes below which the rate alarms stay quiet' },
  latencyPercentOfTimeout: {
    key: 'alarmLatencyPercentOfTimeout',
    meaning: "p99 duration of a function family, as a percent of the family's timeout",
  },
  functionErrors: {
    key: 'alarmFunctionErrors',
    meaning: 'failed invocations (crashes, timeouts) in 5 minutes, per group of functions',
  },
  functionThrottles: { key: 'alarmFunctionThrottles', meaning: 'throttled invocations in 5 minutes' },
  tableThrottles: { key: 'alarmTableThrottles', meaning: 'throttled table requests in 5 minutes' },
  tableSystemErrors: { key: 'alarmTableSystemErrors', meaning: 'DynamoDB system errors in 5 minutes' },
  searchStalenessMinutes: {
    key: 'alarmSearchStalenessMinutes',
    meaning: 'minutes without a successful search compaction',
  },
  notificationDelayMinutes: {
    key: 'alarmNotificationDelayMinutes',
    meaning: 'minutes the oldest change waits in the table stream for the notification publisher',
  },
};

export const CONTEXT = {
  stackName: 'stackName',
  apiRateLimit: 'apiRateLimit',
  apiBurstLimit: 'apiBurstLimit',
  expectedBugs: 'expectedBugs',
  domainName: 'domainName',
  certificateArn: 'certificateArn',
  corsOrigins: 'corsOrigins',
  logRetentionDays: 'logRetentionDays',
  kmsKey: 'kmsKey',
  alarmEmail: 'alarmEmail',
  tracing: 'tracing',
  applicationLogLevel: 'applicationLogLevel',
  systemLogLevel: 'systemLogLevel',
  eventAudience: 'eventAudience',
  sesIdentity: 'sesIdentity',
  sesConfigurationSet: 'sesConfigurationSet',
  bounceHandling: 'bounceHandling',
  webhooks: 'webhooks',
  oidc: 'oidc',
  oidcClientId: 'oidcClientId',
  oidcClientSecretName: 'oidcClientSecretName',
  oidcProviderName: 'oidcProviderName',
  oidcCognitoDomainPrefix: 'oidcCognitoDomainPrefix',
} as const;

export const DEFAULT_API_RATE_LIMIT = 200;
export const DEFAULT_API_BURST_LIMIT = 400;
export const DEFAULT_LOG_RETENTION_DAYS = RetentionDays.ONE_MONTH;

/** 1400 -> '1.4', for the settings' descriptions. */
export const kilobytes = (bytes: number): string => (bytes / 1000).toLocaleString('en');

/** Every setting, in the order docs/operations.md lists them. */
export const SETTINGS: readonly SettingDescription[] = [
  { key: CONTEXT.stackName, default: 'Tracker', meaning: 'CloudFormation stack name' },
  {
    key: CONTEXT.apiRateLimit,
    default: String(DEFAULT_API_RATE_LIMIT),
    meaning: 'stage-wide throttling, requests per second (excess requests get HTTP 429)',
  },
  { key: CONTEXT.apiBurstLimit, default: String(DEFAULT_API_BURST_LIMIT), meaning: 'stage-wide burst' },
  {
    key: CONTEXT.domainName,
    default: '(none)',
    meaning: 'custom domain of the API, with certificateArn; disables the execute-api endpoint',
  },
  {
    key: CONTEXT.certificateArn,
    default: '(none)',
    meaning: "ACM certificate for domainName, in the stack's region",
  },
  {
    key: CONTEXT.corsOrigins,
    default: '(any origin)',
    meaning: 'comma-separated origins browsers may call the API from',
  },
  {
    key: CONTEXT.expectedBugs,
    default: String(DEFAULT_EXPECTED_BUGS),
    meaning:
      `bugs the installation is sized for, ${MIN_EXPECTED_BUGS}–${MAX_EXPECTED_BUGS}: sets the memory of the search ` +
      `functions and the compactor unless searchMemoryMb / compactorMemoryMb are given: about ` +
      `${kilobytes(SEARCH_BYTES_PER_BUG)} KB per bug on top of ${BASE_PROCESS_MEMORY_MB} MB ` +
      `(${kilobytes(COMPACTOR_BYTES_PER_BUG)} KB for the compactor), at least ${MIN_SEARCH_MEMORY_MB.toLocaleString('en')} MB`,
  },
  ...FUNCTION_FAMILIES.flatMap((family) => [
    {
      key: sizingKeys(family).memory,
      default: MEMORY_FOR_BUGS[family]
        ? `(from expectedBugs: ${DEFAULT_FUNCTION_SIZING[family].memoryMb})`
        : String(DEFAULT_FUNCTION_SIZING[family].memoryMb),
      meaning: `memory (MB) of ${FAMILY_NAMES[family]}`,
    },
    {
      key: sizingKeys(family).timeout,
      default: String(DEFAULT_FUNCTION_SIZING[family].timeoutSeconds),
      meaning: `timeout (s) of ${FAMILY_NAMES[family]}, ${MIN_FUNCTION_TIMEOUT_SECONDS}–${TIMEOUT_LIMITS[family]}`,
    },
  ]),
  {
    key: CONTEXT.logRetentionDays,
    default: String(DEFAULT_LOG_RETENTION_DAYS),
    meaning: 'days function and access logs are kept (a CloudWatch retention value)',
  },
  {
    key: CONTEXT.kmsKey,
    default: '(AWS-managed keys)',
    meaning: '`create`, or the ARN of a customer-managed KMS key, for table, bucket, logs, queues, topic and secret',
  },
  { key: CONTEXT.alarmEmail, default: '(none)', meaning: 'e-mail address subscribed to the alarm topic' },
  {
    key: CONTEXT.tracing,
    default: 'off',
    meaning: '`on`: X-Ray active tracing on every function',
  },
  { key: CONTEXT.applicationLogLevel, default: 'INFO', meaning: "functions' log level (TRACE … FATAL)" },
  { key: CONTEXT.systemLogLevel, default: 'WARN', meaning: "Lambda platform's log level (DEBUG, INFO, WARN)" },
  {
    key: CONTEXT.eventAudience,
    default: 'public',
    meaning: '`full`: events on the bus (and webhooks) carry private comments and restricted bugs in full',
  },
  {
    key: CONTEXT.sesIdentity,
    default: '(none: no mail sent)',
    meaning: 'verified SES identity (domain or address) bug mail is sent as; the only one the publisher may use',
  },
  {
    key: CONTEXT.sesConfigurationSet,
    default: '(none)',
    meaning: 'SES configuration set of bug mail (bounces, complaints, statistics); the stack makes its own without it',
  },
  {
    key: CONTEXT.bounceHandling,
    default: 'disable-mail',
    meaning: "`off`: permanent bounces and complaints reported by SES no longer turn that account's mail off",
  },
  {
    key: CONTEXT.webhooks,
    default: '(none)',
    meaning:
      'JSON list of webhooks, `[{"url", "secretName" or "secret", "detailTypes"?}]`: adds the webhook function; `secretName` names a Secrets Manager secret',
  },
  {
    key: CONTEXT.oidc,
    default: '(off)',
    meaning:
      'single sign-on: `cognito` (the stack makes a Cognito user pool, app client and sign-in domain) or the https URL of an OpenID Connect issuer the team has',
  },
  {
    key: CONTEXT.oidcClientId,
    default: '(none)',
    meaning: "with an issuer URL: Tracker's client id there (its callback is `<WebUrl>oidc/callback`)",
  },
  {
    key: CONTEXT.oidcClientSecretName,
    default: '(none: a public client)',
    meaning: 'with an issuer URL: name or ARN of the Secrets Manager secret holding the client secret',
  },
  {
    key: CONTEXT.oidcProviderName,
    default: "(Cognito, or the issuer's host)",
    meaning: 'what the login form\'s button says: "Sign in with <name>"',
  },
  {
    key: CONTEXT.oidcCognitoDomainPrefix,
    default: '(tracker-<stack>-<account>)',
    meaning: "with `cognito`: prefix of the user pool's sign-in domain (`<prefix>.auth.<region>.amazoncognito.com`)",
  },
  ...Object.entries(ALARM_KEYS).map(([name, { key, meaning }]) => ({
    key,
    default: String(DEFAULT_ALARM_THRESHOLDS[name as keyof AlarmThresholds]),
    meaning,
  })),
];

// ---- parsing --------------------------------------------------------------------------------

class SettingError extends Error {
  constructor(key: string, value: unknown, expected: string) {
    super(`Context "${key}" must be ${expected}, not '${String(value)}'`);
  }
}

type Context = (key: string) => unknown;

function text(context: Context, key: string): string | undefined {
  const value = context(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new SettingError(key, value, 'a string');
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function number(
  context: Context,
  key: string,
  fallback: number,
  limits: { min?: number; max?: number; integer?: boolean } = {},
): number {
  const value = context(key);
  if (value === undefined || value === null || value === '') return fallback;
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  const { min, max, integer } = limits;
  const expected = [
    integer ? 'an integer' : 'a number',
    min !== undefined && max !== undefined
      ? `from ${min} to ${max}`
      : min !== undefined
        ? `of at least ${min}`
        : 'above 0',
  ].join(' ');
  if (!Number.isFinite(parsed) || (integer && !Number.isInteger(parsed))) throw new SettingError(key, value, expected);
  if (min === undefined ? parsed <= 0 : parsed < min) throw new SettingError(key, value, expected);
  if (max !== undefined && parsed > max) throw new SettingError(key, value, expected);
  return parsed;
}

function flag(context: Context, key: string, fallback: boolean): boolean {
  const value = context(key);
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  const word = String(value).trim().toLowerCase();
  if (['on', 'true', 'yes', '1'].includes(word)) return true;
  if (['off', 'false', 'no', '0'].includes(word)) return false;
  throw new SettingError(key, value, '`on` or `off`');
}

function oneOf<T extends string>(context: Context, key: string, allowed: readonly T[], fallback: T): T {
  const value = text(context, key);
  if (value === undefined) return fallback;
  const match = allowed.find((candidate) => candidate === value.toUpperCase());
  if (!match) throw new SettingError(key, value, `one of ${allowed.join(', ')}`);
  return match;
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/;
const KMS_KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/;
/** An origin as browsers send it: scheme, host and optional port, nothing after. */
const ORIGIN = /^https?:\/\/[^/\s?#]+$/;

function corsOrigins(context: Context): string[] {
  const value = context(CONTEXT.corsOrigins);
  if (value === undefined || value === null || value === '') return [];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!list) throw new SettingError(CONTEXT.corsOrigins, value, 'a comma-separated list of origins');
  const origins = list.map((origin) => String(origin).trim()).filter(Boolean);
  for (const origin of origins) {
    if (origin !== '*' && !ORIGIN.test(origin))
      throw new SettingError(CONTEXT.corsOrigins, origin, 'origins such as https://bugs.example.org (or *)');
  }
  if (origins.includes('*') && origins.length > 1)
    throw new SettingError(CONTEXT.corsOrigins, value, 'either * alone or a list of origins');
  return origins;
}

function customDomain(context: Context): StackSettings['customDomain'] {
  const domainName = text(context, CONTEXT.domainName);
  const certificateArn = text(context, CONTEXT.certificateArn);
  if (!domainName && !certificateArn) return undefined;
  if (!domainName || !certificateArn)
    throw new Error(`Context "${CONTEXT.domainName}" and "${CONTEXT.certificateArn}" go together: set both or neither`);
  if (!DOMAIN.test(domainName)) throw new SettingError(CONTEXT.domainName, domainName, 'a domain name');
  if (!CERTIFICATE_ARN.test(certificateArn))
    throw new SettingError(CONTEXT.certificateArn, certificateArn, 'an ACM certificate ARN');
  return { domainName: domainName.toLowerCase(), certificateArn };
}

function encryption(context: Context): EncryptionSetting {
  const value = text(context, CONTEXT.kmsKey);
  if (value === undefined) return { kind: 'aws' };
  if (value.toLowerCase() === 'create') return { kind: 'create' };
  if (KMS_KEY_ARN.test(value)) return { kind: 'import', keyArn: value };
  throw new SettingError(CONTEXT.kmsKey, value, '`create` or a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>)');
}

function logRetention(context: Context): RetentionDays {
  const days = number(context, CONTEXT.logRetentionDays, DEFAULT_LOG_RETENTION_DAYS, { integer: true });
  const allowed = Object.values(RetentionDays).filter(
    (value): value is RetentionDays => typeof value === 'number' && value !== RetentionDays.INFINITE,
  );
  if (!allowed.includes(days)) throw new SettingError(CONTEXT.logRetentionDays, days, `one of ${allowed.join(', ')}`);
  return days;
}

/**
 * A family's memory when its `…MemoryMb` is not set: sized for `expectedBugs` (search and
 * compactor), else the fixed default. Not computed at all when the memory is set, so an explicit
 * size also covers an installation too large for the rule.
 */
function defaultMemoryMb(context: Context, family: FunctionFamily, expectedBugs: number): number {
  const forBugs = MEMORY_FOR_BUGS[family];
  const explicit = context(sizingKeys(family).memory);
  if (!forBugs || (explicit !== undefined && explicit !== null && explicit !== '')) {
    return DEFAULT_FUNCTION_SIZING[family].memoryMb;
  }
  try {
    return forBugs(expectedBugs);
  } catch (error) {
    if (!(error instanceof SearchTooLargeError)) throw error;
    throw new Error(
      `Context "${CONTEXT.expectedBugs}": ${FAMILY_NAMES[family]}: ${error.message}; ` +
        `or set "${sizingKeys(family).memory}" yourself`,
    );
  }
}

function functionSizing(context: Context, family: FunctionFamily, expectedBugs: number): FunctionSizing {
  const keys = sizingKeys(family);
  const fallback = DEFAULT_FUNCTION_SIZING[family];
  return {
    memoryMb: number(context, keys.memory, defaultMemoryMb(context, family, expectedBugs), {
      min: 128,
      max: MAX_LAMBDA_MEMORY_MB,
      integer: true,
    }),
    timeoutSeconds: number(context, keys.timeout, fallback.timeoutSeconds, {
      min: MIN_FUNCTION_TIMEOUT_SECONDS,
      max: TIMEOUT_LIMITS[family],
      integer: true,
    }),
  };
}

const ALARM_LIMITS: Partial<Record<keyof AlarmThresholds, { min?: number; max?: number; integer?: boolean }>> = {
  api5xxPercent: { max: 100 },
  api4xxPercent: { max: 100 },
  latencyPercentOfTimeout: { max: 100 },
  minRequests: { min: 1, integer: true },
  // At least two compaction intervals (a single late run is no alarm), at most the day an alarm
  // can look back on, in whole minutes (alarm periods are).
  searchStalenessMinutes: { min: 20, max: 1440, integer: true },
  // The stream keeps a change 24 hours; the publisher sets aside what is older.
  notificationDelayMinutes: { min: 5, max: 1380, integer: true },
};

function alarmThresholds(context: Context): AlarmThresholds {
  const thresholds = { ...DEFAULT_ALARM_THRESHOLDS };
  for (const [name, { key }] of Object.entries(ALARM_KEYS) as [keyof AlarmThresholds, { key: string }][]) {
    thresholds[name] = number(context, key, DEFAULT_ALARM_THRESHOLDS[name], ALARM_LIMITS[name] ?? {});
  }
  return thresholds;
}

const SES_CONFIGURATION_SET = /^[A-Za-z0-9_-]{1,64}$/;
/** Lambda keeps at most 4 KB of environment per function; the rest of it needs some. */
const MAX_WEBHOOKS_JSON = 3_000;

function eventAudience(context: Context): EventAudienceName {
  const value = text(context, CONTEXT.eventAudience);
  if (value === undefined) return 'public';
  const match = EVENT_AUDIENCES.find((audience) => audience === value.toLowerCase());
  if (!match) throw new SettingError(CONTEXT.eventAudience, value, '`public` or `full`');
  return match;
}

function sesIdentity(context: Context): string | undefined {
  const value = text(context, CONTEXT.sesIdentity);
  if (value === undefined) return undefined;
  if (!DOMAIN.test(value) && !EMAIL.test(value))
    throw new SettingError(CONTEXT.sesIdentity, value, 'a domain or an e-mail address verified in SES');
  return value;
}

/**
 * The webhooks, checked as the webhook function will read them. They get the events as the bus
 * carries them (`eventAudience`): a webhook that names another audience is refused rather than
 * given more, or less, than it asks for.
 */
function webhooks(context: Context, audience: EventAudienceName): WebhookSetting[] {
  const value = context(CONTEXT.webhooks);
  if (value === undefined || value === null || value === '') return [];
  // The value holds secrets: the messages do not repeat it.
  const notAList = new Error(
    `Context "${CONTEXT.webhooks}" must be a JSON list of {"url", "secretName" or "secret", "detailTypes"?}`,
  );
  let list: unknown = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      throw notAList;
    }
  }
  if (!Array.isArray(list)) throw notAList;
  const json = JSON.stringify(list);
  try {
    webhookTargetsFrom(json);
  } catch (error) {
    throw new Error(`Context "${CONTEXT.webhooks}": ${error instanceof Error ? error.message : String(error)}`);
  }
  const detailTypes = new Set(Object.values(DETAIL_TYPES));
  const entries = list as (WebhookSetting & { audience?: string })[];
  for (const webhook of entries) {
    if (webhook.audience !== undefined && webhook.audience !== audience)
      throw new Error(
        `Context "${CONTEXT.webhooks}": ${webhook.url} asks for the '${webhook.audience}' audience, but webhooks get ` +
          `the events as the bus carries them ("${CONTEXT.eventAudience}" is '${audience}')`,
      );
    for (const detailType of webhook.detailTypes ?? [])
      if (!detailTypes.has(detailType))
        throw new SettingError(
          CONTEXT.webhooks,
          detailType,
          `a detail-type of docs/events.md (${[...detailTypes].join(', ')})`,
        );
  }
  if (json.length > MAX_WEBHOOKS_JSON)
    throw new Error(
      `Context "${CONTEXT.webhooks}" is ${json.length} characters: at most ${MAX_WEBHOOKS_JSON} fit a function's environment`,
    );
  return entries.map(({ url, secret, secretName, detailTypes: types }) => ({
    url,
    ...(secret !== undefined ? { secret } : {}),
    ...(secretName !== undefined ? { secretName } : {}),
    ...(types ? { detailTypes: types } : {}),
  }));
}

function notificationSettings(context: Context): NotificationSettings {
  const audience = eventAudience(context);
  const configurationSet = text(context, CONTEXT.sesConfigurationSet);
  if (configurationSet !== undefined && !SES_CONFIGURATION_SET.test(configurationSet))
    throw new SettingError(CONTEXT.sesConfigurationSet, configurationSet, 'an SES configuration set name');
  const identity = sesIdentity(context);
  if (configurationSet !== undefined && identity === undefined)
    throw new Error(
      `Context "${CONTEXT.sesConfigurationSet}" goes with "${CONTEXT.sesIdentity}": without it no mail is sent`,
    );
  const bounces = text(context, CONTEXT.bounceHandling)?.toLowerCase() ?? 'disable-mail';
  if (bounces !== 'disable-mail' && bounces !== 'off')
    throw new SettingError(CONTEXT.bounceHandling, bounces, '`disable-mail` or `off`');
  return {
    eventAudience: audience,
    sesIdentity: identity,
    sesConfigurationSet: configurationSet,
    bounceHandling: bounces,
    webhooks: webhooks(context, audience),
  };
}

const COGNITO_DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const CLIENT_ID = /^[\x21-\x7e]{1,255}$/;

function singleSignOn(context: Context): SingleSignOnSetting | undefined {
  const value = text(context, CONTEXT.oidc);
  const clientId = text(context, CONTEXT.oidcClientId);
  const secretName = text(context, CONTEXT.oidcClientSecretName);
  const providerName = text(context, CONTEXT.oidcProviderName);
  const domainPrefix = text(context, CONTEXT.oidcCognitoDomainPrefix);
  const needsOidc = [
    [CONTEXT.oidcClientId, clientId],
    [CONTEXT.oidcClientSecretName, secretName],
    [CONTEXT.oidcProviderName, providerName],
    [CONTEXT.oidcCognitoDomainPrefix, domainPrefix],
  ].find(([, given]) => given !== undefined);
  if (value === undefined) {
    if (needsOidc) throw new Error(`Context "${needsOidc[0]}" goes with "${CONTEXT.oidc}", which is not set`);
    return undefined;
  }
  if (providerName !== undefined && providerName.length > 60)
    throw new SettingError(CONTEXT.oidcProviderName, providerName, 'a name of at most 60 characters');
  if (value.toLowerCase() === 'cognito') {
    if (clientId !== undefined || secretName !== undefined)
      throw new Error(
        `Context "${CONTEXT.oidcClientId}" and "${CONTEXT.oidcClientSecretName}" are for an issuer of your own: with \`cognito\` the stack makes the client`,
      );
    if (
      domainPrefix !== undefined &&
      (!COGNITO_DOMAIN_PREFIX.test(domainPrefix) || /aws|amazon|cognito/.test(domainPrefix))
    )
      throw new SettingError(
        CONTEXT.oidcCognitoDomainPrefix,
        domainPrefix,
        'lower-case letters, digits and hyphens, without aws, amazon or cognito',
      );
    return { kind: 'cognito', providerName: providerName ?? 'Cognito', domainPrefix };
  }
  let issuer: URL;
  try {
    issuer = new URL(value);
  } catch {
    throw new SettingError(CONTEXT.oidc, value, '`cognito` or the https URL of an OpenID Connect issuer');
  }
  if (issuer.protocol !== 'https:' || issuer.search !== '' || issuer.hash !== '')
    throw new SettingError(CONTEXT.oidc, value, '`cognito` or the https URL of an OpenID Connect issuer');
  if (domainPrefix !== undefined)
    throw new Error(`Context "${CONTEXT.oidcCognitoDomainPrefix}" is for \`cognito\` only`);
  if (clientId === undefined || !CLIENT_ID.test(clientId))
    throw new Error(
      `Context "${CONTEXT.oidc}" with an issuer needs "${CONTEXT.oidcClientId}", Tracker's client id there`,
    );
  return {
    kind: 'issuer',
    issuer: value,
    clientId,
    clientSecretName: secretName,
    providerName: providerName ?? issuer.hostname,
  };
}

/** The stack's settings from the context of `scope` (the app or the stack). Throws on an invalid value. */
export function readStackSettings(scope: Construct): StackSettings {
  const context: Context = (key) => scope.node.tryGetContext(key);
  const alarmEmail = text(context, CONTEXT.alarmEmail);
  if (alarmEmail !== undefined && !EMAIL.test(alarmEmail))
    throw new SettingError(CONTEXT.alarmEmail, alarmEmail, 'an e-mail address');
  const expectedBugs = number(context, CONTEXT.expectedBugs, DEFAULT_EXPECTED_BUGS, {
    min: MIN_EXPECTED_BUGS,
    max: MAX_EXPECTED_BUGS,
    integer: true,
  });
  return {
    apiRateLimit: number(context, CONTEXT.apiRateLimit, DEFAULT_API_RATE_LIMIT),
    apiBurstLimit: number(context, CONTEXT.apiBurstLimit, DEFAULT_API_BURST_LIMIT, { min: 1, integer: true }),
    expectedBugs,
    customDomain: customDomain(context),
    corsOrigins: corsOrigins(context),
    functions: Object.fromEntries(
      FUNCTION_FAMILIES.map((family) => [family, functionSizing(context, family, expectedBugs)]),
    ) as Record<FunctionFamily, FunctionSizing>,
    logRetention: logRetention(context),
    encryption: encryption(context),
    alarmEmail,
    tracing: flag(context, CONTEXT.tracing, false),
    applicationLogLevel: oneOf(
      context,
      CONTEXT.applicationLogLevel,
      Object.values(ApplicationLogLevel),
      ApplicationLogLevel.INFO,
    ),
    systemLogLevel: oneOf(context, CONTEXT.systemLogLevel, Object.values(SystemLogLevel), SystemLogLevel.WARN),
    alarms: alarmThresholds(context),
    notifications: notificationSettings(context),
    singleSignOn: singleSignOn(context),
  };
}

/** The CloudFormation stack name (`-c stackName=...`), for bin/tracker.ts. */
export function stackNameFrom(scope: Construct): string {
  const value: unknown = scope.node.tryGetContext(CONTEXT.stackName);
  if (value === undefined) return 'Tracker';
  if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9-]{0,127}$/.test(value))
    throw new SettingError(CONTEXT.stackName, value, 'a CloudFormation stack name');
  return value;
}
