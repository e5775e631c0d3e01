import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accounts from '../support/testAccounts.ts';
import { createHiddenAndLockedProducts, expectError, fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Issue 42, group inheritance over HTTP (Bugzilla's editgroups "Groups That Are a Member of This
 * Group"): a group names the groups whose members it includes (`member_groups`), and membership
 * follows the inclusions however long the chain. Bugs of the product Hidden are in the mandatory
 * group `secret`; `alpha` and `gamma` are plain groups.
 */
let app: TestApp;
let admin: string;
/** In `alpha` only. */
let alphaUser: string;
/** In `gamma` only. */
let gammaUser: string;
/** In creategroups' absence: editusers only. */
let editor: string;
let hiddenBug: number;

const include = (group: string, change: { add?: unknown[]; remove?: unknown[] }, key = admin) =>
  call(app, 'PUT', `/rest/group/${group}`, { apiKey: key, body: { member_groups: change } });

/** What a caller sees of the hidden bug: Get Bug, a search and a count. */
async function sightOfHiddenBug(key: string) {
  const get = await call(app, 'GET', `/rest/bug/${hiddenBug}`, { apiKey: key });
  const search = await ok(call(app, 'GET', '/rest/bug', { apiKey: key, query: { product: 'Hidden' } }));
  const count = await ok(call(app, 'GET', '/rest/bug', { apiKey: key, query: { product: 'Hidden', count_only: 1 } }));
  return {
    get: get.status,
    search: search.bugs.map((bug: { id: number }) => bug.id),
    count: count.bug_count,
  };
}
const SEES = () => ({ get: 200, search: [hiddenBug], count: 1 });
const BLIND = { get: 401, search: [], count: 0 };

/** The caller's groups (whoami) among those of this file: editbugs (`.*`) and what it implies aside. */
const groupsOf = async (key: string) =>
  (await ok(call(app, 'GET', '/rest/whoami', { apiKey: key }))).groups.filter(
    (name: string) => !['editbugs', 'bz_canusewhines'].includes(name),
  );
const secretGroup = async (membership = false) =>
  (
    await ok(
      call(app, 'GET', '/rest/group', { apiKey: admin, query: { names: 'secret', membership: membership ? 1 : 0 } }),
    )
  ).groups[0];

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await createHiddenAndLockedProducts(app);
  for (const name of ['alpha', 'gamma'])
    await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name, description: name } }));
  alphaUser = await accounts.userWithKey(app, 'alpha-user', ['alpha']);
  gammaUser = await accounts.userWithKey(app, 'gamma-user', ['gamma']);
  editor = await accounts.userWithKey(app, 'editor', ['editusers']);
  hiddenBug = await fileTestBug(app, admin, { product: 'Hidden', component: 'Core', version: '1.0' });
});
afterAll(() => app?.close());

describe('a group that includes another', () => {
  it('gives the included group’s members its bugs, and takes them back when the inclusion goes', async () => {
    expect(await sightOfHiddenBug(alphaUser)).toEqual(BLIND);
    const added = await ok(include('secret', { add: ['alpha'] }));
    expect(added.groups[0].changes).toEqual({ member_groups: { removed: '', added: 'alpha' } });
    expect((await secretGroup()).member_groups).toEqual(['alpha']);
    expect(await sightOfHiddenBug(alphaUser)).toEqual(SEES());
    expect(await groupsOf(alphaUser)).toEqual(['alpha', 'secret']);
    const user = await ok(
      call(app, 'GET', '/rest/user', { apiKey: admin, query: { names: 'alpha-user@tracker.test' } }),
    );
    const userGroups = user.users[0].groups.map((group: { name: string }) => group.name);
    expect(userGroups).toEqual(expect.arrayContaining(['alpha', 'secret']));
    const members = (await secretGroup(true)).membership.map((member: { name: string }) => member.name);
    expect(members).toContain('alpha-user@tracker.test');

    const removed = await ok(include('secret', { remove: ['alpha'] }));
    expect(removed.groups[0].changes).toEqual({ member_groups: { removed: 'alpha', added: '' } });
    expect((await secretGroup()).member_groups).toEqual([]);
    expect(await sightOfHiddenBug(alphaUser)).toEqual(BLIND);
    expect(await groupsOf(alphaUser)).toEqual(['alpha']);
  });

  it('follows a chain gamma → alpha → secret, and a cycle is harmless', async () => {
    await ok(include('alpha', { add: ['gamma'] }));
    expect(await sightOfHiddenBug(gammaUser)).toEqual(BLIND);
    await ok(include('secret', { add: ['alpha'] }));
    expect(await sightOfHiddenBug(gammaUser)).toEqual(SEES());
    expect(await groupsOf(gammaUser)).toEqual(['alpha', 'gamma', 'secret']);
    const members = (await secretGroup(true)).membership.map((member: { name: string }) => member.name);
    expect(members).toEqual(expect.arrayContaining(['alpha-user@tracker.test', 'gamma-user@tracker.test']));

    // gamma includes secret too: every member of the three is in all three, and nothing loops.
    await ok(include('gamma', { add: ['secret'] }));
    expect(await groupsOf(gammaUser)).toEqual(['alpha', 'gamma', 'secret']);
    expect(await groupsOf(alphaUser)).toEqual(['alpha', 'gamma', 'secret']);
    await ok(include('gamma', { remove: ['secret'] }));

    await ok(include('alpha', { remove: ['gamma'] }));
    expect(await sightOfHiddenBug(gammaUser)).toEqual(BLIND);
    await ok(include('secret', { remove: ['alpha'] }));
  });

  it('keeps Bugzilla’s built-in implications', async () => {
    const whiner = await accounts.userWithKey(app, 'whiner', ['bz_canusewhineatothers']);
    const groups = (await ok(call(app, 'GET', '/rest/whoami', { apiKey: whiner }))).groups;
    expect(groups).toEqual(expect.arrayContaining(['bz_canusewhineatothers', 'bz_canusewhines']));
  });

  it('refuses a caller outside creategroups, an unknown group, and a group including itself', async () => {
    expectError(await include('secret', { add: ['alpha'] }, editor), 304, 401);
    expectError(await include('secret', { add: ['no-such-group'] }), 51, 404);
    expect((await include('secret', { add: ['no-such-group'] })).body.message).toBe(
      "There is no group named or numbered 'no-such-group'.",
    );
    expectError(await include('secret', { add: ['secret'] }), 32000, 400);
    expect((await secretGroup()).member_groups).toEqual([]);
    expect(await sightOfHiddenBug(alphaUser)).toEqual(BLIND);
  });
});
