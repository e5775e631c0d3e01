import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { buildEvent } from '../../local/apiGatewayEmulator.ts';
import { defineEndpoint, type LambdaHandler } from '../../shared/http/endpoint.ts';
import { scheduledHandler } from '../../shared/observability/invocationObservers.ts';
import { recordCompaction, recordLoginLockout, serviceMetrics } from '../../shared/observability/metrics.ts';
import { tracing } from '../../shared/observability/tracing.ts';
import { TrackerError } from '../../shared/trackerError.ts';
import { InMemoryDirectory } from './support/inMemoryDirectory.ts';

/**
 * The request's log line and metrics as the chain writes them to stdout (Powertools Logger and
 * Metrics, shared/observability/), read back from stdout: tiny endpoints invoked directly with API
 * Gateway v2 events, as in middlewareChain.test.ts.
 */
// As Lambda sets it for an instance started on demand: Powertools marks a cold start only then.
// The unit files share a process (vitest.config.ts): the modules are evaluated afresh for this
// file, before its imports, so that its first request is the first its logger and metrics see.
const initializationType = vi.hoisted(() => {
  vi.resetModules();
  const previous = process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
  return previous;
});

const JANE_KEY = 'JaneKey0000000000000000000000000000000000';
const directory = new InMemoryDirectory().addGroup(1, 'admin');

const endpoint = <Schema extends z.ZodType>(definition: Parameters<typeof defineEndpoint<Schema>>[0]) =>
  defineEndpoint(definition, { directory: () => directory, installationRequiresLogin: async () => false });

const echo = endpoint({
  access: 'public',
  input: z.record(z.string(), z.unknown()),
  run: ({ caller }) => ({ callerId: caller.user?.id ?? null }),
});

let requestCounter = 0;

async function call(handler: LambdaHandler, options: { url?: string; headers?: Record<string, string> } = {}) {
  const requestId = `request-${++requestCounter}`;
  const event = buildEvent(
    { method: 'GET', url: options.url ?? '/rest/test', headers: options.headers ?? {}, body: Buffer.alloc(0) },
    'GET /rest/test/{id}',
    undefined,
    requestId,
  );
  const context = {
    awsRequestId: requestId,
    functionName: 'test-function',
    memoryLimitInMB: '512',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:test-function',
    getRemainingTimeInMillis: () => 30_000,
  } as unknown as Context;
  const result = await handler(event, context);
  return { requestId, status: result.statusCode };
}

type Json = Record<string, any>;

/** Everything written to stdout and stderr meanwhile, as JSON objects (one per line). */
function captureOutput() {
  const written = { stdout: [] as string[], stderr: [] as string[] };
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.stdout.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.stderr.push(String(chunk));
    return true;
  });
  const parse = (chunks: string[]): Json[] =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
  return {
    stdout: () => parse(written.stdout),
    stderr: () => parse(written.stderr),
    text: () => [...written.stdout, ...written.stderr].join(''),
  };
}

const logLines = (entries: Json[]) => entries.filter((entry) => entry._aws === undefined);
const requestLines = (entries: Json[]) => entries.filter((entry) => entry.message === 'request');
/** EMF blobs whose metrics include `name`. */
const blobsWith = (entries: Json[], name: string) =>
  entries.filter((entry) =>
    entry._aws?.CloudWatchMetrics?.some((set: Json) => set.Metrics.some((metric: Json) => metric.Name === name)),
  );
const metricDefinitions = (blob: Json) =>
  Object.fromEntries(blob._aws.CloudWatchMetrics[0].Metrics.map((metric: Json) => [metric.Name, metric.Unit]));

let previousSwitch: string | undefined;

beforeAll(async () => {
  await directory.addUser(7, 'jane@example.com');
  directory.addApiKey(JANE_KEY, 7);
});

afterAll(() => {
  if (initializationType === undefined) delete process.env.AWS_LAMBDA_INITIALIZATION_TYPE;
  else process.env.AWS_LAMBDA_INITIALIZATION_TYPE = initializationType;
});

beforeEach(() => {
  previousSwitch = process.env.TRACKER_REQUEST_LOG;
  process.env.TRACKER_REQUEST_LOG = 'on';
});

afterEach(() => {
  vi.restoreAllMocks();
  if (previousSwitch === undefined) delete process.env.TRACKER_REQUEST_LOG;
  else process.env.TRACKER_REQUEST_LOG = previousSwitch;
});

// The tests of this block run in order: the first request of the process is its cold start.
describe('the request log line and request metrics', () => {
  it('marks the first request of an instance as its cold start, with a ColdStart metric', async () => {
    const output = captureOutput();
    await call(echo);
    const [line] = requestLines(output.stdout());
    expect(line).toMatchObject({ level: 'INFO', cold_start: true, function_name: 'test-function' });
    const [coldStart] = blobsWith(output.stdout(), 'ColdStart');
    expect(coldStart).toMatchObject({ service: 'tracker', function_name: 'test-function', ColdStart: 1 });
    expect(coldStart._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'Tracker',
      Dimensions: [['service', 'function_name']],
    });
  });

  it('writes one JSON line with the request id, route, caller, status and duration, never the API key', async () => {
    const output = captureOutput();
    const { requestId } = await call(echo, {
      url: `/rest/test?api_key=${JANE_KEY}&a=1`,
      headers: { 'x-bugzilla-api-key': JANE_KEY },
    });
    const entries = output.stdout();
    expect(logLines(entries)).toHaveLength(1);
    expect(logLines(entries)[0]).toEqual({
      level: 'INFO',
      message: 'request',
      timestamp: expect.any(String),
      service: 'tracker',
      sampling_rate: 0,
      cold_start: false,
      function_name: 'test-function',
      function_memory_size: '512',
      function_arn: 'arn:aws:lambda:local:000000000000:function:test-function',
      function_request_id: requestId,
      requestId,
      route: 'GET /rest/test/{id}',
      method: 'GET',
      callerId: 7,
      status: 200,
      durationMs: expect.any(Number),
      dynamodbCalls: 0,
    });
    expect(output.text()).not.toContain(JANE_KEY);
    expect(blobsWith(entries, 'ColdStart')).toEqual([]);
  });

  it('publishes Requests, Latency, Errors, Faults and DynamoDBCalls under the route, in the Tracker namespace', async () => {
    const output = captureOutput();
    await call(echo);
    const blobs = blobsWith(output.stdout(), 'Requests');
    expect(blobs).toHaveLength(1);
    const [blob] = blobs;
    expect(blob._aws.Timestamp).toEqual(expect.any(Number));
    expect(blob._aws.CloudWatchMetrics).toHaveLength(1);
    expect(blob._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'Tracker', Dimensions: [['service', 'route']] });
    expect(metricDefinitions(blob)).toEqual({
      Requests: 'Count',
      Latency: 'Milliseconds',
      Errors: 'Count',
      Faults: 'Count',
      DynamoDBCalls: 'Count',
    });
    expect(blob).toMatchObject({
      service: 'tracker',
      route: 'GET /rest/test/{id}',
      Requests: 1,
      Errors: 0,
      Faults: 0,
      DynamoDBCalls: 0,
    });
    expect(blob.Latency).toBeGreaterThanOrEqual(0);
    // A successful answer has no error code: nothing is published under `code`.
    expect(blobsWith(output.stdout(), 'BugzillaError')).toEqual([]);
  });

  it('logs and counts the status and Bugzilla error code of an error answer', async () => {
    const output = captureOutput();
    await call(echo, { headers: { 'x-bugzilla-api-key': 'not-a-key' } });
    const entries = output.stdout();
    expect(requestLines(entries)).toEqual([expect.objectContaining({ level: 'INFO', status: 400, errorCode: 306 })]);
    // No caller: Powertools leaves out keys without a value.
    expect(requestLines(entries)[0]).not.toHaveProperty('callerId');
    expect(output.text()).not.toContain('not-a-key');
    expect(blobsWith(entries, 'Requests')[0]).toMatchObject({ Errors: 1, Faults: 0, route: 'GET /rest/test/{id}' });
    const [error] = blobsWith(entries, 'BugzillaError');
    expect(error._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'Tracker', Dimensions: [['service', 'code']] });
    expect(metricDefinitions(error)).toEqual({ BugzillaError: 'Count' });
    expect(error).toMatchObject({ service: 'tracker', code: '306', BugzillaError: 1 });
    // The code is a dimension of its own metric only, never of the per-route ones.
    expect(blobsWith(entries, 'Requests')[0].code).toBeUndefined();
  });

  it('counts a failure of ours as a fault, with its error logged on stderr under the request id', async () => {
    const broken = endpoint({
      access: 'public',
      input: z.object({}),
      run: () => {
        throw new Error('disk on fire');
      },
    });
    const output = captureOutput();
    const { requestId, status } = await call(broken);
    expect(status).toBe(500);
    const [line] = requestLines(output.stdout());
    expect(line).toMatchObject({ requestId, status: 500, errorCode: -32000 });
    expect(blobsWith(output.stdout(), 'Requests')[0]).toMatchObject({ Errors: 1, Faults: 1 });
    expect(blobsWith(output.stdout(), 'BugzillaError')[0]).toMatchObject({ code: '-32000' });
    const [logged] = output.stderr();
    expect(logged).toMatchObject({
      level: 'ERROR',
      message: 'disk on fire',
      requestId,
      function_request_id: requestId,
      route: 'GET /rest/test/{id}',
      error: 'Error',
    });
    expect(logged.stack).toContain('Error: disk on fire');
  });

  it('names the X-Ray trace of the invocation when Lambda gives one', async () => {
    const previous = process.env._X_AMZN_TRACE_ID;
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=557abcec3ee5a047;Sampled=1';
    try {
      const output = captureOutput();
      await call(echo);
      expect(requestLines(output.stdout())[0].xray_trace_id).toBe('1-5759e988-bd862e3fe1be46a994272793');
    } finally {
      if (previous === undefined) delete process.env._X_AMZN_TRACE_ID;
      else process.env._X_AMZN_TRACE_ID = previous;
    }
  });
});

describe('DynamoDB calls per request', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_request, response) => response.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** An http call as the SDK makes one; `target` is its X-Amz-Target header. */
  const send = (target?: string) =>
    new Promise<void>((resolve, reject) => {
      const headers = target ? { 'x-amz-target': target } : {};
      httpRequest({ host: '127.0.0.1', port, method: 'POST', headers }, (response) => {
        response.resume();
        response.on('end', resolve);
      })
        .on('error', reject)
        .end('{}');
    });

  it('counts the DynamoDB calls the request made, and no other http call', async () => {
    const reading = endpoint({
      access: 'public',
      input: z.object({}),
      run: async () => {
        await send('DynamoDB_20120810.GetItem');
        await Promise.all([send('DynamoDB_20120810.Query'), send('S3.PutObject'), send()]);
        return {};
      },
    });
    const output = captureOutput();
    await Promise.all([call(reading), call(echo)]);
    const lines = requestLines(output.stdout());
    expect(lines.map((line) => line.dynamodbCalls).sort()).toEqual([0, 2]);
    expect(
      blobsWith(output.stdout(), 'DynamoDBCalls')
        .map((blob) => blob.DynamoDBCalls)
        .sort(),
    ).toEqual([0, 2]);
  });

  it('does not count calls made outside a request', async () => {
    const output = captureOutput();
    await send('DynamoDB_20120810.GetItem');
    await call(echo);
    expect(requestLines(output.stdout())[0].dynamodbCalls).toBe(0);
  });
});

describe('service metrics', () => {
  it('publishes one recorded during a request with the request, under the service alone', async () => {
    const lockedOut = endpoint({
      access: 'public',
      input: z.object({}),
      run: () => {
        recordLoginLockout();
        throw new TrackerError(300, 'The username or password you entered is not valid.');
      },
    });
    const output = captureOutput();
    await call(lockedOut);
    const [blob] = blobsWith(output.stdout(), 'LoginLockouts');
    expect(blob._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'Tracker', Dimensions: [['service']] });
    expect(blob).toMatchObject({ service: 'tracker', LoginLockouts: 1 });
    expect(blob.route).toBeUndefined();
  });

  it('writes one recorded outside a request at once', () => {
    const output = captureOutput();
    recordCompaction('completed');
    recordCompaction('failed');
    expect(blobsWith(output.stdout(), 'CompactorRuns')).toEqual([
      expect.objectContaining({ service: 'tracker', CompactorRuns: 1 }),
    ]);
    expect(blobsWith(output.stdout(), 'CompactorFailures')).toEqual([
      expect.objectContaining({ service: 'tracker', CompactorFailures: 1 }),
    ]);
  });

  it('lets a scheduled function answer or fail as its work does, logging within its invocation', async () => {
    const context = { awsRequestId: 'scheduled-1', functionName: 'search-compactSearchIndex' } as unknown as Context;
    const output = captureOutput();
    const compactor = scheduledHandler(async () => {
      const { logger } = await import('../../shared/observability/logger.ts');
      logger.info('search snapshot written');
      return 'pointer';
    });
    await expect(compactor({}, context)).resolves.toBe('pointer');
    expect(logLines(output.stdout())).toEqual([
      expect.objectContaining({ message: 'search snapshot written', function_request_id: 'scheduled-1' }),
    ]);
    const failing = scheduledHandler(async () => {
      throw new Error('table gone');
    });
    await expect(failing({}, context)).rejects.toThrow('table gone');
  });

  it('writes nothing, and neither throws nor warns, when nothing was recorded', () => {
    const output = captureOutput();
    expect(() => serviceMetrics.publishStoredMetrics()).not.toThrow();
    expect(output.text()).toBe('');
  });
});

describe('TRACKER_REQUEST_LOG=off', () => {
  it('silences the request line and every metric, successes and errors alike', async () => {
    process.env.TRACKER_REQUEST_LOG = 'off';
    const output = captureOutput();
    const lockedOut = endpoint({
      access: 'public',
      input: z.object({}),
      run: () => {
        recordLoginLockout();
        return {};
      },
    });
    await call(echo);
    await call(echo, { headers: { 'x-bugzilla-api-key': 'not-a-key' } });
    await call(lockedOut);
    recordCompaction('completed');
    expect(output.text()).toBe('');
  });
});

describe('configuration from the environment', () => {
  const withEnvironment = async (variables: Record<string, string>, work: () => Promise<void>) => {
    const previous = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
    Object.assign(process.env, variables);
    vi.resetModules();
    try {
      await work();
    } finally {
      for (const [name, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      vi.resetModules();
    }
  };

  it('takes the metrics namespace from POWERTOOLS_METRICS_NAMESPACE', async () => {
    await withEnvironment({ POWERTOOLS_METRICS_NAMESPACE: 'TrackerStaging' }, async () => {
      const fresh = await import('../../shared/observability/metrics.ts');
      const output = captureOutput();
      fresh.recordCompaction('completed');
      expect(blobsWith(output.stdout(), 'CompactorRuns')[0]._aws.CloudWatchMetrics[0].Namespace).toBe('TrackerStaging');
    });
  });

  it('logs at INFO unless POWERTOOLS_LOG_LEVEL says otherwise', async () => {
    const output = captureOutput();
    const { logger } = await import('../../shared/observability/logger.ts');
    expect(logger.getLevelName()).toBe('INFO');
    await withEnvironment({ POWERTOOLS_LOG_LEVEL: 'WARN' }, async () => {
      const fresh = await import('../../shared/observability/logger.ts');
      fresh.logger.info('routine');
      fresh.logger.warn('unusual');
    });
    expect(logLines(output.stdout()).map((line) => line.message)).toEqual([]);
    expect(output.stderr()).toEqual([expect.objectContaining({ level: 'WARN', message: 'unusual' })]);
  });
});

describe('tracing', () => {
  it('adds no middleware, and loads no tracer, unless TRACKER_TRACING is on', () => {
    expect(tracing()).toEqual([]);
  });

  it('with TRACKER_TRACING=on, loads the tracer and wraps each invocation with its middleware', async () => {
    const previous = process.env.TRACKER_TRACING;
    process.env.TRACKER_TRACING = 'on';
    vi.resetModules();
    try {
      const fresh = await import('../../shared/observability/tracing.ts');
      const middlewares = fresh.tracing();
      expect(middlewares).toHaveLength(1);
      const { tracer } = await import('../../shared/observability/xrayTracer.ts');
      // Outside Lambda the tracer stays disabled, and the middleware passes the invocation through.
      expect(tracer.isTracingEnabled()).toBe(false);
      const request = { event: {}, context: {}, response: undefined, error: undefined, internal: {} } as any;
      await expect(middlewares[0].before!(request)).resolves.toBeUndefined();
      await expect(middlewares[0].after!(request)).resolves.toBeUndefined();
    } finally {
      if (previous === undefined) delete process.env.TRACKER_TRACING;
      else process.env.TRACKER_TRACING = previous;
      vi.resetModules();
    }
  });
});
