/**
 * What each function's bundle is made of: every function bundled exactly as the stack bundles it
 * (lib/stackBundling.ts, as test/unit/bundleSize.test.ts does), with esbuild's metafile, and per
 * function its size and the packages (or project directories) that take the most bytes of the
 * output (`outputs[…].inputs[…].bytesInOutput`). Then the share every API handler carries: the
 * inputs present in all of them, by package, which is what a cut in the common chain saves on each.
 *
 *   npx tsx bench/bundleComposition.ts            top 8 contributors per function
 *   BUNDLE_TOP=20 npx tsx bench/bundleComposition.ts
 *   BUNDLE_ONLY=platform/notFound,bug/getBug npx tsx bench/bundleComposition.ts
 *   BUNDLE_JSON=out.json npx tsx bench/bundleComposition.ts   also write every number as JSON
 *   BUNDLE_LOADS=5 npx tsx bench/bundleComposition.ts  also time the module load of the cold-start
 *     handlers (bench/coldStart.ts COLD_REQUESTS): that many fresh `node` processes each import the
 *     bundle (bench/coldStartChild.mjs, no invocation), median / max wall clock and median CPU.
 *   BUNDLE_LOADS=3 BUNDLE_LOADS_OF=all npx tsx bench/bundleComposition.ts  time every function's
 *     module load, not only the cold-start handlers'; with BUNDLE_LOADS_DOC=docs/benchmarks.md the
 *     table also goes into that document's "Module load of every function" section.
 *
 * A package found at two paths (a nested node_modules copy of another version) is listed per path,
 * so duplicates show up as two rows.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { planHandlers } from '../lib/handlerPlan.ts';
import { MAIL_FEEDBACK_MODULE, NOTIFICATION_PUBLISHER_MODULE, WEBHOOK_DELIVERY_MODULE } from '../lib/notifications.ts';
import { stackBundling } from '../lib/stackBundling.ts';
import { NOTIFICATION_ENV } from '../shared/domain/notification/notificationSettings.ts';
import { RouteMatcher } from '../shared/http/routeMatcher.ts';
import { routes } from '../shared/routes.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import { mergeKeptSections } from './benchmarkSections.ts';
import { COLD_REQUESTS } from './coldStart.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOP = Number(process.env.BUNDLE_TOP ?? 8);
const LOADS = Number(process.env.BUNDLE_LOADS ?? 0);
const CHILD_SCRIPT = join(ROOT, 'bench', 'coldStartChild.mjs');
/** `all`: time the module load of every function, not only the cold-start handlers. */
const LOADS_OF = process.env.BUNDLE_LOADS_OF === 'all' ? 'all' : 'cold';
const LOADS_DOC = process.env.BUNDLE_LOADS_DOC;

/**
 * The package an input belongs to (`@smithy/core`, or `node_modules/@aws-sdk/x/node_modules/@smithy/core`
 * for a nested copy), or the project directory two levels deep (`shared/storage`).
 */
export function groupOf(input: string): string {
  const parts = input.split('/');
  const last = parts.lastIndexOf('node_modules');
  if (last >= 0) {
    const name = parts[last + 1]?.startsWith('@') ? parts.slice(last + 1, last + 3) : parts.slice(last + 1, last + 2);
    const nested = parts.indexOf('node_modules') !== last;
    return nested ? `${parts.slice(0, last + 1).join('/')}/${name.join('/')}` : name.join('/');
  }
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]!;
}

interface Composition {
  module: string;
  bytes: number;
  /** bytesInOutput per input file. */
  inputs: Map<string, number>;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function byGroup(inputs: Iterable<[string, number]>): Array<[string, number]> {
  const groups = new Map<string, number>();
  for (const [input, bytes] of inputs) groups.set(groupOf(input), (groups.get(groupOf(input)) ?? 0) + bytes);
  return [...groups].sort((a, b) => b[1] - a[1]);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Load-only runs of bench/coldStartChild.mjs (no events), one process after the other. */
function timeLoads(bundle: string, module: string, runs: number, runtime: string): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  const functionName = `tracker-${module.replace('/', '-')}`;
  for (let run = 0; run < runs; run++) {
    const child = spawnSync(process.execPath, [CHILD_SCRIPT, bundle, JSON.stringify({ functionName, events: [] })], {
      cwd: dirname(bundle),
      // Lambda's variables as bench/coldStart.ts sets them; nothing is called, so no table is needed.
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        TZ: ':UTC',
        NODE_ENV: 'production',
        AWS_REGION: 'us-east-1',
        AWS_EXECUTION_ENV: `AWS_Lambda_${runtime}`,
        AWS_LAMBDA_FUNCTION_NAME: functionName,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        // What a function reads at module load (the publisher its bus): names only, nothing is called.
        [ENV.table]: 'tracker-bundle-composition',
        [ENV.bucket]: 'tracker-bundle-composition',
        [NOTIFICATION_ENV.eventBus]: 'tracker-bundle-composition',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const line = child.stdout.split('\n').find((text) => text.startsWith('BENCH_COLD_RESULT '));
    const answer = line
      ? (JSON.parse(line.slice('BENCH_COLD_RESULT '.length)) as { loadMs?: number; loadCpuMs?: number; error?: string })
      : undefined;
    if (answer?.loadMs === undefined) throw new Error(`${module}: ${answer?.error ?? child.stderr.slice(-300)}`);
    wall.push(answer.loadMs);
    cpu.push(answer.loadCpuMs ?? Number.NaN);
  }
  return { wall, cpu };
}

interface LoadRow {
  module: string;
  bytes: number;
  wall: number;
  maxWall: number;
  cpu: number;
}

const LOAD_SECTION = 'module-loads-every-function';

/** The "Module load of every function" section of docs/benchmarks.md, replaced as a whole. */
function writeLoadSection(path: string, rows: readonly LoadRow[], bundling: string, version: string): void {
  const sorted = [...rows].sort((a, b) => b.cpu - a.cpu);
  const lines = [
    `<!-- kept:${LOAD_SECTION}:start -->`,
    '## Module load of every function (`BUNDLE_LOADS=3 BUNDLE_LOADS_OF=all npx tsx bench/bundleComposition.ts`)',
    '',
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version}, esbuild ${version} (${bundling}). Each function's index.mjs imported in ${LOADS} fresh \`node\` processes (bench/coldStartChild.mjs, the deployed function's environment, no invocation): median and largest wall clock, and the median CPU time of the \`import()\`, which other work on the machine changes much less than the wall clock. Load average (1 min) ${os.loadavg()[0].toFixed(1)} at the end${os.loadavg()[0] > os.cpus().length ? ': the machine was busy, so read the CPU column, and the wall clock as an upper bound' : ''}. Sorted by CPU time; the budgets of the sizes are in test/unit/bundleSize.test.ts.`,
    '',
    '| Function | index.mjs | Module load ms (median / max) | Module load CPU ms |',
    '|---|---:|---:|---:|',
    ...sorted.map(
      (row) =>
        `| ${row.module} | ${kib(row.bytes)} | ${row.wall.toFixed(0)} / ${row.maxWall.toFixed(0)} | ${row.cpu.toFixed(0)} |`,
    ),
    `<!-- kept:${LOAD_SECTION}:end -->`,
  ].join('\n');
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const existing = new RegExp(`<!-- kept:${LOAD_SECTION}:start -->[\\s\\S]*?<!-- kept:${LOAD_SECTION}:end -->`);
  writeFileSync(
    path,
    existing.test(current) ? current.replace(existing, () => lines) : mergeKeptSections(current, [lines]),
  );
  console.log(`wrote the section ${LOAD_SECTION} of ${path}`);
}

/** The inputs every one of `group` carries, each at its smallest share, by package. */
function printCommon(label: string, group: readonly Composition[]) {
  const [first] = group;
  if (!first || group.length < 2) return;
  const common = new Map<string, number>();
  for (const input of first.inputs.keys()) {
    const shares = group.map((composition) => composition.inputs.get(input));
    if (shares.every((share) => share !== undefined)) common.set(input, Math.min(...(shares as number[])));
  }
  const commonBytes = [...common.values()].reduce((sum, size) => sum + size, 0);
  const sizes = group.map((composition) => composition.bytes).sort((a, b) => a - b);
  console.log(
    `\nCommon to ${label} (${group.length}): ${kib(commonBytes)} in ${common.size} inputs; their bundles ${kib(sizes[0] ?? 0)}–${kib(sizes[sizes.length - 1] ?? 0)}, median ${kib(median(sizes))}`,
  );
  for (const [name, size] of byGroup(common).slice(0, Math.max(TOP, 25)))
    console.log(`  ${name.padEnd(60)} ${kib(size).padStart(10)}`);
}

async function main() {
  const stack = await stackBundling(ROOT);
  const apiModules = planHandlers(routes).map((plan) => plan.module);
  const notificationModules = [NOTIFICATION_PUBLISHER_MODULE, WEBHOOK_DELIVERY_MODULE, MAIL_FEEDBACK_MODULE];
  const only = process.env.BUNDLE_ONLY?.split(',').filter(Boolean);
  const modules = only ?? [...apiModules, ...notificationModules];
  const outDir = mkdtempSync(join(os.tmpdir(), 'tracker-bundle-composition-'));
  try {
    const started = performance.now();
    // Written only when module loads are timed: the sizes come from the metafile.
    const result = await esbuild.build({ ...stack.optionsForMany(modules, outDir), metafile: true, write: LOADS > 0 });
    const seconds = (performance.now() - started) / 1000;
    const compositions: Composition[] = [];
    for (const module of modules) {
      const outFile = relative(ROOT, join(outDir, stack.directoryFor(module), stack.outFile));
      const output = result.metafile.outputs[outFile];
      if (!output) throw new Error(`no output ${outFile} in the metafile`);
      compositions.push({
        module,
        bytes: output.bytes,
        inputs: new Map(Object.entries(output.inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput])),
      });
    }
    compositions.sort((a, b) => b.bytes - a.bytes);

    console.log(
      `esbuild ${esbuild.version}: ${stack.describe}; ${modules.length} functions in ${seconds.toFixed(1)} s\n`,
    );
    for (const { module, bytes, inputs } of compositions) {
      const top = byGroup(inputs)
        .slice(0, TOP)
        .map(([group, size]) => `${group} ${kib(size)}`)
        .join(', ');
      console.log(`${module.padEnd(34)} ${kib(bytes).padStart(11)}  ${top}`);
    }

    // The common chain: inputs in every API handler, each counted at its smallest share; once over
    // all of them, once over those that use the table (all but the static OpenAPI document).
    const api = compositions.filter((composition) => apiModules.includes(composition.module));
    const withTable = api.filter((composition) =>
      [...composition.inputs.keys()].some((input) => input.includes('node_modules/@aws-sdk/client-dynamodb/')),
    );
    for (const [label, group] of [
      ['all API handlers', api],
      ['API handlers that use the table', withTable],
    ] as const)
      printCommon(label, group);

    if (LOADS > 0) {
      const matcher = new RouteMatcher(routes);
      const coldModules =
        LOADS_OF === 'all'
          ? compositions.map((composition) => composition.module)
          : [
              ...new Set(COLD_REQUESTS.map((request) => matcher.match(request.method, request.path)?.route.handler)),
            ].filter((module): module is string => module !== undefined && modules.includes(module));
      console.log(
        `\nModule load of ${LOADS_OF === 'all' ? 'every function' : 'the cold-start handlers'}, ${LOADS} fresh processes each (median / max ms, median CPU ms):`,
      );
      const rows: LoadRow[] = [];
      const loadsStarted = performance.now();
      for (const [n, module] of coldModules.entries()) {
        const loads = timeLoads(join(outDir, stack.directoryFor(module), stack.outFile), module, LOADS, stack.runtime);
        const size = compositions.find((composition) => composition.module === module)!.bytes;
        const row = {
          module,
          bytes: size,
          wall: median(loads.wall),
          maxWall: Math.max(...loads.wall),
          cpu: median(loads.cpu),
        };
        rows.push(row);
        const perFunction = (performance.now() - loadsStarted) / 1000 / (n + 1);
        console.log(
          `  ${module.padEnd(34)} ${kib(size).padStart(11)}  ${row.wall.toFixed(0)} / ${row.maxWall.toFixed(0)} ms, CPU ${row.cpu.toFixed(0)} ms  (${n + 1}/${coldModules.length}, ${((coldModules.length - n - 1) * perFunction).toFixed(0)} s left)`,
        );
      }
      if (LOADS_DOC) writeLoadSection(LOADS_DOC, rows, `${stack.describe}`, esbuild.version);
    }

    if (process.env.BUNDLE_JSON)
      writeFileSync(
        process.env.BUNDLE_JSON,
        JSON.stringify(
          compositions.map(({ module, bytes, inputs }) => ({
            module,
            bytes,
            groups: Object.fromEntries(byGroup(inputs)),
          })),
          null,
          1,
        ),
      );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const HELP = `Usage: npx tsx bench/bundleComposition.ts

Bundles every function as the stack does and prints, per function, its size and the packages
that take the most bytes, then what every API handler carries in common. Nothing is written
unless BUNDLE_JSON is set.

  BUNDLE_TOP=8          contributors listed per function
  BUNDLE_ONLY=a,b       only these handler modules (e.g. platform/notFound,bug/getBug)
  BUNDLE_JSON=path      also write every number as JSON there
  BUNDLE_LOADS=0        fresh node processes timing the module load of the cold-start handlers
  BUNDLE_LOADS_OF=all   time every function's module load instead
  BUNDLE_LOADS_DOC=path write the module loads into that document (docs/benchmarks.md)`;

if (process.argv.includes('--help') || process.argv.includes('-h')) console.log(HELP);
else await main();
