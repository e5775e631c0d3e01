import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accounts from '../support/testAccounts.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Search over what only some groups may see (Bugzilla 5.2's Search.pm): `longdescs.count` counts
 * the comments the caller may read, and the time-tracking fields (`estimated_time`,
 * `remaining_time`, `work_time`/`actual_time`, `deadline`) and their changes are no search fields
 * outside `timetrackinggroup`. The insider group is `insiders`, the time-tracking group `planners`.
 */
let app: TestApp;
let admin: string;
let member: string;
let planner: string;
let bob: string;
let bug: number;

const SUMMARY = 'Planned work with a private note';

const search = (key: string | undefined, query: Record<string, string>) =>
  call(app, 'GET', '/rest/bug', { apiKey: key, query: { ...query, include_fields: 'id' } });
const found = async (key: string | undefined, query: Record<string, string>) =>
  (await ok(search(key, query))).bugs.map((hit: { id: number }) => hit.id);

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  for (const name of ['insiders', 'planners'])
    await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name, description: name } }));
  await ok(
    call(app, 'PUT', '/rest/parameters', {
      apiKey: admin,
      body: { insidergroup: 'insiders', timetrackinggroup: 'planners' },
    }),
  );
  member = await accounts.userWithKey(app, 'member', ['insiders']);
  planner = await accounts.userWithKey(app, 'planner', ['planners']);
  bob = await accounts.userWithKey(app, 'bob');
  bug = await fileTestBug(app, admin, { summary: SUMMARY });
  await ok(
    call(app, 'PUT', `/rest/bug/${bug}`, {
      apiKey: planner,
      body: { estimated_time: 7.5, deadline: '2027-01-31' },
    }),
  );
  await ok(call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: bob, body: { comment: 'Public note' } }));
  await ok(
    call(app, 'POST', `/rest/bug/${bug}/comment`, {
      apiKey: member,
      body: { comment: 'Private note', is_private: true },
    }),
  );
});

afterAll(() => app?.close());

describe('longdescs.count', () => {
  it('counts the comments the caller may read', async () => {
    // The description, a public comment and a private one.
    for (const key of [undefined, bob, planner]) {
      expect(await found(key, { summary: SUMMARY, 'longdescs.count': '2' })).toEqual([bug]);
      expect(await found(key, { summary: SUMMARY, 'longdescs.count': '3' })).toEqual([]);
      expect(await found(key, { f1: 'longdescs.count', o1: 'greaterthan', v1: '2' })).toEqual([]);
    }
    for (const key of [member, admin]) {
      expect(await found(key, { summary: SUMMARY, 'longdescs.count': '3' })).toEqual([bug]);
      expect(await found(key, { f1: 'longdescs.count', o1: 'greaterthan', v1: '2' })).toEqual([bug]);
    }
  });
});

describe('time-tracking fields', () => {
  const criteria: Array<Record<string, string>> = [
    { f1: 'estimated_time', o1: 'greaterthan', v1: '5' },
    { f1: 'remaining_time', o1: 'greaterthan', v1: '5' },
    { f1: 'actual_time', o1: 'equals', v1: '0' },
    { f1: 'deadline', o1: 'lessthan', v1: '2028-01-01' },
    { f1: 'estimated_time', o1: 'changedto', v1: '7.5' },
    { chfield: 'deadline', chfieldfrom: '-1d' },
    { 'field0-0-0': 'remaining_time', 'type0-0-0': 'equals', 'value0-0-0': '7.5' },
  ];

  it('are no search fields outside the time-tracking group (108), as Bugzilla removes them', async () => {
    for (const key of [undefined, bob, member])
      for (const query of criteria) expect((await search(key, query)).body.code, JSON.stringify(query)).toBe(108);
  });

  it('are searched by the time-tracking group', async () => {
    for (const key of [planner, admin]) {
      expect(await found(key, criteria[0])).toEqual([bug]);
      expect(await found(key, criteria[3])).toEqual([bug]);
      expect(await found(key, criteria[4])).toEqual([bug]);
      expect(await found(key, { summary: SUMMARY, deadline: '2020-01-01' })).toEqual([]);
    }
  });

  it('leave a plain deadline parameter unread outside the group, as Bugzilla does', async () => {
    expect(await found(bob, { summary: SUMMARY, deadline: '2020-01-01' })).toEqual([bug]);
  });

  it('keep their changes out of reach of any-field history criteria', async () => {
    for (const key of [undefined, bob, member]) {
      expect(await found(key, { f1: '*', o1: 'changedto', v1: '7.5' })).toEqual([]);
      expect(await found(key, { f1: '*', o1: 'changedto', v1: '2027-01-31' })).toEqual([]);
    }
    expect(await found(planner, { f1: '*', o1: 'changedto', v1: '7.5' })).toEqual([bug]);
  });
});

describe('the deadline', () => {
  /** Every read that shows a bug, as `key` sees it: Get Bug, a search page, JSON-RPC Bug.get and Bug.search. */
  const reads = async (key: string | undefined) => {
    const rpc = async (method: string, params: Record<string, unknown>) =>
      (
        await ok(
          call(app, 'POST', '/jsonrpc.cgi', {
            headers: { 'Content-Type': 'application/json' },
            body: { method, params: [{ ...params, ...(key ? { Bugzilla_api_key: key } : {}) }], id: 1 },
          }),
        )
      ).result.bugs[0];
    return [
      (await ok(call(app, 'GET', `/rest/bug/${bug}`, { apiKey: key }))).bugs[0],
      (await ok(call(app, 'GET', '/rest/bug', { apiKey: key, query: { id: String(bug) } }))).bugs[0],
      (
        await ok(
          call(app, 'GET', '/rest/bug', { apiKey: key, query: { id: String(bug), include_fields: 'id,deadline' } }),
        )
      ).bugs[0],
      await rpc('Bug.get', { ids: [bug] }),
      await rpc('Bug.search', { id: bug }),
    ];
  };

  it('is shown to the time-tracking group only, as Bugzilla 5.2 shows it', async () => {
    for (const key of [undefined, bob, member])
      for (const shown of await reads(key)) {
        expect(shown.id).toBe(bug);
        expect(shown).not.toHaveProperty('deadline');
      }
    for (const key of [planner, admin]) for (const shown of await reads(key)) expect(shown.deadline).toBe('2027-01-31');
  });
});
