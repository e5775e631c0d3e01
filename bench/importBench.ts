/**
 * `npm run bench:import`: the importer's speed, Tracker to Tracker on this machine. Starts DynamoDB
 * Local in memory, serves a source installation from its own process (bench/server.ts), seeds it
 * with BENCH_BUGS bugs (bench/seedInstallation.ts), then imports it with runImport into a fresh
 * installation (a new table in the same DynamoDB Local) once per connection count, each run in a
 * child process of its own so its CPU time (process.cpuUsage) is the importer's alone. Writes the
 * "Import" section of docs/benchmarks.md (between markers, so `npm run bench` and
 * `npm run bench:search` keep it). Numbers go into the document only.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { startEngines } from '../local/engines.ts';
import { lineProgress } from '../local/import/progress.ts';
import type { ImportReport } from '../local/import/report.ts';
import { ensureBucket, ensureTable } from '../local/provision.ts';
import { bootstrapInstallation } from '../shared/application/instance/bootstrapInstallation.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import { IMPORT_SECTION_END, IMPORT_SECTION_START, mergeImportSection } from './benchmarkSections.ts';
import { ADMIN, ROOT } from './benchSettings.ts';
import { seedInstallation } from './seedInstallation.ts';
import { startServerProcess } from './serverProcess.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Source and target tables of 100,000 bugs share one in-memory DynamoDB Local: 2 GB ran out.
process.env.TRACKER_DYNAMODB_HEAP ??= '6g';
const num = (name: string, fallback: number) => (Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback);
const BUGS = num('BENCH_BUGS', 5_000);
const CONNECTIONS = (process.env.BENCH_IMPORT_CONNECTIONS ?? '8,16')
  .split(',')
  .map(Number)
  .filter((value) => value > 0);
const OUTPUT = resolve(ROOT, process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md');
const RESULT_PREFIX = 'BENCH_IMPORT_RESULT ';
const log = (message: string) => console.log(`[bench:import] ${message}`);

/** What one import run measured (the child process's answer). */
interface RunResult {
  connections: number;
  wallSeconds: number;
  cpu: { user: number; system: number };
  /** Share of the wall time the importer's event loop was busy (performance.eventLoopUtilization). */
  eventLoopBusy: number;
  /** Items the import added to the target table (a Scan count, before and after). */
  items: number;
  report: Pick<ImportReport, 'counts' | 'phases' | 'warnings' | 'skipped'>;
  /** CPU seconds the source's API process spent meanwhile (filled in by the parent). */
  sourceCpuSeconds?: number;
  /** CPU seconds DynamoDB Local and s3rver spent meanwhile (filled in by the parent). */
  enginesCpuSeconds?: number;
}

interface ChildSettings {
  connections: number;
  from: string;
  apiKey: string;
  dynamodbEndpoint: string;
  s3Endpoint: string;
  table: string;
}

/** CPU seconds (user + system) of a process, from /proc. */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of this process's descendants other than `except` (DynamoDB Local and s3rver). */
function enginesCpuSeconds(except: number[]): number {
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  let total = 0;
  const pending = children(process.pid);
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (except.includes(pid)) continue;
    try {
      total += processCpuSeconds(pid);
    } catch {
      // gone meanwhile
    }
    pending.push(...children(pid));
  }
  return total;
}

async function countItems(endpoint: string, table: string): Promise<number> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let count = 0;
  let start: Record<string, any> | undefined;
  try {
    do {
      const page = await client.send(new ScanCommand({ TableName: table, Select: 'COUNT', ExclusiveStartKey: start }));
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    client.destroy();
  }
  return count;
}

/** The child: a fresh target installation, one runImport, one result line. */
async function child(settings: ChildSettings): Promise<void> {
  const { runImport } = await import('../local/import/runImport.ts');
  const target = {
    table: settings.table,
    bucket: settings.table,
    dynamodbEndpoint: settings.dynamodbEndpoint,
    s3Endpoint: settings.s3Endpoint,
    description: `table ${settings.table}`,
  };
  process.env[ENV.dynamodbEndpoint] = target.dynamodbEndpoint;
  process.env[ENV.s3Endpoint] = target.s3Endpoint;
  process.env[ENV.table] = target.table;
  process.env[ENV.bucket] = target.bucket;
  process.env.TRACKER_REQUEST_LOG = 'off';
  await ensureTable(target.dynamodbEndpoint, target.table);
  await ensureBucket(target.s3Endpoint, target.bucket);
  await bootstrapInstallation({ adminLogin: ADMIN.login, adminPassword: ADMIN.password });
  const itemsBefore = await countItems(target.dynamodbEndpoint, target.table);

  const cpuBefore = process.cpuUsage();
  const loopBefore = performance.eventLoopUtilization();
  const started = performance.now();
  const report = await runImport({
    from: settings.from,
    apiKey: settings.apiKey,
    connections: settings.connections,
    target,
    progress: lineProgress((line) => console.log(line), 3_000),
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const loop = performance.eventLoopUtilization(loopBefore);
  const items = (await countItems(target.dynamodbEndpoint, target.table)) - itemsBefore;
  const result: RunResult = {
    connections: settings.connections,
    wallSeconds,
    cpu: { user: cpu.user / 1e6, system: cpu.system / 1e6 },
    eventLoopBusy: loop.utilization,
    items,
    report: { counts: report.counts, phases: report.phases, warnings: report.warnings, skipped: report.skipped },
  };
  console.log(`${RESULT_PREFIX}${JSON.stringify(result)}`);
}

/** One import in its own process; BENCH_PROFILE=dir saves its CPU profile there. */
function runChild(settings: ChildSettings): Promise<RunResult> {
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_PROFILE)}`]
    : [];
  const process_ = spawn(process.execPath, [...profile, '--import', 'tsx', fileURLToPath(import.meta.url)], {
    cwd: ROOT,
    env: { ...process.env, BENCH_IMPORT_CHILD: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let result: RunResult | undefined;
  createInterface({ input: process_.stdout! }).on('line', (line) => {
    if (line.startsWith(RESULT_PREFIX)) result = JSON.parse(line.slice(RESULT_PREFIX.length));
    else log(`  [${settings.connections} connections] ${line}`);
  });
  return new Promise((done, fail) =>
    process_.once('exit', (code) =>
      result && code === 0 ? done(result) : fail(new Error(`the import process exited with ${code}`)),
    ),
  );
}

const fmt = (value: number, digits = 0) => value.toLocaleString('en', { maximumFractionDigits: digits });

function render(results: RunResult[], seed: { seconds: number; items: number }): string {
  const first = results[0].report.counts;
  const lines: string[] = [IMPORT_SECTION_START, '## Import (`npm run bench:import`)', ''];
  lines.push(
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}. Tracker to Tracker: a source installation seeded with ${fmt(BUGS)} bugs (${fmt(seed.items)} items, seeded in ${fmt(seed.seconds)} s) served by the API in its own process, imported with \`runImport\` (batches of 100 bugs) into a fresh installation in the same in-memory DynamoDB Local, each run in its own process. Load average (1 min) ${os.loadavg()[0].toFixed(1)} at the end. The machine's two cores run the source API, DynamoDB Local (both tables) and the importer at once, and were shared with other work: lower bounds.`,
  );
  lines.push('');
  lines.push(
    `**Data:** ${fmt(first.bugs ?? 0)} bugs, ${fmt(first.comments ?? 0)} comments, ${fmt(first['history entries'] ?? 0)} history entries, ${fmt(first.flags ?? 0)} flags, ${fmt(first.attachments ?? 0)} attachments (the seed makes none).`,
  );
  lines.push('');
  lines.push(
    '| connections | end to end | read | accounts | catalogue | bugs phase | finish | bugs/s (bugs phase) | items written | items/s (bugs phase) | importer CPU (user + system) | importer CPU / wall | source API CPU | DynamoDB Local + S3 CPU |',
  );
  lines.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const result of results) {
    const phase = (name: string) => result.report.phases.find((entry) => entry.name === name)?.seconds ?? 0;
    const cpu = result.cpu.user + result.cpu.system;
    const bugs = phase('bugs');
    lines.push(
      `| ${result.connections} | ${fmt(result.wallSeconds, 1)} s | ${fmt(phase('read'), 1)} s | ${fmt(phase('accounts'), 1)} s | ${fmt(phase('catalogue'), 1)} s | ${fmt(bugs, 1)} s | ${fmt(phase('finish'), 1)} s | ${fmt((result.report.counts.bugs ?? 0) / bugs, 1)} | ${fmt(result.items)} | ${fmt(result.items / bugs)} | ${fmt(cpu, 1)} s (${fmt(result.cpu.user, 1)} + ${fmt(result.cpu.system, 1)}) | ${fmt((100 * cpu) / result.wallSeconds)} % | ${fmt(result.sourceCpuSeconds ?? 0, 1)} s | ${fmt(result.enginesCpuSeconds ?? 0, 1)} s |`,
    );
  }
  lines.push('');
  lines.push(
    "The bugs phase reads batches of 100 bugs (the bugs, then their comments, history and attachments, one request each with `ids=`), several batches ahead of the writer, and writes each batch's items with BatchWriteItem (25 items a call, 12 calls in flight) while the next batches are read and written. \"Importer CPU / wall\" is the importer process's own CPU time over the run's wall time: far below 100 % of one core, the importer waits on the source and on DynamoDB Local, which share the two cores with it. Items written counts the target's items after the run minus the new installation's own.",
  );
  lines.push(IMPORT_SECTION_END);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const engines = await startEngines();
  const table = `bench-import-src-${randomBytes(4).toString('hex')}`;
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    Object.assign(process.env, {
      [ENV.dynamodbEndpoint]: engines.dynamodbEndpoint,
      [ENV.s3Endpoint]: engines.s3Endpoint,
      [ENV.table]: table,
      [ENV.bucket]: table,
    });
    await ensureTable(engines.dynamodbEndpoint, table);
    server = await startServerProcess(engines, table);
    log(`source ${server.url}; seeding ${fmt(BUGS)} bugs`);
    const seed = await seedInstallation({
      bugs: BUGS,
      seed: num('BENCH_SEED', 1),
      url: server.url,
      apiKey: ADMIN.apiKey,
      log,
    });
    const results: RunResult[] = [];
    for (const connections of CONNECTIONS) {
      log(`importing with ${connections} connections`);
      const sourceCpu = processCpuSeconds(server.pid);
      const enginesCpu = enginesCpuSeconds([server.pid]);
      const result = await runChild({
        connections,
        from: `${server.url}/rest`,
        apiKey: ADMIN.apiKey,
        dynamodbEndpoint: engines.dynamodbEndpoint,
        s3Endpoint: engines.s3Endpoint,
        table: `bench-import-dst-${connections}-${randomBytes(4).toString('hex')}`,
      });
      result.sourceCpuSeconds = processCpuSeconds(server.pid) - sourceCpu;
      result.enginesCpuSeconds = enginesCpuSeconds([server.pid]) - enginesCpu;
      const bugsPhase = result.report.phases.find((entry) => entry.name === 'bugs')?.seconds ?? 0;
      const cpu = result.cpu.user + result.cpu.system;
      log(
        `  ${connections} connections: ${fmt(result.wallSeconds, 1)} s end to end, ${fmt((result.report.counts.bugs ?? 0) / bugsPhase, 1)} bugs/s and ${fmt(result.items / bugsPhase)} items/s in the bugs phase, importer CPU ${fmt(cpu, 1)} s (${fmt((100 * cpu) / result.wallSeconds)} % of wall), source API CPU ${fmt(result.sourceCpuSeconds, 1)} s, DynamoDB Local + S3 CPU ${fmt(result.enginesCpuSeconds, 1)} s`,
      );
      if (result.report.skipped.length > 0 || result.report.warnings.length > 0)
        log(
          `  skipped ${JSON.stringify(result.report.skipped).slice(0, 300)}; warnings ${result.report.warnings.join(' | ')}`,
        );
      results.push(result);
    }
    const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '# Benchmarks\n';
    writeFileSync(OUTPUT, mergeImportSection(current, render(results, seed)));
    log(`wrote ${OUTPUT}`);
  } finally {
    await server?.stop();
    await engines.stop();
  }
}

const USAGE = `Usage: npm run bench:import [-- --help]

Seeds a source installation (in-memory DynamoDB Local, the API in its own process) with BENCH_BUGS
bugs, imports it into a fresh installation with the importer once per connection count, and writes
the "Import" section of docs/benchmarks.md (about 3 minutes with 5,000 bugs; needs Java 17+ like
\`npm start\`). It takes no arguments; the environment changes the run:

  BENCH_BUGS=5000                   bugs to seed
  BENCH_SEED=1                      seed of the generator
  BENCH_IMPORT_CONNECTIONS=8,16     connection counts to import with, one run each
  BENCH_OUTPUT=path                 the document to write the section into (docs/benchmarks.md)
  BENCH_PROFILE=dir                 save each import process's CPU profile there (Chrome DevTools)
`;

const self = process.argv[1] ? resolve(process.argv[1]) === fileURLToPath(import.meta.url) : false;
const finish = (run: Promise<void>) =>
  run.then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
if (process.env.BENCH_IMPORT_CHILD) finish(child(JSON.parse(process.env.BENCH_IMPORT_CHILD) as ChildSettings));
else if (self && (process.argv.includes('--help') || process.argv.includes('-h'))) process.stdout.write(USAGE);
else if (self) finish(main());
