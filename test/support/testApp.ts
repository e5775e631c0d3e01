import type { Server } from 'node:http';
import { startApiGateway } from '../../local/apiGatewayEmulator.ts';
import { ensureBucket, ensureTable } from '../../local/provision.ts';
import { bootstrapInstallation } from '../../shared/application/instance/bootstrapInstallation.ts';
import { ENV } from '../../shared/storage/tableSchema.ts';
import { dynamodbEndpoint, s3Endpoint, testStorageName } from './testEngines.ts';

/**
 * A running Tracker for one test file: a fresh table and bucket on the shared local engines, a
 * bootstrapped installation with a known administrator, and the API Gateway emulator on a free
 * port. Tests talk to it over HTTP only.
 */
export interface TestApp {
  url: string;
  admin: { id: number; login: string; password: string; apiKey: string };
  close(): Promise<void>;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** The header the test emulator reads the client address from (`CallOptions.from`). */
const TEST_SOURCE_IP_HEADER = 'x-test-source-ip';

export interface TestAppOptions {
  /** Serve this built web app (web/dist) beside the API, as `npm start` does. */
  webDir?: string;
  /**
   * Give the table its change stream, as the stack does, for a file that reads it (the
   * notification harness). Off otherwise: DynamoDB Local keeps the stream records of every table
   * of the run, dropped ones too, and every later write costs more as they pile up. Measured
   * here, the same 400 writes and reads cost its engine 0.6 s of CPU on a fresh table without a
   * stream, and from 1 s growing to 6 s with one after a few dozen tables; over a run the two
   * engines spent 960 s of CPU, more than half of the integration project's.
   */
  changeStream?: boolean;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const name = testStorageName();
  const suffix = name.slice(name.lastIndexOf('-') + 1);
  process.env[ENV.table] = name;
  process.env[ENV.bucket] = name;
  process.env[ENV.dynamodbEndpoint] = dynamodbEndpoint();
  process.env[ENV.s3Endpoint] = s3Endpoint();
  await ensureTable(dynamodbEndpoint(), name, { stream: options.changeStream ?? false });
  await ensureBucket(s3Endpoint(), name);
  const admin = {
    login: 'admin@tracker.test',
    password: 'admin-password',
    apiKey: `AdminKey${suffix}${'x'.repeat(20)}`,
  };
  const installation = await bootstrapInstallation({
    adminLogin: admin.login,
    adminPassword: admin.password,
    adminApiKey: admin.apiKey,
  });
  if (!installation.created) throw new Error('the test table was not fresh');
  const { server, url } = await startApiGateway({
    port: 0,
    testSourceIpHeader: TEST_SOURCE_IP_HEADER,
    webDir: options.webDir,
  });
  return {
    url,
    admin: { ...admin, id: installation.adminId },
    close: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | Array<string | number> | undefined> | string;
  body?: unknown;
  /** Sent as-is, for malformed-body tests. */
  rawBody?: string;
  headers?: Record<string, string>;
  apiKey?: string;
  /** The client address API Gateway would see (the test emulator's `testSourceIpHeader`); 127.0.0.1 otherwise. */
  from?: string;
}

/** One HTTP call to the app; the body is parsed as JSON when it is JSON. */
export async function call<T = any>(
  app: TestApp,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const url = new URL(`${app.url}${path}`);
  if (typeof options.query === 'string') url.search = options.query;
  else {
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
  }
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.apiKey) headers['X-BUGZILLA-API-KEY'] = options.apiKey;
  if (options.from) headers[TEST_SOURCE_IP_HEADER] = options.from;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed as T };
}
