import fc from 'fast-check';
import { expect } from 'vitest';
import { CALLERS, type CallerName, call, type OracleInstallation } from './oracleInstallation.ts';
import { describeQuery, type OracleQuery, oracleQuery, rpcParameters, searchParameters } from './oracleQueries.ts';
import { type ReferenceAnswer, referenceSearch, type ShownBug, shownBugs } from './referenceSearch.ts';

/**
 * The search oracle: random searches, each sent as one caller and compared with the brute-force
 * answer over the bugs Get Bug shows that caller (referenceSearch.ts). A failure names the seed
 * and the search, so it can be replayed (`SEARCH_ORACLE_SEED`).
 */

/** Fields a search page shows that are compared with Get Bug's (comments are not a search page's). */
const PAGE_FIELDS = [
  'id',
  'alias',
  'summary',
  'status',
  'resolution',
  'whiteboard',
  'groups',
  'keywords',
  'deadline',
  'cc',
];

/** What the search answered: an error code, or the ids (and the page's bugs) or the count. */
type Answer = { error: number } | { ids: number[]; bugs: Array<Record<string, unknown>> } | { count: number };

async function answer(installation: OracleInstallation, caller: CallerName, query: OracleQuery): Promise<Answer> {
  const key = installation.keys[caller];
  const wanted = query.countOnly ? {} : { include_fields: PAGE_FIELDS.join(',') };
  if (query.rpc) {
    const params = { ...rpcParameters(query), ...wanted, ...(key ? { Bugzilla_api_key: key } : {}) };
    const response = await call(installation.app, 'POST', '/jsonrpc.cgi', {
      headers: { 'Content-Type': 'application/json' },
      body: { method: 'Bug.search', params: [params], id: 1 },
    });
    expect(response.status, response.text).toBe(200);
    if (response.body.error) return { error: response.body.error.code };
    return toAnswer(response.body.result);
  }
  const query_ = [...searchParameters(query), ...Object.entries(wanted)];
  const response = await call(installation.app, 'GET', `/rest/bug?${new URLSearchParams(query_).toString()}`, {
    apiKey: key,
  });
  if (response.body?.error) {
    expect(response.status, response.text).toBe(400);
    return { error: response.body.code };
  }
  expect(response.status, response.text).toBe(200);
  return toAnswer(response.body);
}

const toAnswer = (body: { bug_count?: number; bugs?: Array<Record<string, unknown>> }): Answer =>
  body.bug_count !== undefined
    ? { count: body.bug_count }
    : { ids: body.bugs!.map((bug) => bug.id as number), bugs: body.bugs! };

function expectAgreement(
  got: Answer,
  expected: ReferenceAnswer,
  query: OracleQuery,
  shown: ReadonlyMap<number, ShownBug>,
) {
  const context = describeQuery(query);
  if ('error' in expected) {
    expect(got, context).toEqual({ error: expected.error });
    return;
  }
  if (query.countOnly) {
    expect(got, context).toEqual({ count: expected.count });
    return;
  }
  expect('ids' in got ? got.ids : got, context).toEqual(expected.ids);
  // Each bug on the page is the bug Get Bug shows the caller, field for field.
  for (const bug of (got as { bugs: Array<Record<string, unknown>> }).bugs) {
    const full = shown.get(bug.id as number)!;
    const fromGetBug = Object.fromEntries(
      PAGE_FIELDS.filter((field) => field in full).map((field) => [field, full[field]]),
    );
    expect(bug, `${context}: bug ${String(bug.id)}`).toEqual(fromGetBug);
  }
}

export interface OracleRun {
  /** Searches per caller. */
  runs: number;
  /** Which life of the index this is, for the failure message. */
  life: string;
  /**
   * What Get Bug showed each caller, read once and kept for the next lives while no bug changes:
   * a restart gives the index a new life, not the bugs. Filled as it is read; clear it after a write.
   */
  shown?: ShownByCaller;
}

/** The bugs as Get Bug shows them, by caller (`shownBugs`). */
export type ShownByCaller = Map<CallerName, ReadonlyMap<number, ShownBug>>;

/** Runs random searches as every caller and checks each against the reference. */
export async function checkSearches(
  installation: OracleInstallation,
  { runs, life, shown: kept }: OracleRun,
): Promise<void> {
  const seed = Number(process.env.SEARCH_ORACLE_SEED ?? Date.now() % 2_147_483_647);
  const ids = [...installation.bugs, installation.bugs.at(-1)! + 1, 999_999];
  const context = {
    logins: Object.values(installation.logins),
    aliases: installation.aliases,
    ids,
  };
  const publicId = installation.bugs[0]!;
  for (const caller of CALLERS) {
    const shown =
      kept?.get(caller) ?? (await shownBugs(installation.app, installation.keys[caller], installation.bugs, publicId));
    kept?.set(caller, shown);
    const property = fc.asyncProperty(oracleQuery(context), async (query) => {
      const expected = referenceSearch(query, shown, { timeTracker: installation.timeTracker[caller] });
      expectAgreement(await answer(installation, caller, query), expected, query, shown);
    });
    const result = await fc.check(property, { seed, numRuns: runs, endOnFailure: true });
    if (result.failed) {
      const [query] = result.counterexample ?? [];
      const narrowed = query ? await narrow(installation, caller, query, shown) : '';
      throw new Error(
        `search oracle (${life}, caller ${caller}, SEARCH_ORACLE_SEED=${seed}) failed after ${result.numRuns} searches: ${String(
          result.errorInstance instanceof Error ? result.errorInstance.message : result.errorInstance,
        )}${narrowed}`,
      );
    }
  }
}

/**
 * The failing search's parts, each sent alone and compared: over REST and JSON-RPC, without
 * paging, and each criterion by itself, so a failure says which part disagrees.
 */
async function narrow(
  installation: OracleInstallation,
  caller: CallerName,
  query: OracleQuery,
  shown: ReadonlyMap<number, ShownBug>,
): Promise<string> {
  const variants: Array<[string, OracleQuery]> = [
    ['over REST', { ...query, rpc: false }],
    ['over JSON-RPC', { ...query, rpc: true }],
    ['unpaged, unordered', { criteria: query.criteria, countOnly: false, rpc: false }],
    ...query.criteria.map((criterion, at): [string, OracleQuery] => [
      `criterion ${at + 1} alone`,
      { criteria: [criterion], countOnly: false, rpc: false },
    ]),
  ];
  const lines: string[] = [];
  for (const [name, variant] of variants) {
    const expected = referenceSearch(variant, shown, { timeTracker: installation.timeTracker[caller] });
    const got = await answer(installation, caller, variant);
    const gotIds = 'ids' in got ? got.ids : got;
    const wanted = 'ids' in expected ? (variant.countOnly ? { count: expected.count } : expected.ids) : expected;
    const agrees = JSON.stringify(gotIds) === JSON.stringify(wanted);
    const missing = 'ids' in got && 'ids' in expected ? expected.ids.filter((id) => !got.ids.includes(id)) : [];
    const extra = 'ids' in got && 'ids' in expected ? got.ids.filter((id) => !expected.ids.includes(id)) : [];
    lines.push(
      `  ${name}: ${agrees ? 'agrees' : `differs (missing ${JSON.stringify(missing.slice(0, 10))}, extra ${JSON.stringify(extra.slice(0, 10))})`} ${describeQuery(variant)}`,
    );
  }
  return `\n${lines.join('\n')}`;
}
