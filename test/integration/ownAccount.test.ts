import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * A person's own account (PUT /rest/preferences/account, Bugzilla's userprefs.cgi tab=account)
 * and what GET /rest/whoami tells a client about the caller's rights (Tracker additions), checked
 * against what the API then allows.
 */
let app: TestApp;
let admin: string;

const account = (options: { apiKey?: string; headers?: Record<string, string>; from?: string }, body: unknown) =>
  call(app, 'PUT', '/rest/preferences/account', { ...options, body });
const login = (name: string, password: string, from?: string) =>
  call(app, 'GET', '/rest/login', { query: { login: name, password }, from });
const whoami = (apiKey: string) => ok(call(app, 'GET', '/rest/whoami', { apiKey }));

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
});
afterAll(async () => {
  await app?.close();
});

describe('PUT /rest/preferences/account', () => {
  // A new login is mailed for confirmation first (accountsByMail.test.ts), so it is not sent here.
  it('lets a plain user change their own real name and bug mail, never their groups', async () => {
    const key = await userWithKey(app, 'plainname');
    const answer = await ok(
      account({ apiKey: key }, { full_name: 'Plain Person', email_enabled: false, groups: { add: ['admin'] } }),
    );
    expect(answer.changes).toEqual({
      full_name: { removed: '', added: 'Plain Person' },
      disable_mail: { removed: '0', added: '1' },
    });
    expect(answer.token).toBeUndefined();
    const me = await whoami(key);
    expect(me).toMatchObject({ name: 'plainname@tracker.test', real_name: 'Plain Person', email_enabled: false });
    const stored = await ok(call(app, 'GET', '/rest/user/plainname@tracker.test', { apiKey: admin }));
    expect(stored.users[0]).toMatchObject({ email_enabled: false, real_name: 'Plain Person' });
    expect(stored.users[0].groups.map((group: { name: string }) => group.name)).not.toContain('admin');

    // The change is audited as Update User's are, by the person who made it.
    expect((await ok(account({ apiKey: key }, { email_enabled: true }))).changes).toEqual({
      disable_mail: { removed: '1', added: '0' },
    });
  });

  it('changes the password given the current one: the new one logs in, the old one does not', async () => {
    await userWithKey(app, 'plainpass');
    const session = await ok(login('plainpass@tracker.test', 'plainpass-password'));
    const other = await ok(login('plainpass@tracker.test', 'plainpass-password'));
    const answer = await ok(
      account(
        { headers: { 'X-BUGZILLA-TOKEN': session.token } },
        { current_password: 'plainpass-password', new_password: 'a new secret' },
      ),
    );
    expect(answer.changes).toEqual({ cryptpassword: { removed: '', added: 'hashed_with_SHA-256' } });
    // The session that changed it goes on with the new token; every other session ended.
    expect(answer.token).toEqual(expect.any(String));
    expect((await call(app, 'GET', '/rest/whoami', { headers: { 'X-BUGZILLA-TOKEN': answer.token } })).status).toBe(
      200,
    );
    expect((await call(app, 'GET', '/rest/whoami', { headers: { 'X-BUGZILLA-TOKEN': other.token } })).status).not.toBe(
      200,
    );
    expect(
      (await call(app, 'GET', '/rest/whoami', { headers: { 'X-BUGZILLA-TOKEN': session.token } })).status,
    ).not.toBe(200);

    expectError(await login('plainpass@tracker.test', 'plainpass-password', '198.51.100.7'), 300, 401);
    expect((await ok(login('plainpass@tracker.test', 'a new secret'))).token).toEqual(expect.any(String));
  });

  it('renews a login token sent in the body too', async () => {
    await userWithKey(app, 'bodytoken');
    const { token } = await ok(login('bodytoken@tracker.test', 'bodytoken-password'));
    const answer = await ok(
      account({}, { token, current_password: 'bodytoken-password', new_password: 'body secret' }),
    );
    expect(answer.token).toEqual(expect.any(String));
    expect((await call(app, 'GET', '/rest/whoami', { query: { token: answer.token } })).status).toBe(200);
  });

  it('refuses a wrong current password with 300 and changes nothing', async () => {
    const key = await userWithKey(app, 'wrongpass');
    expectError(
      await account({ apiKey: key }, { current_password: 'not-it', new_password: 'another secret', full_name: 'X' }),
      300,
      401,
    );
    expectError(await account({ apiKey: key }, { new_password: 'another secret' }), 50, 400);
    expectError(await login('wrongpass@tracker.test', 'another secret'), 300, 401);
    expect((await ok(login('wrongpass@tracker.test', 'wrongpass-password'))).token).toEqual(expect.any(String));
    expect((await whoami(key)).real_name).toBe('');
  });

  it('counts wrong current passwords as failed logins from that address', async () => {
    const key = await userWithKey(app, 'guesser');
    const from = '203.0.113.9';
    for (let attempt = 0; attempt < 5; attempt++) {
      expectError(
        await account({ apiKey: key, from }, { current_password: `guess-${attempt}`, new_password: 'whatever it is' }),
        300,
        401,
      );
    }
    // The budget is spent: even the right password is refused from there, as a login would be.
    expectError(
      await account({ apiKey: key, from }, { current_password: 'guesser-password', new_password: 'whatever it is' }),
      300,
      401,
    );
    expectError(await login('guesser@tracker.test', 'guesser-password', from), 300, 401);
    // Elsewhere the owner is not locked out.
    await ok(
      account(
        { apiKey: key, from: '198.51.100.30' },
        { current_password: 'guesser-password', new_password: 'whatever it is' },
      ),
    );
  });

  it('applies the password rules of Create User', async () => {
    const key = await userWithKey(app, 'shortpass');
    expectError(
      await account({ apiKey: key }, { current_password: 'shortpass-password', new_password: 'ab' }),
      502,
      400,
    );
    expectError(
      await account({ apiKey: key }, { current_password: 'shortpass-password', new_password: '  ' }),
      502,
      400,
    );
  });

  it('refuses an anonymous caller', async () => {
    const response = await account({}, { full_name: 'Nobody' });
    expect(response.status).not.toBe(200);
    expect(response.body.error).toBe(true);
    expect(response.body.code).toBe(410);
  });
});

describe('GET /rest/whoami rights', () => {
  it('tells an insider and comment tagger from a plain user, as the API then decides', async () => {
    await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'insiders', description: 'Insiders' } }));
    await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'taggers', description: 'Taggers' } }));
    await ok(
      call(app, 'PUT', '/rest/parameters', {
        apiKey: admin,
        body: { insidergroup: 'insiders', comment_taggers_group: 'taggers' },
      }),
    );
    const insider = await userWithKey(app, 'insider', ['insiders', 'taggers']);
    const outsider = await userWithKey(app, 'outsider');

    expect(await whoami(insider)).toMatchObject({ is_insider: true, can_tag_comments: true, is_timetracker: false });
    expect(await whoami(outsider)).toMatchObject({ is_insider: false, can_tag_comments: false, is_timetracker: false });
    expect(await whoami(admin)).toMatchObject({ is_timetracker: true });

    const bug = await fileTestBug(app, admin);
    const privateComment = (key: string) =>
      call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: key, body: { comment: 'Secret', is_private: true } });
    const { id: commentId } = await ok(privateComment(insider));
    expect((await privateComment(outsider)).body.error).toBe(true);

    const { id: publicId } = await ok(
      call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: outsider, body: { comment: 'Public' } }),
    );
    const tag = (key: string) =>
      call(app, 'PUT', `/rest/bug/comment/${publicId}/tags`, { apiKey: key, body: { add: ['needinfo'] } });
    await ok(tag(insider));
    expectError(await tag(outsider), 125, 400);

    const seen = async (key: string) =>
      (await ok(call(app, 'GET', `/rest/bug/${bug}/comment`, { apiKey: key }))).bugs[bug].comments.map(
        (comment: { id: number }) => comment.id,
      );
    expect(await seen(insider)).toContain(commentId);
    expect(await seen(outsider)).not.toContain(commentId);
  });
});

describe('GET /rest/whoami groups and administered products', () => {
  it("names the caller's groups and the products they may manage, as the catalogue calls then decide", async () => {
    const suffix = Date.now().toString(36);
    const product = `Managed${suffix}`;
    const group = `managers${suffix}`;
    await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: group, description: 'Managers' } }));
    await ok(
      call(app, 'POST', '/rest/product', {
        apiKey: admin,
        body: { name: product, description: 'Managed product', version: '1.0' },
      }),
    );
    const manager = await userWithKey(app, `manager${suffix}`, [group]);
    const outsider = await userWithKey(app, `nobody${suffix}`);
    // Before the control, neither may touch the product's components.
    const before = await whoami(manager);
    expect(before.groups).toContain(group);
    expect(before.groups).not.toContain('editcomponents');
    expect(before.administered_products).toEqual([]);
    await ok(
      call(app, 'PUT', `/rest/product/${product}`, {
        apiKey: admin,
        body: {
          group_controls: [{ group, membercontrol: 'SHOWN', othercontrol: 'SHOWN', editcomponents: true }],
        },
      }),
    );
    expect((await whoami(manager)).administered_products).toEqual([product]);
    const other = await whoami(outsider);
    expect(other.groups).not.toContain(group);
    expect(other.administered_products).toEqual([]);
    const adminSelf = await whoami(admin);
    expect(adminSelf.groups).toEqual(expect.arrayContaining(['admin', 'editcomponents']));
    expect(adminSelf.administered_products).toContain(product);

    const addComponent = (key: string) =>
      call(app, 'POST', '/rest/component', {
        apiKey: key,
        body: { product, name: `Part${key.slice(0, 4)}`, description: 'A part', default_assignee: app.admin.login },
      });
    await ok(addComponent(manager));
    expect((await addComponent(outsider)).body.error).toBe(true);
  });
});
