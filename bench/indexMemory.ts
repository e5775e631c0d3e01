/**
 * Memory of the search index at scale (issue 20): builds the index in-process from synthetic bugs
 * shaped like `npm run seed`'s (bench/seedBugs.ts, no DynamoDB), writes its snapshot as the
 * compactor does (binary, gzip), then loads that snapshot in a fresh child process, as a cold search
 * instance does, and measures what each structure of the loaded index costs.
 *
 * Run: `npx tsx --expose-gc bench/indexMemory.ts` (or `node --expose-gc --import tsx ...`).
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { commentWords, LIST_COLUMNS, SLOT_COLUMNS } from '../shared/domain/search/index/columns.ts';
import { IdLists } from '../shared/domain/search/index/idLists.ts';
import { SearchIndex } from '../shared/domain/search/index/searchIndex.ts';
import { indexFromSnapshot, snapshotOf } from '../shared/domain/search/snapshot/indexSnapshot.ts';
import { SnapshotReader } from '../shared/domain/search/snapshot/snapshotFormat.ts';
import { SNAPSHOT_GZIP_LEVEL } from '../shared/storage/search/searchIndexStore.ts';
import { generateBugs, planAttachmentCounts, planCommentCounts } from './seedBugs.ts';
import type { SeededCatalogue } from './seedCatalogue.ts';
import { random } from './seedRandom.ts';
import { KEYWORDS, PRODUCTS, SECURE_PRODUCT } from './seedVocabulary.ts';

const USAGE = `Usage: npx tsx --expose-gc bench/indexMemory.ts [--bugs N] [--seed N] [--json]

Builds the search index from N synthetic bugs shaped like \`npm run seed\`'s (comments, history,
CCs, flags, attachments in the same proportions; no DynamoDB), writes its snapshot as the
compactor does (binary, gzip), loads it in a fresh process as a cold search instance does, and
reports per bug: heap and RSS after gc, the bytes of each structure of the loaded index, the
snapshot's size by part, the times to encode and to decode+load it, and the first summary
substring search (trigram build).

  --bugs N   bugs to generate (BENCH_BUGS, or 20000)
  --seed N   seed of the generator (BENCH_SEED, or 1)
  --json     print the measurements as JSON instead of tables
  --keep F   also write the gzip snapshot to file F (to load it again in other experiments)
  --help     this text

Needs --expose-gc (heap figures are taken after full collections).
`;

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Full collections until the heap stops shrinking, then the process's memory. A typed array's
 * store is released after the collection that frees its object, off the main thread: the pause
 * between rounds lets that happen, or its bytes would show up one measurement late.
 */
async function settle(): Promise<NodeJS.MemoryUsage> {
  let last = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 8; round++) {
    gc!();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    if (round > 0 && last - (heapUsed + arrayBuffers) < 16 * 1024) break;
    last = heapUsed + arrayBuffers;
  }
  return process.memoryUsage();
}

/** The JS heap plus the backing stores of typed arrays (which live outside it). */
const held = (usage: NodeJS.MemoryUsage) => usage.heapUsed + usage.arrayBuffers;
const ms = (since: number) => performance.now() - since;

/** The catalogue `createCatalogue` makes, with ids as a fresh installation would number them. */
function syntheticCatalogue(bugCount: number): SeededCatalogue {
  const userCount = Math.max(50, Math.min(2_000, Math.round(bugCount / 200)));
  let nextId = 100;
  const userIds = Array.from({ length: userCount }, (_, n) => 2 + n);
  const keywordIds = KEYWORDS.map((_, n) => 1 + n);
  const products = PRODUCTS.map(([name, components], index) => ({
    id: 1 + index,
    name,
    components: components.map(() => nextId++),
    versionId: 1 + index,
    milestoneId: 1 + index,
    weight: 1 / (index + 1) ** 1.6,
    secure: name === SECURE_PRODUCT,
    count: 0,
  }));
  return { securityGroup: 10, userIds, keywordIds, flagTypeIds: [1, 2], products };
}

interface SeedShape {
  commentsPerBug: number;
  privateCommentShare: number;
  historyChangesPerBug: number;
  ccPerBug: number;
  keywordsPerBug: number;
  flagsPerBug: number;
  attachmentsPerBug: number;
  distinctWords: number;
  wordPostingsPerBug: number;
}

/** The index as `writeSearchSnapshot` (bench/seedWriter.ts) builds it, and the shape of its bugs. */
function buildIndex(bugCount: number, seed: number): { index: SearchIndex; shape: SeedShape; times: Times } {
  const times: Times = {};
  let started = performance.now();
  const rng = random(seed);
  const attachmentPlan = planAttachmentCounts(seed, bugCount);
  const commentPlan = planCommentCounts(rng, bugCount).map((count, n) => count + attachmentPlan[n]);
  const sequence = (length: number) => Array.from({ length }, (_, n) => 1 + n);
  const generated = generateBugs(rng, syntheticCatalogue(bugCount), {
    bugIds: sequence(bugCount),
    commentPlan,
    commentIds: sequence(commentPlan.reduce((sum, count) => sum + count, 0)),
    flagIds: sequence(Math.ceil(bugCount / 8) + 10),
    attachmentPlan,
    attachmentIds: sequence(attachmentPlan.reduce((sum, count) => sum + count, 0)),
  });
  times.generateMs = ms(started);
  const { bugs, commentsOf, historyOf, attachmentsOf } = generated;
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const comments = commentsOf.flat();
  const shape: SeedShape = {
    commentsPerBug: comments.length / bugCount,
    privateCommentShare: comments.filter((comment) => comment.isPrivate).length / comments.length,
    historyChangesPerBug: sum(historyOf.map((entries) => sum(entries.map((entry) => entry.changes.length)))) / bugCount,
    ccPerBug: sum(bugs.map((bug) => bug.ccIds.length)) / bugCount,
    keywordsPerBug: sum(bugs.map((bug) => bug.keywordIds.length)) / bugCount,
    flagsPerBug: sum(bugs.map((bug) => bug.flags.length)) / bugCount,
    attachmentsPerBug: sum(attachmentsOf.map((list) => list.length)) / bugCount,
    distinctWords: 0,
    wordPostingsPerBug: 0,
  };
  started = performance.now();
  const index = new SearchIndex();
  index.highWater = Date.now();
  bugs.forEach((bug, n) => {
    const texts = (isPrivate: boolean) =>
      commentsOf[n].filter((comment) => comment.isPrivate === isPrivate).map((comment) => comment.rawText);
    index.apply({
      bug,
      rev: 1,
      history: historyOf[n],
      words: commentWords(texts(false)),
      privateWords: commentWords(texts(true)),
    });
  });
  times.applyMs = ms(started);
  shape.distinctWords = index.words.size + index.privateWords.size;
  shape.wordPostingsPerBug =
    sum([index.words, index.privateWords].flatMap((lists) => [...lists.keys()].map((word) => lists.count(word)))) /
    bugCount;
  return { index, shape, times };
}

type Times = Record<string, number>;

interface SnapshotPart {
  part: string;
  rawBytes: number;
  gzipBytes: number;
}

/** Each section of the snapshot on its own: which columns make the file big. */
async function snapshotParts(snapshot: Uint8Array): Promise<SnapshotPart[]> {
  const measured: SnapshotPart[] = [];
  for (const { name, bytes } of new SnapshotReader(snapshot).sections()) {
    const compressed = await promisify(gzip)(bytes, { level: SNAPSHOT_GZIP_LEVEL });
    measured.push({ part: name, rawBytes: bytes.length, gzipBytes: compressed.length });
  }
  return measured.sort((a, b) => b.gzipBytes - a.gzipBytes);
}

interface Structure {
  structure: string;
  /** Bytes freed by emptying it from the loaded index (JS heap + typed-array stores). */
  bytes: number;
  /** For typed arrays: their byteLength, exactly. */
  typedBytes?: number;
}

interface LoadReport {
  bugs: number;
  gzipBytes: number;
  readMs: number;
  gunzipMs: number;
  parseMs: number;
  fromSnapshotMs: number;
  /** Index after gc, over the process before the snapshot was read. */
  heapBytes: number;
  arrayBufferBytes: number;
  rssBytes: number;
  baseRssBytes: number;
  peakRssBytes: number;
  trigramBuildMs: number;
  firstSubstringMs: number;
  secondSubstringMs: number;
  trigramBytes: number;
  productSlotsMs: number;
  productSlotsBytes: number;
  structures: Structure[];
  typedColumns: Array<{ column: string; bytes: number }>;
  remainderBytes: number;
}

/** The index's own columns, and the typed arrays it keeps beside them (searchIndex.ts). */
const TYPED_COLUMNS = SLOT_COLUMNS;

async function loadInFreshProcess(file: string): Promise<LoadReport> {
  const base = await settle();
  let started = performance.now();
  let compressed: Buffer | undefined = readFileSync(file);
  const gzipBytes = compressed.length;
  const readMs = ms(started);
  started = performance.now();
  let bytes: Uint8Array | undefined = await promisify(gunzip)(compressed);
  compressed = undefined;
  const gunzipMs = ms(started);
  const parseMs = 0;
  started = performance.now();
  const index = indexFromSnapshot(bytes);
  const fromSnapshotMs = ms(started);
  bytes = undefined;
  const loaded = await settle();
  const peakRssBytes = process.resourceUsage().maxRSS * 1024;

  // The trigram postings come with the snapshot; an index without them builds them here.
  started = performance.now();
  index.summaryTrigrams();
  const trigramBuildMs = ms(started);
  index.summaryTrigrams().matching('flickers on wayland', index.size);
  const firstSubstringMs = ms(started);
  started = performance.now();
  index.summaryTrigrams().matching('crashes on startup', index.size);
  const secondSubstringMs = ms(started);
  const withTrigrams = await settle();
  started = performance.now();
  index.slotsOfProducts(new Set([1]));
  const productSlotsMs = ms(started);
  const withProductSlots = await settle();

  // Each structure's cost: empty it and see what a full collection gives back. Emptying in this
  // order, each figure is what that structure alone holds once the ones before it are gone (a
  // string shared by a column and its vocabulary counts with the one emptied first).
  const fields = index as unknown as Record<string, unknown>;
  const structures: Structure[] = [];
  let before = held(withProductSlots);
  const measure = async (structure: string, empty: () => void, typedBytes?: number) => {
    empty();
    const after = held(await settle());
    structures.push({ structure, bytes: before - after, ...(typedBytes === undefined ? {} : { typedBytes }) });
    before = after;
  };
  const emptyArray = (name: string) => () => {
    (fields[name] as unknown[]).length = 0;
  };
  await measure('trigram postings (read with the snapshot)', () => {
    fields.trigrams = undefined;
  });
  await measure('per-product slot lists (built on first use)', () => {
    fields.productSlots = undefined;
  });
  // Typed arrays are counted exactly by byteLength; emptying them all at once checks that figure
  // against the collector's (a few hundred KB of heap noise would swamp one column's).
  const typed = [
    ...TYPED_COLUMNS.map((name) => ({ name, array: fields[name] as Int32Array | Float64Array | Uint8Array })),
    ...Object.entries(fields.codes as Record<string, Int32Array>).map(([name, array]) => ({
      name: `codes.${name}`,
      array,
    })),
  ];
  const typedBytes = typed.reduce((total, { array }) => total + array.byteLength, 0);
  const typedColumns = typed.map(({ name, array }) => ({
    column: `${name} (${array.constructor.name})`,
    bytes: array.byteLength,
  }));
  await measure(
    `every typed-array column (${typed.length})`,
    () => {
      for (const { name, array } of typed) {
        const empty = new (array.constructor as new (length: number) => typeof array)(0);
        if (name.startsWith('codes.')) (fields.codes as Record<string, unknown>)[name.slice(6)] = empty;
        else fields[name] = empty;
      }
      typed.length = 0;
    },
    typedBytes,
  );
  await measure('summary (strings)', emptyArray('summary'));
  await measure('summaryLower (strings)', emptyArray('summaryLower'));
  await measure('whiteboard (strings)', emptyArray('whiteboard'));
  await measure('url (strings)', emptyArray('url'));
  await measure('alias (strings)', emptyArray('alias'));
  await measure('seeAlso (string lists)', emptyArray('seeAlso'));
  const lists = fields.lists as Record<string, IdLists>;
  for (const name of LIST_COLUMNS)
    await measure(`lists.${name} (ids and ends, idLists.ts)`, () => {
      lists[name] = new IdLists();
    });
  await measure('flags (objects per bug)', emptyArray('flags'));
  await measure('tags (objects per bug)', emptyArray('tags'));
  await measure('custom (objects per bug)', emptyArray('custom'));
  await measure('privateAttachments (lists per bug)', emptyArray('privateAttachments'));
  await measure('history: field changes by column (changeHistory.ts)', () => {
    fields.history = undefined;
  });
  await measure('words: public comment-word postings (postingLists.ts)', () => {
    fields.words = undefined;
  });
  await measure('privateWords: private comment-word postings', () => {
    fields.privateWords = undefined;
  });
  await measure('bug id → slot directory', () => {
    fields.slots = undefined;
  });
  await measure('vocabularies, whiteboard and alias dictionaries', () => {
    fields.vocabularies = {};
    fields.whiteboards = undefined;
    fields.aliases = undefined;
  });
  const heapBytes = loaded.heapUsed - base.heapUsed;
  const arrayBufferBytes = loaded.arrayBuffers - base.arrayBuffers;
  return {
    bugs: index.size,
    gzipBytes,
    readMs,
    gunzipMs,
    parseMs,
    fromSnapshotMs,
    heapBytes,
    arrayBufferBytes,
    rssBytes: loaded.rss - base.rss,
    baseRssBytes: base.rss,
    peakRssBytes,
    trigramBuildMs,
    firstSubstringMs,
    secondSubstringMs,
    trigramBytes: held(withTrigrams) - held(loaded),
    productSlotsMs,
    productSlotsBytes: held(withProductSlots) - held(withTrigrams),
    structures,
    typedColumns,
    remainderBytes: held(await settle()) - held(base),
  };
}

interface Report {
  bugs: number;
  seed: number;
  shape: SeedShape;
  times: Times;
  /** The index as built by apply() (the compactor's and the seed's), after gc. */
  appliedHeldBytes: number;
  snapshot: { rawBytes: number; gzipBytes: number; parts: SnapshotPart[] };
  load: LoadReport;
}

async function run(bugCount: number, seed: number, keepSnapshot?: string): Promise<Report> {
  const base = held(await settle());
  const { index, shape, times } = buildIndex(bugCount, seed);
  const appliedHeldBytes = held(await settle()) - base;

  // Encoding as the compactor does: toSnapshot, then gzip (searchIndexStore.ts writeSnapshot).
  let started = performance.now();
  const snapshot = snapshotOf(index);
  times.toSnapshotMs = ms(started);
  started = performance.now();
  const compressed = await promisify(gzip)(snapshot, { level: SNAPSHOT_GZIP_LEVEL });
  times.gzipMs = ms(started);
  times.encodeMs = times.toSnapshotMs + times.gzipMs;
  const parts = await snapshotParts(snapshot);

  const directory = mkdtempSync(join(tmpdir(), 'index-memory-'));
  try {
    const file = join(directory, 'snapshot.gz');
    writeFileSync(file, compressed);
    if (keepSnapshot) writeFileSync(keepSnapshot, compressed);
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--load', file],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    );
    if (child.status !== 0) throw new Error(`the loading process failed: ${child.stderr}`);
    const load = JSON.parse(child.stdout) as LoadReport;
    return {
      bugs: bugCount,
      seed,
      shape,
      times,
      appliedHeldBytes,
      snapshot: { rawBytes: snapshot.length, gzipBytes: compressed.length, parts },
      load,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const perBug = (bytes: number, bugs: number) => (bytes / bugs).toFixed(1);
const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);
const round = (value: number) => value.toFixed(0);

function printReport(report: Report): void {
  const { bugs, load, shape, times, snapshot } = report;
  const line = (text = '') => process.stdout.write(`${text}\n`);
  line(`# Search index memory, ${bugs.toLocaleString('en')} bugs (seed ${report.seed}, Node ${process.version})`);
  line();
  line(
    `Seed shape per bug: ${shape.commentsPerBug.toFixed(2)} comments (${(shape.privateCommentShare * 100).toFixed(1)} % private), ` +
      `${shape.historyChangesPerBug.toFixed(2)} history changes, ${shape.ccPerBug.toFixed(2)} CCs, ` +
      `${shape.keywordsPerBug.toFixed(2)} keywords, ${shape.flagsPerBug.toFixed(2)} flags, ${shape.attachmentsPerBug.toFixed(2)} attachments; ` +
      `${shape.distinctWords} distinct comment words, ${shape.wordPostingsPerBug.toFixed(1)} word postings per bug.`,
  );
  line();
  line('| measure | total | per bug |');
  line('|---|---:|---:|');
  line(`| loaded index, JS heap after gc | ${mib(load.heapBytes)} MiB | ${perBug(load.heapBytes, bugs)} B |`);
  line(
    `| loaded index, typed-array stores | ${mib(load.arrayBufferBytes)} MiB | ${perBug(load.arrayBufferBytes, bugs)} B |`,
  );
  line(
    `| loaded index, RSS after gc, over the ${mib(load.baseRssBytes)} MiB of the process before the load | ${mib(load.rssBytes - load.baseRssBytes)} MiB | ${perBug(load.rssBytes - load.baseRssBytes, bugs)} B |`,
  );
  line(
    `| peak RSS of the loading process, over the process before the load | ${mib(load.peakRssBytes - load.baseRssBytes)} MiB | ${perBug(load.peakRssBytes - load.baseRssBytes, bugs)} B |`,
  );
  line(
    `| index built by apply(), heap + stores after gc | ${mib(report.appliedHeldBytes)} MiB | ${perBug(report.appliedHeldBytes, bugs)} B |`,
  );
  line(
    `| trigram postings (first substring search) | ${mib(load.trigramBytes)} MiB | ${perBug(load.trigramBytes, bugs)} B |`,
  );
  line(`| snapshot, uncompressed | ${mib(snapshot.rawBytes)} MiB | ${perBug(snapshot.rawBytes, bugs)} B |`);
  line(`| snapshot gzip | ${mib(snapshot.gzipBytes)} MiB | ${perBug(snapshot.gzipBytes, bugs)} B |`);
  line();
  line('| time | ms |');
  line('|---|---:|');
  const timeRows: Array<[string, number]> = [
    ['generate bugs', times.generateMs],
    ['apply() every bug', times.applyMs],
    ['encode: toSnapshot', times.toSnapshotMs],
    ['encode: gzip', times.gzipMs],
    ['encode, total', times.encodeMs],
    ['load: gunzip', load.gunzipMs],
    ['load: fromSnapshot', load.fromSnapshotMs],
    ['load (decode + fromSnapshot), total', load.gunzipMs + load.parseMs + load.fromSnapshotMs],
    ['first substring search (trigram build + match)', load.firstSubstringMs],
    ['  of which trigram build', load.trigramBuildMs],
    ['second substring search', load.secondSubstringMs],
    ['per-product slot lists (first product search)', load.productSlotsMs],
  ];
  for (const [name, value] of timeRows) line(`| ${name} | ${round(value)} |`);
  line();
  line('Loaded index by structure (bytes freed by emptying it; typed arrays also by byteLength):');
  line();
  line('| structure | bytes per bug | byteLength per bug | MiB |');
  line('|---|---:|---:|---:|');
  for (const { structure, bytes, typedBytes } of load.structures)
    line(
      `| ${structure} | ${perBug(bytes, bugs)} | ${typedBytes === undefined ? '' : perBug(typedBytes, bugs)} | ${mib(bytes)} |`,
    );
  line(
    `| (left after emptying all, over the process before loading) | ${perBug(load.remainderBytes, bugs)} | | ${mib(load.remainderBytes)} |`,
  );
  line();
  line('Typed-array columns of the loaded index (byteLength):');
  line();
  line('| column | bytes per bug |');
  line('|---|---:|');
  for (const { column, bytes } of load.typedColumns) line(`| ${column} | ${perBug(bytes, bugs)} |`);
  line();
  line('Snapshot by part (each part serialised and gzipped alone):');
  line();
  line('| part | bytes per bug | gzip bytes per bug |');
  line('|---|---:|---:|');
  for (const part of snapshot.parts)
    line(`| ${part.part} | ${perBug(part.rawBytes, bugs)} | ${perBug(part.gzipBytes, bugs)} |`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  if (!gc) {
    process.stderr.write('Run with --expose-gc (npx tsx --expose-gc bench/indexMemory.ts).\n');
    process.exitCode = 2;
    return;
  }
  const option = (name: string) => {
    const position = args.indexOf(`--${name}`);
    return position >= 0 ? args[position + 1] : undefined;
  };
  const loadFile = option('load');
  if (loadFile) {
    process.stdout.write(JSON.stringify(await loadInFreshProcess(loadFile)));
    return;
  }
  const positive = (value: string | undefined) => (Number(value) > 0 ? Math.round(Number(value)) : undefined);
  const bugs = positive(option('bugs')) ?? positive(process.env.BENCH_BUGS) ?? 20_000;
  const seed = positive(option('seed')) ?? positive(process.env.BENCH_SEED) ?? 1;
  const report = await run(bugs, seed, option('keep'));
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printReport(report);
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
