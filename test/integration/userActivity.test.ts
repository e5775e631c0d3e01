import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accounts from '../support/testAccounts.ts';
import { expectError, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Issue 42, a user's activity over HTTP (Bugzilla's editusers "View Account History"):
 * `GET /rest/user/{id_or_name}/activity` answers the audit entries about one account, newest
 * first, paged; only editusers may read it.
 */
let app: TestApp;
let admin: string;
let subjectId: number;
let editor: string;
let plain: string;

const activityOf = (user: string | number, query: Record<string, number> = {}, key = admin) =>
  call(app, 'GET', `/rest/user/${user}/activity`, { apiKey: key, query });

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'watchers', description: 'Watchers' } }));
  subjectId = (await ok(call(app, 'POST', '/rest/user', { apiKey: admin, body: { email: 'subject@tracker.test' } })))
    .id;
  editor = await accounts.userWithKey(app, 'editor', ['editusers']);
  plain = await accounts.userWithKey(app, 'plain');
  const change = (body: Record<string, unknown>) =>
    ok(call(app, 'PUT', `/rest/user/${subjectId}`, { apiKey: admin, body }));
  await change({ groups: { add: ['watchers'] } });
  await change({ email: 'renamed@tracker.test' });
  await change({ login_denied_text: 'Left the project.' });
});
afterAll(() => app?.close());

describe("a user's activity", () => {
  it('lists what changed, old and new, who and when, newest first', async () => {
    const { activity } = await ok(activityOf(subjectId, {}, editor));
    expect(activity.map((entry: { changes: Array<{ field_name: string }> }) => entry.changes)).toEqual([
      [
        { field_name: 'login_denied_text', removed: '', added: 'Left the project.' },
        { field_name: 'is_enabled', removed: '1', added: '0' },
      ],
      [{ field_name: 'email', removed: 'subject@tracker.test', added: 'renamed@tracker.test' }],
      [{ field_name: 'groups', removed: '', added: 'watchers' }],
      [{ field_name: '__create__', removed: '', added: 'subject@tracker.test' }],
    ]);
    for (const entry of activity) {
      expect(entry.who).toBe(app.admin.login);
      expect(entry.when).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const times = activity.map((entry: { when: string }) => entry.when);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('pages with limit and offset, and finds the user by login', async () => {
    const fields = (body: { activity: Array<{ changes: Array<{ field_name: string }> }> }) =>
      body.activity.map((entry) => entry.changes[0]!.field_name);
    expect(fields(await ok(activityOf('renamed@tracker.test', { limit: 2 })))).toEqual(['login_denied_text', 'email']);
    expect(fields(await ok(activityOf(subjectId, { limit: 2, offset: 2 })))).toEqual(['groups', '__create__']);
    expect(fields(await ok(activityOf(subjectId, { offset: 4 })))).toEqual([]);
  });

  it('refuses a caller outside editusers, the user themself included, and an unknown user', async () => {
    expectError(await activityOf(subjectId, {}, plain), 304, 401);
    const own = (await ok(call(app, 'GET', '/rest/whoami', { apiKey: plain }))).id;
    expectError(await activityOf(own, {}, plain), 304, 401);
    expectError(await call(app, 'GET', `/rest/user/${subjectId}/activity`), 410, 401);
    expectError(await activityOf('nobody@tracker.test'), 51, 404);
    expectError(await activityOf(subjectId, { limit: 0 }), 32000, 400);
  });
});
