/**
 * Turns one run of `npm run bench` into docs/benchmarks.md: the machine, what runs where, the
 * results table, DynamoDB calls, problems seen, cold starts, the baseline, Bugzilla 5.2 and bundles.
 */
import { BASELINE } from './baseline.ts';
import type { Seeded } from './benchSeed.ts';
import { CONNECTIONS, DURATION_S, GLOBAL_WARMUP_S, kib, round, WARMUP_S } from './benchSettings.ts';
import type { Calibration, ItemSizes } from './calibration.ts';
import { type ColdStartReport, type FunctionBundle, renderColdStarts } from './coldStart.ts';
import type { ScenarioResult } from './scenarioRunner.ts';

const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d+Z$/, 'Z');

// The report

export interface Report {
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

export function sumValues(record: Record<string, number>): number {
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

function renderBaseline(report: Report): string[] {
  const lines = ['## Before and after issue 11 (lean functions, catalogue cache)', ''];
  lines.push(
    'The "before" columns are constants in bench/baseline.ts (`BASELINE`), measured on this machine before the changes; the "now" columns come from this run. Calls per request do not depend on the machine; wall-clock times do (compare the load averages of the runs), so module loads are also given in CPU time (user + system of the `import()`), which other processes barely change.',
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

export function renderReport(report: Report): string {
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
