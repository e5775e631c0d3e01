/**
 * The deployment settings (lib/stackSettings.ts): defaults, what each accepts and refuses, and
 * that docs/operations.md documents every one of them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler as optionsHandler } from '../../functions/platform/options.ts';
import { CORS_ALLOWED_HEADERS } from '../../lib/apiEndpoint.ts';
import {
  DEFAULT_ALARM_THRESHOLDS,
  DEFAULT_FUNCTION_SIZING,
  MAX_API_TIMEOUT_SECONDS,
  MIN_FUNCTION_TIMEOUT_SECONDS,
  readStackSettings,
  SETTINGS,
  stackNameFrom,
} from '../../lib/stackSettings.ts';
import { FUNCTION_TIMEOUT } from '../../lib/trackerFunction.ts';
import { PROJECT_ROOT } from '../../lib/trackerStack.ts';
import { buildEvent } from '../../local/apiGatewayEmulator.ts';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_RETRY_BACKOFF_MS,
  SDK_MAX_ATTEMPTS,
} from '../../shared/storage/sdkTimeouts.ts';

const settingsFrom = (context: Record<string, unknown>) => readStackSettings(new App({ context }));

describe('deployment settings', () => {
  it('default to the stack as it always was: no domain, any origin, AWS-managed keys, no tracing, INFO/WARN logs', () => {
    const settings = settingsFrom({});
    expect(settings).toMatchObject({
      apiRateLimit: 200,
      apiBurstLimit: 400,
      customDomain: undefined,
      corsOrigins: [],
      functions: DEFAULT_FUNCTION_SIZING,
      logRetention: 30,
      encryption: { kind: 'aws' },
      alarmEmail: undefined,
      tracing: false,
      applicationLogLevel: 'INFO',
      systemLogLevel: 'WARN',
      alarms: DEFAULT_ALARM_THRESHOLDS,
      notifications: { eventAudience: 'public', sesIdentity: undefined, sesConfigurationSet: undefined, webhooks: [] },
    });
    expect(DEFAULT_FUNCTION_SIZING).toEqual({
      api: { memoryMb: 512, timeoutSeconds: 10 },
      search: { memoryMb: 1536, timeoutSeconds: 10 },
      compactor: { memoryMb: 1536, timeoutSeconds: 300 },
      sweep: { memoryMb: 512, timeoutSeconds: 900 },
      notification: { memoryMb: 512, timeoutSeconds: 60 },
    });
    expect(DEFAULT_ALARM_THRESHOLDS.notificationDelayMinutes).toBe(60);
  });

  it('take strings from -c and typed values from cdk.json alike', () => {
    const fromCommandLine = settingsFrom({
      apiTimeoutSeconds: '20',
      searchMemoryMb: '3008',
      tracing: 'on',
      corsOrigins: 'https://a.example.org, https://b.example.org:8443',
      logRetentionDays: '90',
      applicationLogLevel: 'debug',
      alarmApi5xxPercent: '2.5',
    });
    const fromCdkJson = settingsFrom({
      apiTimeoutSeconds: 20,
      searchMemoryMb: 3008,
      tracing: true,
      corsOrigins: ['https://a.example.org', 'https://b.example.org:8443'],
      logRetentionDays: 90,
      applicationLogLevel: 'DEBUG',
      alarmApi5xxPercent: 2.5,
    });
    expect(fromCommandLine).toEqual(fromCdkJson);
    expect(fromCommandLine).toMatchObject({
      functions: { api: { memoryMb: 512, timeoutSeconds: 20 }, search: { memoryMb: 3008, timeoutSeconds: 10 } },
      tracing: true,
      corsOrigins: ['https://a.example.org', 'https://b.example.org:8443'],
      logRetention: 90,
      applicationLogLevel: 'DEBUG',
      alarms: { ...DEFAULT_ALARM_THRESHOLDS, api5xxPercent: 2.5 },
    });
    expect(settingsFrom({ tracing: 'off' }).tracing).toBe(false);
  });

  it('read a custom domain only with its certificate, and a KMS key as `create` or an ARN', () => {
    const certificateArn = 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-aaaa-bbbb-cccc-1234567890ab';
    expect(settingsFrom({ domainName: 'Bugs.Example.org', certificateArn }).customDomain).toEqual({
      domainName: 'bugs.example.org',
      certificateArn,
    });
    expect(() => settingsFrom({ domainName: 'bugs.example.org' })).toThrow(/domainName.*certificateArn.*together/);
    expect(() => settingsFrom({ certificateArn })).toThrow(/together/);
    expect(() => settingsFrom({ domainName: 'https://bugs.example.org', certificateArn })).toThrow(/domainName/);
    expect(() => settingsFrom({ domainName: 'bugs.example.org', certificateArn: 'arn:aws:iam::1:x' })).toThrow(
      /certificateArn/,
    );
    const keyArn = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    expect(settingsFrom({ kmsKey: 'create' }).encryption).toEqual({ kind: 'create' });
    expect(settingsFrom({ kmsKey: keyArn }).encryption).toEqual({ kind: 'import', keyArn });
    expect(() => settingsFrom({ kmsKey: 'alias/tracker' })).toThrow(/kmsKey/);
  });

  it('read the notification settings: audience, SES identity and configuration set, webhooks from -c or cdk.json', () => {
    const webhooks = [
      { url: 'https://ci.example.org/hook', secret: 'whsec_a' },
      { url: 'https://chat.example.org/hook', secret: ['new', 'old'], detailTypes: ['Bug Created'] },
    ];
    const fromCommandLine = settingsFrom({
      eventAudience: 'FULL',
      sesIdentity: 'bugs.example.org',
      sesConfigurationSet: 'tracker-mail',
      webhooks: JSON.stringify(webhooks),
    });
    expect(fromCommandLine.notifications).toEqual({
      eventAudience: 'full',
      sesIdentity: 'bugs.example.org',
      sesConfigurationSet: 'tracker-mail',
      bounceHandling: 'disable-mail',
      webhooks,
    });
    expect(settingsFrom({ webhooks }).notifications.webhooks).toEqual(webhooks);
    expect(settingsFrom({ bounceHandling: 'OFF' }).notifications.bounceHandling).toBe('off');
    const named = [{ url: 'https://a.example.org/', secretName: 'tracker/a' }];
    expect(settingsFrom({ webhooks: named }).notifications.webhooks).toEqual(named);
    expect(settingsFrom({ sesIdentity: 'bugs@example.org' }).notifications.sesIdentity).toBe('bugs@example.org');
    // A webhook that names the bus's own audience is fine; the audience is the bus's anyway.
    expect(
      settingsFrom({ webhooks: [{ url: 'https://a.example.org/', secret: 's', audience: 'public' }] }).notifications
        .webhooks,
    ).toEqual([{ url: 'https://a.example.org/', secret: 's' }]);
  });

  it('refuse notification settings the functions could not use, naming the setting', () => {
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ eventAudience: 'insiders' }, /eventAudience/],
      [{ bounceHandling: 'ignore' }, /bounceHandling/],
      [{ webhooks: [{ url: 'https://a.example.org/', secret: 's', secretName: 'tracker/a' }] }, /secretName/],
      [{ sesIdentity: 'not an identity' }, /sesIdentity/],
      [{ sesIdentity: 'bugs.example.org', sesConfigurationSet: 'has space' }, /sesConfigurationSet/],
      [{ sesConfigurationSet: 'tracker-mail' }, /sesConfigurationSet.*sesIdentity/],
      [{ webhooks: 'not json' }, /webhooks.*JSON/],
      [{ webhooks: '{"url": "https://a.example.org/", "secret": "s"}' }, /webhooks.*JSON list/],
      [{ webhooks: [{ url: 'https://a.example.org/' }] }, /webhooks[\s\S]*secret/],
      [{ webhooks: [{ url: 'ftp://a.example.org/', secret: 's' }] }, /webhooks/],
      [{ webhooks: [{ url: 'https://a.example.org/', secret: 's', detailTypes: ['Bug Closed'] }] }, /Bug Closed/],
      // More (private comments, restricted bugs) than it asked for:
      [
        { eventAudience: 'full', webhooks: [{ url: 'https://a.example.org/', secret: 's', audience: 'public' }] },
        /audience/,
      ],
      [{ webhooks: [{ url: 'https://a.example.org/', secret: 's', audience: 'full' }] }, /audience/],
      [
        {
          webhooks: Array.from({ length: 40 }, (_, i) => ({
            url: `https://hook${i}.example.org/tracker`,
            secret: 'x'.repeat(40),
          })),
        },
        /at most/,
      ],
      [{ alarmNotificationDelayMinutes: '2' }, /alarmNotificationDelayMinutes/],
      [{ notificationTimeoutSeconds: '901' }, /notificationTimeoutSeconds/],
    ];
    for (const [context, message] of refused)
      expect(() => settingsFrom(context), JSON.stringify(context)).toThrow(message);
    // The setting holds secrets: a refusal does not print them.
    expect(() => settingsFrom({ webhooks: '[{"url": "https://a.example.org/", "secret": "whsec_x"' })).toThrow(
      /^(?![\s\S]*whsec_x)/,
    );
  });

  it('refuse values the stack could not deploy, naming the setting', () => {
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ apiRateLimit: 'lots' }, /apiRateLimit/],
      [{ apiBurstLimit: '0' }, /apiBurstLimit/],
      [{ apiMemoryMb: '64' }, /apiMemoryMb.*128 to 10240/],
      [{ apiMemoryMb: '512.5' }, /apiMemoryMb.*integer/],
      [{ apiTimeoutSeconds: String(MAX_API_TIMEOUT_SECONDS + 1) }, /apiTimeoutSeconds/],
      [{ searchTimeoutSeconds: '5' }, /searchTimeoutSeconds/],
      [{ compactorTimeoutSeconds: '700' }, /compactorTimeoutSeconds/],
      [{ sweepTimeoutSeconds: '901' }, /sweepTimeoutSeconds/],
      [{ logRetentionDays: '31' }, /logRetentionDays.*one of 1, 3, 5/],
      [{ tracing: 'maybe' }, /tracing/],
      [{ applicationLogLevel: 'LOUD' }, /applicationLogLevel/],
      [{ systemLogLevel: 'ERROR' }, /systemLogLevel/],
      [{ alarmEmail: 'not an address' }, /alarmEmail/],
      [{ corsOrigins: 'bugs.example.org' }, /corsOrigins/],
      [{ corsOrigins: 'https://a.example.org/path' }, /corsOrigins/],
      [{ corsOrigins: '*,https://a.example.org' }, /corsOrigins/],
      [{ alarmApi5xxPercent: '101' }, /alarmApi5xxPercent/],
      [{ alarmSearchStalenessMinutes: '10' }, /alarmSearchStalenessMinutes/],
      [{ alarmSearchStalenessMinutes: '2000' }, /alarmSearchStalenessMinutes/],
      [{ alarmMinRequests: '0.5' }, /alarmMinRequests/],
    ];
    for (const [context, message] of refused)
      expect(() => settingsFrom(context), JSON.stringify(context)).toThrow(message);
  });

  it("never let a function that calls DynamoDB or S3 time out before the SDK's own retry budget is spent", () => {
    const sdkBudgetMs = SDK_MAX_ATTEMPTS * DEFAULT_REQUEST_TIMEOUT_MS + MAX_RETRY_BACKOFF_MS;
    expect(MIN_FUNCTION_TIMEOUT_SECONDS * 1000).toBeGreaterThanOrEqual(sdkBudgetMs + 1000);
    expect(MIN_FUNCTION_TIMEOUT_SECONDS * 1000).toBeLessThanOrEqual(FUNCTION_TIMEOUT.toMilliseconds());
    for (const family of ['api', 'search', 'compactor', 'sweep', 'notification']) {
      expect(() => settingsFrom({ [`${family}TimeoutSeconds`]: MIN_FUNCTION_TIMEOUT_SECONDS - 1 }), family).toThrow(
        `${family}TimeoutSeconds`,
      );
      expect(settingsFrom({ [`${family}TimeoutSeconds`]: MIN_FUNCTION_TIMEOUT_SECONDS }).functions).toHaveProperty(
        `${family}.timeoutSeconds`,
        MIN_FUNCTION_TIMEOUT_SECONDS,
      );
    }
  });

  it('validate the stack name', () => {
    expect(stackNameFrom(new App())).toBe('Tracker');
    expect(stackNameFrom(new App({ context: { stackName: 'Bugs-Prod' } }))).toBe('Bugs-Prod');
    expect(() => stackNameFrom(new App({ context: { stackName: '' } }))).toThrow(/stackName/);
    expect(() => stackNameFrom(new App({ context: { stackName: 'has space' } }))).toThrow(/stackName/);
  });

  it('are all documented in docs/operations.md, with their defaults', () => {
    const doc = fs.readFileSync(path.join(PROJECT_ROOT, 'docs', 'operations.md'), 'utf8');
    const rows = new Map(
      [...doc.matchAll(/^\|\s*`([A-Za-z0-9]+)`\s*\|\s*([^|]*?)\s*\|/gm)].map((match) => [match[1], match[2]]),
    );
    for (const setting of SETTINGS) {
      expect(rows.has(setting.key), `${setting.key} in the settings table`).toBe(true);
      expect(rows.get(setting.key)?.replaceAll('`', ''), `${setting.key} default`).toBe(setting.default);
    }
  });
});

describe('CORS for configured origins', () => {
  it('lets browsers send the headers the options handler announces when API Gateway does not answer preflights', async () => {
    const event = buildEvent(
      { method: 'OPTIONS', url: '/rest/bug/1', headers: {}, body: Buffer.alloc(0) },
      'OPTIONS /{proxy+}',
      undefined,
      'cors-request',
    );
    const result = await optionsHandler(event, { awsRequestId: 'cors-request' } as unknown as Context);
    const announced = String(result.headers?.['Access-Control-Allow-Headers'])
      .split(',')
      .map((header) => header.trim());
    expect(new Set(CORS_ALLOWED_HEADERS)).toEqual(new Set(announced));
  });
});
