/**
 * `npm run seed -- --bugs 100000 [--seed 1] [--data-dir .data] [--api-key KEY]`: loads a realistic
 * installation fast. The catalogue (products of varied sizes and their components, users, a
 * security group, keywords, flag types) is created through the API, so it is exactly what an
 * administrator would have made; the bugs (a skewed status mix, CCs, keywords, dependencies,
 * duplicates, flags, comments and history, summaries from a bug-tracker vocabulary) are written
 * straight to the table with parallel BatchWriteItem, then one search snapshot is written for them.
 * Deterministic: the same seed and sizes give the same installation.
 *
 * Stand-alone it opens the local installation in --data-dir (stop `npm start` first) and creates
 * it if needed; bench/run.ts calls `seedInstallation` against its own server.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Bug, BugFlag, HistoryEntry } from '../shared/domain/bug/bug.ts';
import { commentWords, SearchIndex } from '../shared/domain/search/searchIndex.ts';
import { toBugzillaDateTime } from '../shared/domain/time.ts';
import { bulkBugItems, type StoredComment } from '../shared/storage/bug/bugStore.ts';
import { allocateIds } from '../shared/storage/counterStore.ts';
import { documentClient, tableName } from '../shared/storage/dynamoClient.ts';
import { writeSnapshot } from '../shared/storage/search/searchIndexStore.ts';

export interface SeedOptions {
  bugs: number;
  seed?: number;
  /** The running API (catalogue writes) and an administrator's API key. */
  url: string;
  apiKey: string;
  log?: (message: string) => void;
}

export interface SeedReport {
  bugs: number;
  users: number;
  products: Array<{ name: string; bugs: number }>;
  items: number;
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

/** mulberry32: small, fast, deterministic. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
    /** Zipf-like: low indexes much more often. */
    skewed: <T>(items: readonly T[], power = 1.6) =>
      items[Math.min(items.length - 1, Math.floor(items.length * next() ** power))],
    weighted: <T>(entries: ReadonlyArray<[T, number]>) => {
      let roll = next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [value, weight] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return entries[entries.length - 1][0];
    },
  };
}

const PRODUCTS: ReadonlyArray<[string, string[]]> = [
  [
    'Browser',
    [
      'Address Bar',
      'Tabbed Browser',
      'Bookmarks',
      'Downloads',
      'Session Restore',
      'Preferences',
      'Toolbars',
      'Private Browsing',
      'Search',
      'Theme',
      'Menus',
      'Startup',
    ],
  ],
  [
    'Core',
    [
      'DOM',
      'Layout',
      'Networking',
      'JavaScript Engine',
      'Graphics',
      'Audio/Video',
      'Storage',
      'Security',
      'XPCOM',
      'Widget',
      'Printing',
      'Memory Allocator',
      'IPC',
      'Web Painting',
      'CSS Parsing',
    ],
  ],
  ['Mail', ['Composition', 'Message Reader', 'Address Book', 'Filters', 'Account Manager', 'Search', 'Folder Pane']],
  ['Calendar', ['Alarms', 'Import and Export', 'Invitations', 'Tasks', 'Views']],
  [
    'DevTools',
    ['Console', 'Debugger', 'Inspector', 'Network Monitor', 'Performance', 'Style Editor', 'Storage Inspector'],
  ],
  [
    'Toolkit',
    ['Add-ons Manager', 'Application Update', 'Crash Reporting', 'Telemetry', 'Form Manager', 'Password Manager'],
  ],
  ['Mobile', ['General', 'Sync', 'Tabs', 'Toolbar', 'Reader View']],
  ['Sync', ['Server', 'Client', 'Bookmarks Sync', 'Password Sync']],
  ['Infrastructure', ['Build System', 'CI', 'Hosting', 'Monitoring', 'Release Automation']],
  ['Documentation', ['Install Guide', 'API Reference', 'Tutorials', 'Translations']],
  ['Website', ['Homepage', 'Blog', 'Downloads Page', 'Accounts']],
  ['Payments', ['Checkout', 'Refunds', 'Invoices']],
  ['Identity', ['Login', 'Two-factor', 'Account Recovery']],
  ['Analytics', ['Dashboards', 'Pipelines', 'Reports']],
  ['Media', ['Codecs', 'Playback', 'WebRTC', 'Capture']],
  ['Graphics', ['WebGL', 'Canvas', 'Compositor', 'Fonts']],
  ['Accessibility', ['Screen Reader', 'Keyboard Navigation', 'High Contrast']],
  ['Localization', ['Strings', 'Right-to-left', 'Date Formats']],
  ['Search Service', ['Indexing', 'Ranking', 'Suggestions']],
  ['Security', ['Vulnerabilities', 'Certificates', 'Sandboxing']],
];
const SECURE_PRODUCT = 'Security';
const KEYWORDS = [
  'crash',
  'regression',
  'perf',
  'hang',
  'dataloss',
  'intermittent',
  'access',
  'l10n',
  'meta',
  'polish',
  'testcase',
  'topcrash',
];
const SUBJECTS = [
  'Toolbar',
  'Address bar',
  'Tab strip',
  'Bookmark menu',
  'Download panel',
  'Preferences page',
  'Search box',
  'Context menu',
  'Sidebar',
  'Print preview',
  'Video player',
  'Login form',
  'Sync engine',
  'Filter editor',
  'Message list',
  'Calendar view',
  'Debugger',
  'Console',
  'Network panel',
  'Font renderer',
  'Canvas',
  'Installer',
  'Update service',
  'Password dialog',
  'Checkout page',
  'Dashboard',
  'Screen reader',
  'Spell checker',
  'Session store',
  'Cache',
  'Scrollbar',
  'Status bar',
];
const PROBLEMS = [
  'crashes',
  'hangs',
  'is slow',
  'flickers',
  'leaks memory',
  'shows the wrong icon',
  'loses focus',
  'renders blank',
  'ignores the setting',
  'freezes',
  'throws an exception',
  'is misaligned',
  'drops input',
  'duplicates entries',
  'shows a stale value',
  'fails to load',
  'overlaps the text',
  'truncates long names',
  'reports the wrong size',
  'uses too much CPU',
];
const CONTEXTS = [
  'on startup',
  'after resume from sleep',
  'with many tabs open',
  'in dark mode',
  'on high-DPI screens',
  'when offline',
  'after an update',
  'with a proxy',
  'on Wayland',
  'in private windows',
  'when the disk is full',
  'with right-to-left text',
  'after a crash',
  'on slow networks',
  'with a screen reader',
  'when printing',
  'with large files',
  'on first run',
  'after switching profiles',
  'in full screen',
];
const COMMENT_LINES = [
  'I can reproduce this on the latest nightly.',
  'Here is a stack trace from the crash reporter.',
  'This regressed recently; bisecting now.',
  'Works for me with a clean profile.',
  'Confirmed on two machines.',
  'The attached testcase shows the problem.',
  'Could be related to the compositor refactoring.',
  'Patch is up for review.',
  "Landed; please verify in tomorrow's build.",
  'Still happens with hardware acceleration disabled.',
  'Setting the pref back to default avoids it.',
  'Marking as a blocker for the release.',
  'Telemetry shows this on about one percent of sessions.',
  'Happens only with the portable build.',
  'Needinfo the reporter for steps.',
];
const OSES = ['Linux', 'Windows', 'Mac OS', 'All', 'Other'];
const PLATFORMS = ['PC', 'All', 'Macintosh', 'Other'];
const PRIORITIES = ['---', 'Normal', 'High', 'Low', 'Highest', 'Lowest'];
const SEVERITIES = ['normal', 'major', 'minor', 'critical', 'enhancement', 'trivial', 'blocker'];

async function api(options: SeedOptions, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${options.url}/rest${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-BUGZILLA-API-KEY': options.apiKey },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await response.json()) as any;
  if (!response.ok || parsed?.error) throw new Error(`${method} ${path}: ${JSON.stringify(parsed)}`);
  return parsed;
}

async function batchWriteAll(items: Array<Record<string, unknown>>, concurrency = 12): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const start = next;
      next += 25;
      let pending: Record<string, unknown[]> | undefined = {
        [tableName()]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })),
      };
      for (let attempt = 0; pending && Object.keys(pending).length > 0; attempt++) {
        const result = await documentClient().send(new BatchWriteCommand({ RequestItems: pending as never }));
        pending = result.UnprocessedItems as Record<string, unknown[]> | undefined;
        if (pending && Object.keys(pending).length > 0)
          await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export async function seedInstallation(options: SeedOptions): Promise<SeedReport> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const rng = random(options.seed ?? 1);
  const bugCount = options.bugs;
  const userCount = Math.max(50, Math.min(2_000, Math.round(bugCount / 200)));

  // ---- catalogue, through the API ----
  log(`catalogue: ${PRODUCTS.length} products, ${userCount} users`);
  const me = await api(options, 'GET', '/whoami');
  const securityGroup = (
    await api(options, 'POST', '/group', { name: 'security-team', description: 'Security team', is_active: true })
  ).id as number;
  const userIds: number[] = [];
  const userLogins = new Map<number, string>();
  for (let start = 0; start < userCount; start += 16) {
    const created = await Promise.all(
      Array.from({ length: Math.min(16, userCount - start) }, (_, offset) => {
        const n = start + offset + 1;
        const login = `user${String(n).padStart(4, '0')}@seed.example`;
        return api(options, 'POST', '/user', { email: login, full_name: `Seed User ${n}` }).then((result) => ({
          id: result.id as number,
          login,
        }));
      }),
    );
    for (const { id, login } of created) {
      userIds.push(id);
      userLogins.set(id, login);
    }
  }
  const securityMembers = userIds.slice(0, 20);
  for (const id of securityMembers) await api(options, 'PUT', `/user/${id}`, { groups: { add: ['security-team'] } });
  const keywordIds: number[] = [];
  for (const name of KEYWORDS)
    keywordIds.push((await api(options, 'POST', '/keyword', { name, description: `${name} bugs` })).id);
  const flagTypeIds = [
    (
      await api(options, 'POST', '/flag_type', {
        name: 'needinfo',
        description: 'More information needed',
        is_requestable: true,
        is_requesteeble: true,
      })
    ).id as number,
    (
      await api(options, 'POST', '/flag_type', {
        name: 'approval',
        description: 'Release approval',
        is_requestable: true,
      })
    ).id as number,
  ];
  const products: Array<{
    id: number;
    name: string;
    components: number[];
    weight: number;
    secure: boolean;
    count: number;
  }> = [];
  for (const [index, [name, components]] of PRODUCTS.entries()) {
    const secure = name === SECURE_PRODUCT;
    await api(options, 'POST', '/product', {
      name,
      description: `${name} product`,
      version: 'unspecified',
      ...(secure
        ? {
            group_controls: [
              { group: 'security-team', entry: true, membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' },
            ],
          }
        : {}),
    });
    const componentIds: number[] = [];
    for (const component of components) {
      const owner = userLogins.get(userIds[(index * 7 + componentIds.length) % userIds.length])!;
      componentIds.push(
        (
          await api(options, 'POST', '/component', {
            product: name,
            name: component,
            description: `${component} of ${name}`,
            default_assignee: owner,
          })
        ).id,
      );
    }
    // Product sizes vary a lot, as in real trackers: a few large products, a long tail.
    products.push({ id: 0, name, components: componentIds, weight: 1 / (index + 1) ** 1.6, secure, count: 0 });
  }
  const catalogue = await api(options, 'GET', `/product?type=accessible&include_fields=id,name`);
  for (const product of products)
    product.id = catalogue.products.find((entry: { name: string }) => entry.name === product.name).id;

  // ---- bugs, straight to the table ----
  const bugIds = await allocateIds('bug', bugCount);
  const firstBug = bugIds[0];
  const commentPlan = Array.from(
    { length: bugCount },
    () =>
      1 +
      rng.weighted<number>([
        [0, 30],
        [1, 30],
        [2, 20],
        [3, 10],
        [5, 7],
        [9, 3],
      ]),
  );
  const commentIds = await allocateIds(
    'comment',
    commentPlan.reduce((sum, count) => sum + count, 0),
  );
  const flagIds = await allocateIds('flag', Math.ceil(bugCount / 8) + 10);
  let nextComment = 0;
  let nextFlag = 0;
  const epoch = Date.parse('2019-01-01T00:00:00Z');
  const span = Date.now() - 86_400_000 - epoch;
  const bugs: Bug[] = [];
  const commentsOf: StoredComment[][] = [];
  const historyOf: HistoryEntry[][] = [];
  const time = (ms: number) => toBugzillaDateTime(new Date(ms));
  for (let n = 0; n < bugCount; n++) {
    const id = bugIds[n];
    const product = rng.weighted(products.map((entry) => [entry, entry.weight] as [typeof entry, number]));
    product.count++;
    const created = epoch + Math.floor((span * n) / bugCount) + rng.int(3_600_000);
    const status = rng.weighted<string>([
      ['RESOLVED', 35],
      ['VERIFIED', 15],
      ['CONFIRMED', 30],
      ['UNCONFIRMED', 12],
      ['IN_PROGRESS', 8],
    ]);
    const open = status === 'CONFIRMED' || status === 'UNCONFIRMED' || status === 'IN_PROGRESS';
    let resolution = open
      ? ''
      : rng.weighted<string>([
          ['FIXED', 55],
          ['INVALID', 15],
          ['WONTFIX', 10],
          ['WORKSFORME', 10],
          ['DUPLICATE', 10],
        ]);
    const reporterId = rng.skewed(userIds, 2);
    const assigneeId = rng.skewed(userIds, 1.4);
    const ccIds = [
      ...new Set(
        Array.from(
          {
            length: rng.weighted<number>([
              [0, 40],
              [1, 25],
              [2, 15],
              [3, 10],
              [5, 10],
            ]),
          },
          () => rng.skewed(userIds),
        ),
      ),
    ].sort((a, b) => a - b);
    const summary = `${rng.pick(SUBJECTS)} ${rng.pick(PROBLEMS)} ${rng.pick(CONTEXTS)}`;
    const keywords =
      rng.next() < 0.25
        ? [...new Set(Array.from({ length: 1 + rng.int(2) }, () => rng.skewed(keywordIds)))].sort((a, b) => a - b)
        : [];
    let dupeOf: number | null = null;
    if (resolution === 'DUPLICATE') {
      if (n > 10) dupeOf = bugIds[rng.int(n)];
      else resolution = 'FIXED';
    }
    const dependsOn =
      n > 10 && rng.next() < 0.08
        ? [...new Set([bugIds[rng.int(n)], ...(rng.next() < 0.3 ? [bugIds[rng.int(n)]] : [])])].sort((a, b) => a - b)
        : [];
    const changed = Math.min(Date.now() - 60_000, created + rng.int(200) * 86_400_000);
    const flags: BugFlag[] =
      rng.next() < 0.12
        ? [
            {
              id: flagIds[nextFlag++ % flagIds.length],
              typeId: rng.pick(flagTypeIds),
              status: rng.pick(['?', '+', '-'] as const),
              setterId: reporterId,
              requesteeId: null,
              creationDate: time(created),
              modificationDate: time(changed),
            },
          ]
        : [];
    const comments: StoredComment[] = [];
    let at = created;
    for (let count = 0; count < commentPlan[n]; count++) {
      const text =
        count === 0
          ? `${summary}.\n\nSteps to reproduce:\n1. ${rng.pick(COMMENT_LINES)}\n2. Open the ${rng.pick(SUBJECTS).toLowerCase()} ${rng.pick(CONTEXTS)}.\n\nExpected: it works. Actual: it ${rng.pick(PROBLEMS)}.`
          : `${rng.pick(COMMENT_LINES)} ${rng.pick(COMMENT_LINES)}`;
      comments.push({
        id: commentIds[nextComment++],
        bugId: id,
        count,
        creatorId: count === 0 ? reporterId : rng.skewed(userIds),
        rawText: text,
        isPrivate: count > 0 && rng.next() < 0.03,
        isMarkdown: false,
        workTime: 0,
        creationTime: time(at),
        attachmentId: null,
        tags: [],
      });
      at = Math.min(changed, at + rng.int(5 * 86_400_000));
    }
    const history: HistoryEntry[] = [];
    if (status !== 'UNCONFIRMED' && status !== 'CONFIRMED') {
      history.push({
        bugId: id,
        when: time(changed),
        whoId: assigneeId,
        changes: [
          { field_name: 'status', removed: 'CONFIRMED', added: status },
          ...(resolution ? [{ field_name: 'resolution', removed: '', added: resolution }] : []),
        ],
      });
    }
    bugs.push({
      id,
      alias: rng.next() < 0.01 ? `seed-${id}` : null,
      summary,
      status,
      resolution,
      isConfirmed: status !== 'UNCONFIRMED',
      productId: product.id,
      componentId: rng.skewed(product.components, 1.3),
      version: 'unspecified',
      targetMilestone: '---',
      bugType: rng.weighted<string>([
        ['defect', 75],
        ['enhancement', 18],
        ['task', 7],
      ]),
      priority: rng.skewed(PRIORITIES),
      severity: rng.skewed(SEVERITIES, 1.3),
      platform: rng.skewed(PLATFORMS),
      opSys: rng.skewed(OSES),
      assigneeId,
      reporterId,
      qaContactId: rng.next() < 0.2 ? rng.skewed(userIds) : null,
      url: rng.next() < 0.1 ? `https://example.com/report/${id}` : '',
      whiteboard:
        rng.next() < 0.1 ? rng.pick(['[needs-triage]', '[fixed-in-nightly]', '[qa+]', '[ux]', '[good-first-bug]']) : '',
      deadline: null,
      creationTime: time(created),
      lastChangeTime: time(changed),
      filedVia: 'api',
      isCcAccessible: true,
      isCreatorAccessible: true,
      estimatedTime: 0,
      remainingTime: 0,
      actualTime: 0,
      ccIds,
      keywordIds: keywords,
      groupIds: product.secure ? [securityGroup] : [],
      dependsOn,
      blocks: [],
      regressedBy: [],
      regressions: [],
      duplicates: [],
      dupeOf,
      seeAlso: [],
      flags,
      commentCount: comments.length,
      attachmentCount: 0,
      custom: {},
      tags: {},
    });
    commentsOf.push(comments);
    historyOf.push(history);
  }
  // The other side of every relation.
  for (const bug of bugs) {
    for (const other of bug.dependsOn) bugs[other - firstBug].blocks.push(bug.id);
    if (bug.dupeOf !== null) bugs[bug.dupeOf - firstBug].duplicates.push(bug.id);
  }
  for (const bug of bugs) {
    bug.blocks = [...new Set(bug.blocks)].sort((a, b) => a - b);
    bug.duplicates = [...new Set(bug.duplicates)].sort((a, b) => a - b);
  }

  log(`writing ${bugCount} bugs`);
  let written = 0;
  for (let start = 0; start < bugCount; start += 2_000) {
    const items = bugs
      .slice(start, start + 2_000)
      .flatMap((bug, offset) => bulkBugItems(bug, commentsOf[start + offset], historyOf[start + offset]));
    await batchWriteAll(items);
    written += items.length;
    if ((start / 2_000) % 10 === 9)
      log(`  ${start + 2_000} bugs (${written} items, ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }

  // One search snapshot for all of them: bulk writes bypass the change log.
  const index = new SearchIndex();
  index.highWater = Date.now();
  bugs.forEach((bug, n) => {
    index.apply({
      bug,
      rev: 1,
      history: historyOf[n],
      words: commentWords(commentsOf[n].filter((comment) => !comment.isPrivate).map((comment) => comment.rawText)),
      privateWords: commentWords(
        commentsOf[n].filter((comment) => comment.isPrivate).map((comment) => comment.rawText),
      ),
    });
  });
  const pointer = await writeSnapshot(index.toSnapshot());
  const seconds = (performance.now() - started) / 1000;
  log(`seeded ${bugCount} bugs (${written} items) in ${seconds.toFixed(1)} s; snapshot ${pointer.chunks} chunks`);

  // What the bench asks for: the product + status pair whose result is closest to the 22 bugs of
  // Bugzilla's reference search, a rare summary phrase, ...
  const pairs = new Map<string, number>();
  for (const bug of bugs)
    if (!products.find((entry) => entry.id === bug.productId)!.secure)
      pairs.set(`${bug.productId}|${bug.status}`, (pairs.get(`${bug.productId}|${bug.status}`) ?? 0) + 1);
  const [bestPair, productStatusCount] = [...pairs].sort((a, b) => Math.abs(a[1] - 22) - Math.abs(b[1] - 22))[0];
  const [pairProduct, midStatus] = bestPair.split('|');
  const mid = products.find((entry) => entry.id === Number(pairProduct))!;
  void me;
  return {
    bugs: bugCount,
    users: userCount,
    products: products.map((product) => ({ name: product.name, bugs: product.count })),
    items: written,
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

// ---- command line ------------------------------------------------------------------------------

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const position = args.indexOf(`--${name}`);
    return position >= 0 ? args[position + 1] : undefined;
  };
  const bugs = Number(option('bugs') ?? 10_000);
  const seed = Number(option('seed') ?? 1);
  const dataDir = option('data-dir') ?? process.env.TRACKER_DATA_DIR ?? '.data';
  const { resolve } = await import('node:path');
  const { startEngines } = await import('../local/engines.ts');
  const { ensureBucket, ensureTable } = await import('../local/provision.ts');
  const { startApiGateway } = await import('../local/apiGatewayEmulator.ts');
  const { bootstrapInstallation } = await import('../shared/application/instance/bootstrapInstallation.ts');
  const { ENV } = await import('../shared/storage/tableSchema.ts');
  const engines = await startEngines({ dataDir: resolve(dataDir) });
  try {
    process.env[ENV.table] ??= 'tracker';
    process.env[ENV.bucket] ??= 'tracker-attachments';
    process.env[ENV.dynamodbEndpoint] = engines.dynamodbEndpoint;
    process.env[ENV.s3Endpoint] = engines.s3Endpoint;
    process.env.TRACKER_REQUEST_LOG = 'off';
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    await ensureTable(engines.dynamodbEndpoint, process.env[ENV.table]!);
    await ensureBucket(engines.s3Endpoint, process.env[ENV.bucket]!);
    const { DEFAULT_ADMIN_LOGIN } = await import('../shared/domain/instance/installation.ts');
    const installation = await bootstrapInstallation({
      adminLogin: process.env.TRACKER_ADMIN_LOGIN ?? DEFAULT_ADMIN_LOGIN,
      adminApiKey: option('api-key') ?? process.env.TRACKER_ADMIN_API_KEY,
    });
    const apiKey = installation.created
      ? installation.admin.apiKey
      : (option('api-key') ?? process.env.TRACKER_ADMIN_API_KEY);
    if (!apiKey)
      throw new Error('This installation already exists: give its administrator API key with --api-key KEY.');
    if (installation.created)
      console.log(
        `A new installation was created. Administrator: ${installation.admin.login} / ${installation.admin.password} / API key ${installation.admin.apiKey}`,
      );
    const { server, url } = await startApiGateway({ port: 0 });
    try {
      const report = await seedInstallation({
        bugs,
        seed,
        url,
        apiKey,
        log: (message) => console.log(`[seed] ${message}`),
      });
      console.log(
        JSON.stringify({
          bugs: report.bugs,
          users: report.users,
          items: report.items,
          seconds: Number(report.seconds.toFixed(1)),
        }),
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  } finally {
    await engines.stop();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
