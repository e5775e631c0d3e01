import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * What the local server writes to its stdout for each request: the JSON log line and the EMF
 * metrics blobs (shared/observability/). The installation is served by a process of its own
 * (test/support/appProcessMain.ts, the emulator `npm start` runs) whose stdout the test reads,
 * with the request log on (the tests' default is off) and Lambda's on-demand initialization type,
 * which Powertools needs to mark a cold start.
 */
type Json = Record<string, any>;

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'appProcessMain.ts');

let app: TestApp;
let server: ChildProcess;
let serverUrl: string;
const entries: Json[] = [];

beforeAll(async () => {
  app = await startTestApp();
  server = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, TRACKER_REQUEST_LOG: 'on', AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  serverUrl = await new Promise<string>((resolve, reject) => {
    let pending = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const entry = JSON.parse(line) as Json;
        if (typeof entry.url === 'string' && entries.length === 0) resolve(entry.url);
        else entries.push(entry);
      }
    });
    server.once('error', reject);
    server.once('exit', (code) => reject(new Error(`the server ended with ${code} before serving`)));
  });
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    await new Promise((resolve) => {
      server.once('exit', resolve);
      server.kill('SIGTERM');
    });
  }
  await app?.close();
});

/** The installation, at the server whose stdout the test reads. */
const observed = (): TestApp => ({ ...app, url: serverUrl });

async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  // Generous: the server is another process, and on a busy machine its lines come late.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} on the server's stdout:\n${JSON.stringify(entries)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const requestLines = () => entries.filter((entry) => entry.message === 'request');
const blobsWith = (name: string) =>
  entries.filter((entry) =>
    entry._aws?.CloudWatchMetrics?.some((set: Json) => set.Metrics.some((metric: Json) => metric.Name === name)),
  );

describe('the local server', () => {
  it('writes a JSON log line and the EMF metrics of a request to its stdout', async () => {
    const response = await call(observed(), 'GET', '/rest/bug/999999', { apiKey: app.admin.apiKey });
    expect(response.body).toMatchObject({ error: true, code: 101 });
    const line = await waitFor(
      () => requestLines().find((entry) => entry.route === 'GET /rest/bug/{id_or_alias}'),
      'request line for GET /rest/bug/{id_or_alias}',
    );
    expect(line).toMatchObject({
      level: 'INFO',
      service: 'tracker',
      cold_start: true,
      function_name: 'bug-getBug',
      function_request_id: line.requestId,
      method: 'GET',
      callerId: app.admin.id,
      status: response.status,
      errorCode: 101,
    });
    expect(line.durationMs).toBeGreaterThanOrEqual(0);
    // Authenticating the key and looking for the bug read the table.
    expect(line.dynamodbCalls).toBeGreaterThan(0);
    expect(JSON.stringify(entries)).not.toContain(app.admin.apiKey);

    const requests = await waitFor(
      () => blobsWith('Requests').find((blob) => blob.route === 'GET /rest/bug/{id_or_alias}'),
      'Requests metric',
    );
    expect(requests._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'Tracker',
        Dimensions: [['service', 'route']],
        Metrics: [
          { Name: 'Requests', Unit: 'Count' },
          { Name: 'Latency', Unit: 'Milliseconds' },
          { Name: 'Errors', Unit: 'Count' },
          { Name: 'Faults', Unit: 'Count' },
          { Name: 'DynamoDBCalls', Unit: 'Count' },
        ],
      },
    ]);
    expect(requests).toMatchObject({ service: 'tracker', Requests: 1, Errors: 1, Faults: 0 });
    expect(requests.DynamoDBCalls).toBe(line.dynamodbCalls);
    const error = await waitFor(() => blobsWith('BugzillaError')[0], 'BugzillaError metric');
    expect(error).toMatchObject({ service: 'tracker', code: '101', BugzillaError: 1 });
    expect(error._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'Tracker', Dimensions: [['service', 'code']] });
    const coldStart = await waitFor(() => blobsWith('ColdStart')[0], 'ColdStart metric');
    expect(coldStart).toMatchObject({ function_name: 'bug-getBug', ColdStart: 1 });
  });

  it('keeps concurrent requests apart: each line and metric carries its own request', async () => {
    const before = requestLines().length;
    const paths = Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? '/rest/whoami' : '/rest/version'));
    const responses = await Promise.all(
      paths.map((path) => call(observed(), 'GET', path, { apiKey: app.admin.apiKey })),
    );
    expect(responses.map((response) => response.status)).toEqual(paths.map(() => 200));
    const lines = await waitFor(() => {
      const fresh = requestLines().slice(before);
      return fresh.length >= paths.length ? fresh : undefined;
    }, 'request lines of the concurrent requests');
    const functionOf: Record<string, string> = {
      'GET /rest/whoami': 'user-whoami',
      'GET /rest/version': 'instance-version',
    };
    for (const line of lines) {
      expect(line.function_name, JSON.stringify(line)).toBe(functionOf[line.route]);
      expect(line.function_request_id).toBe(line.requestId);
      expect(line.cold_start).toBe(false);
    }
    expect(new Set(lines.map((line) => line.requestId)).size).toBe(paths.length);
    const blobs = await waitFor(() => {
      const found = blobsWith('Requests').filter((blob) => blob.route in functionOf);
      return found.length >= paths.length ? found : undefined;
    }, 'Requests metrics of the concurrent requests');
    // One blob per request, each with one value per metric, under its own route.
    expect(blobs.map((blob) => blob.Requests)).toEqual(paths.map(() => 1));
    expect(blobs.filter((blob) => blob.route === 'GET /rest/whoami')).toHaveLength(paths.length / 2);
  });
});
