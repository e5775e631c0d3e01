/**
 * `npm run bench:import`: the importer's speed, Tracker to Tracker on this machine, as the issue
 * that asked for it sets it up: a seeded installation as the source, served by the API from its
 * own process and its own DynamoDB Local, imported with runImport into a fresh installation with
 * DynamoDB Local and S3 engines of its own. BENCH_IMPORT_STORAGE says whether both installations
 * keep their data in memory (the importer's own ceiling) or on disk (two data directories, as
 * `npm run seed` and `npm run import -- --data-dir` use them). Each import runs in a child process
 * of its own so its CPU time (process.cpuUsage) is the importer's alone; the child also reads the
 * CPU its target engines spent. Writes the "Import" section of docs/benchmarks.md (between
 * markers, so `npm run bench` and `npm run bench:search` keep it). Numbers go into the document only.
 *
 * With `--from <REST root> --api-key <key>` it imports from a running source instead (a real
 * Bugzilla 5.2, issue 36): nothing is seeded, the source is counted by search, and each connection
 * count gets an import into a fresh installation; the section "Import from a running Bugzilla"
 * (its own markers) is written, with the CPU the source's Apache and MariaDB spent when they run
 * on this machine.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { relaxSdkTimeoutsForBulkTool } from '../local/bulkToolTimeouts.ts';
import { type LocalEngines, startEngines } from '../local/engines.ts';
import { openLocalTarget } from '../local/import/destination/localTarget.ts';
import { pointStorageAt } from '../local/import/destination/storageTarget.ts';
import { lineProgress } from '../local/import/progress.ts';
import type { ImportReport } from '../local/import/report.ts';
import { createBugzillaClient, probeSource, visibleBugIds } from '../local/import/source/index.ts';
import { ensureBucket, ensureTable } from '../local/provision.ts';
import { bootstrapInstallation } from '../shared/application/instance/bootstrapInstallation.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import { IMPORT_SECTION_END, IMPORT_SECTION_START, mergeImportSection } from './benchmarkSections.ts';
import { ADMIN, ROOT } from './benchSettings.ts';
import { measureEngineCeiling } from './engineCeiling.ts';
import { seedInstallation } from './seedInstallation.ts';
import { startServerProcess } from './serverProcess.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
relaxSdkTimeoutsForBulkTool();
// Neither installation runs a notification publisher here (and imports notify nobody), so their
// tables carry no change stream: DynamoDB Local would spend CPU writing one (docs/benchmarks.md,
// "Before and after issues 18 and 19") on the two cores the import is measured on. The disk
// target is opened as the CLI opens it, stream included.
process.env.BENCH_TABLE_STREAM ??= 'off';
const withStream = process.env.BENCH_TABLE_STREAM !== 'off';
// An in-memory table of 100,000 bugs (about 700,000 items) needs more than DynamoDB Local's 512 MB.
process.env.TRACKER_DYNAMODB_HEAP ??= '3g';
const num = (name: string, fallback: number) => (Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback);
const BUGS = num('BENCH_BUGS', 5_000);
const CONNECTIONS = (process.env.BENCH_IMPORT_CONNECTIONS ?? '8,16')
  .split(',')
  .map(Number)
  .filter((value) => value > 0);
const STORAGE = process.env.BENCH_IMPORT_STORAGE === 'disk' ? 'disk' : 'memory';
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
  /** CPU seconds the target's DynamoDB Local and s3rver spent during the import. */
  targetEnginesCpuSeconds: number;
  report: Pick<ImportReport, 'counts' | 'phases' | 'warnings' | 'skipped' | 'written'>;
  /** CPU seconds the source's API process spent meanwhile (filled in by the parent). */
  sourceCpuSeconds?: number;
  /** CPU seconds the source's DynamoDB Local and s3rver spent meanwhile (filled in by the parent). */
  sourceEnginesCpuSeconds?: number;
}

interface ChildSettings {
  connections: number;
  from: string;
  apiKey: string;
  /** The target's data directory (disk), or none (memory). */
  dataDir: string | null;
}

/** CPU seconds (user + system) of a process, from /proc. */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of a process's descendants other than `except` (DynamoDB Local, s3rver). */
function descendantsCpuSeconds(root: number, except: number[] = []): number {
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  let total = 0;
  const pending = children(root);
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

/** A fresh target: in memory (engines of the child's own), or a new data directory as the CLI opens it. */
async function openTarget(dataDir: string | null): Promise<{ stop(): Promise<void> }> {
  if (dataDir) {
    const target = await openLocalTarget(dataDir, { create: true });
    process.env.TRACKER_REQUEST_LOG = 'off';
    return target;
  }
  const engines: LocalEngines = await startEngines();
  const target = {
    table: 'tracker',
    bucket: 'tracker-attachments',
    dynamodbEndpoint: engines.dynamodbEndpoint,
    s3Endpoint: engines.s3Endpoint,
    description: 'a new in-memory installation',
  };
  pointStorageAt(target);
  process.env.TRACKER_REQUEST_LOG = 'off';
  await ensureTable(target.dynamodbEndpoint, target.table, { stream: withStream });
  await ensureBucket(target.s3Endpoint, target.bucket);
  await bootstrapInstallation({ adminLogin: ADMIN.login, adminPassword: ADMIN.password });
  return { stop: () => engines.stop() };
}

/** The child: a fresh target installation, one runImport, one result line. */
async function child(settings: ChildSettings): Promise<void> {
  const { runImport } = await import('../local/import/runImport.ts');
  const target = await openTarget(settings.dataDir);
  try {
    const enginesBefore = descendantsCpuSeconds(process.pid);
    const cpuBefore = process.cpuUsage();
    const loopBefore = performance.eventLoopUtilization();
    const started = performance.now();
    const report = await runImport({
      from: settings.from,
      apiKey: settings.apiKey,
      connections: settings.connections,
      target: {
        table: process.env[ENV.table]!,
        bucket: process.env[ENV.bucket]!,
        dynamodbEndpoint: process.env[ENV.dynamodbEndpoint],
        s3Endpoint: process.env[ENV.s3Endpoint],
      },
      progress: lineProgress((line) => console.log(line), 3_000),
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const loop = performance.eventLoopUtilization(loopBefore);
    const result: RunResult = {
      connections: settings.connections,
      wallSeconds,
      cpu: { user: cpu.user / 1e6, system: cpu.system / 1e6 },
      eventLoopBusy: loop.utilization,
      targetEnginesCpuSeconds: descendantsCpuSeconds(process.pid) - enginesBefore,
      report: {
        counts: report.counts,
        phases: report.phases,
        warnings: report.warnings,
        skipped: report.skipped,
        written: report.written,
      },
    };
    console.log(`${RESULT_PREFIX}${JSON.stringify(result)}`);
  } finally {
    await target.stop();
  }
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

interface SeedFacts {
  seconds: number;
  items: number;
  attachments: number;
  /** Items/s a fresh engine of the same kind takes from BatchWriteItem alone (engineCeiling.ts). */
  engineCeiling: number;
}

function render(results: RunResult[], seed: SeedFacts): string {
  const first = results[0].report;
  const lines: string[] = [IMPORT_SECTION_START, '## Import (`npm run bench:import`)', ''];
  const where =
    STORAGE === 'disk'
      ? 'two data directories on disk (DynamoDB Local on SQLite files, s3rver on files): the source as `npm run seed` leaves it, the target as `npm run import -- --data-dir` opens it'
      : "memory (DynamoDB Local `-inMemory`, s3rver in a scratch directory): the importer's own ceiling";
  lines.push(
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}. Tracker to Tracker: a source installation seeded with ${fmt(BUGS)} bugs (${fmt(seed.items)} items and ${fmt(seed.attachments)} attachment bodies, seeded in ${fmt(seed.seconds)} s), served by the API from its own process with DynamoDB Local and s3rver of its own, imported with \`runImport\` (batches of 100 bugs) into a fresh installation with engines of its own. Both installations keep their data in ${where}. Each import runs in its own process. Load average (1 min) ${os.loadavg()[0].toFixed(1)} at the end. The machine's two cores run the source API, both installations' engines and the importer at once.`,
  );
  lines.push('');
  lines.push(
    `**Data:** ${fmt(first.counts.bugs ?? 0)} bugs, ${fmt(first.counts.comments ?? 0)} comments, ${fmt(first.counts['history entries'] ?? 0)} history entries, ${fmt(first.counts.flags ?? 0)} flags, ${fmt(first.counts.attachments ?? 0)} attachments (${fmt(first.written.attachmentBytes / 1_048_576, 1)} MiB of bodies).`,
  );
  lines.push('');
  lines.push(
    '| connections | end to end | bugs/s end to end | setup (read, accounts, catalogue) | bugs phase | bugs/s (bugs phase) | search index | finish | items written | items/s (bugs phase) | importer CPU (user + system) | importer CPU / wall | source API CPU | source engines CPU | target engines CPU |',
  );
  lines.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const result of results) {
    const phase = (name: string) => result.report.phases.find((entry) => entry.name === name)?.seconds ?? 0;
    const cpu = result.cpu.user + result.cpu.system;
    const bugs = phase('bugs');
    const bugCount = result.report.counts.bugs ?? 0;
    lines.push(
      `| ${result.connections} | ${fmt(result.wallSeconds, 1)} s | ${fmt(bugCount / result.wallSeconds, 1)} | ${fmt(phase('read') + phase('accounts') + phase('catalogue'), 1)} s | ${fmt(bugs, 1)} s | ${fmt(bugCount / bugs, 1)} | ${fmt(phase('search index'), 1)} s | ${fmt(phase('finish'), 1)} s | ${fmt(result.report.written.items)} | ${fmt(result.report.written.items / bugs)} | ${fmt(cpu, 1)} s (${fmt(result.cpu.user, 1)} + ${fmt(result.cpu.system, 1)}) | ${fmt((100 * cpu) / result.wallSeconds)} % | ${fmt(result.sourceCpuSeconds ?? 0, 1)} s | ${fmt(result.sourceEnginesCpuSeconds ?? 0, 1)} s | ${fmt(result.targetEnginesCpuSeconds, 1)} s |`,
    );
  }
  lines.push('');
  lines.push(
    `**What the target's engine can take:** ${fmt(seed.engineCeiling)} items/s, measured on a fresh DynamoDB Local of the same kind (${STORAGE}) with nothing but BatchWriteItem (25 items of about 1 KB a call, 12 calls in flight; bench/engineCeiling.ts). The bugs phase above wrote ${results.map((result) => `${fmt((100 * result.report.written.items) / (result.report.phases.find((entry) => entry.name === 'bugs')?.seconds ?? 1) / seed.engineCeiling)} %`).join(' and ')} of that while also reading the source.`,
  );
  lines.push('');
  lines.push(
    "The bugs phase reads batches of 100 bugs (the bugs, then their comments, history and attachments, one request each with `ids=`), several batches ahead of the writer, and writes each batch's items with BatchWriteItem (25 items a call, 12 calls in flight) and its attachment bodies to S3 while the next batches are read. The search index phase writes one snapshot of every imported bug. Items written = the importer's own count of the items it put. \"Importer CPU / wall\" is the importer process's own CPU time over the run's wall time: when it is well below 100 %, the importer waits on the source and the target, not on itself.",
  );
  lines.push(IMPORT_SECTION_END);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(os.tmpdir(), 'tracker-bench-import-'));
  const engines = await startEngines(
    STORAGE === 'disk' ? { dataDir: join(scratch, 'source') } : { scratchDir: scratch },
  );
  const table = 'tracker';
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    Object.assign(process.env, {
      [ENV.dynamodbEndpoint]: engines.dynamodbEndpoint,
      [ENV.s3Endpoint]: engines.s3Endpoint,
      [ENV.table]: table,
      [ENV.bucket]: table,
    });
    await ensureTable(engines.dynamodbEndpoint, table, { stream: withStream });
    await ensureBucket(engines.s3Endpoint, table);
    server = await startServerProcess(engines, table);
    log(`source ${server.url} (${STORAGE}); seeding ${fmt(BUGS)} bugs`);
    const seed = await seedInstallation({
      bugs: BUGS,
      seed: num('BENCH_SEED', 1),
      url: server.url,
      apiKey: ADMIN.apiKey,
      log,
    });
    const engineCeiling = await measureEngineCeiling(STORAGE);
    log(`a fresh ${STORAGE} DynamoDB Local takes ${fmt(engineCeiling)} items/s of BatchWriteItem alone`);
    const results: RunResult[] = [];
    for (const connections of CONNECTIONS) {
      log(`importing with ${connections} connections`);
      const sourceCpu = processCpuSeconds(server.pid);
      const sourceEngines = descendantsCpuSeconds(process.pid, [server.pid]);
      const result = await runChild({
        connections,
        from: `${server.url}/rest`,
        apiKey: ADMIN.apiKey,
        dataDir: STORAGE === 'disk' ? join(scratch, `target-${connections}`) : null,
      });
      result.sourceCpuSeconds = processCpuSeconds(server.pid) - sourceCpu;
      result.sourceEnginesCpuSeconds = descendantsCpuSeconds(process.pid, [server.pid]) - sourceEngines;
      const bugsPhase = result.report.phases.find((entry) => entry.name === 'bugs')?.seconds ?? 0;
      const bugCount = result.report.counts.bugs ?? 0;
      const cpu = result.cpu.user + result.cpu.system;
      log(
        `  ${connections} connections: ${fmt(result.wallSeconds, 1)} s end to end (${fmt(bugCount / result.wallSeconds, 1)} bugs/s), ${fmt(bugCount / bugsPhase, 1)} bugs/s and ${fmt(result.report.written.items / bugsPhase)} items/s in the bugs phase, importer CPU ${fmt(cpu, 1)} s (${fmt((100 * cpu) / result.wallSeconds)} % of wall), source API CPU ${fmt(result.sourceCpuSeconds, 1)} s, source engines ${fmt(result.sourceEnginesCpuSeconds, 1)} s, target engines ${fmt(result.targetEnginesCpuSeconds, 1)} s`,
      );
      log(`  phases: ${result.report.phases.map((entry) => `${entry.name} ${entry.seconds.toFixed(1)} s`).join(', ')}`);
      if (result.report.skipped.length > 0 || result.report.warnings.length > 0)
        log(
          `  skipped ${JSON.stringify(result.report.skipped).slice(0, 300)}; warnings ${result.report.warnings.join(' | ')}`,
        );
      results.push(result);
      if (STORAGE === 'disk') rmSync(join(scratch, `target-${connections}`), { recursive: true, force: true });
    }
    const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '# Benchmarks\n';
    writeFileSync(OUTPUT, mergeImportSection(current, render(results, { ...seed, engineCeiling })));
    log(`wrote ${OUTPUT}`);
  } finally {
    await server?.stop();
    await engines.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `--from`, `--api-key` and `--connections` of the running-source mode (null: the seeded mode). */
function sourceArguments(argv: readonly string[]): { from: string; apiKey: string; connections: number[] } | null {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const from = value('--from');
  if (!from) return null;
  const apiKey = value('--api-key') ?? process.env.BUGZILLA_API_KEY;
  if (!apiKey) throw new Error('--from needs --api-key KEY (or BUGZILLA_API_KEY)');
  const connections = (value('--connections') ?? process.env.BENCH_IMPORT_CONNECTIONS ?? '8,16')
    .split(',')
    .map(Number)
    .filter((count) => count > 0);
  return { from: from.replace(/\/+$/, ''), apiKey, connections };
}

export const SOURCE_SECTION_START = '<!-- kept:import-running-source:start -->';
export const SOURCE_SECTION_END = '<!-- kept:import-running-source:end -->';

/** CPU seconds of this machine's processes named `names` (the source's Apache and MariaDB), 0 when none runs here. */
function namedProcessesCpuSeconds(names: readonly string[]): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (names.includes(name)) total += processCpuSeconds(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

function renderSourceRuns(
  results: RunResult[],
  source: { from: string; kind: string; version: string; bugs: number; storage: string },
): string {
  const first = results[0].report;
  const lines = [
    SOURCE_SECTION_START,
    `## Import from a running ${source.kind === 'bugzilla-5.2' ? 'Bugzilla 5.2' : source.kind} (\`npm run bench:import -- --from <url> --api-key <key>\`)`,
    '',
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}. Source: ${source.kind} ${source.version} at \`${source.from}\` with ${fmt(source.bugs)} bugs the key sees, imported with \`runImport\` (batches of 100 bugs) into a fresh installation (${source.storage}) once per connection count, each import in its own process. Load average (1 min) ${os.loadavg()[0].toFixed(1)} at the end: the source, its database, the target's engines and the importer share the machine's cores${os.loadavg()[0] > os.cpus().length ? ' with other jobs' : ''}.`,
    '',
    `**Data:** ${fmt(first.counts.bugs ?? 0)} bugs, ${fmt(first.counts.comments ?? 0)} comments, ${fmt(first.counts['history entries'] ?? 0)} history entries, ${fmt(first.counts.flags ?? 0)} flags, ${fmt(first.counts.attachments ?? 0)} attachments; ${fmt(first.written.items)} items written.`,
    '',
    '| connections | end to end | bugs/s end to end | setup (read, accounts, catalogue) | bugs phase | bugs/s (bugs phase) | search index | importer CPU (user + system) | importer CPU / wall | source CPU (Apache + MariaDB) | target engines CPU |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const result of results) {
    const phase = (name: string) => result.report.phases.find((entry) => entry.name === name)?.seconds ?? 0;
    const cpu = result.cpu.user + result.cpu.system;
    const bugCount = result.report.counts.bugs ?? 0;
    lines.push(
      `| ${result.connections} | ${fmt(result.wallSeconds, 1)} s | ${fmt(bugCount / result.wallSeconds, 1)} | ${fmt(phase('read') + phase('accounts') + phase('catalogue'), 1)} s | ${fmt(phase('bugs'), 1)} s | ${fmt(bugCount / phase('bugs'), 1)} | ${fmt(phase('search index'), 1)} s | ${fmt(cpu, 1)} s (${fmt(result.cpu.user, 1)} + ${fmt(result.cpu.system, 1)}) | ${fmt((100 * cpu) / result.wallSeconds)} % | ${result.sourceCpuSeconds ? `${fmt(result.sourceCpuSeconds, 1)} s` : 'not on this machine'} | ${fmt(result.targetEnginesCpuSeconds, 1)} s |`,
    );
  }
  lines.push(
    '',
    "End to end is runImport's own time (what `npm run import` adds: starting the target's engines and bootstrapping a new installation, a few seconds). Source CPU is the CPU time of this machine's `apache2` and `mariadbd` processes during the import, read from /proc before and after (a prefork child that exits meanwhile takes its CPU with it, so this is a lower bound).",
    SOURCE_SECTION_END,
  );
  return lines.join('\n');
}

/** Replaces the running-source section, or puts it after the import section. */
function mergeSourceSection(document: string, section: string): string {
  const start = document.indexOf(SOURCE_SECTION_START);
  const end = document.indexOf(SOURCE_SECTION_END);
  if (start >= 0 && end > start)
    return document.slice(0, start) + section + document.slice(end + SOURCE_SECTION_END.length);
  const after = document.indexOf(IMPORT_SECTION_END);
  if (after < 0) return `${document.trimEnd()}\n\n${section}\n`;
  const at = after + IMPORT_SECTION_END.length;
  return `${document.slice(0, at)}\n\n${section}${document.slice(at)}`;
}

/** The running-source mode: count the source, import it once per connection count, write the section. */
async function fromRunningSource(settings: { from: string; apiKey: string; connections: number[] }): Promise<void> {
  const probe = await probeSource(
    createBugzillaClient({ baseUrl: settings.from, apiKey: settings.apiKey, connections: 4 }),
  );
  const counted = await visibleBugIds(
    createBugzillaClient({
      baseUrl: settings.from,
      apiKey: settings.apiKey,
      connections: 4,
      keyTransport: probe.keyTransport,
    }),
  );
  log(`source ${settings.from}: ${probe.kind} ${probe.version}, ${fmt(counted.length)} bugs the key sees`);
  const scratch = mkdtempSync(join(os.tmpdir(), 'tracker-bench-import-'));
  const results: RunResult[] = [];
  try {
    for (const connections of settings.connections) {
      log(`importing with ${connections} connections (progress every 3 s)`);
      const sourceCpu = namedProcessesCpuSeconds(SOURCE_PROCESSES);
      const result = await runChild({
        connections,
        from: settings.from,
        apiKey: settings.apiKey,
        dataDir: STORAGE === 'disk' ? join(scratch, `target-${connections}`) : null,
      });
      result.sourceCpuSeconds = namedProcessesCpuSeconds(SOURCE_PROCESSES) - sourceCpu;
      const bugsPhase = result.report.phases.find((entry) => entry.name === 'bugs')?.seconds ?? 0;
      const bugCount = result.report.counts.bugs ?? 0;
      log(
        `  ${connections} connections: ${fmt(result.wallSeconds, 1)} s end to end (${fmt(bugCount / result.wallSeconds, 1)} bugs/s), ${fmt(bugCount / bugsPhase, 1)} bugs/s in the bugs phase, importer CPU ${fmt(result.cpu.user + result.cpu.system, 1)} s, source CPU ${fmt(result.sourceCpuSeconds, 1)} s, target engines ${fmt(result.targetEnginesCpuSeconds, 1)} s`,
      );
      log(`  phases: ${result.report.phases.map((entry) => `${entry.name} ${entry.seconds.toFixed(1)} s`).join(', ')}`);
      results.push(result);
      if (STORAGE === 'disk') rmSync(join(scratch, `target-${connections}`), { recursive: true, force: true });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const storage =
    STORAGE === 'disk'
      ? 'a data directory on disk, as `npm run import -- --data-dir` opens it'
      : 'DynamoDB Local in memory';
  const section = renderSourceRuns(results, {
    from: settings.from,
    kind: probe.kind,
    version: probe.version,
    bugs: counted.length,
    storage,
  });
  const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '# Benchmarks\n';
  writeFileSync(OUTPUT, mergeSourceSection(current, section));
  log(`wrote ${OUTPUT}`);
}

const SOURCE_PROCESSES = ['apache2', 'mariadbd', 'mysqld'];

const USAGE = `Usage: npm run bench:import [-- --help]
       npm run bench:import -- --from <REST root> --api-key <key> [--connections 8,16]

Seeds a source installation (its own DynamoDB Local and s3rver, the API in its own process) with
BENCH_BUGS bugs, imports it into a fresh installation with engines of its own once per connection
count, and writes the "Import" section of docs/benchmarks.md (about 2 minutes with 5,000 bugs in
memory, about 25 with 100,000; needs Java 17+ like \`npm start\`). It takes no arguments; the
environment changes the run:

  BENCH_BUGS=5000                   bugs to seed
  BENCH_SEED=1                      seed of the generator
  BENCH_IMPORT_CONNECTIONS=8,16     connection counts to import with, one run each
  BENCH_IMPORT_STORAGE=memory       memory, or disk: both installations in data directories on disk
  BENCH_TABLE_STREAM=off            on: the tables carry the notification change stream
  TRACKER_DYNAMODB_HEAP=3g          each DynamoDB Local's heap (in memory, 100,000 bugs need 3g)
  BENCH_OUTPUT=path                 the document to write the section into (docs/benchmarks.md)
  BENCH_PROFILE=dir                 save each import process's CPU profile there (Chrome DevTools)

With --from, nothing is seeded: the running source at that REST root (a Bugzilla 5.2 such as
../shared/bugzilla52's, http://127.0.0.1:8090/rest) is imported with the administrator's key once
per connection count (--connections, default 8,16) into a fresh installation (in memory, or on
disk with BENCH_IMPORT_STORAGE=disk), progress shown every 3 s, and the section "Import from a
running Bugzilla 5.2" of docs/benchmarks.md is written (its own markers; the rest is kept).
The source is only read. About 6 minutes per run for 10,000 simple bugs on a 2-core 5.2.
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
else if (self) {
  const running = sourceArguments(process.argv.slice(2));
  finish(running ? fromRunningSource(running) : main());
}
