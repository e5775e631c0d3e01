/**
 * The cold-start part of `npm run bench` (skipped with BENCH_COLD=0).
 *
 * 1. Bundles a few representative handlers with esbuild's JS API into a temporary directory,
 *    with the options the CDK stack gives NodejsFunction (BUNDLING in lib/trackerFunction.ts,
 *    translated the way aws-cdk-lib's bundler translates them into esbuild arguments).
 * 2. For each handler, BENCH_COLD_RUNS times (5), round robin: a fresh `node` process
 *    (bench/coldStartChild.mjs) with the deployed function's environment (NODE_OPTIONS=
 *    --enable-source-maps, the table, Lambda's variables) pointed at the benchmark's DynamoDB Local
 *    table times `import()` of the bundle (Lambda's init phase, as far as our code goes), the first
 *    handler call with an API Gateway HTTP API (payload 2.0) event and a second, warm call.
 *
 * Nothing of Lambda itself (sandbox, code download, runtime start) is or can be measured here.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { planHandlers } from '../lib/handlerPlan.ts';
import { type StackBundling, stackBundling } from '../lib/stackBundling.ts';
import { buildEvent } from '../local/apiGatewayEmulator.ts';
import { RouteMatcher } from '../shared/http/routeMatcher.ts';
import { type HttpMethod, routes } from '../shared/routes.ts';
import { ENV } from '../shared/storage/tableSchema.ts';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const CHILD_SCRIPT = join(BENCH_DIR, 'coldStartChild.mjs');
const RESULT_PREFIX = 'BENCH_COLD_RESULT ';
const CHILD_TIMEOUT_MS = 30_000;
/** What the stack puts in every function's NODE_OPTIONS (createTrackerFunction sets none). */
const STACK_NODE_OPTIONS: string = '';
/** A plausible API Gateway domain for the Host header and requestContext.domainName. */
const API_DOMAIN = 'abcdef1234.execute-api.us-east-1.amazonaws.com';

export interface ColdRequest {
  method: HttpMethod;
  path: string;
  auth: 'anonymous' | 'API key' | 'password';
}

/** One request per handler; the handler module comes from the route table. */
export const COLD_REQUESTS: ColdRequest[] = [
  { method: 'GET', path: '/rest/version', auth: 'anonymous' },
  { method: 'GET', path: '/rest/whoami', auth: 'API key' },
  { method: 'GET', path: '/rest/product/TestProduct', auth: 'anonymous' },
  { method: 'GET', path: '/rest/field/bug', auth: 'anonymous' },
  { method: 'POST', path: '/rest/login', auth: 'password' },
];

export interface ColdStartSetup {
  /** Load-only processes per function of the stack (every handler, not just COLD_REQUESTS). */
  loadRuns: number;
  root: string;
  dynamodbEndpoint: string;
  s3Endpoint: string;
  table: string;
  bucket: string;
  apiKey: string;
  /** Password logins for the login handler, one per run, round robin. */
  logins: Array<{ login: string; password: string }>;
  runs: number;
  log: (message: string) => void;
  interrupted: () => boolean;
}

interface ColdRun {
  nodeStartMs: number;
  loadMs: number;
  /** CPU time (user + system) of the module load. */
  loadCpuMs: number;
  firstMs: number;
  warmMs: number;
  rss: number;
}

export interface ColdHandlerResult {
  module: string;
  request: ColdRequest;
  code: number;
  map: number;
  gzipped: number;
  runs: ColdRun[];
  /** Runs that failed or answered something other than 200 (not in `runs`). */
  problems: string[];
  /** Handler log lines written to stdout, over all runs (request logging is on, as deployed). */
  logLines: number;
}

/** One function of the stack: its bundle and the module load of fresh processes importing it. */
export interface FunctionBundle {
  module: string;
  code: number;
  map: number;
  gzipped: number;
  /** Module load (ms) of each load-only process; empty when only sizes were measured. */
  loads: number[];
  /** CPU time (ms) of the same loads. */
  loadCpus: number[];
  problems: string[];
}

export interface ColdStartReport {
  runs: number;
  /** Load-only processes per function. */
  loadRuns: number;
  handlers: ColdHandlerResult[];
  /** Every function of the stack (handlerPlan.ts), largest bundle first. */
  functions: FunctionBundle[];
  esbuildVersion: string;
  /** The options as given to esbuild, in words. */
  bundling: string;
  /** BUNDLING keys this file does not translate (the bundles may differ from the stack's). */
  unreplicated: string[];
  runtime: string;
  memoryMb: number;
  buildSeconds: number;
  seconds: number;
}

// Bundles

type Esbuild = typeof import('esbuild');

/** Every module bundled as the stack bundles it, in parallel; module -> path of its index.mjs. */
export async function bundleFunctions(
  esbuild: Esbuild,
  stack: StackBundling,
  modules: readonly string[],
  workDir: string,
): Promise<Map<string, string>> {
  // One esbuild run for all of them: each is still its own bundle, as the stack builds it.
  await esbuild.build(stack.optionsForMany(modules, workDir));
  return new Map(modules.map((module) => [module, join(workDir, stack.directoryFor(module), stack.outFile)]));
}

export function sizesOf(bundle: string): { code: number; map: number; gzipped: number } {
  const code = readFileSync(bundle);
  let map = 0;
  try {
    map = statSync(`${bundle}.map`).size;
  } catch {
    // no source map
  }
  return { code: code.length, map, gzipped: gzipSync(code).length };
}

/** Sizes only (BENCH_COLD=0): every function bundled as the stack does, nothing run. */
export async function measureBundleSizes(
  root: string,
): Promise<{ functions: FunctionBundle[]; esbuildVersion: string; bundling: string }> {
  const esbuild = await import('esbuild');
  const stack = await stackBundling(root);
  const workDir = mkdtempSync(join(os.tmpdir(), 'tracker-bench-bundles-'));
  try {
    const modules = planHandlers(routes).map((plan) => plan.module);
    const bundles = await bundleFunctions(esbuild, stack, modules, workDir);
    const functions = modules.map((module) => ({
      module,
      ...sizesOf(bundles.get(module)!),
      loads: [],
      loadCpus: [],
      problems: [],
    }));
    return {
      functions: functions.sort((a, b) => b.code - a.code),
      esbuildVersion: esbuild.version,
      bundling: stack.describe,
    };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

// Events and the child processes

function eventFor(request: ColdRequest, setup: ColdStartSetup, runIndex: number) {
  const match = new RouteMatcher(routes).match(request.method, request.path);
  if (!match) throw new Error(`no route for ${request.method} ${request.path}`);
  const headers: Record<string, string> = {
    host: API_DOMAIN,
    'user-agent': 'tracker-bench/1.0',
    accept: 'application/json',
    'x-amzn-trace-id': `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    'x-forwarded-for': '203.0.113.10',
    'x-forwarded-port': '443',
    'x-forwarded-proto': 'https',
  };
  let body = Buffer.alloc(0);
  if (request.auth === 'API key') headers['x-bugzilla-api-key'] = setup.apiKey;
  if (request.auth === 'password') {
    const user = setup.logins[runIndex % setup.logins.length]!;
    body = Buffer.from(JSON.stringify({ login: user.login, password: user.password }));
    headers['content-type'] = 'application/json';
  }
  if (body.length > 0) headers['content-length'] = String(body.length);
  const make = () =>
    buildEvent(
      { method: request.method, url: request.path, headers, body, sourceIp: '203.0.113.10' },
      `${request.method} ${match.route.path}`,
      Object.keys(match.pathParameters).length > 0 ? match.pathParameters : undefined,
      randomUUID(),
    );
  return { module: match.route.handler, events: [make(), make()] };
}

interface ChildAnswer {
  nodeStartMs?: number;
  loadMs?: number;
  loadCpuMs?: number;
  first?: { ms: number; status: number; body?: string };
  warm?: { ms: number; status: number; body?: string };
  rss?: number;
  error?: string;
}

function runChild(
  bundle: string,
  module: string,
  events: unknown[],
  setup: ColdStartSetup,
  memoryMb: number,
  runtime: string,
): Promise<{ answer?: ChildAnswer; logLines: number; failure?: string }> {
  const functionName = `tracker-${module.replace('/', '-')}`;
  // Lambda's environment as far as our code can see it; nothing of the bench process leaks in.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    ...(STACK_NODE_OPTIONS ? { NODE_OPTIONS: STACK_NODE_OPTIONS } : {}),
    NODE_ENV: 'production',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_EXECUTION_ENV: `AWS_Lambda_${runtime}`,
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    [ENV.table]: setup.table,
    [ENV.bucket]: setup.bucket,
    [ENV.dynamodbEndpoint]: setup.dynamodbEndpoint,
    [ENV.s3Endpoint]: setup.s3Endpoint,
    // Local only: the SDK's warning about this machine's Node.js version (Lambda runs nodejs22.x).
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  return new Promise((done) => {
    const child = spawn(process.execPath, [CHILD_SCRIPT, bundle, JSON.stringify({ functionName, events })], {
      cwd: dirname(bundle),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      done({ logLines: 0, failure: error.message });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const lines = stdout.split('\n').filter(Boolean);
      const resultLine = lines.find((line) => line.startsWith(RESULT_PREFIX));
      const logLines = lines.length - (resultLine ? 1 : 0);
      if (!resultLine) {
        const why =
          signal === 'SIGKILL'
            ? `no answer within ${CHILD_TIMEOUT_MS / 1000} s`
            : `exited (${signal ?? code}) without a result`;
        done({ logLines, failure: `${why}: ${stderr.trim().split('\n').slice(-3).join(' | ')}` });
        return;
      }
      done({ answer: JSON.parse(resultLine.slice(RESULT_PREFIX.length)) as ChildAnswer, logLines });
    });
  });
}

export async function measureColdStarts(setup: ColdStartSetup): Promise<ColdStartReport> {
  const started = performance.now();
  const esbuild = await import('esbuild');
  const stack = await stackBundling(setup.root);
  const workDir = mkdtempSync(join(os.tmpdir(), 'tracker-bench-cold-'));
  try {
    const plans = COLD_REQUESTS.map((request) => ({ request, module: eventFor(request, setup, 0).module }));
    const modules = planHandlers(routes).map((plan) => plan.module);
    setup.log(
      `bundling all ${modules.length} functions as the stack does (esbuild ${esbuild.version}: ${stack.describe})...`,
    );
    const buildStarted = performance.now();
    const bundles = await bundleFunctions(esbuild, stack, modules, workDir);
    const buildSeconds = (performance.now() - buildStarted) / 1000;
    if (stack.unreplicated.length > 0)
      setup.log(`  BUNDLING options not replicated here: ${stack.unreplicated.join(', ')}`);
    const functions = modules.map((module) => ({
      module,
      ...sizesOf(bundles.get(module)!),
      loads: [] as number[],
      loadCpus: [] as number[],
      problems: [] as string[],
    }));

    const handlers: ColdHandlerResult[] = plans.map(({ request, module }) => ({
      module,
      request,
      ...sizesOf(bundles.get(module)!),
      runs: [],
      problems: [],
      logLines: 0,
    }));

    setup.log(`module load: ${functions.length} functions × ${setup.loadRuns} fresh node processes (round robin)...`);
    for (let run = 0; run < setup.loadRuns; run++) {
      for (const fn of functions) {
        if (setup.interrupted()) throw new Error('interrupted');
        const outcome = await runChild(bundles.get(fn.module)!, fn.module, [], setup, stack.memoryMb, stack.runtime);
        const problem = outcome.failure ?? outcome.answer?.error;
        if (problem || outcome.answer?.loadMs === undefined)
          fn.problems.push(`run ${run + 1}: ${problem ?? 'no answer'}`);
        else {
          fn.loads.push(outcome.answer.loadMs);
          fn.loadCpus.push(outcome.answer.loadCpuMs ?? NaN);
        }
      }
    }
    functions.sort((a, b) => b.code - a.code);

    setup.log(`cold starts: ${handlers.length} handlers × ${setup.runs} fresh node processes (round robin)...`);
    for (let run = 0; run < setup.runs; run++) {
      for (const handler of handlers) {
        if (setup.interrupted()) throw new Error('interrupted');
        const { events } = eventFor(handler.request, setup, run);
        const outcome = await runChild(
          bundles.get(handler.module)!,
          handler.module,
          events,
          setup,
          stack.memoryMb,
          stack.runtime,
        );
        handler.logLines += outcome.logLines;
        const answer = outcome.answer;
        const problem =
          outcome.failure ??
          answer?.error ??
          (answer?.first?.status !== 200
            ? `first call answered ${answer?.first?.status}: ${answer?.first?.body ?? ''}`
            : undefined) ??
          (answer?.warm?.status !== 200
            ? `second call answered ${answer?.warm?.status}: ${answer?.warm?.body ?? ''}`
            : undefined);
        if (problem || !answer) {
          handler.problems.push(`run ${run + 1}: ${problem ?? 'no answer'}`);
          continue;
        }
        handler.runs.push({
          nodeStartMs: answer.nodeStartMs!,
          loadMs: answer.loadMs!,
          loadCpuMs: answer.loadCpuMs ?? NaN,
          firstMs: answer.first!.ms,
          warmMs: answer.warm!.ms,
          rss: answer.rss!,
        });
      }
    }
    for (const handler of handlers) {
      const load = stats(handler.runs.map((r) => r.loadMs));
      const first = stats(handler.runs.map((r) => r.firstMs));
      const warm = stats(handler.runs.map((r) => r.warmMs));
      setup.log(
        `  ${handler.module}: load ${fmt(load.median)} ms (max ${fmt(load.max)}), first call ${fmt(first.median)} ms (max ${fmt(first.max)}), warm ${fmt(warm.median)} ms${handler.problems.length ? ` — ${handler.problems.length} failed runs: ${handler.problems[0]}` : ''}`,
      );
    }
    return {
      runs: setup.runs,
      loadRuns: setup.loadRuns,
      handlers,
      functions,
      esbuildVersion: esbuild.version,
      bundling: stack.describe,
      unreplicated: stack.unreplicated,
      runtime: stack.runtime,
      memoryMb: stack.memoryMb,
      buildSeconds,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

// The report section

function stats(values: number[]): { median: number; max: number } {
  if (values.length === 0) return { median: NaN, max: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, max: sorted[sorted.length - 1]! };
}

function fmt(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '–';
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Milliseconds: one decimal below 10 ms, whole numbers above. */
const msCell = (value: number) => fmt(value, Math.abs(value) < 10 ? 1 : 0);

const cell = (values: number[]) => {
  const { median, max } = stats(values);
  return `${msCell(median)} / ${msCell(max)}`;
};

/** Markdown lines of the "Cold starts" section; `skipped` explains a section that was not measured. */
export function renderColdStarts(
  report: ColdStartReport | undefined,
  skipped: string | undefined,
  machineArch: string,
): string[] {
  const lines: string[] = ['## Cold starts', ''];
  if (!report) {
    lines.push(`Not measured in this run: ${skipped ?? 'unknown reason'}.`, '');
    return lines;
  }
  lines.push(
    `What our code adds to the first request a new Lambda instance serves. Each handler below is bundled as the stack bundles it (esbuild ${report.esbuildVersion} with lib/trackerFunction.ts's BUNDLING: ${report.bundling}), then, ${report.runs} times per handler, a fresh \`node\` process with the deployed function's environment (${STACK_NODE_OPTIONS ? `\`NODE_OPTIONS=${STACK_NODE_OPTIONS}\`` : 'no `NODE_OPTIONS`: source maps are read only when an error is logged'}, ${report.runtime}'s Lambda variables, the benchmark's DynamoDB Local table) times: **module load**, the \`import()\` of index.mjs (what Lambda's init phase runs of our code: parsing and evaluating the bundle, the SDK included); the **first invocation** of the exported \`handler\` with an API Gateway HTTP API (payload 2.0) event, which creates the DynamoDB client and opens its first connection; and a second, **warm invocation**: the same call again in the same process (code already loaded, connection open, but little JIT warm-up yet, unlike the Results table). Calls go straight from the handler to DynamoDB Local over loopback (no HTTP server, no load generator); request logging is on, as deployed.`,
  );
  if (report.unreplicated.length > 0) {
    lines.push('');
    lines.push(
      `**Caveat:** BUNDLING options not replicated by bench/coldStart.ts, so these bundles may differ from the deployed ones: ${report.unreplicated.join(', ')}.`,
    );
  }
  lines.push('');
  lines.push(
    '| Handler | Request | index.mjs | source map | Module load ms | Module load CPU ms | First invocation ms | Load + first ms | Warm invocation ms | RSS after |',
  );
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const handler of report.handlers) {
    const { request } = handler;
    const auth = request.auth === 'anonymous' ? '' : ` (${request.auth})`;
    if (handler.runs.length === 0) {
      lines.push(
        `| ${handler.module} | \`${request.method} ${request.path}\`${auth} | ${size(handler.code)} | ${size(handler.map)} | failed | | | | | |`,
      );
      continue;
    }
    lines.push(
      `| ${handler.module} | \`${request.method} ${request.path}\`${auth} | ${size(handler.code)} | ${size(handler.map)} | ${cell(handler.runs.map((r) => r.loadMs))} | ${cell(handler.runs.map((r) => r.loadCpuMs))} | ${cell(handler.runs.map((r) => r.firstMs))} | ${cell(handler.runs.map((r) => r.loadMs + r.firstMs))} | ${cell(handler.runs.map((r) => r.warmMs))} | ${size(stats(handler.runs.map((r) => r.rss)).median)} |`,
    );
  }
  const all = report.handlers.flatMap((handler) => handler.runs);
  const nodeStart = stats(all.map((r) => r.nodeStartMs));
  lines.push('');
  lines.push(
    `Times are median / max over ${report.runs} processes per handler, in milliseconds (performance.now() around the \`import()\` and around each \`await handler(event, context)\`). Load + first = what a user waits for beyond Lambda's own start, taken per process. RSS = the process's resident memory after the warm call (median), against the function's ${report.memoryMb} MB. For reference, Node.js itself took ${fmt(nodeStart.median)} ms (median; max ${fmt(nodeStart.max)}) from process start to the first line of the runner script here; that is part of the runtime start below, not of the table. Bundling the ${report.handlers.length} handlers took ${fmt(report.buildSeconds, 1)} s; the whole cold-start part ${fmt(report.seconds, 0)} s.`,
  );
  const problems = report.handlers.filter((handler) => handler.problems.length > 0);
  if (problems.length > 0) {
    lines.push('');
    lines.push('Runs left out of the table because they failed or did not answer 200:');
    lines.push('');
    for (const handler of problems)
      lines.push(
        `- ${handler.module}: ${handler.problems.map((problem) => problem.replace(/[|\n]/g, ' ')).join('; ')}`,
      );
  } else {
    lines.push('');
    lines.push('Every first and warm invocation answered 200.');
  }
  lines.push('');
  lines.push(
    `**Not included:** Lambda's own share of a cold start (placing the execution environment, downloading and unpacking the code, starting Node.js and the runtime client before our module is imported) is **not measured here** and cannot be off AWS; AWS's Lambda operator guide gives whole cold starts as anywhere "from under 100 ms to over 1 second", without breaking that share out. On a deployed function, CloudWatch's Init Duration covers the runtime start plus what the module load column measures. The first invocation here talks to DynamoDB Local over plain HTTP on loopback with a static local key; on AWS it opens a TLS connection to the regional DynamoDB endpoint and resolves the role's credentials from the environment, and every DynamoDB call has real network latency, so first (and warm) invocations will differ. The hardware differs too: the stack runs on arm64 (Graviton) with ${report.memoryMb} MB, and Lambda gives a function CPU in proportion to memory (one vCPU's worth at 1,769 MB, so about 0.3 of one at ${report.memoryMb} MB), while these numbers come from a \`${machineArch}\` machine where a process can use up to a whole core, with Node.js ${process.version} rather than ${report.runtime}; CPU-bound parts such as module load and the login's scrypt may take several times longer on the deployed function.`,
  );
  lines.push('');
  return lines;
}
