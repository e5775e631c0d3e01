/**
 * `npm run bench`: measures the API on this machine and writes docs/benchmarks.md.
 *
 * 1. Starts the local engines (DynamoDB Local in memory, s3rver in a temp directory) in this process.
 * 2. Spawns bench/server.ts as a separate Node process (fresh table, bootstrapped installation with
 *    a known administrator API key, the API Gateway emulator on a free 127.0.0.1 port), so the
 *    load generator and the server do not share an event loop (bench/serverProcess.ts).
 * 3. Seeds a catalogue and bugs through the HTTP API (bench/benchSeed.ts).
 * 4. Drives each scenario (bench/scenarios.ts) with autocannon over loopback, warm-up then a fixed
 *    duration, sampling the processes' CPU from /proc (bench/scenarioRunner.ts, processSampler.ts).
 * 5. Stops the server process, then measures cold starts against the same DynamoDB Local table
 *    (bench/coldStart.ts: a few handlers bundled as the stack bundles them, each imported and
 *    invoked in fresh `node` processes), then stops the engines.
 * 6. Writes docs/benchmarks.md (bench/markdownReport.ts), exits 0.
 *
 * This file only wires those steps together; the environment it reads is in USAGE below.
 * Numbers go into the document only; nothing here asserts on them.
 */

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { JavaMissingError, type LocalEngines, startEngines } from '../local/engines.ts';
import {
  importSectionOf,
  keptSectionsOf,
  mergeImportSection,
  mergeKeptSections,
  mergeSearchSection,
  searchSectionOf,
} from './benchmarkSections.ts';
import { seedThroughApi } from './benchSeed.ts';
import {
  ADMIN,
  COLD,
  COLD_RUNS,
  elapsed,
  GLOBAL_WARMUP_S,
  LOAD_RUNS,
  log,
  OUTPUT,
  ROOT,
  round,
  USER_PASSWORD,
} from './benchSettings.ts';
import { type Calibration, calibrateDynamodb, measureItemSizes } from './calibration.ts';
import { type ColdStartReport, measureBundleSizes, measureColdStarts } from './coldStart.ts';
import { type Report, renderReport } from './markdownReport.ts';
import { findJavaChild, peakRss } from './processSampler.ts';
import {
  checkInterrupted,
  Interrupted,
  interrupt,
  isInterrupted,
  runAutocannon,
  runScenarios,
  scenarioOptions,
} from './scenarioRunner.ts';
import { selectScenarios } from './scenarios.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Usage: npm run bench [-- --help]

Measures the API on this machine (about 5 minutes; needs Java 17+ like \`npm start\`) and writes
docs/benchmarks.md. It takes no arguments; the environment changes the run:

  BENCH_DURATION=10     seconds measured per scenario
  BENCH_WARMUP=2        seconds of warm-up per scenario (not counted)
  BENCH_CONNECTIONS=8   requests in flight
  BENCH_USERS=50        users seeded through the API
  BENCH_BUGS=200        bugs seeded through the API
  BENCH_COLD=0          skip the cold starts and module loads (~15 s)
  BENCH_COLD_RUNS=5     fresh processes per cold-start handler
  BENCH_LOAD_RUNS=3     load-only processes per function of the stack
  BENCH_OUTPUT=path     where to write the report (docs/benchmarks.md)
  BENCH_ONLY=name,name  run only these scenarios (needs BENCH_OUTPUT: a partial run never
                        replaces docs/benchmarks.md), e.g. BENCH_ONLY="get bug,bug history"
`;

async function main(): Promise<number> {
  const scenarios = selectScenarios();
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
    if (isInterrupted()) {
      cleanUp().finally(() => process.exit(130));
      return;
    }
    log('interrupted: stopping the load, the server and the engines (docs not written)');
    interrupt();
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
    const seeded = await seedThroughApi(server.url);
    phases.seed = elapsed(phase);
    checkInterrupted();
    log(
      `seeded ${seeded.users.length} users and ${seeded.products.length} products with ${seeded.requests} requests in ${round(seeded.seconds)} s`,
    );

    // DynamoDB Local's JIT needs a while to warm up (GetItem with 8 in flight is several times
    // faster after ~15 s of load than at first): warm it and every scenario's code path once.
    phase = performance.now();
    log(
      `warming up DynamoDB Local and every scenario once (${GLOBAL_WARMUP_S} s + ${scenarios.length} × 1 s, not counted)...`,
    );
    await calibrateDynamodb(engines.dynamodbEndpoint, table, GLOBAL_WARMUP_S, 0);
    for (const scenario of scenarios)
      await runAutocannon({ ...scenarioOptions(server, scenario, seeded), duration: 1 });
    phases.warmup = elapsed(phase);

    phase = performance.now();
    const { results, failure } = await runScenarios(server, scenarios, seeded, javaPid);
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
          interrupted: isInterrupted,
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
    // Keep the sections that `npm run bench:search`, `npm run bench:import` and the hand-run
    // measurements (bundle composition, index memory) write.
    const previous = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '';
    writeFileSync(
      OUTPUT,
      mergeKeptSections(
        mergeImportSection(
          mergeSearchSection(renderReport(report), searchSectionOf(previous)),
          importSectionOf(previous),
        ),
        keptSectionsOf(previous),
      ),
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

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(USAGE);
  process.exit(0);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
