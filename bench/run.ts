/**
 * `npm run bench`: measures the API on this machine and writes docs/benchmarks.md.
 *
 * 1. Starts the local engines (DynamoDB Local in memory, s3rver in a temp directory) in this process.
 * 2. Spawns bench/server.ts as a separate Node process (fresh table, bootstrapped installation with
 *    a known administrator API key, the API Gateway emulator on a free 127.0.0.1 port), so the
 *    load generator and the server do not share an event loop.
 * 3. Seeds a catalogue through the HTTP API (products, components, versions, milestones, ~50 users).
 * 4. Drives each scenario with autocannon over loopback (warm-up, then a fixed duration).
 * 5. Stops the server process, then measures cold starts against the same DynamoDB Local table
 *    (bench/coldStart.ts: a few handlers bundled as the stack bundles them, each imported and
 *    invoked in fresh `node` processes), then stops the engines.
 * 6. Writes docs/benchmarks.md, exits 0.
 *
 * Environment: BENCH_DURATION (seconds per scenario, 10), BENCH_WARMUP (seconds, 2),
 * BENCH_CONNECTIONS (8), BENCH_USERS (50), BENCH_COLD=0 (skip the cold starts, ~15 s),
 * BENCH_COLD_RUNS (fresh processes per cold-start handler, 5), BENCH_LOAD_RUNS (load-only
 * processes per function of the stack, 3), BENCH_OUTPUT (docs/benchmarks.md).
 * Numbers go into the document only; nothing here asserts on them.
 */

import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type AttributeValue, DynamoDBClient, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import autocannon from 'autocannon';
import { JavaMissingError, type LocalEngines, startEngines } from '../local/engines.ts';
import { ENV, PARTITION_KEY, SORT_KEY } from '../shared/storage/tableSchema.ts';
import { mergeSearchSection, searchSectionOf } from './benchmarkSections.ts';
import {
  type ColdStartReport,
  type FunctionBundle,
  measureBundleSizes,
  measureColdStarts,
  renderColdStarts,
} from './coldStart.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const READY_PREFIX = 'BENCH_SERVER_READY ';

const numberFromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const DURATION_S = numberFromEnv('BENCH_DURATION', 10);
const WARMUP_S = numberFromEnv('BENCH_WARMUP', 2);
const CONNECTIONS = numberFromEnv('BENCH_CONNECTIONS', 8);
const GLOBAL_WARMUP_S = 5;
const USER_COUNT = numberFromEnv('BENCH_USERS', 50);
const OUTPUT = resolve(ROOT, process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md');
const COLD = process.env.BENCH_COLD !== '0';
const COLD_RUNS = Math.round(numberFromEnv('BENCH_COLD_RUNS', 5));
const LOAD_RUNS = Math.round(numberFromEnv('BENCH_LOAD_RUNS', 3));

const ADMIN = {
  login: 'admin@bench.test',
  password: `bench-${randomBytes(8).toString('hex')}`,
  apiKey: `BenchAdminKey${randomBytes(12).toString('hex')}`,
};
const USER_PASSWORD = 'bench-user-password';

// ---------------------------------------------------------------------------------------------
// Small helpers

const log = (message: string) => console.log(`[bench] ${message}`);
const round = (value: number, digits = 1) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : NaN);
const elapsed = (since: number) => (performance.now() - since) / 1000;

function kib(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** utime + stime of a process in seconds, from /proc (Linux only; undefined elsewhere). */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / clockTicks();
  } catch {
    return undefined;
  }
}

let cachedClockTicks: number | undefined;
function clockTicks(): number {
  if (cachedClockTicks === undefined) {
    const probe = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    cachedClockTicks = Number(probe.stdout?.trim()) || 100;
  }
  return cachedClockTicks;
}

/** Peak resident memory (VmHWM) of a process, from /proc. */
function peakRss(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The DynamoDB Local JVM: our own child process whose command is java (engines.ts does not expose it). */
function findJavaChild(): number | undefined {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === process.pid && comm === 'java') return Number(entry);
      } catch {
        // the process went away
      }
    }
  } catch {
    // no /proc
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The server process

interface ServerProcess {
  child: ChildProcess;
  url: string;
  pid: number;
  /** stderr lines beyond the ones already echoed */
  suppressedErrorLines: () => number;
  /** DynamoDB calls the server made so far, by operation. */
  dynamodbCalls(): Promise<Record<string, number> | undefined>;
  stop(): Promise<void>;
}

async function startServerProcess(engines: LocalEngines, table: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(BENCH_DIR, 'server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      [ENV.dynamodbEndpoint]: engines.dynamodbEndpoint,
      [ENV.s3Endpoint]: engines.s3Endpoint,
      [ENV.table]: table,
      [ENV.bucket]: table,
      BENCH_ADMIN_LOGIN: ADMIN.login,
      BENCH_ADMIN_PASSWORD: ADMIN.password,
      BENCH_ADMIN_API_KEY: ADMIN.apiKey,
      TRACKER_REQUEST_LOG: 'off',
      NODE_ENV: 'production',
    },
    stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
  });

  // Echo the server's stderr, but only the first lines: a failing scenario must not flood the console.
  const ECHO_LIMIT = 20;
  let errorLines = 0;
  const recentErrors: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    errorLines += 1;
    recentErrors.push(line);
    if (recentErrors.length > 20) recentErrors.shift();
    if (errorLines <= ECHO_LIMIT) console.error(`[server] ${line}`);
    else if (errorLines === ECHO_LIMIT + 1)
      console.error('[server] (further server error lines are counted, not shown)');
  });

  const ready = await new Promise<{ url: string; pid: number }>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error('the benchmark server did not start within 60 s')), 60_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith(READY_PREFIX)) {
        clearTimeout(timer);
        resolvePromise(JSON.parse(line.slice(READY_PREFIX.length)));
      } else {
        console.log(`[server] ${line}`);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`the benchmark server exited (${signal ?? code}) before it was ready:\n${recentErrors.join('\n')}`),
      );
    });
  });

  return {
    child,
    url: ready.url,
    pid: ready.pid,
    suppressedErrorLines: () => Math.max(0, errorLines - ECHO_LIMIT),
    dynamodbCalls: () =>
      new Promise((done) => {
        if (!child.connected) return done(undefined);
        const timer = setTimeout(() => {
          child.off('message', onMessage);
          done(undefined);
        }, 2_000);
        const onMessage = (message: { type?: string; dynamodbCalls?: Record<string, number> }) => {
          if (message?.type !== 'stats') return;
          clearTimeout(timer);
          child.off('message', onMessage);
          done(message.dynamodbCalls);
        };
        child.on('message', onMessage);
        child.send({ type: 'stats' });
      }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      const killed = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((done) => setTimeout(() => done(false), 5_000)),
      ]);
      if (!killed) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Seeding through the HTTP API

interface Seeded {
  users: Array<{ login: string; name: string }>;
  products: Array<{ name: string; components: number }>;
  /** Bugs filed through the API, each with CCs, most with a dependency and some history. */
  bugIds: number[];
  /** A bug with 50 comments (the description and 49 more), for the comments scenario. */
  chattyBugId: number;
  /** A bug with five small attachments, for the attachment metadata scenario. */
  attachmentBugId: number;
  /** A 1,000 KB attachment (the default maxattachmentsize), for the download scenario. */
  largeAttachmentId: number;
  requests: number;
  seconds: number;
}

/** The largest attachment Bugzilla's default maxattachmentsize (1000 KB) accepts. */
const LARGE_ATTACHMENT = Buffer.alloc(1000 * 1024, 'Tracker bench attachment. ').toString('base64');

async function api(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  apiKey: string | undefined = ADMIN.apiKey,
): Promise<any> {
  const headers: Record<string, string> = {};
  if (apiKey) headers['X-BUGZILLA-API-KEY'] = apiKey;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Runs tasks with at most `limit` at a time. */
async function inParallel<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Edsger',
  'Radia',
  'Donald',
  'Sophie',
  'Tim',
  'Hedy',
  'John',
  'Katherine',
];
const LAST_NAMES = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Allen',
  'Dijkstra',
  'Perlman',
  'Knuth',
  'Wilson',
  'Berners-Lee',
  'Lamarr',
  'Backus',
  'Johnson',
];

const CATALOGUE: Array<{
  name: string;
  description: string;
  versions: string[];
  milestones: string[];
  components: string[];
}> = [
  {
    name: 'TestProduct', // created by the bootstrap with TestComponent; extended here
    description: '',
    versions: ['1.0', '1.1', '2.0', '2.1'],
    milestones: ['M1', 'M2', 'M3', '2.0', '2.1'],
    components: ['Backend', 'Frontend', 'Documentation', 'Installation', 'Security', 'Performance', 'Accessibility'],
  },
  {
    name: 'Server',
    description: 'The server and its REST API',
    versions: ['3.0', '3.1', '3.2'],
    milestones: ['3.1', '3.2', '4.0'],
    components: ['API', 'Database', 'Authentication', 'Search', 'Email'],
  },
  {
    name: 'Desktop Client',
    description: 'The desktop application for Windows, macOS and Linux',
    versions: ['5.0', '5.1'],
    milestones: ['5.1', '6.0'],
    components: ['UI', 'Sync', 'Installer', 'Preferences'],
  },
  {
    name: 'Mobile App',
    description: 'Android and iOS apps',
    versions: ['1.0', '1.2'],
    milestones: ['1.3', '2.0'],
    components: ['Android', 'iOS', 'Notifications'],
  },
];

async function seed(baseUrl: string): Promise<Seeded> {
  const started = performance.now();
  let requests = 0;
  const call = (method: string, path: string, body?: unknown) => {
    requests += 1;
    return api(baseUrl, method, path, body);
  };

  const users = Array.from({ length: USER_COUNT }, (_, index) => {
    const number = String(index + 1).padStart(2, '0');
    const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
    const last = LAST_NAMES[(index * 7) % LAST_NAMES.length]!;
    return { login: `user${number}@bench.test`, name: `${first} ${last}` };
  });
  await inParallel(
    4,
    users.map(
      (user) => () => call('POST', '/rest/user', { email: user.login, full_name: user.name, password: USER_PASSWORD }),
    ),
  );

  let userIndex = 0;
  const nextUser = () => users[userIndex++ % users.length]!.login;
  const products: Seeded['products'] = [];
  for (const product of CATALOGUE) {
    const [firstVersion, ...moreVersions] = product.versions;
    const [firstMilestone] = product.milestones;
    let components = 0;
    if (product.name === 'TestProduct') {
      components = 1;
      for (const version of product.versions)
        await call('POST', `/rest/product/${encodeURIComponent(product.name)}/version`, { name: version });
      for (const milestone of product.milestones)
        await call('POST', `/rest/product/${encodeURIComponent(product.name)}/milestone`, { name: milestone });
    } else {
      await call('POST', '/rest/product', {
        name: product.name,
        description: product.description,
        version: firstVersion,
        default_milestone: firstMilestone,
        has_unconfirmed: true,
      });
      for (const version of moreVersions)
        await call('POST', `/rest/product/${encodeURIComponent(product.name)}/version`, { name: version });
      for (const milestone of product.milestones.slice(1))
        await call('POST', `/rest/product/${encodeURIComponent(product.name)}/milestone`, { name: milestone });
    }
    for (const component of product.components) {
      await call('POST', '/rest/component', {
        product: product.name,
        name: component,
        description: `${component} of ${product.name}`,
        default_assignee: nextUser(),
        default_qa_contact: nextUser(),
        default_cc: [nextUser(), nextUser()],
      });
      components += 1;
    }
    products.push({ name: product.name, components });
  }

  // Bugs through the API, as users file them: spread over the products, two CCs each, a
  // dependency on an earlier bug for most, then a few changes each so history has entries.
  const bugIds: number[] = [];
  const productComponents = CATALOGUE.flatMap((product) =>
    (product.name === 'TestProduct' ? ['TestComponent', ...product.components] : product.components).map(
      (component) => ({ product, component }),
    ),
  );
  for (let start = 0; start < BENCH_BUGS; start += 8) {
    const batch = Array.from({ length: Math.min(8, BENCH_BUGS - start) }, (_, offset) => start + offset);
    const created = await Promise.all(
      batch.map((index) => {
        const { product, component } = productComponents[index % productComponents.length]!;
        return call('POST', '/rest/bug', {
          ...benchBug(index),
          product: product.name,
          component,
          version: product.versions[0],
          cc: [users[index % users.length]!.login, users[(index * 3 + 1) % users.length]!.login],
          ...(bugIds.length > 0 && index % 4 !== 0 ? { depends_on: [bugIds[(index * 7) % bugIds.length]] } : {}),
        });
      }),
    );
    for (const answer of created) if (typeof answer?.id === 'number') bugIds.push(answer.id);
  }
  await inParallel(
    4,
    bugIds.map(
      (id, index) => () =>
        call('PUT', `/rest/bug/${id}`, {
          priority: ['High', 'Low', 'Normal'][index % 3],
          whiteboard: `seeded ${index}`,
          comment: { body: 'Seeded change' },
        }),
    ),
  );

  // A long conversation (Bugzilla's reference figure is for a bug's comments) and attachments.
  const chattyBugId = bugIds[0]!;
  const have = (await call('GET', `/rest/bug/${chattyBugId}/comment`)).bugs[chattyBugId].comments.length;
  for (let count = have; count < 50; count++) {
    await call('POST', `/rest/bug/${chattyBugId}/comment`, {
      comment: `Comment ${count} of the bench conversation: ${benchBug(count).description}`,
    });
  }
  const attachmentBugId = bugIds[1]!;
  for (let index = 0; index < 5; index++) {
    await call('POST', `/rest/bug/${attachmentBugId}/attachment`, {
      data: Buffer.from(`log line ${index}\n`.repeat(200)).toString('base64'),
      file_name: `log-${index}.txt`,
      summary: `Log ${index}`,
      content_type: 'text/plain',
    });
  }
  const [largeAttachmentId] = (
    await call('POST', `/rest/bug/${bugIds[2]}/attachment`, {
      data: LARGE_ATTACHMENT,
      file_name: 'large.bin',
      summary: 'A 1000 KB file',
      content_type: 'application/octet-stream',
    })
  ).ids;
  return {
    users,
    products,
    bugIds,
    chattyBugId,
    attachmentBugId,
    largeAttachmentId,
    requests,
    seconds: elapsed(started),
  };
}

const BENCH_BUGS = Math.round(numberFromEnv('BENCH_BUGS', 200));
const SUMMARY_WORDS = [
  'crash',
  'toolbar',
  'resize',
  'sync',
  'login',
  'slow',
  'memory',
  'leak',
  'dialog',
  'freeze',
  'render',
  'install',
  'update',
  'notification',
  'timeout',
];
const benchBug = (index: number) => ({
  summary: `${SUMMARY_WORDS[index % SUMMARY_WORDS.length]} ${SUMMARY_WORDS[(index * 5 + 3) % SUMMARY_WORDS.length]} when ${SUMMARY_WORDS[(index * 11 + 7) % SUMMARY_WORDS.length]} (#${index})`,
  description: `Steps to reproduce ${index}:\n1. open\n2. watch it ${SUMMARY_WORDS[index % SUMMARY_WORDS.length]}`,
  op_sys: 'Linux',
  platform: 'PC',
  severity: ['major', 'normal', 'minor'][index % 3],
});

// ---------------------------------------------------------------------------------------------
// Scenarios

interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  /** The probe's request body (a login for POST scenarios that give none). */
  probeBody?: (seeded: Seeded) => unknown;
  /** The probe's path, when the scenario rotates over several. */
  probePath?: (seeded: Seeded) => string;
  path: string;
  auth: 'anonymous' | 'API key' | 'password';
  /** Statuses that are the right answer; anything else is reported. */
  expected: number[];
  /** One call before the load, to check the answer is the intended one. */
  check: (body: any) => string | undefined;
  options: (baseUrl: string, users: Seeded['users'], seeded: Seeded) => Partial<autocannon.Options>;
}

/** Autocannon requests that walk round robin over the seeded bugs. */
function rotatingBugRequests(
  seeded: Seeded,
  method: string,
  path: (id: number) => string,
  body?: (counter: number) => unknown,
) {
  let next = 0;
  return {
    requests: [
      {
        method,
        headers: { ...apiKeyHeader, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        setupRequest: (request: any) => {
          const counter = next++;
          const id = seeded.bugIds[counter % seeded.bugIds.length]!;
          return { ...request, path: path(id), ...(body ? { body: JSON.stringify(body(counter)) } : {}) };
        },
      },
    ],
  } as Partial<autocannon.Options>;
}

const apiKeyHeader = { 'X-BUGZILLA-API-KEY': ADMIN.apiKey };

const ALL_SCENARIOS: Scenario[] = [
  {
    name: 'version',
    method: 'GET',
    path: '/rest/version',
    auth: 'anonymous',
    expected: [200],
    check: (body) => (typeof body?.version === 'string' ? undefined : 'no version in the answer'),
    options: () => ({}),
  },
  {
    name: 'whoami',
    method: 'GET',
    path: '/rest/whoami',
    auth: 'API key',
    expected: [200],
    check: (body) => (body?.name === ADMIN.login ? undefined : `whoami answered ${JSON.stringify(body)}`),
    options: () => ({ headers: apiKeyHeader }),
  },
  {
    name: 'parameters',
    method: 'GET',
    path: '/rest/parameters',
    auth: 'API key',
    expected: [200],
    check: (body) =>
      body?.parameters && Object.keys(body.parameters).length > 10
        ? undefined
        : 'too few parameters for an administrator',
    options: () => ({ headers: apiKeyHeader }),
  },
  {
    name: 'product',
    method: 'GET',
    path: '/rest/product/TestProduct',
    auth: 'anonymous',
    expected: [200],
    check: (body) =>
      body?.products?.[0]?.components?.length >= 8 ? undefined : 'TestProduct has fewer components than seeded',
    options: () => ({}),
  },
  {
    name: 'user match',
    method: 'GET',
    path: '/rest/user?match=user',
    auth: 'API key',
    expected: [200],
    check: (body) =>
      body?.users?.length >= Math.min(USER_COUNT, 10)
        ? undefined
        : `match=user found ${body?.users?.length ?? 0} users`,
    options: () => ({ headers: apiKeyHeader }),
  },
  {
    name: 'fields',
    method: 'GET',
    path: '/rest/field/bug',
    auth: 'anonymous',
    expected: [200],
    check: (body) => (body?.fields?.length > 10 ? undefined : 'too few fields'),
    options: () => ({}),
  },
  {
    name: 'login',
    method: 'POST',
    path: '/rest/login',
    auth: 'password',
    expected: [200],
    check: (body) => (typeof body?.token === 'string' ? undefined : 'no token in the answer'),
    options: (_baseUrl, users) => {
      let next = 0;
      return {
        requests: [
          {
            method: 'POST',
            path: '/rest/login',
            headers: { 'Content-Type': 'application/json' },
            // Each request logs in a different seeded user, round robin.
            setupRequest: (request: any) => ({
              ...request,
              body: JSON.stringify({ login: users[next++ % users.length]!.login, password: USER_PASSWORD }),
            }),
          },
        ],
      };
    },
  },
  {
    name: 'get bug',
    method: 'GET',
    path: '/rest/bug/{id}',
    probePath: (seeded) => `/rest/bug/${seeded.bugIds[1]}`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      body?.bugs?.[0]?.cc?.length >= 2 ? undefined : `GET bug answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (_baseUrl, _users, seeded) => rotatingBugRequests(seeded, 'GET', (id) => `/rest/bug/${id}`),
  },
  {
    name: 'bug history',
    method: 'GET',
    path: '/rest/bug/{id}/history',
    probePath: (seeded) => `/rest/bug/${seeded.bugIds[1]}/history`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      body?.bugs?.[0]?.history?.length >= 1 ? undefined : `history answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (_baseUrl, _users, seeded) => rotatingBugRequests(seeded, 'GET', (id) => `/rest/bug/${id}/history`),
  },
  {
    name: 'bug comments (50)',
    method: 'GET',
    path: '/rest/bug/{id}/comment',
    probePath: (seeded) => `/rest/bug/${seeded.chattyBugId}/comment`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      Object.values(body?.bugs ?? {}).some((bug: any) => bug.comments?.length === 50)
        ? undefined
        : `comments answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (baseUrl, _users, seeded) => ({
      url: `${baseUrl}/rest/bug/${seeded.chattyBugId}/comment`,
      headers: apiKeyHeader,
    }),
  },
  {
    name: 'attachment metadata',
    method: 'GET',
    path: '/rest/bug/{id}/attachment?exclude_fields=data',
    probePath: (seeded) => `/rest/bug/${seeded.attachmentBugId}/attachment?exclude_fields=data`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      Object.values(body?.bugs ?? {}).some((list: any) => list.length === 5 && !('data' in list[0]))
        ? undefined
        : `attachments answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (baseUrl, _users, seeded) => ({
      url: `${baseUrl}/rest/bug/${seeded.attachmentBugId}/attachment?exclude_fields=data`,
      headers: apiKeyHeader,
    }),
  },
  {
    name: 'download 1000 KB attachment',
    method: 'GET',
    path: '/rest/bug/attachment/{id}',
    probePath: (seeded) => `/rest/bug/attachment/${seeded.largeAttachmentId}`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      Object.values(body?.attachments ?? {}).some((attachment: any) => attachment.data === LARGE_ATTACHMENT)
        ? undefined
        : `download answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (baseUrl, _users, seeded) => ({
      url: `${baseUrl}/rest/bug/attachment/${seeded.largeAttachmentId}`,
      headers: apiKeyHeader,
    }),
  },
  {
    name: 'upload 1000 KB attachment',
    method: 'POST',
    path: '/rest/bug/{id}/attachment',
    probePath: (seeded) => `/rest/bug/${seeded.bugIds[10]}/attachment`,
    probeBody: () => ({
      data: LARGE_ATTACHMENT,
      file_name: 'upload.bin',
      summary: 'Bench upload',
      content_type: 'application/octet-stream',
    }),
    auth: 'API key',
    expected: [200],
    check: (body) =>
      Array.isArray(body?.ids) && body.ids.length === 1
        ? undefined
        : `upload answered ${JSON.stringify(body).slice(0, 200)}`,
    // Away from the bugs the read scenarios use, so their answers stay as seeded.
    options: (_baseUrl, _users, seeded) =>
      rotatingBugRequests(
        { ...seeded, bugIds: seeded.bugIds.slice(10) },
        'POST',
        (id) => `/rest/bug/${id}/attachment`,
        () => ({
          data: LARGE_ATTACHMENT,
          file_name: 'upload.bin',
          summary: 'Bench upload',
          content_type: 'application/octet-stream',
        }),
      ),
  },
  {
    name: 'create bug',
    method: 'POST',
    path: '/rest/bug',
    probeBody: () => ({ ...benchBug(0), product: 'TestProduct', component: 'TestComponent', version: 'unspecified' }),
    auth: 'API key',
    expected: [200],
    check: (body) =>
      typeof body?.id === 'number' ? undefined : `create answered ${JSON.stringify(body).slice(0, 200)}`,
    options: () => {
      let next = 0;
      return {
        requests: [
          {
            method: 'POST',
            headers: { ...apiKeyHeader, 'Content-Type': 'application/json' },
            setupRequest: (request: any) => ({
              ...request,
              body: JSON.stringify({
                ...benchBug(next++),
                product: 'TestProduct',
                component: 'TestComponent',
                version: 'unspecified',
                cc: ['user01@bench.test'],
              }),
            }),
          },
        ],
      };
    },
  },
  {
    name: 'update bug',
    method: 'PUT',
    path: '/rest/bug/{id}',
    probePath: (seeded) => `/rest/bug/${seeded.bugIds[2]}`,
    probeBody: () => ({ whiteboard: 'probe' }),
    auth: 'API key',
    expected: [200],
    check: (body) => (body?.bugs?.[0]?.changes ? undefined : `update answered ${JSON.stringify(body).slice(0, 200)}`),
    options: (_baseUrl, _users, seeded) =>
      rotatingBugRequests(
        seeded,
        'PUT',
        (id) => `/rest/bug/${id}`,
        (counter) => ({ whiteboard: `load ${counter}`, priority: counter % 2 ? 'High' : 'Low' }),
      ),
  },
];

/**
 * BENCH_ONLY=name,name runs those scenarios alone, for a quick look while working (with
 * BENCH_OUTPUT pointing elsewhere: the report of a partial run is not the project's table).
 */
const ONLY = process.env.BENCH_ONLY?.split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const SCENARIOS = ONLY ? ALL_SCENARIOS.filter((scenario) => ONLY.includes(scenario.name)) : ALL_SCENARIOS;
if (ONLY && !process.env.BENCH_OUTPUT)
  throw new Error('BENCH_ONLY needs BENCH_OUTPUT: a partial run must not replace docs/benchmarks.md');

interface ScenarioResult {
  scenario: Scenario;
  responseBytes: number;
  checkProblem?: string;
  requests: number;
  seconds: number;
  rps: number;
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  ok2xx: number;
  non2xx: number;
  unexpected: Record<string, number>;
  errors: number;
  timeouts: number;
  serverCpu?: number;
  dynamodbCpu?: number;
  /** DynamoDB calls per request during the measured seconds, by operation. */
  dynamodbPerRequest?: Record<string, number>;
  skipped?: string;
}

async function probe(
  baseUrl: string,
  scenario: Scenario,
  seeded: Seeded,
): Promise<{ status: number; bytes: number; problem?: string }> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (scenario.auth === 'API key') headers['X-BUGZILLA-API-KEY'] = ADMIN.apiKey;
  if (scenario.method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(
      scenario.probeBody ? scenario.probeBody(seeded) : { login: seeded.users[0]!.login, password: USER_PASSWORD },
    );
  }
  const response = await fetch(`${baseUrl}${scenario.probePath ? scenario.probePath(seeded) : scenario.path}`, {
    method: scenario.method,
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const problem = scenario.expected.includes(response.status)
    ? scenario.check(parsed)
    : `status ${response.status}: ${text.slice(0, 200)}`;
  return { status: response.status, bytes: Buffer.byteLength(text), problem };
}

/** The load being driven now, so that Ctrl-C can stop it. */
let currentLoad: autocannon.Instance | undefined;
let interrupted = false;

class Interrupted extends Error {}

function checkInterrupted(): void {
  if (interrupted) throw new Interrupted('interrupted');
}

function runAutocannon(options: autocannon.Options): Promise<autocannon.Result> {
  checkInterrupted();
  return new Promise((resolvePromise, reject) => {
    currentLoad = autocannon(options, (error, result) => {
      currentLoad = undefined;
      if (interrupted) reject(new Interrupted('interrupted'));
      else if (error) reject(error);
      else resolvePromise(result);
    });
  });
}

function scenarioOptions(server: ServerProcess, scenario: Scenario, seeded: Seeded): autocannon.Options {
  return {
    url: `${server.url}${scenario.path}`,
    method: scenario.method,
    connections: CONNECTIONS,
    pipelining: 1,
    timeout: 10,
    ...scenario.options(server.url, seeded.users, seeded),
  } as autocannon.Options;
}

async function runScenario(
  server: ServerProcess,
  scenario: Scenario,
  seeded: Seeded,
  javaPid: number | undefined,
): Promise<ScenarioResult> {
  const base = scenarioOptions(server, scenario, seeded);

  const first = await probe(server.url, scenario, seeded);
  // Warm-up: loads and compiles the handler module and fills connection pools, like a warm Lambda.
  await runAutocannon({ ...base, duration: WARMUP_S });

  const callsBefore = await server.dynamodbCalls();
  const serverCpuBefore = cpuSeconds(server.pid);
  const javaCpuBefore = cpuSeconds(javaPid);
  const result = await runAutocannon({ ...base, duration: DURATION_S });
  const serverCpuAfter = cpuSeconds(server.pid);
  const javaCpuAfter = cpuSeconds(javaPid);
  const callsAfter = await server.dynamodbCalls();
  let dynamodbPerRequest: Record<string, number> | undefined;
  if (callsBefore && callsAfter && result.requests.total > 0) {
    dynamodbPerRequest = {};
    for (const [operation, count] of Object.entries(callsAfter)) {
      const delta = count - (callsBefore[operation] ?? 0);
      if (delta > 0) dynamodbPerRequest[operation] = delta / result.requests.total;
    }
  }

  const seconds = result.duration;
  const unexpected: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (!scenario.expected.includes(Number(status))) unexpected[status] = (stats as { count?: number }).count ?? 0;
  }
  const share = (before?: number, after?: number) =>
    before !== undefined && after !== undefined && seconds > 0 ? (after - before) / seconds : undefined;
  return {
    scenario,
    responseBytes: first.bytes,
    checkProblem: first.problem,
    requests: result.requests.total,
    seconds,
    rps: seconds > 0 ? result.requests.total / seconds : 0,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    unexpected,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpu: share(serverCpuBefore, serverCpuAfter),
    dynamodbCpu: share(javaCpuBefore, javaCpuAfter),
    dynamodbPerRequest,
  };
}

// ---------------------------------------------------------------------------------------------
// DynamoDB Local on its own, for scale

interface Calibration {
  operations: number;
  seconds: number;
  p50: number;
  p99: number;
}

/** DynamoDB's item size rule, approximately: attribute names plus values (numbers ~1 byte per 2 digits). */
function attributeSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|\./g, '').length / 2) + 1;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.L) return 3 + value.L.reduce((sum, entry) => sum + 1 + attributeSize(entry), 0);
  if (value.M)
    return (
      3 +
      Object.entries(value.M).reduce(
        (sum, [name, entry]) => sum + 1 + Buffer.byteLength(name) + attributeSize(entry),
        0,
      )
    );
  return 0;
}

export interface ItemSizes {
  /** Item kind (sort-key prefix) → average and largest size in bytes over the sampled bugs. */
  kinds: Record<string, { count: number; average: number; max: number }>;
  bugs: number;
}

/** Sizes of the items in the seeded bugs' partitions (the bug, its comments, its history). */
async function measureItemSizes(endpoint: string, table: string, bugIds: readonly number[]): Promise<ItemSizes> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const sample = bugIds.slice(0, 30);
  const sizes: Record<string, number[]> = {};
  for (const id of sample) {
    const result = await client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': PARTITION_KEY },
        ExpressionAttributeValues: { ':pk': { S: `BUG#${id}` } },
      }),
    );
    for (const item of result.Items ?? []) {
      const kind = String(item[SORT_KEY]?.S ?? '').split('#')[0]!;
      const size = Object.entries(item).reduce(
        (sum, [name, value]) => sum + Buffer.byteLength(name) + attributeSize(value),
        0,
      );
      sizes[kind] ??= [];
      sizes[kind].push(size);
    }
  }
  client.destroy();
  const kinds = Object.fromEntries(
    Object.entries(sizes).map(([kind, values]) => [
      kind,
      { count: values.length, average: values.reduce((a, b) => a + b, 0) / values.length, max: Math.max(...values) },
    ]),
  );
  return { kinds, bugs: sample.length };
}

/**
 * GetItem (of a missing key) against DynamoDB Local from this process, CONNECTIONS at a time. Its
 * warm-up also warms the JVM's JIT before the first scenario.
 */
async function calibrateDynamodb(
  endpoint: string,
  table: string,
  warmupSeconds: number,
  seconds: number,
): Promise<Calibration> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const command = () =>
    new GetItemCommand({
      TableName: table,
      Key: { [PARTITION_KEY]: { S: 'BENCH#probe' }, [SORT_KEY]: { S: 'BENCH#probe' } },
    });
  const loop = async (until: number, latencies?: number[]) => {
    while (performance.now() < until) {
      const start = performance.now();
      await client.send(command());
      latencies?.push(performance.now() - start);
    }
  };
  try {
    const warmUntil = performance.now() + warmupSeconds * 1_000;
    await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(warmUntil)));
    const latencies: number[] = [];
    const started = performance.now();
    const until = started + seconds * 1_000;
    await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(until, latencies)));
    const measured = elapsed(started);
    latencies.sort((a, b) => a - b);
    if (latencies.length === 0) return { operations: 0, seconds: measured, p50: NaN, p99: NaN };
    const at = (quantile: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] ?? NaN;
    return { operations: latencies.length, seconds: measured, p50: at(0.5), p99: at(0.99) };
  } finally {
    client.destroy();
  }
}

const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d+Z$/, 'Z');

// ---------------------------------------------------------------------------------------------
// The report

interface Report {
  date: Date;
  machine: {
    cpuModel: string;
    cores: number;
    memory: number;
    node: string;
    arch: string;
    os: string;
    loadBefore: number;
    loadAfter: number;
  };
  phases: {
    engines: number;
    server: number;
    seed: number;
    warmup: number;
    load: number;
    cold: number;
    bundles: number;
    total: number;
  };
  seeded: Seeded;
  calibration?: Calibration;
  itemSizes?: ItemSizes;
  results: ScenarioResult[];
  /** Every function's bundle (and module load, with the cold starts), or why it is missing. */
  bundles:
    | { functions: FunctionBundle[]; esbuildVersion: string; bundling: string }
    | { functions: undefined; why: string };
  coldStarts?: ColdStartReport;
  /** Why there is no cold-start section (BENCH_COLD=0, or what failed). */
  coldSkipped?: string;
  peak: { server?: number; dynamodb?: number };
  suppressedErrorLines: number;
  failure?: string;
}

function sumValues(record: Record<string, number>): number {
  return Object.values(record).reduce((sum, value) => sum + value, 0);
}

/** Latency from autocannon, which records whole milliseconds. */
function ms(value: number | undefined): string {
  return value === 0 ? '<1' : fmt(value, 0);
}

function fmt(value: number | undefined, digits = 1): string {
  return value === undefined || !Number.isFinite(value) ? '–' : String(round(value, digits));
}

function percent(value: number | undefined): string {
  return value === undefined ? '–' : `${Math.round(value * 100)}%`;
}

/**
 * Issue 11's "before", measured on this machine before its changes and kept here as constants
 * (like Bugzilla's reference numbers below): DynamoDB calls per request at commit acd5d5e, the
 * last one before the catalogue cache (`BENCH_COLD=0 BENCH_DURATION=3 npm run bench`,
 * 2026-11-23); bundles and module load at 0ee6dc4, the last one before the lean bundles
 * (docs/benchmarks.md of 2026-11-22, 5 processes per handler, load average about 3); the load's
 * CPU time at 0ee6dc4 was measured later (2026-11-23, 9 processes per handler, interleaved with
 * the new bundles), since wall-clock loads on a busy machine are not comparable.
 */
const BASELINE = {
  callsPerRequest: {
    version: 0,
    whoami: 3.1,
    parameters: 4.1,
    product: 6.2,
    'user match': 5.2,
    fields: 7.4,
    login: 7.2,
    'get bug': 11.5,
    'bug history': 13.2,
    'create bug': 15.5,
    'update bug': 13,
  } as Record<string, number>,
  /** index.mjs and source map in KiB, module load median in ms. */
  bundles: {
    'instance/version': { code: 815.8, map: 2.98 * 1024, loadMs: 116, loadCpuMs: 110 },
    'user/whoami': { code: 815.1, map: 2.98 * 1024, loadMs: 115, loadCpuMs: 107 },
    'product/getProducts': { code: 822.0, map: 3.05 * 1024, loadMs: 123, loadCpuMs: 113 },
    'field/getFields': { code: 827.1, map: 3.07 * 1024, loadMs: 92, loadCpuMs: 115 },
    'user/login': { code: 815.5, map: 2.98 * 1024, loadMs: 107, loadCpuMs: 115 },
  } as Record<string, { code: number; map: number; loadMs: number; loadCpuMs: number }>,
};

function renderBaseline(report: Report): string[] {
  const lines = ['## Before and after issue 11 (lean functions, catalogue cache)', ''];
  lines.push(
    'The "before" columns are constants in bench/run.ts (`BASELINE`), measured on this machine before the changes; the "now" columns come from this run. Calls per request do not depend on the machine; wall-clock times do (compare the load averages of the runs), so module loads are also given in CPU time (user + system of the `import()`), which other processes barely change.',
  );
  lines.push('');
  lines.push('| Scenario | DynamoDB calls/req before | now |');
  lines.push('|---|---:|---:|');
  for (const result of report.results) {
    const before = BASELINE.callsPerRequest[result.scenario.name];
    if (result.skipped || before === undefined) continue;
    lines.push(
      `| ${result.scenario.name} | ${fmt(before)} | ${result.dynamodbPerRequest ? fmt(sumValues(result.dynamodbPerRequest)) : '–'} |`,
    );
  }
  lines.push('');
  const functions = report.bundles.functions ?? [];
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length === 0 ? undefined : sorted[Math.floor((sorted.length - 1) / 2)];
  };
  lines.push(
    '| Handler | index.mjs before | now | source map before | now | module load ms before | now | module load CPU ms before | now |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [module, before] of Object.entries(BASELINE.bundles)) {
    const now = functions.find((bundle) => bundle.module === module);
    const cold = report.coldStarts?.handlers.find((handler) => handler.module === module);
    const loadNow = median(cold?.runs.map((run) => run.loadMs) ?? now?.loads ?? []);
    const cpuNow = median(cold?.runs.map((run) => run.loadCpuMs) ?? now?.loadCpus ?? []);
    lines.push(
      `| ${module} | ${fmt(before.code)} KiB | ${now ? kib(now.code) : '–'} | ${kib(before.map * 1024)} | ${now ? kib(now.map) : '–'} | ${before.loadMs} | ${loadNow === undefined ? '–' : fmt(loadNow, 0)} | ${before.loadCpuMs} | ${cpuNow === undefined ? '–' : fmt(cpuNow, 0)} |`,
    );
  }
  if (functions.length > 0) {
    const largest = functions[0]!;
    const smallest = functions[functions.length - 1]!;
    lines.push('');
    lines.push(
      `Every function before: 815–835 KiB (the bootstrap 367 KiB); now: ${kib(smallest.code)} (${smallest.module}) to ${kib(largest.code)} (${largest.module}).`,
    );
  }
  lines.push('');
  return lines;
}

function renderReport(report: Report): string {
  const { machine, phases, seeded, results } = report;
  const lines: string[] = [];
  lines.push('# Benchmarks');
  lines.push('');
  lines.push(
    'Written by `npm run bench` (bench/run.ts); rerun it to refresh. Numbers live here only: no test asserts on them.',
  );
  lines.push('');
  lines.push(`- **Date:** ${isoSeconds(report.date)}`);
  lines.push(
    `- **Machine:** ${machine.cores} cores (${machine.cpuModel}), ${(machine.memory / 1024 ** 3).toFixed(1)} GiB memory, \`uname -m\` ${machine.arch}, ${machine.os}, Node.js ${machine.node}`,
  );
  lines.push(
    `- **Load average (1 min):** ${machine.loadBefore.toFixed(2)} before the run, ${machine.loadAfter.toFixed(2)} at the end of the load (the run's own processes included). Anything else running on the machine lowers the numbers; compare runs made on a quiet machine.`,
  );
  lines.push(
    `- **Run:** first a global warm-up (${GLOBAL_WARMUP_S} s of GetItem on DynamoDB Local for its JIT, then 1 s of each scenario); then per scenario ${WARMUP_S} s warm-up (not counted) and ${DURATION_S} s measured, ${CONNECTIONS} connections, HTTP/1.1 keep-alive, no pipelining, autocannon over loopback (127.0.0.1). Whole run ${fmt(phases.total, 0)} s: engines ${fmt(phases.engines)} s, server ${fmt(phases.server)} s, seeding ${fmt(phases.seed)} s, global warm-up ${fmt(phases.warmup, 0)} s, scenarios ${fmt(phases.load, 0)} s, cold starts ${report.coldStarts ? `${fmt(phases.cold, 0)} s` : 'skipped'}, bundle sizes ${fmt(phases.bundles)} s.`,
  );
  lines.push('');
  lines.push('## What runs where');
  lines.push('');
  lines.push('Everything runs on this one machine; **this is not AWS**:');
  lines.push('');
  lines.push('- **Load generator:** autocannon, in the `npm run bench` process.');
  lines.push(
    '- **API:** a separate Node.js process (bench/server.ts): the local API Gateway emulator (`local/apiGatewayEmulator.ts`) calling the same handler modules and middleware as the deployed Lambdas, loaded from TypeScript source through tsx (not the esbuild bundles), all routes in one process and one event loop with request logging off. It plays the part of many warm Lambda instances with a single Node.js thread.',
  );
  lines.push(
    '- **Storage:** DynamoDB Local (the Java jar, in memory) on loopback; s3rver in a temporary directory (the attachment upload and download scenarios write and read it).',
  );
  lines.push('');
  lines.push(
    "**Not measured in the Results table:** cold starts (each handler is warmed up before it is measured; the [Cold starts](#cold-starts) section below measures module load and first invocations separately), API Gateway's own latency, real DynamoDB latencies and throughput (DynamoDB Local is a JVM over SQLite sharing the same 2 cores, with its own, different costs per call), Lambda concurrency scaling and throttling. Read the numbers as relative costs of our code paths on this machine, not as production latency or capacity.",
  );
  lines.push('');
  lines.push(
    `Catalogue seeded through the HTTP API before the load (${seeded.requests} requests in ${fmt(seeded.seconds)} s): ${seeded.users.length + 1} users (the bootstrap administrator and ${seeded.users.length} \`userNN@bench.test\` with passwords), ${seeded.products.length} products (${seeded.products.map((product) => `${product.name}: ${product.components} components`).join(', ')}), several versions and milestones each; ${seeded.bugIds.length} bugs filed through \`POST /rest/bug\` (two CCs each, three in four depending on an earlier bug) and each changed once (priority, whiteboard, a comment), so history has entries.`,
  );
  lines.push('');
  lines.push('## Results');
  lines.push('');
  lines.push(
    '| Scenario | Request | Auth | Response | req/s | p50 ms | p90 ms | p99 ms | max ms | Requests | non-2xx | Errors | DynamoDB calls/req | Server CPU | DynamoDB Local CPU |',
  );
  lines.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const result of results) {
    const { scenario } = result;
    if (result.skipped) {
      lines.push(
        `| ${scenario.name} | \`${scenario.method} ${scenario.path}\` | ${scenario.auth} | – | skipped: ${result.skipped.replace(/[|\n]/g, ' ')} | | | | | | | | | | |`,
      );
      continue;
    }
    lines.push(
      `| ${scenario.name} | \`${scenario.method} ${scenario.path}\` | ${scenario.auth} | ${kib(result.responseBytes)} | ${fmt(result.rps, 0)} | ${ms(result.latency.p50)} | ${ms(result.latency.p90)} | ${ms(result.latency.p99)} | ${ms(result.latency.max)} | ${result.requests} | ${result.non2xx} | ${result.errors} | ${result.dynamodbPerRequest ? fmt(sumValues(result.dynamodbPerRequest)) : '–'} | ${percent(result.serverCpu)} | ${percent(result.dynamodbCpu)} |`,
    );
  }
  lines.push('');
  lines.push(
    `req/s = completed requests / measured seconds. Latency is per request as seen by the client with ${CONNECTIONS} requests in flight. DynamoDB calls/req = calls the server's handlers sent to DynamoDB during the measured seconds / requests (counted in the server process from Node's HTTP client diagnostics channel). CPU = share of one core used by that process during the measured seconds (100% = one full core); the server is single-threaded JavaScript plus libuv's thread pool (scrypt for logins runs there), and the load generator shares the same 2 cores.`,
  );
  const breakdowns = results.filter(
    (result) => !result.skipped && result.dynamodbPerRequest && Object.keys(result.dynamodbPerRequest).length > 0,
  );
  if (breakdowns.length > 0) {
    lines.push('');
    lines.push('DynamoDB calls per request, by operation:');
    lines.push('');
    for (const result of breakdowns) {
      const operations = Object.entries(result.dynamodbPerRequest!)
        .sort((a, b) => b[1] - a[1])
        .map(([operation, count]) => `${operation} ${fmt(count)}`);
      lines.push(`- ${result.scenario.name}: ${operations.join(', ')}`);
    }
  }
  if (report.itemSizes) {
    lines.push('');
    const described: Record<string, string> = {
      BUG: 'bug (every field, flags and personal tags inline)',
      COMMENT: 'comment',
      HISTORY: 'history entry (one per bug per write)',
    };
    const parts = Object.entries(report.itemSizes.kinds).map(
      ([kind, size]) =>
        `${described[kind] ?? kind} ${fmt(size.average, 0)} B on average (largest ${size.max} B, ${size.count} items)`,
    );
    lines.push(
      `Item sizes in ${report.itemSizes.bugs} seeded bugs' partitions (DynamoDB's size rule, approximately): ${parts.join('; ')}. A GET bug reads one bug item (1 read unit up to 4 KB, strongly consistent); an update writes the bug item, one history item and a comment item when there is a comment, in one transaction (twice their write units).`,
    );
  }
  if (report.calibration) {
    const { calibration } = report;
    lines.push('');
    lines.push(
      `For scale, DynamoDB Local on its own on this machine, measured after the scenarios (GetItem of a missing key from the bench process, ${CONNECTIONS} in flight, ${fmt(calibration.seconds, 0)} s): ${fmt(calibration.operations / calibration.seconds, 0)} operations/s, p50 ${fmt(calibration.p50)} ms, p99 ${fmt(calibration.p99)} ms. Scenarios that read the table are mostly bound by it: more DynamoDB calls per request, fewer requests per second.`,
    );
  }
  const problems = results.filter(
    (result) =>
      !result.skipped && (result.checkProblem || Object.keys(result.unexpected).length > 0 || result.errors > 0),
  );
  if (problems.length > 0 || report.suppressedErrorLines > 0 || report.failure) {
    lines.push('');
    lines.push('### Problems seen in this run');
    lines.push('');
    if (report.failure) lines.push(`- The run stopped early: ${report.failure}`);
    for (const result of problems) {
      const parts: string[] = [];
      if (result.checkProblem) parts.push(`the check before the load failed: ${result.checkProblem}`);
      const statuses = Object.entries(result.unexpected).map(([status, count]) => `${count} × HTTP ${status}`);
      if (statuses.length) parts.push(`unexpected statuses: ${statuses.join(', ')}`);
      if (result.errors) parts.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
      lines.push(`- **${result.scenario.name}**: ${parts.join('; ')}`);
    }
    if (report.suppressedErrorLines > 0)
      lines.push(
        `- The server wrote ${report.suppressedErrorLines} more error lines than the ones shown on the console.`,
      );
  } else {
    lines.push('');
    lines.push('Every response in every scenario had the expected status (no non-2xx, no connection errors).');
  }
  if (report.peak.server || report.peak.dynamodb) {
    lines.push('');
    lines.push(
      `Peak resident memory: API server process ${report.peak.server ? kib(report.peak.server) : '–'}; DynamoDB Local JVM ${report.peak.dynamodb ? kib(report.peak.dynamodb) : '–'}.`,
    );
  }
  lines.push('');
  lines.push(...renderColdStarts(report.coldStarts, report.coldSkipped, machine.arch));
  lines.push(...renderBaseline(report));
  lines.push('## For comparison: Bugzilla 5.2');
  lines.push('');
  lines.push(
    'Reference numbers of a real Bugzilla 5.2 under Apache + mod_perl on a 2-core machine, measured with wrk and 8 connections (from the project\'s clarifications, "Speed of the reference"; not measured here):',
  );
  lines.push('');
  lines.push('| Request | Bugzilla 5.2 req/s | Bugzilla median ms | Tracker here req/s | Tracker p50 ms |');
  lines.push('|---|---:|---:|---:|---:|');
  const tracker = (name: string) => {
    const result = results.find((candidate) => candidate.scenario.name === name && !candidate.skipped);
    return result ? `${fmt(result.rps, 0)} | ${ms(result.latency.p50)}` : '– | –';
  };
  lines.push(`| \`GET /rest/version\` | ~460 | – | ${tracker('version')} |`);
  lines.push(`| \`GET /rest/bug/<id>\` | ~58 | ~136 | ${tracker('get bug')} |`);
  lines.push(`| \`POST /rest/bug\` (create) | ~42 | – | ${tracker('create bug')} |`);
  lines.push(`| \`PUT /rest/bug/<id>\` (update) | ~49 | – | ${tracker('update bug')} |`);
  lines.push(`| a bug's comments (Tracker: 50 comments) | ~62 | – | ${tracker('bug comments (50)')} |`);
  lines.push('| product + status search returning 22 bugs | ~18 | – | – | – |');
  lines.push('');
  lines.push(
    "The two setups differ in more than the code (mod_perl with several worker processes and MariaDB versus one Node.js process and DynamoDB Local on the same two cores), so the comparison is an order of magnitude, not a race. Bugzilla's figures were taken with 90 bugs; Tracker's with the bugs seeded above.",
  );
  lines.push('');
  lines.push('## Lambda bundles');
  lines.push('');
  if (!report.bundles.functions) {
    lines.push(`Not measured: ${report.bundles.why}.`);
  } else {
    const { functions, esbuildVersion, bundling } = report.bundles;
    const total = functions.reduce((sum, bundle) => sum + bundle.code, 0);
    const totalMaps = functions.reduce((sum, bundle) => sum + bundle.map, 0);
    const totalGzip = functions.reduce((sum, bundle) => sum + bundle.gzipped, 0);
    const loadRuns = report.coldStarts?.loadRuns;
    lines.push(
      `Every function of the stack (lib/handlerPlan.ts), bundled for this run by esbuild ${esbuildVersion} with the stack's options (lib/stackBundling.ts: ${bundling}); test/unit/bundleSize.test.ts bundles them the same way and fails above its budget. Sizes of \`index.mjs\`; the source map ships beside it. ${loadRuns ? `Module load = the \`import()\` of index.mjs in a fresh \`node\` process with the deployed environment, median / max of ${loadRuns} processes per function (as in the cold-start section; no invocation).` : 'Module load not measured (`BENCH_COLD=0`).'}`,
    );
    lines.push('');
    lines.push('| Function | index.mjs | gzip | source map | Module load ms | Module load CPU ms |');
    lines.push('|---|---:|---:|---:|---:|---:|');
    for (const bundle of functions) {
      const loads = [...bundle.loads].sort((x, y) => x - y);
      const load =
        loads.length === 0
          ? bundle.problems.length > 0
            ? 'failed'
            : '–'
          : `${fmt(loads[Math.floor((loads.length - 1) / 2)], 0)} / ${fmt(loads[loads.length - 1], 0)}`;
      const cpus = [...bundle.loadCpus].sort((x, y) => x - y);
      const cpu = cpus.length === 0 ? '–' : fmt(cpus[Math.floor((cpus.length - 1) / 2)], 0);
      lines.push(
        `| ${bundle.module} | ${kib(bundle.code)} | ${kib(bundle.gzipped)} | ${kib(bundle.map)} | ${load} | ${cpu} |`,
      );
    }
    lines.push(`| **Total** | **${kib(total)}** | **${kib(totalGzip)}** | **${kib(totalMaps)}** | | |`);
    const failed = functions.filter((bundle) => bundle.problems.length > 0);
    if (failed.length > 0) {
      lines.push('');
      lines.push(
        `Load runs that failed: ${failed.map((bundle) => `${bundle.module}: ${bundle.problems[0]!.replace(/[|\n]/g, ' ')}`).join('; ')}.`,
      );
    }
  }
  lines.push('');
  lines.push('## Rerunning');
  lines.push('');
  lines.push(
    '`npm run bench` (needs Java 17+ like `npm start`; about 2 minutes on 2 cores). `BENCH_DURATION`, `BENCH_WARMUP`, `BENCH_CONNECTIONS` and `BENCH_USERS` change the run; `BENCH_COLD=0` skips the cold starts and module loads (bundle sizes are still measured), `BENCH_COLD_RUNS` (5) sets the cold-start processes per handler and `BENCH_LOAD_RUNS` (3) the load-only processes per function.',
  );
  lines.push('');
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = performance.now();
  const phases = { engines: 0, server: 0, seed: 0, warmup: 0, load: 0, cold: 0, bundles: 0, total: 0 };
  let engines: LocalEngines | undefined;
  let server: ServerProcess | undefined;
  const scratchDir = mkdtempSync(join(os.tmpdir(), 'tracker-bench-s3-'));

  const cleanUp = async () => {
    await server?.stop().catch(() => undefined);
    server = undefined;
    await engines?.stop().catch(() => undefined);
    engines = undefined;
    rmSync(scratchDir, { recursive: true, force: true });
  };
  // First signal: stop the load, then shut down in order without writing the report. Second: at once.
  const onSignal = () => {
    if (interrupted) {
      cleanUp().finally(() => process.exit(130));
      return;
    }
    interrupted = true;
    log('interrupted: stopping the load, the server and the engines (docs not written)');
    currentLoad?.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let exitCode = 0;
  const loadBefore = os.loadavg()[0]!;
  try {
    let phase = performance.now();
    log('starting DynamoDB Local (in memory) and s3rver...');
    engines = await startEngines({ scratchDir });
    phases.engines = elapsed(phase);
    checkInterrupted();
    const javaPid = findJavaChild();

    phase = performance.now();
    const table = `tracker-bench-${randomBytes(4).toString('hex')}`;
    server = await startServerProcess(engines, table);
    phases.server = elapsed(phase);
    checkInterrupted();
    log(`server process ${server.pid} serving ${server.url} (table ${table})`);

    phase = performance.now();
    const seeded = await seed(server.url);
    phases.seed = elapsed(phase);
    checkInterrupted();
    log(
      `seeded ${seeded.users.length} users and ${seeded.products.length} products with ${seeded.requests} requests in ${round(seeded.seconds)} s`,
    );

    // DynamoDB Local's JIT needs a while to warm up (GetItem with 8 in flight is several times
    // faster after ~15 s of load than at first): warm it and every scenario's code path once.
    phase = performance.now();
    log(
      `warming up DynamoDB Local and every scenario once (${GLOBAL_WARMUP_S} s + ${SCENARIOS.length} × 1 s, not counted)...`,
    );
    await calibrateDynamodb(engines.dynamodbEndpoint, table, GLOBAL_WARMUP_S, 0);
    for (const scenario of SCENARIOS)
      await runAutocannon({ ...scenarioOptions(server, scenario, seeded), duration: 1 });
    phases.warmup = elapsed(phase);

    phase = performance.now();
    const results: ScenarioResult[] = [];
    let failure: string | undefined;
    for (const scenario of SCENARIOS) {
      checkInterrupted();
      if (failure || server.child.exitCode !== null || server.child.signalCode !== null) {
        failure ??= 'the server process exited';
        results.push({
          scenario,
          skipped: failure,
          responseBytes: 0,
          requests: 0,
          seconds: 0,
          rps: 0,
          latency: { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN },
          ok2xx: 0,
          non2xx: 0,
          unexpected: {},
          errors: 0,
          timeouts: 0,
        });
        continue;
      }
      log(`${scenario.name}: ${scenario.method} ${scenario.path} (${WARMUP_S} s warm-up + ${DURATION_S} s)...`);
      try {
        const result = await runScenario(server, scenario, seeded, javaPid);
        results.push(result);
        const issues = [
          result.checkProblem,
          Object.keys(result.unexpected).length ? `unexpected ${JSON.stringify(result.unexpected)}` : undefined,
          result.errors ? `${result.errors} errors` : undefined,
        ].filter(Boolean);
        const calls = result.dynamodbPerRequest
          ? `, ${round(sumValues(result.dynamodbPerRequest))} DynamoDB calls/req`
          : '';
        log(
          `  ${round(result.rps, 0)} req/s, p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, ${result.requests} requests, ${result.non2xx} non-2xx${calls}${issues.length ? ` — ${issues.join('; ')}` : ''}`,
        );
      } catch (error) {
        if (error instanceof Interrupted) throw error;
        failure = `${scenario.name}: ${(error as Error).message}`;
        log(`  failed: ${failure}`);
        results.push({
          scenario,
          skipped: (error as Error).message,
          responseBytes: 0,
          requests: 0,
          seconds: 0,
          rps: 0,
          latency: { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN },
          ok2xx: 0,
          non2xx: 0,
          unexpected: {},
          errors: 0,
          timeouts: 0,
        });
      }
    }
    phases.load = elapsed(phase);
    if (failure) exitCode = 1;

    let calibration: Calibration | undefined;
    if (!failure) {
      log('measuring DynamoDB Local on its own (GetItem)...');
      calibration = await calibrateDynamodb(engines.dynamodbEndpoint, table, 1, 3).catch((error) => {
        log(`  DynamoDB Local calibration failed: ${(error as Error).message}`);
        return undefined;
      });
      if (calibration)
        log(
          `  ${round(calibration.operations / calibration.seconds, 0)} GetItem/s, p50 ${round(calibration.p50)} ms, p99 ${round(calibration.p99)} ms`,
        );
    }
    const itemSizes = await measureItemSizes(engines.dynamodbEndpoint, table, seeded.bugIds).catch((error) => {
      log(`  item sizes not measured: ${(error as Error).message}`);
      return undefined;
    });

    const loadAfter = os.loadavg()[0]!;
    const peak = { server: peakRss(server.pid), dynamodb: peakRss(javaPid) };
    const suppressedErrorLines = server.suppressedErrorLines();
    await server.stop();
    server = undefined;
    log('server process stopped');

    // Cold starts: after the load (nothing else running but DynamoDB Local), on the same table.
    let coldStarts: ColdStartReport | undefined;
    let coldSkipped: string | undefined = COLD ? undefined : 'skipped with `BENCH_COLD=0`';
    if (COLD) {
      phase = performance.now();
      try {
        coldStarts = await measureColdStarts({
          root: ROOT,
          dynamodbEndpoint: engines.dynamodbEndpoint,
          s3Endpoint: engines.s3Endpoint,
          table,
          bucket: table,
          apiKey: ADMIN.apiKey,
          logins: seeded.users.map((user) => ({ login: user.login, password: USER_PASSWORD })),
          runs: COLD_RUNS,
          loadRuns: LOAD_RUNS,
          log,
          interrupted: () => interrupted,
        });
      } catch (error) {
        checkInterrupted();
        coldSkipped = `the cold-start measurement failed: ${(error as Error).message.split('\n')[0]}`;
        log(`  ${coldSkipped}`);
      }
      phases.cold = elapsed(phase);
    }

    await engines.stop();
    engines = undefined;
    log('engines stopped');

    phase = performance.now();
    let bundles: Report['bundles'];
    if (coldStarts) {
      bundles = {
        functions: coldStarts.functions,
        esbuildVersion: coldStarts.esbuildVersion,
        bundling: coldStarts.bundling,
      };
    } else {
      try {
        bundles = await measureBundleSizes(ROOT);
      } catch (error) {
        bundles = { functions: undefined, why: `bundling failed: ${(error as Error).message.split('\n')[0]}` };
      }
    }
    phases.bundles = elapsed(phase);
    phases.total = elapsed(started);
    const report: Report = {
      date: new Date(),
      machine: {
        cpuModel: os.cpus()[0]?.model?.trim() ?? 'unknown CPU',
        cores: os.cpus().length,
        memory: os.totalmem(),
        node: process.version,
        arch: execFileSync('uname', ['-m'], { encoding: 'utf8' }).trim(),
        os: `${os.type()} ${os.release()}`,
        loadBefore,
        loadAfter,
      },
      phases,
      seeded,
      calibration,
      itemSizes,
      results,
      bundles,
      coldStarts,
      coldSkipped,
      peak,
      suppressedErrorLines,
      failure,
    };
    mkdirSync(dirname(OUTPUT), { recursive: true });
    // Keep the section that `npm run bench:search` writes.
    writeFileSync(
      OUTPUT,
      mergeSearchSection(renderReport(report), existsSync(OUTPUT) ? searchSectionOf(readFileSync(OUTPUT, 'utf8')) : ''),
    );
    log(`wrote ${OUTPUT} (${round(phases.total, 0)} s in all)`);
  } catch (error) {
    if (error instanceof Interrupted) exitCode = 130;
    else if (error instanceof JavaMissingError) {
      console.error(error.message);
      exitCode = 1;
    } else {
      console.error(error);
      exitCode = 1;
    }
  } finally {
    await cleanUp();
  }
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
