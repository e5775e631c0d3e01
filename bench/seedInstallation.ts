/**
 * Loads a realistic installation fast (the job behind `npm run seed` and `npm run bench:search`):
 * the catalogue through the API, then generated bugs straight to the table and one search
 * snapshot. Deterministic: the same seed and sizes give the same installation.
 */
import { allocateIds } from '../shared/storage/counterStore.ts';
import { generateBugs, planAttachmentCounts, planCommentCounts } from './seedBugs.ts';
import { type ApiTarget, createCatalogue } from './seedCatalogue.ts';
import { random } from './seedRandom.ts';
import { PRODUCTS } from './seedVocabulary.ts';
import { type TableItems, writeBugs, writeSearchSnapshot } from './seedWriter.ts';

export interface SeedOptions extends ApiTarget {
  bugs: number;
  seed?: number;
  log?: (message: string) => void;
  /** `bugs`: only the items searches read go to the table (seedWriter.ts); the snapshot has everything. */
  tableItems?: TableItems;
}

export interface SeedReport {
  bugs: number;
  users: number;
  products: Array<{ name: string; bugs: number }>;
  items: number;
  /** Which items went to the table (seedWriter.ts). */
  tableItems?: TableItems;
  attachments: number;
  seconds: number;
  snapshotChunks: number;
  /** Names the bench's scenarios query. */
  sample: {
    product: string;
    status: string;
    productStatusCount: number;
    summaryWord: string;
    quicksearch: string;
    duplicateSummary: string;
    largeProduct: string;
  };
}

export async function seedInstallation(options: SeedOptions): Promise<SeedReport> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const rng = random(options.seed ?? 1);
  const bugCount = options.bugs;
  const userCount = Math.max(50, Math.min(2_000, Math.round(bugCount / 200)));

  log(`catalogue: ${PRODUCTS.length} products, ${userCount} users`);
  const catalogue = await createCatalogue(options, userCount);
  const { products } = catalogue;

  // Bugs: ids from the table's counters, content from the generator, then straight to the table.
  const bugIds = await allocateIds('bug', bugCount);
  const attachmentPlan = planAttachmentCounts(options.seed ?? 1, bugCount);
  const commentPlan = planCommentCounts(rng, bugCount).map((count, n) => count + attachmentPlan[n]);
  const attachmentIds = await allocateIds(
    'attachment',
    attachmentPlan.reduce((sum, count) => sum + count, 0),
  );
  const commentIds = await allocateIds(
    'comment',
    commentPlan.reduce((sum, count) => sum + count, 0),
  );
  const flagIds = await allocateIds('flag', Math.ceil(bugCount / 8) + 10);
  const generated = generateBugs(rng, catalogue, {
    bugIds,
    commentPlan,
    commentIds,
    flagIds,
    attachmentPlan,
    attachmentIds,
  });
  const { bugs } = generated;

  log(`writing ${bugCount} bugs`);
  const written = await writeBugs(generated, log, started, options.tableItems);
  const pointer = await writeSearchSnapshot(generated);
  const seconds = (performance.now() - started) / 1000;
  log(
    `seeded ${bugCount} bugs (${written} items, ${options.tableItems === 'bugs' ? 'no' : generated.bodies.size} attachment bodies) in ${seconds.toFixed(1)} s; snapshot ${pointer.chunks} chunks`,
  );

  // What the bench asks for: the product + status pair whose result is closest to the 22 bugs of
  // Bugzilla's reference search, a rare summary phrase, ...
  const pairs = new Map<string, number>();
  for (const bug of bugs)
    if (!products.find((entry) => entry.id === bug.productId)!.secure)
      pairs.set(`${bug.productId}|${bug.status}`, (pairs.get(`${bug.productId}|${bug.status}`) ?? 0) + 1);
  const [bestPair, productStatusCount] = [...pairs].sort((a, b) => Math.abs(a[1] - 22) - Math.abs(b[1] - 22))[0];
  const [pairProduct, midStatus] = bestPair.split('|');
  const mid = products.find((entry) => entry.id === Number(pairProduct))!;
  return {
    bugs: bugCount,
    users: userCount,
    products: products.map((product) => ({ name: product.name, bugs: product.count })),
    items: written,
    tableItems: options.tableItems ?? 'all',
    attachments: generated.bodies.size,
    seconds,
    snapshotChunks: pointer.chunks,
    sample: {
      product: mid.name,
      status: midStatus,
      productStatusCount,
      summaryWord: 'flickers on Wayland',
      quicksearch: 'crash toolbar',
      duplicateSummary: 'Toolbar crashes on startup with many tabs open',
      largeProduct: products[0].name,
    },
  };
}
