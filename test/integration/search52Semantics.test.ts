import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Where Tracker's search once parted from Bugzilla 5.2's over the same bugs (issue 37, item 10),
 * each rule as 5.2's Search.pm, Search/Quicksearch.pm and WebService/Bug.pm make it, over REST and
 * JSON-RPC:
 * - a negated criterion on the alias (`notsubstring`, `notequals`, ..., and so a quicksearch's
 *   `-word` or `NOT word`, which searches aliases too) holds for a bug with an alias that fails the
 *   positive test: a bug without an alias never matches it;
 * - the `longdesc` parameter is any of its words, each a substring of one comment, whatever
 *   `longdesc_type` says; in a chart, `longdesc` `allwordssubstr` wants every word in one comment;
 * - `id=abc` finds no bug; a chart on a field that cannot be searched (`dup_id`) is 108.
 */
let app: TestApp;
let admin: string;
const bug: Record<string, number> = {};

async function file(letter: string, fields: Record<string, unknown>): Promise<void> {
  const body = {
    product: 'TestProduct',
    component: 'TestComponent',
    version: 'unspecified',
    op_sys: 'Linux',
    platform: 'PC',
    severity: 'normal',
    description: fields.summary,
    ...fields,
  };
  bug[letter] = (await ok(call(app, 'POST', '/rest/bug', { apiKey: admin, body }))).id;
}

const comment = (letter: string, text: string) =>
  ok(call(app, 'POST', `/rest/bug/${bug[letter]}/comment`, { apiKey: admin, body: { comment: text } }));

const letterOf = (id: number) => Object.entries(bug).find(([, value]) => value === id)?.[0] ?? `#${id}`;

/** The letters of the bugs a REST search finds, or its error code. */
async function rest(query: Record<string, string>): Promise<string[] | number> {
  const response = await call(app, 'GET', '/rest/bug', { apiKey: admin, query: { ...query, include_fields: 'id' } });
  if (response.body?.error) return response.body.code;
  expect(response.status, response.text).toBe(200);
  return response.body.bugs.map((entry: { id: number }) => letterOf(entry.id)).sort();
}

/** The same over JSON-RPC's Bug.search. */
async function rpc(query: Record<string, string>): Promise<string[] | number> {
  const response = await call(app, 'POST', '/jsonrpc.cgi', {
    headers: { 'Content-Type': 'application/json' },
    body: { method: 'Bug.search', params: [{ ...query, include_fields: ['id'], Bugzilla_api_key: admin }], id: 1 },
  });
  expect(response.status, response.text).toBe(200);
  if (response.body.error) return response.body.error.code;
  return response.body.result.bugs.map((entry: { id: number }) => letterOf(entry.id)).sort();
}

async function both(query: Record<string, string>): Promise<string[] | number> {
  const [overRest, overRpc] = await Promise.all([rest(query), rpc(query)]);
  expect(overRpc, 'JSON-RPC agrees with REST').toEqual(overRest);
  return overRest;
}

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  // A and B crash; only A has an alias. C and D do not crash; only D has an alias.
  await file('A', { summary: 'Crash on start', alias: ['qs-alpha'] });
  await file('B', { summary: 'Crash on exit' });
  await file('C', { summary: 'Toolbar is drawn twice' });
  await file('D', { summary: 'Window flickers', alias: ['qs-delta'] });
  await comment('C', 'The toolbar crash was bisected to one change.');
  await comment('D', 'bisected it');
  await comment('D', 'zephyr again');
  await file('E', { summary: 'Menu lags', alias: ['qs-toolbar'] });
});

afterAll(() => app?.close());

describe('negated criteria on the alias (Search.pm _alias_nonchanged)', () => {
  it('a negated quicksearch word leaves out every bug without an alias', async () => {
    expect(await both({ quicksearch: 'crash -toolbar' })).toEqual(['A']);
    expect(await both({ quicksearch: 'crash NOT toolbar' })).toEqual(['A']);
    expect(await both({ quicksearch: 'ALL -crash' })).toEqual(['D', 'E']);
    // E's alias holds the word: an alias that fails the test is needed, and E has none.
    expect(await both({ quicksearch: 'ALL -flickers' })).toEqual(['A', 'E']);
  });

  it('notsubstring and notequals on the alias need an alias that fails the positive test', async () => {
    expect(await both({ f1: 'alias', o1: 'notsubstring', v1: 'alpha' })).toEqual(['D', 'E']);
    expect(await both({ f1: 'alias', o1: 'notequals', v1: 'qs-delta' })).toEqual(['A', 'E']);
    // Negating the positive criterion as a whole (n1) still finds the bugs without an alias.
    expect(await both({ f1: 'alias', o1: 'substring', v1: 'alpha', n1: '1' })).toEqual(['B', 'C', 'D', 'E']);
  });
});

describe('comment text (WebService/Bug.pm search, Search.pm _long_desc_nonchanged)', () => {
  it('the longdesc parameter is any of its words in one comment, whatever longdesc_type says', async () => {
    expect(await both({ longdesc: 'bisected zephyr', longdesc_type: 'allwordssubstr' })).toEqual(['C', 'D']);
    expect(await both({ longdesc: 'zephyr' })).toEqual(['D']);
  });

  it('a chart with allwordssubstr on longdesc wants every word in one comment', async () => {
    expect(await both({ f1: 'longdesc', o1: 'allwordssubstr', v1: 'bisected toolbar' })).toEqual(['C']);
    expect(await both({ f1: 'longdesc', o1: 'allwordssubstr', v1: 'bisected zephyr' })).toEqual([]);
  });
});

describe('values and fields a search cannot use', () => {
  it('id=abc finds no bug, as 5.2 compares it with every id and none is equal', async () => {
    expect(await both({ id: 'abc' })).toEqual([]);
  });

  it('ANDs id and alias, as every other pair of parameters', async () => {
    expect(await both({ id: `${bug.A},${bug.D}`, alias: 'qs-alpha' })).toEqual(['A']);
    expect(await both({ id: String(bug.D), alias: 'qs-alpha' })).toEqual([]);
  });

  it('a chart on dup_id is 108', async () => {
    expect(await both({ f1: 'dup_id', o1: 'equals', v1: '1' })).toBe(108);
  });
});
