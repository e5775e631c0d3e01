/**
 * `npm run bench:web`: the web front end in a real Chromium at scale (issue 39). Seeds BENCH_BUGS
 * bugs (100,000) with the same generator as `npm run seed`, serves the API and the built web app
 * from one process (bench/server.ts, as `npm start` serves them), and measures, as a person meets
 * them:
 *
 * - a bug page until it can be used: from the navigation's start until the bug's heading and its
 *   enabled "Save changes" button are shown (an administrator, who may change every bug);
 * - a 500-bug list (`buglist.cgi?product=…&limit=500`) until its 500 rows and its count are shown;
 * - the quicksearch box to its results: from the click on "Quick search" until the list's count;
 * - the first page's bytes as sent (compressed), split into the app's files and API answers.
 *
 * Times are the page's own: an init script (bench/webPageProbes.ts) watches the document with a
 * MutationObserver and, the first time what a person waits for is there, takes performance.now()
 * (whose origin is the navigation's start) in the next animation frame, the one that paints it;
 * the quicksearch's start is taken in the page too, by a listener on the click. The driver only
 * reads those times afterwards, so neither its round trips nor its polling are in them. The bug
 * page's requests, as the page saw them (Resource Timing), are reported as a waterfall beside the
 * figures. Each page is measured BENCH_WEB_RUNS times (20), each a full page load in the same tab,
 * with a warm browser cache and the catalogue the tab kept (docs/web.md), as a person moving from
 * page to page has, after one visit in a new window with an empty cache, reported apart. The figures go into docs/benchmarks.md between markers of their
 * own (one section per size). Not a test: nothing here asserts a time.
 *
 * Environment: BENCH_BUGS (100000), BENCH_WEB_RUNS (20), BENCH_SEED (1), BENCH_TABLE_ITEMS (`bugs`:
 * only bug items in the table, so bug pages show no comments; see docs/benchmarks.md),
 * BENCH_DATA_DIR (keep the seeded installation there and reuse it), BENCH_OUTPUT,
 * TRACKER_CHROMIUM (the browser; Debian's /usr/bin/chromium by default).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { relaxSdkTimeoutsForBulkTool } from '../local/bulkToolTimeouts.ts';
import { startEngines } from '../local/engines.ts';
import { ensureTable } from '../local/provision.ts';
import { ensureWebBuilt, WEB_DIST_DIR } from '../local/webBuild.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import { mergeKeptSections } from './benchmarkSections.ts';
import { ADMIN, ROOT } from './benchSettings.ts';
import { type SeedReport, seedInstallation } from './seedInstallation.ts';
import { startServerProcess } from './serverProcess.ts';
import {
  type Breakdown,
  breakdownInPage,
  inPage,
  quicksearchClickTime,
  type RequestTiming,
  usableMark,
  watchWhatAPersonWaitsFor,
} from './webPageProbes.ts';

relaxSdkTimeoutsForBulkTool();
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const HELP = `npm run bench:web: the web front end in Chromium at scale (docs/benchmarks.md)

Environment:
  BENCH_BUGS         bugs to seed (100000)
  BENCH_WEB_RUNS     visits measured per page (20)
  BENCH_SEED         the generator's seed (1)
  BENCH_TABLE_ITEMS  "bugs": only bug items in the table (faster seed; bug pages without comments)
  BENCH_DATA_DIR     keep the seeded installation there and reuse it on the next run
  BENCH_OUTPUT       the document to write (docs/benchmarks.md)
  BENCH_QUIET_LOAD   wait, after seeding, until the 1-minute load average is below this before measuring
                     (so a long seed can share the machine and the figures cannot)
  TRACKER_CHROMIUM   the browser (default /usr/bin/chromium)`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}

const num = (name: string, fallback: number) => (Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback);
const BUGS = num('BENCH_BUGS', 100_000);
const RUNS = num('BENCH_WEB_RUNS', 20);
const SEED = num('BENCH_SEED', 1);
const TABLE_ITEMS = process.env.BENCH_TABLE_ITEMS === 'bugs' ? 'bugs' : 'all';
const OUTPUT = resolve(ROOT, process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md');
const QUIET_LOAD = Number(process.env.BENCH_QUIET_LOAD) > 0 ? Number(process.env.BENCH_QUIET_LOAD) : undefined;
const DATA_DIR = process.env.BENCH_DATA_DIR ? resolve(process.env.BENCH_DATA_DIR) : undefined;
const SEEDED_FILE = DATA_DIR && join(DATA_DIR, 'bench-web.json');
const CHROMIUM = [process.env.TRACKER_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => Boolean(path && existsSync(path)),
);
const STEP_TIMEOUT = 120_000;
const log = (message: string) => console.log(`[bench:web] ${message}`);

interface Kept {
  bugs: number;
  seed: number;
  tableItems: string;
  admin: typeof ADMIN;
  report: SeedReport;
  seedSeconds: number;
}

/** What the figures' load was, as the section says it. */
function loadNote(): string {
  const atEnd = os.loadavg()[0].toFixed(1);
  return QUIET_LOAD
    ? `Measured once the load average (1 min) had fallen below ${QUIET_LOAD} (\`BENCH_QUIET_LOAD\`: the seed shared the machine with other work, the measuring did not); ${atEnd} at the end, the bench's own server, engine and Chromium.`
    : `Load average (1 min) ${atEnd} at the end: the machine was shared with other work, so these are upper bounds.`;
}

/** Waits until the machine's 1-minute load average falls below `limit`, saying so once a minute. */
async function untilQuiet(limit: number): Promise<void> {
  let waited = 0;
  while (os.loadavg()[0] >= limit) {
    if (waited % 60 === 0)
      log(`load ${os.loadavg()[0].toFixed(1)}: waiting for it to fall below ${limit} before measuring`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 5_000));
    waited += 5;
  }
  log(`load ${os.loadavg()[0].toFixed(1)}: measuring`);
}

/** What BENCH_DATA_DIR holds from an earlier run of the same sizes; anything else is refused, never seeded over. */
function keptInstallation(): Kept | undefined {
  if (!DATA_DIR || !existsSync(DATA_DIR) || readdirSync(DATA_DIR).length === 0) return undefined;
  if (!SEEDED_FILE || !existsSync(SEEDED_FILE))
    throw new Error(`BENCH_DATA_DIR ${DATA_DIR} is not empty and holds no bench-web.json: not seeding over it`);
  const kept = JSON.parse(readFileSync(SEEDED_FILE, 'utf8')) as Kept;
  if (kept.bugs !== BUGS || kept.seed !== SEED || kept.tableItems !== TABLE_ITEMS)
    throw new Error(
      `BENCH_DATA_DIR ${DATA_DIR} holds ${kept.bugs} bugs (seed ${kept.seed}, ${kept.tableItems} items), not ${BUGS} (seed ${SEED}, ${TABLE_ITEMS})`,
    );
  return kept;
}

export interface Timing {
  p50: number;
  p90: number;
  max: number;
  runs: number;
}

export function timingOf(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1] ?? Number.NaN, runs: sorted.length };
}

/** A window logged in as the administrator: the app reads its session from sessionStorage (web/src/state/session.ts). */
async function loggedInContext(browser: Browser, origin: string, userId: number): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 900 } });
  const session = { login: ADMIN.login, userId, apiKey: ADMIN.apiKey };
  const stored = JSON.stringify(JSON.stringify(session));
  await context.addInitScript(
    `if (!sessionStorage.getItem('tracker.session')) sessionStorage.setItem('tracker.session', ${stored});`,
  );
  await context.addInitScript({ content: inPage(watchWhatAPersonWaitsFor) });
  context.setDefaultTimeout(STEP_TIMEOUT);
  return context;
}

/** What the page did until `name` was usable: its document and each request, and its long tasks. */
const breakdownOf = (page: Page, name: string): Promise<Breakdown> => page.evaluate(inPage(breakdownInPage, name));

/** The time the page kept for `name`, once it has one (the wait's own polling is not in it). */
async function usableAt(page: Page, name: string): Promise<number> {
  // Passed as a function, not text: the page's Content-Security-Policy forbids eval, which a
  // text predicate needs (usableMark has no inner function for tsx to wrap in __name).
  const handle = await page.waitForFunction(usableMark, name, { polling: 50 });
  return (await handle.jsonValue()) as number;
}

/** From the navigation's start until the bug's heading and its form's enabled save button are painted. */
async function bugPageUsable(page: Page, id: number, breakdowns?: Breakdown[]): Promise<number> {
  await page.goto(`/show_bug.cgi?id=${id}`, { waitUntil: 'commit' });
  const at = await usableAt(page, 'bug');
  // The heading painted was this bug's (checked after the time was taken).
  await page.getByRole('heading', { level: 1, name: new RegExp(`^Bug ${id} –`) }).waitFor();
  breakdowns?.push(await breakdownOf(page, 'bug'));
  return at;
}

const median = (values: readonly number[]) => timingOf(values).p50;

/**
 * The bug page's waterfall over the cached visits: for each request (by what it is), the median
 * of when the page asked for it, when it went out, its first byte and its end, and how many
 * visits made it before the page was usable; then the long tasks and the moment it was usable.
 */
export function waterfallOf(breakdowns: readonly Breakdown[]): string[] {
  const byWhat = new Map<string, RequestTiming[]>();
  for (const visit of breakdowns)
    for (const request of visit.requests) byWhat.set(request.what, [...(byWhat.get(request.what) ?? []), request]);
  const rows = [...byWhat.entries()]
    .map(([what, seen]) => ({
      what,
      visits: seen.length,
      asked: median(seen.map((r) => r.asked)),
      sent: median(seen.map((r) => r.sent)),
      firstByte: median(seen.map((r) => r.firstByte)),
      done: median(seen.map((r) => r.done)),
    }))
    .sort((a, b) => a.asked - b.asked);
  const ms = (value: number) => value.toFixed(0);
  return [
    "| request (median of the cached visits, ms from the navigation's start) | visits | asked | sent | first byte | done |",
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.what} | ${row.visits}/${breakdowns.length} | ${ms(row.asked)} | ${ms(row.sent)} | ${ms(row.firstByte)} | ${ms(row.done)} |`,
    ),
    `| main-thread long tasks (over 50 ms) before usable: median count ${median(breakdowns.map((b) => b.longTasks.count))}, total ${ms(median(breakdowns.map((b) => b.longTasks.total)))} ms | | | | | |`,
    `| **usable** (heading and enabled "Save changes" painted) | | | | | ${ms(median(breakdowns.map((b) => b.usable)))} |`,
  ];
}

/** From the navigation's start until the list's count and all 500 rows are painted. */
async function bugListShown(page: Page, product: string): Promise<number> {
  const query = new URLSearchParams({ product, limit: '500' });
  await page.goto(`/buglist.cgi?${query}`, { waitUntil: 'commit' });
  return usableAt(page, 'list');
}

/** From the click on "Quick search" on the home page until the results' count is painted. */
async function quicksearchToResults(page: Page, text: string): Promise<number> {
  await page.goto('/', { waitUntil: 'commit' });
  const main = page.getByRole('main');
  await main.getByLabel('Quick search').fill(text);
  await main.getByRole('button', { name: 'Quick search' }).click();
  const shown = await usableAt(page, 'quicksearch');
  const clicked = await page.evaluate<number | undefined>(inPage(quicksearchClickTime));
  if (clicked === undefined) throw new Error('the click on "Quick search" was not seen in the page');
  return shown - clicked;
}

interface PageBytes {
  app: number;
  api: number;
  requests: number;
}

/** The home page's bytes as they came over the wire (bodies as sent, compressed where they were). */
async function firstPageBytes(browser: Browser, origin: string, userId: number): Promise<PageBytes> {
  const context = await loggedInContext(browser, origin, userId);
  const page = await context.newPage();
  const sizes: Array<Promise<{ api: boolean; bytes: number }>> = [];
  page.on('requestfinished', (request) => {
    const api = new URL(request.url()).pathname.startsWith('/rest/');
    sizes.push(request.sizes().then((size) => ({ api, bytes: size.responseBodySize + size.responseHeadersSize })));
  });
  await page.goto('/');
  await page.getByRole('main').getByLabel('Quick search').waitFor();
  await page.waitForLoadState('networkidle');
  const all = await Promise.all(sizes);
  await context.close();
  return {
    app: all.filter((entry) => !entry.api).reduce((sum, entry) => sum + entry.bytes, 0),
    api: all.filter((entry) => entry.api).reduce((sum, entry) => sum + entry.bytes, 0),
    requests: all.length,
  };
}

async function measure(
  browser: Browser,
  origin: string,
  userId: number,
  label: string,
  visit: (page: Page, run: number) => Promise<number>,
): Promise<{ cold: number; warm: Timing }> {
  // One visit with an empty cache (a new window), then RUNS with the app's files cached.
  const context = await loggedInContext(browser, origin, userId);
  const page = await context.newPage();
  const cold = await visit(page, 0);
  const samples: number[] = [];
  const started = performance.now();
  for (let run = 1; run <= RUNS; run++) {
    samples.push(await visit(page, run));
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `\r[bench:web] ${label}: ${run}/${RUNS}, ${(run / seconds).toFixed(1)}/s, ${((RUNS - run) * (seconds / run)).toFixed(0)} s left `,
    );
  }
  process.stdout.write('\n');
  await context.close();
  const warm = timingOf(samples);
  log(
    `${label}: empty cache ${cold.toFixed(0)} ms; cached p50 ${warm.p50.toFixed(0)} ms, p90 ${warm.p90.toFixed(0)} ms`,
  );
  return { cold, warm };
}

async function get(origin: string, path: string): Promise<any> {
  const response = await fetch(`${origin}${path}`, { headers: { 'X-BUGZILLA-API-KEY': ADMIN.apiKey } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

function render(
  seed: SeedReport,
  seedSeconds: number,
  reused: boolean,
  results: Record<'bug' | 'list' | 'quick', { cold: number; warm: Timing }>,
  bytes: PageBytes,
  waterfall: readonly string[],
  browserVersion: string,
): string {
  const name = `web-bench-${seed.bugs}`;
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const row = (what: string, result: { cold: number; warm: Timing }, target: string) =>
    `| ${what} | ${ms(result.warm.p50)} | ${ms(result.warm.p90)} | ${ms(result.warm.max)} | ${ms(result.cold)} | ${target} |`;
  return [
    `<!-- kept:${name}:start -->`,
    `## The web front end in Chromium at ${seed.bugs.toLocaleString('en')} bugs (\`BENCH_BUGS=${seed.bugs} npm run bench:web\`)`,
    '',
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${browserVersion} headless, the API and the web app served by one local process (as \`npm start\` serves them) over loopback, DynamoDB Local in memory${DATA_DIR ? ` (reused from ${DATA_DIR})` : ''}. ${loadNote()}`,
    '',
    `**Data:** ${seed.bugs.toLocaleString('en')} bugs seeded by the generator of \`npm run seed\` (${seed.products.length} products, the largest ${seed.products[0].bugs.toLocaleString('en')} bugs; ${seed.items.toLocaleString('en')} items${seed.tableItems === 'bugs' ? ', only the bug items: bug pages show no comments' : ''}) in ${seedSeconds.toFixed(0)} s${reused ? ' by an earlier run' : ''}.`,
    '',
    `Each time runs from the navigation's start (or the click) to the frame that paints what a person waits for, both taken in the page (bench/webPageProbes.ts: no driver round trip in them); ${RUNS} full page loads in one tab, with the app's files cached and the catalogue the tab kept (an administrator moving from page to page, a different bug each time), and one visit in a new window with an empty cache.`,
    '',
    '| page | p50 | p90 | max | empty cache | target (issue 39) |',
    '|---|---:|---:|---:|---:|---|',
    row('bug page until it can be used (heading and enabled "Save changes" painted)', results.bug, 'p50 ≤ 300 ms'),
    row(`500-bug list of ${seed.sample.largeProduct} (count and 500 rows painted)`, results.list, '≤ 500 ms'),
    row(`quicksearch box to results ("${seed.sample.quicksearch}", click to count)`, results.quick, '–'),
    '',
    `**First page's bytes** (the home page, logged in, as sent): the app's files ${(bytes.app / 1024).toFixed(1)} KiB (HTML, JavaScript, CSS; budget 150 KB), API answers ${(bytes.api / 1024).toFixed(1)} KiB, ${bytes.requests} requests.`,
    '',
    `**Where the bug page's time goes** (Resource Timing in the page, each of the ${RUNS} cached visits; "asked" is when the page asked for it, "sent" when the browser sent it, after any wait for one of its six connections to the origin; "first byte" less "sent" is the server's time and loopback; only the requests asked for before the page was usable):`,
    '',
    ...waterfall,
    `<!-- kept:${name}:end -->`,
  ].join('\n');
}

async function main(): Promise<void> {
  if (!CHROMIUM) throw new Error('no Chromium: apt-get install chromium, or set TRACKER_CHROMIUM');
  const built = await ensureWebBuilt({ output: 'inherit' });
  if (built.state === 'unavailable') throw new Error(`the web app cannot be built: ${built.reason}`);
  const kept = keptInstallation();
  if (kept) Object.assign(ADMIN, kept.admin);
  if (DATA_DIR) mkdirSync(DATA_DIR, { recursive: true });
  const engines = await startEngines(DATA_DIR ? { dataDir: DATA_DIR } : {});
  const table = DATA_DIR ? 'bench-web' : `bench-web-${Date.now().toString(36)}`;
  Object.assign(process.env, {
    [ENV.dynamodbEndpoint]: engines.dynamodbEndpoint,
    [ENV.s3Endpoint]: engines.s3Endpoint,
    [ENV.table]: table,
    [ENV.bucket]: table,
    BENCH_WEB_DIR: WEB_DIST_DIR,
    ...(kept ? { BENCH_REUSE_TABLE: '1' } : {}),
  });
  await ensureTable(engines.dynamodbEndpoint, table);
  const server = await startServerProcess(engines, table);
  let browser: Browser | undefined;
  try {
    let seed: SeedReport;
    let seedSeconds: number;
    if (kept) {
      ({ report: seed, seedSeconds } = kept);
      log(`reusing ${kept.bugs} bugs in ${DATA_DIR}`);
    } else {
      log(`server ${server.url}; seeding ${BUGS} bugs`);
      const started = performance.now();
      seed = await seedInstallation({
        bugs: BUGS,
        seed: SEED,
        url: server.url,
        apiKey: ADMIN.apiKey,
        log,
        tableItems: TABLE_ITEMS,
      });
      seedSeconds = (performance.now() - started) / 1000;
      if (SEEDED_FILE) {
        const record: Kept = {
          bugs: BUGS,
          seed: SEED,
          tableItems: TABLE_ITEMS,
          admin: ADMIN,
          report: seed,
          seedSeconds,
        };
        writeFileSync(SEEDED_FILE, JSON.stringify(record, null, 2));
      }
    }
    const origin = server.url;
    const { id: userId } = await get(origin, '/rest/whoami');
    // Bugs spread over the largest product, a different one for each visit.
    const { bugs } = await get(
      origin,
      `/rest/bug?product=${encodeURIComponent(seed.sample.largeProduct)}&limit=${RUNS * 50 + 1}&include_fields=id`,
    );
    const ids = (bugs as Array<{ id: number }>).filter((_, n) => n % 50 === 0).map((bug) => bug.id);
    if (ids.length < RUNS + 1) throw new Error(`only ${ids.length} bugs to visit`);
    // The first search of the API process loads the index: not what a person's page waits for.
    await get(origin, `/rest/bug?quicksearch=${encodeURIComponent(seed.sample.quicksearch)}&limit=1`);

    if (QUIET_LOAD) await untilQuiet(QUIET_LOAD);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    const breakdowns: Breakdown[] = [];
    const results = {
      bug: await measure(browser, origin, userId, 'bug page', (page, run) =>
        bugPageUsable(page, ids[run], run > 0 ? breakdowns : undefined),
      ),
      list: await measure(browser, origin, userId, '500-bug list', (page) =>
        bugListShown(page, seed.sample.largeProduct),
      ),
      quick: await measure(browser, origin, userId, 'quicksearch', (page) =>
        quicksearchToResults(page, seed.sample.quicksearch),
      ),
    };
    const bytes = await firstPageBytes(browser, origin, userId);
    log(`first page: app ${(bytes.app / 1024).toFixed(1)} KiB, API ${(bytes.api / 1024).toFixed(1)} KiB`);
    const waterfall = waterfallOf(breakdowns);
    log(`the bug page's requests:\n${waterfall.join('\n')}`);
    const section = render(
      seed,
      seedSeconds,
      Boolean(kept),
      results,
      bytes,
      waterfall,
      `Chromium ${browser.version()}`,
    );
    const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '# Benchmarks\n';
    const name = `web-bench-${seed.bugs}`;
    const existing = new RegExp(`<!-- kept:${name}:start -->[\\s\\S]*?<!-- kept:${name}:end -->`);
    writeFileSync(
      OUTPUT,
      existing.test(current) ? current.replace(existing, () => section) : mergeKeptSections(current, [section]),
    );
    log(`wrote ${OUTPUT}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await server.stop();
    await engines.stop();
  }
}

main().catch((error) => {
  console.error(`[bench:web] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
