import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * What the user calls report, as Bugzilla 5.2 reports it: an administrator asking for
 * `email_enabled` and `login_denied_text` gets them, an update names the columns Bugzilla changes
 * (`disable_mail`, the inverse of `email_enabled`, and `cryptpassword`, with nothing of the
 * password), and user id 0 is a user nobody has.
 */
let app: TestApp;
let admin: string;
let plain: string;

const createUser = async (name: string, password?: string): Promise<number> =>
  (
    await ok(
      call(app, 'POST', '/rest/user', {
        apiKey: admin,
        body: { email: `${name}@tracker.test`, ...(password ? { password } : {}) },
      }),
    )
  ).id;
const updateUser = (id: number, body: Record<string, unknown>) =>
  call(app, 'PUT', `/rest/user/${id}`, { apiKey: admin, body });
const getUsers = (key: string, query: Record<string, string>) => call(app, 'GET', '/rest/user', { apiKey: key, query });

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  plain = await userWithKey(app, 'plain');
});
afterAll(async () => {
  await app?.close();
});

describe('GET /rest/user', () => {
  it('gives an administrator who asks email_enabled and login_denied_text, and a plain user neither', async () => {
    const id = await createUser('shown');
    await ok(updateUser(id, { email_enabled: false, login_denied_text: 'Moved on' }));
    const asked = { ids: String(id), include_fields: 'id,email_enabled,login_denied_text' };
    expect((await ok(getUsers(admin, asked))).users).toEqual([
      { id, email_enabled: false, login_denied_text: 'Moved on' },
    ]);
    expect((await ok(getUsers(plain, asked))).users).toEqual([{ id }]);
  });

  it('answers user id 0 with an empty list, by ids and by path, and refuses a negative id (52)', async () => {
    expect(await ok(getUsers(admin, { ids: '0' }))).toEqual({ users: [] });
    expect(await ok(call(app, 'GET', '/rest/user/0', { apiKey: admin }))).toEqual({ users: [] });
    const known = await createUser('known');
    expect((await ok(getUsers(admin, { ids: ['0', String(known)].join(',') }))).users).toEqual([
      expect.objectContaining({ id: known }),
    ]);
    expectError(await getUsers(admin, { ids: '-1' }), 52, 400);
  });
});

describe('PUT /rest/user', () => {
  it('reports an email_enabled change as disable_mail, its inverse', async () => {
    const id = await createUser('mailed');
    expect((await ok(updateUser(id, { email_enabled: false }))).users).toEqual([
      { id, changes: { disable_mail: { removed: '0', added: '1' } } },
    ]);
    expect((await ok(updateUser(id, { email_enabled: false }))).users).toEqual([{ id, changes: {} }]);
    expect((await ok(updateUser(id, { email_enabled: true }))).users).toEqual([
      { id, changes: { disable_mail: { removed: '1', added: '0' } } },
    ]);
    const [user] = (await ok(getUsers(admin, { ids: String(id), include_fields: 'email_enabled' }))).users;
    expect(user).toEqual({ email_enabled: true });
  });

  it('reports a password change as cryptpassword, naming only how it is kept, and the new password works', async () => {
    const id = await createUser('secretive', 'first-password');
    const response = await updateUser(id, { password: 'second-password', full_name: 'Secretive' });
    expect(response.body).toEqual({
      users: [
        {
          id,
          changes: {
            full_name: { removed: '', added: 'Secretive' },
            cryptpassword: { removed: '', added: 'hashed_with_SHA-256' },
          },
        },
      ],
    });
    expect(response.text).not.toContain('first-password');
    expect(response.text).not.toContain('second-password');
    const login = (password: string) =>
      call(app, 'GET', '/rest/login', { query: { login: 'secretive@tracker.test', password } });
    expect((await login('second-password')).status).toBe(200);
    expectError(await login('first-password'), 300, 401);
  });
});
