import { expect } from 'vitest';
import { random } from '../../../bench/seedRandom.ts';
import { ok, userWithKey } from '../testAccounts.ts';
import { type ApiResponse, type CallOptions, call as callOnce, type TestApp } from '../testApp.ts';

/**
 * The installation the search oracle (test/integration/searchOracle.test.ts) searches: built
 * through the API only, deterministic for a given size, with everything that decides who sees a
 * bug and what a search finds in it. Products: Alpha (public), Vault (group `vaulters`,
 * SHOWN/NA: most bugs put in it, some left public) and Keep (group `keepers`,
 * MANDATORY/MANDATORY). Callers: the administrator, an insider (both bug groups and the insider
 * group, not time tracking), an outsider (logged in, in no group: on the CC list or the reporter of
 * some restricted bugs, some of which let them in) and anonymous.
 */

/** Words of summaries, descriptions and comments; none is part of a product, component or login. */
export const SUMMARY_WORDS = [
  'zephyr',
  'quasar',
  'nebula',
  'photon',
  'gravel',
  'marble',
  'cobalt',
  'saffron',
  'tundra',
  'walnut',
] as const;
/** Words only restricted bugs' summaries hold: an outsider's search for them must find nothing. */
export const RESTRICTED_WORDS = ['obsidian', 'phantom'] as const;
/** Words only comments hold (public ones), and one only private comments hold. */
export const COMMENT_WORDS = ['kestrel', 'lantern', 'meadow'] as const;
export const PRIVATE_COMMENT_WORD = 'cipher';
export const KEYWORDS = ['regression', 'perf', 'ux'] as const;
export const WHITEBOARDS = ['wb0', 'wb1', 'wb2', 'wb3', 'wb4 needs-triage', 'wb5'] as const;
export const PRIORITIES = ['Highest', 'High', 'Normal', 'Low', 'Lowest', '---'] as const;
export const SEVERITIES = ['blocker', 'critical', 'major', 'normal', 'minor', 'trivial', 'enhancement'] as const;
export const PRODUCTS = { Alpha: ['Engine', 'Panel'], Vault: ['Core'], Keep: ['Store'] } as const;
export type ProductName = keyof typeof PRODUCTS;
export const GROUPS = ['vaulters', 'keepers'] as const;

export type CallerName = 'admin' | 'insider' | 'outsider' | 'anonymous';
export const CALLERS: readonly CallerName[] = ['admin', 'insider', 'outsider', 'anonymous'];

export interface OracleInstallation {
  app: TestApp;
  /** API keys; anonymous has none. */
  keys: Record<CallerName, string | undefined>;
  logins: Record<'admin' | 'insider' | 'outsider' | 'dev1' | 'dev2', string>;
  /** Every bug filed, in id order. */
  bugs: number[];
  /** The aliases given, to search for. */
  aliases: string[];
  /** Whether the caller is in the time-tracking group (deadline criteria answer 108 otherwise). */
  timeTracker: Record<CallerName, boolean>;
}

/**
 * One call, sent again while Tracker answers 503 (storage busy: nothing was changed, try again),
 * as a well-behaved client does: the oracle checks answers, and a loaded machine's local engine
 * may turn a request away without anything being wrong.
 */
export async function call<T = any>(app: TestApp, method: string, path: string, options: CallOptions = {}) {
  for (let attempt = 1; ; attempt++) {
    const response = await callOnce<T>(app, method, path, options);
    if (response.status !== 503 || attempt === 8) return response;
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
}

/** The seed tool's generator (bench/seedRandom.ts): the installation must not vary between runs. */
export function randomSource(seed: number) {
  const { next } = random(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const chance = (p: number) => next() < p;
  const some = <T>(values: readonly T[], p: number): T[] => values.filter(() => chance(p));
  return { next, pick, chance, some };
}
export type RandomSource = ReturnType<typeof randomSource>;

/** Runs `work` over `items` with at most `width` requests in flight. */
export async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

async function done<T = any>(response: Promise<ApiResponse<T>>): Promise<T> {
  return ok(response);
}

/** A bug's place: which product, and whether it is put in the product's group. */
interface Plan {
  product: ProductName;
  restricted: boolean;
  /** Filed by the outsider in Vault, then put in `vaulters` by the administrator. */
  outsiderFiled: boolean;
}

function planOf(random: RandomSource, index: number): Plan {
  const roll = random.next();
  // Every 37th bug: the outsider files it in Vault and an administrator restricts it afterwards.
  if (index % 37 === 5) return { product: 'Vault', restricted: true, outsiderFiled: true };
  if (roll < 0.6) return { product: 'Alpha', restricted: false, outsiderFiled: false };
  if (roll < 0.85) return { product: 'Vault', restricted: random.chance(0.7), outsiderFiled: false };
  return { product: 'Keep', restricted: true, outsiderFiled: false };
}

export async function buildOracleInstallation(app: TestApp, bugCount: number): Promise<OracleInstallation> {
  const admin = app.admin.apiKey;
  const post = (path: string, body: unknown) => done(call(app, 'POST', path, { apiKey: admin, body }));
  const put = (path: string, body: unknown) => done(call(app, 'PUT', path, { apiKey: admin, body }));

  for (const name of [...GROUPS, 'insiders', 'planners'])
    await post('/rest/group', { name, description: `The ${name}` });
  await put('/rest/parameters', { insidergroup: 'insiders', timetrackinggroup: 'planners' });
  for (const name of KEYWORDS) await post('/rest/keyword', { name, description: `About ${name}` });
  for (const [product, components] of Object.entries(PRODUCTS)) {
    await post('/rest/product', { name: product, description: `The ${product} product`, version: '1.0' });
    for (const component of components)
      await post('/rest/component', {
        product,
        name: component,
        description: `The ${component} part`,
        default_assignee: app.admin.login,
      });
  }
  await put('/rest/product/Vault', {
    group_controls: [{ group: 'vaulters', membercontrol: 'SHOWN', othercontrol: 'NA' }],
  });
  await put('/rest/product/Keep', {
    group_controls: [{ group: 'keepers', entry: true, membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' }],
  });
  // The administrator is in every group by being one; named here so the rules say so too.
  await put(`/rest/user/${app.admin.id}`, { groups: { add: ['insiders', 'planners', ...GROUPS] } });

  const logins = {
    admin: app.admin.login,
    insider: 'insider@tracker.test',
    outsider: 'outsider@tracker.test',
    dev1: 'dev1@tracker.test',
    dev2: 'dev2@tracker.test',
  };
  const keys: Record<CallerName, string | undefined> = {
    admin,
    insider: await userWithKey(app, 'insider', [...GROUPS, 'insiders']),
    outsider: await userWithKey(app, 'outsider'),
    anonymous: undefined,
  };
  const dev1 = await userWithKey(app, 'dev1', ['vaulters']);
  await userWithKey(app, 'dev2');

  const random = randomSource(20_261_129);
  const plans = Array.from({ length: bugCount }, (_, index) => planOf(random, index));
  const bugs: number[] = [];
  const aliases: string[] = [];
  /** Filed bugs by visibility class (product and restriction), for relations that stay inside one. */
  const byClass = new Map<string, number[]>();
  const classOf = (plan: Plan) => `${plan.product}:${plan.restricted}`;

  const file = async (index: number) => {
    const plan = plans[index]!;
    const words: string[] = [random.pick(SUMMARY_WORDS), random.pick(SUMMARY_WORDS)];
    if (plan.restricted && random.chance(0.3)) words.push(random.pick(RESTRICTED_WORDS));
    const summary = `${words.join(' ')} ${random.chance(0.2) ? 'Crash' : 'issue'} n${index}`;
    const description = `${random.pick(SUMMARY_WORDS)} happens ${random.chance(0.15) ? random.pick(COMMENT_WORDS) : ''}`;
    const alias = random.chance(0.2) ? `al${index}x` : undefined;
    const related = byClass.get(classOf(plan)) ?? [];
    const body: Record<string, unknown> = {
      product: plan.product,
      component: random.pick(PRODUCTS[plan.product]),
      version: '1.0',
      summary,
      description,
      op_sys: 'Linux',
      platform: 'PC',
      priority: random.pick(PRIORITIES),
      severity: random.pick(SEVERITIES),
      status: random.chance(0.3) ? 'IN_PROGRESS' : 'CONFIRMED',
      whiteboard: random.chance(0.4) ? random.pick(WHITEBOARDS) : '',
      keywords: random.some(KEYWORDS, 0.15),
      cc: random.some([logins.dev1, logins.dev2, ...(plan.restricted ? [logins.outsider] : [])], 0.15),
      assigned_to: random.pick([logins.admin, logins.dev1, logins.dev2]),
      ...(alias ? { alias } : {}),
      ...(random.chance(0.3)
        ? { deadline: `2027-0${1 + Math.floor(random.next() * 9)}-1${Math.floor(random.next() * 9)}` }
        : {}),
      ...(related.length > 0 && random.chance(0.1) ? { depends_on: [random.pick(related)] } : {}),
      ...(plan.restricted && plan.product === 'Vault' && !plan.outsiderFiled ? { groups: ['vaulters'] } : {}),
      ...(plan.restricted && random.chance(0.2) ? { is_cc_accessible: false } : {}),
    };
    const key = plan.outsiderFiled ? keys.outsider! : plan.product === 'Alpha' && index % 11 === 3 ? dev1 : admin;
    if (plan.outsiderFiled) {
      delete body.cc;
      delete body.groups;
      delete body.is_cc_accessible;
      delete body.assigned_to;
      delete body.depends_on;
    }
    const created = await call(app, 'POST', '/rest/bug', { apiKey: key, body });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as number;
    bugs[index] = id;
    if (alias) aliases.push(alias);
    if (plan.outsiderFiled)
      await put(`/rest/bug/${id}`, {
        groups: { add: ['vaulters'] },
        ...(index % 2 === 0 ? { is_creator_accessible: false } : {}),
      });
    return id;
  };

  // Filed in rounds, so relations point at bugs filed in earlier rounds.
  const ROUND = 64;
  for (let start = 0; start < bugCount; start += ROUND) {
    const indexes = Array.from({ length: Math.min(ROUND, bugCount - start) }, (_, at) => start + at);
    await inParallel(indexes, 4, async (index) => {
      await file(index);
    });
    for (const index of indexes) {
      const key = classOf(plans[index]!);
      byClass.set(key, [...(byClass.get(key) ?? []), bugs[index]!]);
    }
  }

  // Changes after filing: resolutions, duplicates inside a class, public and private comments.
  const changes = bugs.map((id, index) => ({ id, index, roll: random.next(), comment: random.next() }));
  await inParallel(changes, 4, async ({ id, index, roll, comment }) => {
    const plan = plans[index]!;
    const peers = (byClass.get(classOf(plan)) ?? []).filter((peer) => peer < id);
    if (roll < 0.05 && peers.length > 0)
      await put(`/rest/bug/${id}`, {
        status: 'RESOLVED',
        resolution: 'DUPLICATE',
        dupe_of: peers[index % peers.length],
      });
    else if (roll < 0.2) await put(`/rest/bug/${id}`, { status: 'RESOLVED', resolution: 'FIXED' });
    if (comment < 0.1)
      await post(`/rest/bug/${id}/comment`, { comment: `Seen again: ${COMMENT_WORDS[index % COMMENT_WORDS.length]}` });
    else if (comment < 0.15)
      await post(`/rest/bug/${id}/comment`, { comment: `Internal ${PRIVATE_COMMENT_WORD} note`, is_private: true });
  });

  return {
    app,
    keys,
    logins,
    bugs,
    aliases,
    timeTracker: { admin: true, insider: false, outsider: false, anonymous: false },
  };
}
