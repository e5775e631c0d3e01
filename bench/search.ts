/**
 * `npm run bench:search`: bug search at scale. Starts DynamoDB Local in memory, runs the API in a
 * separate process (bench/server.ts), seeds BENCH_BUGS bugs (100,000) with bench/seedInstallation.ts, then
 * drives the search scenarios of issue 10 with autocannon over loopback and writes the results
 * into the "Search at scale" section of docs/benchmarks.md (between markers, so `npm run bench`
 * and this script each keep the other's section). Numbers go into the document only.
 *
 * Environment: BENCH_BUGS (100000), BENCH_DURATION (seconds per scenario, 10), BENCH_WARMUP (2),
 * BENCH_CONNECTIONS (8), BENCH_SEED (1), BENCH_OUTPUT (docs/benchmarks.md), BENCH_PROFILE (a directory
 * for the API process's CPU profile), BENCH_DATA_DIR (keep the seeded installation on disk there and
 * reuse it on the next run: a million bugs take half an hour to seed).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SEARCH_NODE_OPTIONS } from '../lib/searchSizing.ts';
import { relaxSdkTimeoutsForBulkTool } from '../local/bulkToolTimeouts.ts';
import { startEngines } from '../local/engines.ts';
import { ensureTable } from '../local/provision.ts';
import type { IndexStats } from '../shared/application/search/searchIndexHolder.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import {
  mergeKeptSections,
  mergeSearchSection,
  SEARCH_SECTION_END,
  SEARCH_SECTION_START,
} from './benchmarkSections.ts';
import { type SeedReport, seedInstallation } from './seedInstallation.ts';
import { measureWireCeiling, type WireCeiling } from './wireCeiling.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// The seed writes in bulk from this process: a busy machine (a million bugs take half an hour)
// queues batches longer than a function's 2-second attempt.
relaxSdkTimeoutsForBulkTool();
const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const num = (name: string, fallback: number) => (Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback);
const DEFAULT_BUGS = 100_000;
const BUGS = num('BENCH_BUGS', DEFAULT_BUGS);
const DURATION_S = num('BENCH_DURATION', 10);
const WARMUP_S = num('BENCH_WARMUP', 2);
const CONNECTIONS = num('BENCH_CONNECTIONS', 8);
const OUTPUT = resolve(ROOT, process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md');
/** `bugs`: only the items searches read go to the table (bench/seedWriter.ts). */
const TABLE_ITEMS = process.env.BENCH_TABLE_ITEMS === 'bugs' ? 'bugs' : 'all';
/** Name prefixes of the scenarios to run (all when unset); a partial run writes no section. */
const ONLY = (process.env.BENCH_SCENARIOS ?? '')
  .split(';')
  .map((prefix) => prefix.trim())
  .filter(Boolean);
const DATA_DIR = process.env.BENCH_DATA_DIR ? resolve(process.env.BENCH_DATA_DIR) : undefined;
/** Beside a kept installation: what the seed made, for the runs that reuse it. */
const SEEDED_FILE = DATA_DIR && join(DATA_DIR, 'bench-search.json');
const ADMIN = {
  login: 'admin@bench.test',
  password: `bench-${randomBytes(8).toString('hex')}`,
  apiKey: `BenchAdminKey${randomBytes(12).toString('hex')}`,
};
const log = (message: string) => console.log(`[bench:search] ${message}`);

interface Server {
  child: ChildProcess;
  url: string;
  pid: number;
  calls(): Promise<Record<string, number>>;
  /** The process's memory after full collections (bench/server.ts). */
  memory(): Promise<NodeJS.MemoryUsage>;
  /** How its search index was loaded (searchIndexHolder.ts), once a search has run. */
  indexStats(): Promise<IndexStats | undefined>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  // BENCH_PROFILE=dir writes the server's V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_PROFILE)}`]
    : [];
  // --expose-gc: the server measures its memory after full collections (what the index holds).
  // The search functions' V8 setting (lib/searchSizing.ts), so the numbers are the deployed stack's.
  const child = spawn(
    process.execPath,
    [...profile, SEARCH_NODE_OPTIONS, '--expose-gc', '--import', 'tsx', join(BENCH_DIR, 'server.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...env,
        BENCH_ADMIN_LOGIN: ADMIN.login,
        BENCH_ADMIN_PASSWORD: ADMIN.password,
        BENCH_ADMIN_API_KEY: ADMIN.apiKey,
        TRACKER_REQUEST_LOG: 'off',
        NODE_ENV: 'production',
      },
      stdio: ['pipe', 'pipe', 'inherit', 'ipc'],
    },
  );
  const ready = await new Promise<{ url: string; pid: number }>((done, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('BENCH_SERVER_READY ')) done(JSON.parse(line.slice('BENCH_SERVER_READY '.length)));
    });
    child.once('exit', (code) => fail(new Error(`server exited ${code}`)));
  });
  const ask = <T>(type: string, pick: (message: any) => T) =>
    new Promise<T>((done) => {
      const onMessage = (message: { type?: string }) => {
        if (message?.type !== type) return;
        child.off('message', onMessage);
        done(pick(message));
      };
      child.on('message', onMessage);
      child.send({ type });
    });
  return {
    child,
    url: ready.url,
    pid: ready.pid,
    calls: () => ask('stats', (message) => (message.dynamodbCalls ?? {}) as Record<string, number>),
    memory: () => ask('memory', (message) => message.memory as NodeJS.MemoryUsage),
    indexStats: () => ask('stats', (message) => message.searchIndex as IndexStats | undefined),
  };
}

const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
};
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const totalCalls = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.keys(after)
      .map((key) => [key, (after[key] ?? 0) - (before[key] ?? 0)])
      .filter(([, count]) => Number(count) > 0),
  );

interface Scenario {
  name: string;
  path: string;
  bugzilla: string;
  target: string;
  /** Issue 20's target for the same scenario with nothing kept, at this many bugs ('–': none). */
  unkeptTarget?: string;
  check(body: any): string | undefined;
}

interface Result {
  scenario: Scenario;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  non2xx: number;
  errors: number;
  bytes: number;
  callsPerRequest: Record<string, number>;
  problem?: string;
  /** The same answer's bytes from a server that does nothing else (wireCeiling.ts), for large answers. */
  wire?: WireCeiling;
}

async function get(url: string): Promise<{ status: number; body: any; text: string; bytes: number; ms: number }> {
  const started = performance.now();
  // Uncompressed, as autocannon asks below: the scenarios measure JSON as served, not gzip.
  const response = await fetch(url, { headers: { 'X-BUGZILLA-API-KEY': ADMIN.apiKey, 'Accept-Encoding': 'identity' } });
  const text = await response.text();
  return {
    status: response.status,
    body: JSON.parse(text),
    text,
    bytes: Buffer.byteLength(text),
    ms: performance.now() - started,
  };
}

/** Answers from this size on are measured from the bare server too: below it, the wire costs little. */
const WIRE_FROM_BYTES = 64 * 1024;

async function runScenario(server: Server, scenario: Scenario, { wire: withWire = false } = {}): Promise<Result> {
  const url = `${server.url}${scenario.path}`;
  const probe = await get(url);
  const problem =
    probe.status === 200
      ? scenario.check(probe.body)
      : `status ${probe.status}: ${JSON.stringify(probe.body).slice(0, 200)}`;
  const options = {
    url,
    connections: CONNECTIONS,
    pipelining: 1,
    timeout: 30,
    headers: { 'X-BUGZILLA-API-KEY': ADMIN.apiKey },
  };
  await new Promise((done) => autocannon({ ...options, duration: WARMUP_S }, done));
  const before = await server.calls();
  const result = await new Promise<autocannon.Result>((done, fail) =>
    autocannon({ ...options, duration: DURATION_S }, (error, value) => (error ? fail(error) : done(value))),
  );
  const after = await server.calls();
  const requests = Math.max(1, result.requests.total);
  const calls = totalCalls(before, after);
  const wire =
    withWire && probe.bytes >= WIRE_FROM_BYTES
      ? await measureWireCeiling(probe.text, { connections: CONNECTIONS, durationS: DURATION_S, warmupS: WARMUP_S })
      : undefined;
  return {
    scenario,
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytes: probe.bytes,
    callsPerRequest: Object.fromEntries(
      Object.entries(calls).map(([key, count]) => [key, Number((Number(count) / requests).toFixed(2))]),
    ),
    problem,
    wire,
  };
}

/** Issue 20's targets with nothing kept: at a million bugs for most scenarios, at 100,000 for quicksearch. */
const UNKEPT_TARGETS: Record<number, Record<string, string>> = {
  100000: { quicksearch: '≥ 150 req/s' },
  1000000: {
    'product + status': '≥ 200 req/s',
    'summary substring': '≥ 100 req/s',
    quicksearch: '≥ 50 req/s',
    count_only: '≥ 300 req/s',
    '1,000-bug result': 'p50 ≤ 300 ms',
  },
};

function scenarios(seed: SeedReport, firstBugId: number): Scenario[] {
  const list = scenarioList(seed, firstBugId).filter(
    (scenario) => ONLY.length === 0 || ONLY.some((prefix) => scenario.name.startsWith(prefix)),
  );
  const targets = UNKEPT_TARGETS[seed.bugs] ?? {};
  for (const scenario of list)
    scenario.unkeptTarget = Object.entries(targets).find(([prefix]) => scenario.name.startsWith(prefix))?.[1];
  return list;
}

function scenarioList(seed: SeedReport, firstBugId: number): Scenario[] {
  const { sample } = seed;
  const enc = encodeURIComponent;
  return [
    {
      name: `product + status (${sample.productStatusCount} bugs)`,
      path: `/rest/bug?product=${enc(sample.product)}&status=${sample.status}`,
      bugzilla: '11.4 req/s, p50 660 ms (22 bugs)',
      target: '≥ 200 req/s',
      check: (body) =>
        body.bugs?.length === sample.productStatusCount
          ? undefined
          : `expected ${sample.productStatusCount} bugs, got ${body.bugs?.length}`,
    },
    {
      name: `summary substring "${sample.summaryWord}"`,
      path: `/rest/bug?summary=${enc(sample.summaryWord)}`,
      bugzilla: '9.8 req/s',
      target: '≥ 200 req/s',
      check: (body) => (body.bugs?.length > 0 ? undefined : 'no bugs'),
    },
    {
      name: 'summary substring "Canvas flickers" in the largest product',
      path: `/rest/bug?summary=${enc('Canvas flickers')}&product=${enc(sample.largeProduct)}`,
      bugzilla: '9.8 req/s',
      target: '≥ 200 req/s',
      check: (body) => (body.bugs?.length > 0 ? undefined : 'no bugs'),
    },
    {
      name: 'quicksearch',
      path: `/rest/bug?quicksearch=${enc(sample.quicksearch)}&limit=50`,
      bugzilla: '4.9 req/s',
      target: '≥ 100 req/s',
      check: (body) => (body.bugs?.length > 0 ? undefined : 'no bugs'),
    },
    {
      name: 'count_only (open bugs of the largest product)',
      path: `/rest/bug?product=${enc(sample.largeProduct)}&resolution=&count_only=1`,
      bugzilla: '(5.2 ignores count_only)',
      target: '≥ 300 req/s',
      check: (body) => (body.bug_count > 0 ? undefined : 'no count'),
    },
    {
      name: '1,000-bug result, default fields',
      path: `/rest/bug?product=${enc(sample.largeProduct)}&limit=1000`,
      bugzilla: '3.9–4.4 s for 1,003 bugs',
      target: 'p50 ≤ 300 ms',
      check: (body) => (body.bugs?.length === 1000 ? undefined : `got ${body.bugs?.length}`),
    },
    {
      name: 'possible_duplicates',
      path: `/rest/bug/possible_duplicates?summary=${enc(sample.duplicateSummary)}&limit=10`,
      bugzilla: '(not measured)',
      target: '≥ 100 req/s',
      check: (body) => (body.bugs?.length === 10 ? undefined : `got ${body.bugs?.length}`),
    },
    {
      name: 'advanced f/o/v (keyword + changed after)',
      path: `/rest/bug?f1=keywords&o1=anywords&v1=crash&f2=bug_status&o2=changedafter&v2=2024-01-01&limit=100`,
      bugzilla: '–',
      target: '–',
      check: (body) => (Array.isArray(body.bugs) ? undefined : 'no list'),
    },
    {
      name: 'GET /rest/bug?id=N (python-bugzilla getbug)',
      path: `/rest/bug?id=${firstBugId}`,
      bugzilla: '54–59 req/s (GET bug)',
      target: '–',
      check: (body) => (body.bugs?.length === 1 ? undefined : `got ${body.bugs?.length}`),
    },
  ];
}

/**
 * The default size writes the "Search at scale" section; another size writes a kept section of its
 * own (benchmarkSections.ts), so a million-bug run sits beside the 100,000-bug one and neither
 * replaces the other.
 */
function sectionMarkers(bugs: number): { start: string; end: string } {
  if (bugs === DEFAULT_BUGS) return { start: SEARCH_SECTION_START, end: SEARCH_SECTION_END };
  return { start: `<!-- kept:search-bench-${bugs}:start -->`, end: `<!-- kept:search-bench-${bugs}:end -->` };
}

function mergeSection(document: string, bugs: number, section: string): string {
  if (bugs === DEFAULT_BUGS) return mergeSearchSection(document, section);
  const { start, end } = sectionMarkers(bugs);
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from >= 0 && to > from) return document.slice(0, from) + section + document.slice(to + end.length);
  return mergeKeptSections(document, [section]);
}

function render(
  seed: SeedReport,
  results: Result[],
  unkept: ReadonlyMap<string, Result>,
  extra: {
    cold: { status: number; ms: number };
    coldSubstring: { status: number; ms: number };
    /** The first process's load (phases) and the second's, whose first search waited for its parts. */
    loads: { first?: IndexStats; second?: IndexStats };
    memory: { before: ReturnType<typeof memory>; after: ReturnType<typeof memory> };
    /** The server's memory after full collections, before the first search and after it. */
    settled: { before: NodeJS.MemoryUsage; loaded: NodeJS.MemoryUsage; after: NodeJS.MemoryUsage };
    seedSeconds: number;
    /** The installation came from BENCH_DATA_DIR, seeded by an earlier run. */
    reused: boolean;
  },
): string {
  const fmt = (value: number, digits = 1) => value.toFixed(digits);
  const lines: string[] = [];
  const markers = sectionMarkers(seed.bugs);
  lines.push(markers.start);
  lines.push(
    seed.bugs === DEFAULT_BUGS
      ? '## Search at scale (`npm run bench:search`)'
      : `## Search at ${seed.bugs.toLocaleString('en')} bugs (\`BENCH_BUGS=${seed.bugs} npm run bench:search\`)`,
  );
  lines.push('');
  lines.push(`Load average (1 min) ${os.loadavg()[0].toFixed(1)} at the end of the run.`);
  lines.push('');
  lines.push(
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, DynamoDB Local ${DATA_DIR ? `on disk (${DATA_DIR})` : 'in memory'}, the API in its own process, ${CONNECTIONS} connections, ${DURATION_S} s per scenario after ${WARMUP_S} s of warm-up. The machine was shared with other work while this ran, so these are lower bounds.`,
  );
  lines.push('');
  lines.push(
    `**Data:** ${seed.bugs.toLocaleString('en')} bugs seeded by \`npm run seed\` (${seed.users} users, ${seed.products.length} products from ${seed.products[0].bugs.toLocaleString('en')} down to ${seed.products[seed.products.length - 1].bugs.toLocaleString('en')} bugs, ${seed.items.toLocaleString('en')} items${seed.tableItems === 'bugs' ? ": only the bug items went to the table, as `BENCH_TABLE_ITEMS=bugs` asks; the snapshot holds every comment's words and every history row as the full seed would" : ''}) in ${fmt(extra.seedSeconds, 0)} s${extra.reused ? ' (by an earlier run: this one reused them from `BENCH_DATA_DIR` and rewrote the snapshot)' : ''}, snapshot ${seed.snapshotChunks} chunks.`,
  );
  lines.push('');
  const held = (usage: NodeJS.MemoryUsage) => usage.heapUsed + usage.arrayBuffers;
  const { settled } = extra;
  const perBug = (bytes: number) => `${fmt(bytes / seed.bugs, 0)} B/bug`;
  const indexBytes = held(settled.loaded) - held(settled.before);
  const indexRss = settled.loaded.rss - settled.before.rss;
  lines.push(
    `**Cold index:** the first search of a new server process, whose handler modules were loaded at start as Lambda's init phase loads them (snapshot load + change-log catch-up + the search: product + status), took ${fmt(extra.cold.ms, 0)} ms (status ${extra.cold.status}); the first search of the second process, a summary substring, ${fmt(extra.coldSubstring.ms, 0)} ms (status ${extra.coldSubstring.status}).`,
  );
  const phases = extra.loads.first?.phases;
  if (phases) {
    const parts = extra.loads.second?.partMs ?? {};
    lines.push('');
    lines.push(
      `**Where the cold start goes** (first process): reading the snapshot's core ${fmt(phases.readMs, 0)} ms, inflating it ${fmt(phases.inflateMs, 0)} ms, decoding it ${fmt(phases.decodeMs, 0)} ms, the change log after it ${fmt(phases.catchUpMs, 0)} ms; the rest of the ${fmt(extra.cold.ms, 0)} ms is the request and the search. The deferred parts came after the first answer; in the second process, from its first search: ${Object.entries(
        parts,
      )
        .map(([part, ms]) => `${part} ${fmt(ms ?? 0, 0)} ms`)
        .join(', ')}.`,
    );
  }
  lines.push('');
  lines.push(
    `**Memory** (the API process, after full collections): the index as the first search loaded it holds ${mib(indexBytes)} of heap and typed arrays (${perBug(indexBytes)}) and ${mib(indexRss)} more resident (${perBug(indexRss)}); the process was ${mib(settled.before.rss)} resident before it, ${mib(settled.loaded.rss)} after it, ${mib(settled.after.rss)} after the scenarios with their kept pages (${mib(extra.memory.after.rss)} before collecting, peak ${mib(extra.memory.after.peak)}).`,
  );
  lines.push('');
  lines.push(
    '| scenario | req/s | p50 ms | p90 ms | p99 ms | errors | response | DynamoDB calls per request | nothing kept: req/s, p50 ms, calls | same bytes, bare server: req/s, p50 ms | Bugzilla 5.2 (100,000 bugs) | target | target, nothing kept |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---|---|---|---|---|---|');
  const callsText = (result: Result) =>
    Object.entries(result.callsPerRequest)
      .map(([key, count]) => `${key} ${count}`)
      .join(', ') || '–';
  for (const result of results) {
    const cold = unkept.get(result.scenario.name);
    const coldText = cold
      ? `${fmt(cold.rps)}, ${cold.p50} ms, ${callsText(cold)}${cold.problem ? ` (**check: ${cold.problem}**)` : ''}`
      : '–';
    lines.push(
      `| ${result.scenario.name}${result.problem ? ` (**check: ${result.problem}**)` : ''} | ${fmt(result.rps)} | ${result.p50} | ${result.p90} | ${result.p99} | ${result.non2xx + result.errors + (cold ? cold.non2xx + cold.errors : 0)} | ${(result.bytes / 1024).toFixed(1)} KiB | ${callsText(result)} | ${coldText} | ${result.wire ? `${fmt(result.wire.rps)}, ${result.wire.p50} ms` : '–'} | ${result.scenario.bugzilla} | ${result.scenario.target} | ${result.scenario.unkeptTarget ?? '–'} |`,
    );
  }
  lines.push('');
  lines.push(
    "Every search reads the change log since the index's high-water mark (one consistent Query) and the request's usual caller and catalogue-stamp reads (one BatchGetItem). Its page is rendered from the index's columns, which hold every field of every bug (docs/data-model.md §8.7): it reads bug items only for bugs the columns cannot give back exactly (BatchGetItem, 100 keys a call), none in these seeds. Bugzilla's figures are from clarifications.md (Apache + mod_perl + MariaDB, 2 cores, wrk with 8 connections).",
  );
  lines.push('');
  lines.push(
    '**Reading these numbers.** Each scenario repeats one request, as a dashboard does, so after the warm-up the search instance answers from what it keeps between requests: the page\'s rendered JSON and the results of the criteria, each exactly as fresh as the index (docs/data-model.md §8.7). The "nothing kept" column is the same scenario against a second API process over the same table with `TRACKER_SEARCH_KEEP=off`: every request finds its bugs in the index and renders them afresh, as the first request of a scenario (or one after the page\'s bugs changed) does. `getbug` isolates the request overhead (authentication, catalogue stamp, one bug). The "same bytes, bare server" column serves each answer of 64 KiB or more, as its bytes, from a Node.js process that does nothing else (bench/wireCeiling.ts) to the same load generator: on this machine no scenario can be faster than that. The load generator does not ask for gzip, so these are answers as sent uncompressed. Everything here shares two cores with DynamoDB Local, the load generator and, on a shared machine, other work; AWS runs each Lambda instance on its own vCPU against DynamoDB.',
  );
  lines.push(markers.end);
  return lines.join('\n');
}

interface SeededInstallation {
  bugs: number;
  seed: number;
  admin: typeof ADMIN;
  report: SeedReport;
  seedSeconds: number;
}

/**
 * The installation BENCH_DATA_DIR holds, when it was seeded with the same sizes; undefined for an
 * empty directory. Anything else there is refused rather than seeded over.
 */
function seededInstallation(): SeededInstallation | undefined {
  if (!DATA_DIR || !existsSync(DATA_DIR) || readdirSync(DATA_DIR).length === 0) return undefined;
  if (!SEEDED_FILE || !existsSync(SEEDED_FILE))
    throw new Error(`BENCH_DATA_DIR ${DATA_DIR} is not empty and holds no ${SEEDED_FILE}: not seeding over it`);
  const seeded = JSON.parse(readFileSync(SEEDED_FILE, 'utf8')) as SeededInstallation;
  if (seeded.bugs !== BUGS || seeded.seed !== num('BENCH_SEED', 1))
    throw new Error(
      `BENCH_DATA_DIR ${DATA_DIR} holds ${seeded.bugs} bugs of seed ${seeded.seed}, not ${BUGS} of seed ${num('BENCH_SEED', 1)}`,
    );
  return seeded;
}

/** Runs bench/rewriteSnapshot.ts in a process of its own (why: that file). */
function rewriteSnapshot(env: Record<string, string>): Promise<{ chunks: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(BENCH_DIR, 'rewriteSnapshot.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, TRACKER_REQUEST_LOG: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let last = '';
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.startsWith('{"chunks"')) last = line;
  });
  return new Promise((done, fail) =>
    child.once('exit', (code) =>
      code === 0 && last ? done(JSON.parse(last)) : fail(new Error(`snapshot rewrite exited ${code}`)),
    ),
  );
}

async function main(): Promise<void> {
  const seeded = seededInstallation();
  if (seeded) Object.assign(ADMIN, seeded.admin);
  const engines = await startEngines(DATA_DIR ? { dataDir: DATA_DIR } : {});
  const table = DATA_DIR ? 'bench-search' : `bench-search-${randomBytes(4).toString('hex')}`;
  const env = {
    [ENV.dynamodbEndpoint]: engines.dynamodbEndpoint,
    [ENV.s3Endpoint]: engines.s3Endpoint,
    [ENV.table]: table,
    [ENV.bucket]: table,
  };
  Object.assign(process.env, env);
  let server: Server | undefined;
  try {
    await ensureTable(engines.dynamodbEndpoint, table);
    let seed: SeedReport;
    let seedSeconds: number;
    if (seeded) {
      // The snapshot as this code writes it, from the one the seed (or an older run) left.
      log(`reusing ${seeded.bugs} bugs in ${DATA_DIR}; writing the search snapshot afresh`);
      const rewriteStarted = performance.now();
      const pointer = await rewriteSnapshot(env);
      log(
        `snapshot rewritten in ${((performance.now() - rewriteStarted) / 1000).toFixed(1)} s (${pointer?.chunks} chunks)`,
      );
      ({ report: seed, seedSeconds } = seeded);
      seed.snapshotChunks = pointer?.chunks ?? seed.snapshotChunks;
      server = await startServer({ ...env, BENCH_REUSE_TABLE: '1' });
    } else {
      server = await startServer(env);
      log(`server ${server.url}; seeding ${BUGS} bugs`);
      const seedStarted = performance.now();
      seed = await seedInstallation({
        bugs: BUGS,
        seed: num('BENCH_SEED', 1),
        url: server.url,
        apiKey: ADMIN.apiKey,
        log,
        tableItems: TABLE_ITEMS,
      });
      seedSeconds = (performance.now() - seedStarted) / 1000;
      if (SEEDED_FILE) {
        const kept: SeededInstallation = {
          bugs: BUGS,
          seed: num('BENCH_SEED', 1),
          admin: ADMIN,
          report: seed,
          seedSeconds,
        };
        writeFileSync(SEEDED_FILE, JSON.stringify(kept, null, 2));
      }
    }
    const settledBefore = await server.memory();
    const memoryBefore = memory(server.pid);
    const cold = await get(
      `${server.url}/rest/bug?product=${encodeURIComponent(seed.sample.product)}&status=${seed.sample.status}&include_fields=id`,
    );
    log(`first search (cold index): ${cold.ms.toFixed(0)} ms`);
    const firstLoad = await server.indexStats();
    log(`load phases: ${JSON.stringify(firstLoad?.phases)}`);
    const settledLoaded = await server.memory();
    log(
      `index: ${mib(settledLoaded.heapUsed + settledLoaded.arrayBuffers - settledBefore.heapUsed - settledBefore.arrayBuffers)} of heap and typed arrays, ${mib(settledLoaded.rss - settledBefore.rss)} resident`,
    );
    const firstBug = (
      await get(
        `${server.url}/rest/bug?product=${encodeURIComponent(seed.sample.largeProduct)}&limit=1&include_fields=id`,
      )
    ).body.bugs[0].id as number;
    const results: Result[] = [];
    for (const scenario of scenarios(seed, firstBug)) {
      log(`scenario: ${scenario.name}`);
      const result = await runScenario(server, scenario, { wire: true });
      log(
        `  ${result.rps.toFixed(1)} req/s, p50 ${result.p50} ms${result.problem ? `, check: ${result.problem}` : ''}`,
      );
      results.push(result);
    }
    const memoryAfter = memory(server.pid);
    const settledAfter = await server.memory();
    // The same scenarios against a second API process that keeps nothing between searches.
    log('scenarios again with TRACKER_SEARCH_KEEP=off');
    const unkeptServer = await startServer({ ...env, TRACKER_SEARCH_KEEP: 'off', BENCH_REUSE_TABLE: '1' });
    const unkept = new Map<string, Result>();
    let coldSubstring: { status: number; ms: number };
    let secondLoad: IndexStats | undefined;
    try {
      // A new instance whose first search needs the summary trigrams and the comment words.
      coldSubstring = await get(
        `${unkeptServer.url}/rest/bug?summary=${encodeURIComponent(seed.sample.summaryWord)}&include_fields=id`,
      );
      log(`first summary substring search of a new process: ${coldSubstring.ms.toFixed(0)} ms`);
      secondLoad = await unkeptServer.indexStats();
      log(`its load phases: ${JSON.stringify(secondLoad?.phases)}, parts ${JSON.stringify(secondLoad?.partMs)}`);
      for (const scenario of scenarios(seed, firstBug)) {
        const result = await runScenario(unkeptServer, scenario);
        log(`  ${scenario.name}: ${result.rps.toFixed(1)} req/s, p50 ${result.p50} ms`);
        unkept.set(scenario.name, result);
      }
    } finally {
      unkeptServer.child.kill('SIGTERM');
    }
    const section = render(seed, results, unkept, {
      cold: { status: cold.status, ms: cold.ms },
      coldSubstring: { status: coldSubstring.status, ms: coldSubstring.ms },
      loads: { first: firstLoad, second: secondLoad },
      memory: { before: memoryBefore, after: memoryAfter },
      settled: { before: settledBefore, loaded: settledLoaded, after: settledAfter },
      seedSeconds,
      reused: seeded !== undefined,
    });
    if (ONLY.length > 0) {
      // A table of some scenarios would replace the whole one: a partial run only prints.
      log(`BENCH_SCENARIOS is set: ${OUTPUT} left as it was`);
    } else {
      const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '# Benchmarks\n';
      writeFileSync(OUTPUT, mergeSection(current, BUGS, section));
      log(`wrote ${OUTPUT}`);
    }
  } finally {
    server?.child.kill('SIGTERM');
    await engines.stop();
  }
}

const USAGE = `Usage: npm run bench:search [-- --help]

Seeds an in-memory DynamoDB Local with BENCH_BUGS bugs, measures bug searches against the API
(about 15 minutes with 100,000 bugs; needs Java 17+ like \`npm start\`), then again against a
second API process that keeps nothing, and writes the "Search at scale" section of
docs/benchmarks.md. It takes no arguments; the environment changes the run:

  BENCH_BUGS=100000     bugs to seed (a million needs NODE_OPTIONS=--max-old-space-size=14000, as the
                        seed is generated in memory, and BENCH_DATA_DIR: in memory, DynamoDB Local
                        grew to 18 GB at 900,000 bugs and a 24 GB machine killed it)
  BENCH_SEED=1          seed of the generator
  BENCH_DURATION=10     seconds measured per scenario
  BENCH_WARMUP=2        seconds of warm-up per scenario (not counted)
  BENCH_CONNECTIONS=8   requests in flight
  BENCH_OUTPUT=path     the document to write the section into (docs/benchmarks.md)
  BENCH_PROFILE=dir     save the API process's CPU profile there (open it in Chrome's DevTools)
  BENCH_SCENARIOS='a;b' run only the scenarios whose names start with these, such as
                        'quicksearch;1,000-bug'; results are printed and no section is written
  BENCH_TABLE_ITEMS=bugs  write only what searches read to the table (bug items); comments, history
                        and attachments go into the search snapshot only. A million bugs are then 1
                        million items instead of 6.6 million, which DynamoDB Local holds in memory
  BENCH_DATA_DIR=dir    seed into this directory (DynamoDB Local on disk; a tmpfs such as /dev/shm
                        is faster than a disk, but slower than memory as the file grows: about
                        100 bugs/s at a million here) and reuse it on the next run with the same sizes:
                        that run rewrites the search snapshot as the code now writes it, then
                        measures. A directory holding anything else is refused.
`;

const wantsHelp = process.argv.includes('--help') || process.argv.includes('-h');
if (process.argv[1]?.endsWith('search.ts') && wantsHelp) {
  process.stdout.write(USAGE);
} else if (process.argv[1]?.endsWith('search.ts')) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
