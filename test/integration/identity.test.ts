import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSecond, useSteppableClock } from '../support/clock.ts';
import { ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

let app: TestApp;

interface Account {
  id: number;
  login: string;
  password: string;
  apiKey: string;
}

const accounts: Record<string, Account> = {};
let testersId: number;
let secretId: number;

async function createAccount(name: string, groups: string[] = [], bless: string[] = []): Promise<Account> {
  const login = `${name}@tracker.test`;
  const password = `${name}-password`;
  const created = await call(app, 'POST', '/rest/user', {
    apiKey: app.admin.apiKey,
    body: { email: login, full_name: `${name} User`, password },
  });
  expect(created.status).toBe(200);
  const id = created.body.id as number;
  if (groups.length > 0 || bless.length > 0) {
    const updated = await call(app, 'PUT', `/rest/user/${id}`, {
      apiKey: app.admin.apiKey,
      body: { groups: { add: groups }, bless_groups: { add: bless } },
    });
    expect(updated.status).toBe(200);
  }
  const key = await call(app, 'POST', `/rest/user/${id}/api_key`, {
    apiKey: app.admin.apiKey,
    body: { description: 'tests' },
  });
  expect(key.status).toBe(200);
  return { id, login, password, apiKey: key.body.api_key };
}

useSteppableClock();
beforeAll(async () => {
  app = await startTestApp();
  testersId = (
    await call(app, 'POST', '/rest/group', {
      apiKey: app.admin.apiKey,
      body: { name: 'testers', description: 'Testers' },
    })
  ).body.id;
  secretId = (
    await call(app, 'POST', '/rest/group', {
      apiKey: app.admin.apiKey,
      body: { name: 'secret', description: 'Secret things', user_regexp: '^agent-' },
    })
  ).body.id;
  accounts.plain = await createAccount('plain');
  accounts.subject = await createAccount('subject', ['testers']);
  accounts.blesser = await createAccount('blesser', [], ['testers']);
  accounts.editor = await createAccount('editor', ['editusers']);
  accounts.groupmaker = await createAccount('groupmaker', ['creategroups']);
  accounts.agent = await createAccount('agent-smith');
});
afterAll(async () => {
  await app?.close();
});

const getSubject = async (apiKey?: string, query: Record<string, string> = {}) =>
  call(app, 'GET', `/rest/user/${accounts.subject.login}`, { apiKey, query });

describe('user visibility tiers', () => {
  it('shows a logged-out caller only id, name, real_name and nick', async () => {
    const { body } = await getSubject();
    expect(body.users).toEqual([
      { id: accounts.subject.id, name: accounts.subject.login, real_name: 'subject User', nick: 'subject' },
    ]);
  });

  it('shows a plain user email and can_login, and no groups they cannot bless', async () => {
    const [user] = (await getSubject(accounts.plain.apiKey)).body.users;
    expect(Object.keys(user).sort()).toEqual(['can_login', 'email', 'groups', 'id', 'name', 'nick', 'real_name']);
    expect(user).toMatchObject({ email: accounts.subject.login, can_login: true, groups: [] });
  });

  it('shows a blesser of one group only that group', async () => {
    const [user] = (await getSubject(accounts.blesser.apiKey)).body.users;
    expect(user.groups).toEqual([{ id: testersId, name: 'testers', description: 'Testers' }]);
    expect(user).not.toHaveProperty('email_enabled');
  });

  it('shows the user themself all their groups and their saved searches', async () => {
    const [user] = (await getSubject(accounts.subject.apiKey)).body.users;
    expect(user.groups.map((group: { name: string }) => group.name).sort()).toEqual([
      'bz_canusewhines',
      'editbugs',
      'testers',
    ]);
    expect(user).toMatchObject({ saved_searches: [], saved_reports: [] });
    expect(user).not.toHaveProperty('login_denied_text');
  });

  it('shows editusers every group plus email_enabled and login_denied_text, but not saved searches', async () => {
    const [user] = (await getSubject(accounts.editor.apiKey)).body.users;
    expect(user.groups.map((group: { name: string }) => group.name).sort()).toEqual([
      'bz_canusewhines',
      'editbugs',
      'testers',
    ]);
    expect(user).toMatchObject({ email_enabled: true, login_denied_text: '' });
    expect(user).not.toHaveProperty('saved_searches');
  });

  it('shows editusers and the user themself the groups the user may bless (a Tracker addition)', async () => {
    const asEditor = await call(app, 'GET', `/rest/user/${accounts.blesser.login}`, { apiKey: accounts.editor.apiKey });
    expect(asEditor.body.users[0].bless_groups).toEqual([{ id: testersId, name: 'testers', description: 'Testers' }]);
    const asSelf = await call(app, 'GET', `/rest/user/${accounts.blesser.login}`, { apiKey: accounts.blesser.apiKey });
    expect(asSelf.body.users[0].bless_groups).toEqual([{ id: testersId, name: 'testers', description: 'Testers' }]);
    const asPlain = await call(app, 'GET', `/rest/user/${accounts.blesser.login}`, { apiKey: accounts.plain.apiKey });
    expect(asPlain.body.users[0]).not.toHaveProperty('bless_groups');
  });

  it('shows creategroups members no more than a plain user', async () => {
    const [user] = (await getSubject(accounts.groupmaker.apiKey)).body.users;
    expect(Object.keys(user).sort()).toEqual(['can_login', 'email', 'groups', 'id', 'name', 'nick', 'real_name']);
    expect(user.groups).toEqual([]);
  });

  it('shows the admin everything but saved searches', async () => {
    const [user] = (await getSubject(app.admin.apiKey)).body.users;
    expect(Object.keys(user).sort()).toEqual([
      'bless_groups',
      'can_login',
      'email',
      'email_enabled',
      'groups',
      'id',
      'login_denied_text',
      'name',
      'nick',
      'real_name',
    ]);
  });
});

describe('GET /rest/user', () => {
  it('merges the path with ids and names', async () => {
    const { body } = await call(app, 'GET', `/rest/user/${accounts.plain.id}`, {
      apiKey: app.admin.apiKey,
      query: { names: accounts.editor.login },
    });
    expect(body.users.map((user: { id: number }) => user.id)).toEqual([accounts.plain.id, accounts.editor.id]);
  });

  it('matches on login or real name, case-insensitively, within the limit', async () => {
    const { body } = await call(app, 'GET', '/rest/user', { apiKey: accounts.plain.apiKey, query: { match: 'USER' } });
    expect(body.users.length).toBeGreaterThanOrEqual(6);
    const limited = await call(app, 'GET', '/rest/user', {
      apiKey: accounts.plain.apiKey,
      query: { match: 'user', limit: 2 },
    });
    expect(limited.body.users).toHaveLength(2);
  });

  it('filters by group membership, refusing a group the caller is not in (804)', async () => {
    const { body } = await call(app, 'GET', '/rest/user', {
      apiKey: app.admin.apiKey,
      query: { match: 'tracker.test', groups: 'testers' },
    });
    expect(body.users.map((user: { id: number }) => user.id)).toContain(accounts.subject.id);
    expect(body.users.map((user: { id: number }) => user.id)).not.toContain(accounts.plain.id);
    const refused = await call(app, 'GET', '/rest/user', {
      apiKey: accounts.plain.apiKey,
      query: { match: 'x', group_ids: String(testersId) },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(804);
    const unknown = await call(app, 'GET', '/rest/user', {
      apiKey: app.admin.apiKey,
      query: { match: 'x', groups: 'no-such-group' },
    });
    expect(unknown.body.code).toBe(804);
  });

  it('refuses ids and match to a logged-out caller (505)', async () => {
    for (const query of [{ ids: String(accounts.plain.id) }, { match: 'plain' }]) {
      const response = await call(app, 'GET', '/rest/user', { query });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe(505);
    }
  });

  it('answers 52 for a negative or non-numeric id, 51 for an unknown name, 50 for no argument', async () => {
    expect((await call(app, 'GET', '/rest/user', { apiKey: app.admin.apiKey, query: { ids: 'abc' } })).body.code).toBe(
      52,
    );
    expect((await call(app, 'GET', '/rest/user', { apiKey: app.admin.apiKey, query: { ids: '-1' } })).body.code).toBe(
      52,
    );
    // No user has id 0: Bugzilla 5.2 answers it like any unknown id (userReports.test.ts).
    expect((await call(app, 'GET', '/rest/user', { apiKey: app.admin.apiKey, query: { ids: '0' } })).body).toEqual({
      users: [],
    });
    const unknown = await call(app, 'GET', '/rest/user/nobody@tracker.test', { apiKey: app.admin.apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(51);
    expect((await call(app, 'GET', '/rest/user', { apiKey: app.admin.apiKey })).body.code).toBe(50);
    expect((await call(app, 'GET', '/rest/user', { apiKey: app.admin.apiKey, query: { ids: '99999' } })).body).toEqual({
      users: [],
    });
  });

  it('applies include_fields to users', async () => {
    const { body } = await getSubject(app.admin.apiKey, { include_fields: 'id,name' });
    expect(body.users).toEqual([{ id: accounts.subject.id, name: accounts.subject.login }]);
  });
});

describe('POST /rest/user', () => {
  it('refuses callers outside editusers and logged-out callers alike (304, as Bugzilla 5.2)', async () => {
    const denied = await call(app, 'POST', '/rest/user', {
      apiKey: accounts.plain.apiKey,
      body: { email: 'x@tracker.test' },
    });
    expect(denied.status).toBe(401);
    expect(denied.body.code).toBe(304);
    expect((await call(app, 'POST', '/rest/user', { body: { email: 'x@tracker.test' } })).body.code).toBe(304);
  });

  it('answers 500 for a duplicate, 501 for an invalid address, 502 for a short password, 50 without e-mail', async () => {
    const editor = accounts.editor.apiKey;
    expect(
      (await call(app, 'POST', '/rest/user', { apiKey: editor, body: { email: accounts.plain.login.toUpperCase() } }))
        .body.code,
    ).toBe(500);
    expect(
      (await call(app, 'POST', '/rest/user', { apiKey: editor, body: { email: 'not-an-address' } })).body.code,
    ).toBe(501);
    expect(
      (await call(app, 'POST', '/rest/user', { apiKey: editor, body: { email: 'short@tracker.test', password: 'ab' } }))
        .body.code,
    ).toBe(502);
    expect((await call(app, 'POST', '/rest/user', { apiKey: editor, body: { full_name: 'No Mail' } })).body.code).toBe(
      50,
    );
  });

  it('creates a user who cannot log in with a password when none was given', async () => {
    const created = await call(app, 'POST', '/rest/user', {
      apiKey: accounts.editor.apiKey,
      body: { email: 'nopassword@tracker.test', password: '   ' },
    });
    expect(created.body.id).toBeGreaterThan(0);
    const login = await call(app, 'GET', '/rest/login', { query: { login: 'nopassword@tracker.test', password: '' } });
    expect(login.body.code).toBe(300);
  });
});

describe('PUT /rest/user', () => {
  it('reports changes, and a password change without revealing it', async () => {
    const created = await call(app, 'POST', '/rest/user', {
      apiKey: app.admin.apiKey,
      body: { email: 'changing@tracker.test', password: 'first-password' },
    });
    const id = created.body.id;
    const response = await call(app, 'PUT', `/rest/user/${id}`, {
      apiKey: app.admin.apiKey,
      body: {
        full_name: 'Changed Name',
        password: 'second-password',
        email_enabled: false,
        groups: { add: ['testers'] },
      },
    });
    expect(response.body).toEqual({
      users: [
        {
          id,
          changes: {
            full_name: { removed: '', added: 'Changed Name' },
            cryptpassword: { removed: '', added: 'hashed_with_SHA-256' },
            disable_mail: { removed: '0', added: '1' },
            groups: { removed: '', added: 'testers' },
          },
        },
      ],
    });
    expect(response.text).not.toContain('second-password');
    expect(
      (
        await call(app, 'GET', '/rest/login', {
          query: { login: 'changing@tracker.test', password: 'second-password' },
        })
      ).status,
    ).toBe(200);
  });

  it('applies set over add/remove and adds a group named in both add and remove', async () => {
    const id = (
      await call(app, 'POST', '/rest/user', { apiKey: app.admin.apiKey, body: { email: 'groups@tracker.test' } })
    ).body.id;
    const both = await call(app, 'PUT', `/rest/user/${id}`, {
      apiKey: app.admin.apiKey,
      body: { groups: { add: ['testers'], remove: ['testers'] } },
    });
    expect(both.body.users[0].changes.groups).toEqual({ removed: '', added: 'testers' });
    const set = await call(app, 'PUT', `/rest/user/${id}`, {
      apiKey: app.admin.apiKey,
      body: { groups: { set: [secretId], add: ['canconfirm'] } },
    });
    expect(set.body.error, JSON.stringify(set.body)).toBeUndefined();
    expect(set.body.users[0].changes.groups).toEqual({ removed: 'testers', added: 'secret' });
  });

  it('refuses a group the caller cannot bless, and changes nothing', async () => {
    const response = await call(app, 'PUT', `/rest/user/${accounts.plain.id}`, {
      apiKey: accounts.editor.apiKey,
      body: { full_name: 'Should Not Change', groups: { add: ['admin'] } },
    });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(304);
    const [user] = (await call(app, 'GET', `/rest/user/${accounts.plain.id}`, { apiKey: app.admin.apiKey })).body.users;
    expect(user.real_name).toBe('plain User');
  });

  it('answers 51 for an unknown user, 304 outside editusers, and refuses an e-mail change for several users', async () => {
    expect(
      (await call(app, 'PUT', '/rest/user/nobody@tracker.test', { apiKey: app.admin.apiKey, body: { full_name: 'x' } }))
        .body.code,
    ).toBe(51);
    expect(
      (
        await call(app, 'PUT', `/rest/user/${accounts.plain.id}`, {
          apiKey: accounts.plain.apiKey,
          body: { full_name: 'x' },
        })
      ).body.code,
    ).toBe(304);
    const several = await call(app, 'PUT', `/rest/user/${accounts.plain.id}`, {
      apiKey: app.admin.apiKey,
      body: { ids: [accounts.agent.id], email: 'x@tracker.test' },
    });
    expect(several.status).toBe(400);
  });
});

describe('sessions', () => {
  it('logs in, authenticates with the token in every form, validates it, and logs out', async () => {
    const login = await call(app, 'GET', '/rest/login', {
      query: { login: accounts.plain.login, password: accounts.plain.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.id).toBe(accounts.plain.id);
    const token = login.body.token as string;
    for (const options of [
      { query: { token } },
      { query: { Bugzilla_token: token } },
      { query: { Tracker_token: token } },
      { headers: { 'X-BUGZILLA-TOKEN': token } },
    ]) {
      const whoami = await call(app, 'GET', '/rest/whoami', options);
      expect(whoami.body).toEqual({
        id: accounts.plain.id,
        name: accounts.plain.login,
        real_name: 'plain User',
        nick: 'plain',
        // Tracker additions: the caller's bug mail and rights (insidergroup and the others default to admin).
        email_enabled: true,
        is_insider: false,
        is_timetracker: false,
        can_tag_comments: false,
        // The test installation puts everyone in editbugs (which implies bz_canusewhines).
        groups: ['bz_canusewhines', 'editbugs'],
        administered_products: [],
      });
    }
    // Bugzilla wraps scalar results: {"result": true|false}, and logout's nothing as {"result": null}.
    expect(
      (await call(app, 'GET', '/rest/valid_login', { query: { login: accounts.plain.login, token } })).body,
    ).toEqual({ result: true });
    expect(
      (await call(app, 'GET', '/rest/valid_login', { query: { login: accounts.editor.login, token } })).body,
    ).toEqual({ result: false });

    const logout = await call(app, 'GET', '/rest/logout', { query: { token } });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ result: null });
    expect((await call(app, 'GET', '/rest/whoami', { query: { token } })).body.code).toBe(32000);
    expect(
      (await call(app, 'GET', '/rest/valid_login', { query: { login: accounts.plain.login, token } })).body,
    ).toEqual({ result: false });
    // Logging out a dead token is a no-op.
    expect((await call(app, 'GET', '/rest/logout', { query: { token } })).body).toEqual({ result: null });
  });

  it('ends a token sent in the X-BUGZILLA-TOKEN header on logout, as the web app sends it', async () => {
    const { token } = await ok(
      call(app, 'GET', '/rest/login', {
        query: { login: accounts.plain.login, password: accounts.plain.password },
      }),
    );
    const headers = { 'X-BUGZILLA-TOKEN': token };
    expect((await call(app, 'GET', '/rest/whoami', { headers })).status).toBe(200);
    expect((await call(app, 'GET', '/rest/logout', { headers })).body).toEqual({ result: null });
    expect((await call(app, 'GET', '/rest/whoami', { headers })).body.code).toBe(32000);
  });

  it('accepts POST /rest/login and answers 50 without a login or password', async () => {
    expect(
      (
        await call(app, 'POST', '/rest/login', {
          body: { login: accounts.plain.login, password: accounts.plain.password },
        })
      ).body.token,
    ).toBeTruthy();
    expect((await call(app, 'GET', '/rest/login', { query: { password: 'x' } })).body.code).toBe(50);
    expect((await call(app, 'GET', '/rest/login', { query: { login: accounts.plain.login } })).body.code).toBe(50);
  });

  it('answers whoami with 410 when logged out', async () => {
    expect((await call(app, 'GET', '/rest/whoami')).body.code).toBe(410);
  });

  it('disables an account: login refused with the reason (301), its token and key stop working', async () => {
    const account = await createAccount('disabled');
    const token = (
      await call(app, 'GET', '/rest/login', { query: { login: account.login, password: account.password } })
    ).body.token;
    await call(app, 'PUT', `/rest/user/${account.id}`, {
      apiKey: app.admin.apiKey,
      body: { login_denied_text: 'Left the project.' },
    });
    const login = await call(app, 'GET', '/rest/login', {
      query: { login: account.login, password: account.password },
    });
    expect(login.status).toBe(401);
    expect(login.body).toMatchObject({ code: 301, message: expect.stringContaining('Left the project.') });
    expect((await call(app, 'GET', '/rest/whoami', { query: { token } })).status).not.toBe(200);
    expect((await call(app, 'GET', '/rest/whoami', { apiKey: account.apiKey })).body.code).toBe(301);

    // Re-enabling does not revive the old token.
    await call(app, 'PUT', `/rest/user/${account.id}`, { apiKey: app.admin.apiKey, body: { login_denied_text: '' } });
    expect((await call(app, 'GET', '/rest/whoami', { query: { token } })).body.code).toBe(32000);
    expect((await call(app, 'GET', '/rest/whoami', { apiKey: account.apiKey })).status).toBe(200);
  });

  it('ends login tokens when the e-mail changes', async () => {
    const account = await createAccount('renamed');
    const token = (
      await call(app, 'GET', '/rest/login', { query: { login: account.login, password: account.password } })
    ).body.token;
    await call(app, 'PUT', `/rest/user/${account.id}`, {
      apiKey: app.admin.apiKey,
      body: { email: 'renamed-now@tracker.test' },
    });
    expect((await call(app, 'GET', '/rest/whoami', { query: { token } })).body.code).toBe(32000);
    expect(
      (
        await call(app, 'GET', '/rest/login', {
          query: { login: 'renamed-now@tracker.test', password: account.password },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(app, 'GET', '/rest/login', { query: { login: account.login, password: account.password } })).body
        .code,
    ).toBe(300);
  });

  it('requires a new password when an administrator asks for one (305)', async () => {
    const account = await createAccount('mustchange');
    await call(app, 'PUT', `/rest/user/${account.id}`, {
      apiKey: app.admin.apiKey,
      body: { password_change_required: true },
    });
    expect(
      (await call(app, 'GET', '/rest/login', { query: { login: account.login, password: account.password } })).body
        .code,
    ).toBe(305);
  });

  it('locks password logins after five failures within 30 minutes, even with the right password', async () => {
    const account = await createAccount('throttled');
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(
        (await call(app, 'GET', '/rest/login', { query: { login: account.login, password: 'wrong' } })).body.code,
      ).toBe(300);
    }
    const locked = await call(app, 'GET', '/rest/login', {
      query: { login: account.login, password: account.password },
    });
    // Answered as a wrong password is, so the lock does not tell that the login exists.
    expect(locked.status).toBe(401);
    expect(locked.body).toMatchObject({ code: 300, message: expect.stringMatching(/not valid.*30 minutes/) });
    // API keys still work.
    expect((await call(app, 'GET', '/rest/whoami', { apiKey: account.apiKey })).status).toBe(200);
  });
});

describe('users stored before the user item carried its groups', () => {
  it('still reads their memberships from the membership items', async () => {
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient, tableName } = await import('../../shared/storage/dynamoClient.ts');
    const { keys } = await import('../../shared/storage/keys.ts');
    const id = 900_001;
    const login = 'legacy@tracker.test';
    const put = (Item: Record<string, unknown>) =>
      documentClient().send(new PutCommand({ TableName: tableName(), Item }));
    await put({
      ...keys.user(id),
      ...keys.usersIndex(login),
      type: 'user',
      id,
      login,
      realName: 'Legacy User',
      disabledText: '',
      emailEnabled: true,
      createdAt: new Date().toISOString(),
    });
    await put({ ...keys.loginGuard(login), type: 'login', userId: id });
    await put({ ...keys.membership(id, testersId), type: 'membership', userId: id, groupId: testersId });
    const [user] = (await call(app, 'GET', `/rest/user/${login}`, { apiKey: app.admin.apiKey })).body.users;
    expect(user.groups.map((group: { name: string }) => group.name)).toContain('testers');
  });
});

describe('regexp membership', () => {
  it('puts users whose login matches a group regexp in that group', async () => {
    const [agent] = (await call(app, 'GET', `/rest/user/${accounts.agent.id}`, { apiKey: accounts.agent.apiKey })).body
      .users;
    expect(agent.groups.map((group: { name: string }) => group.name)).toContain('secret');
    const [plain] = (await call(app, 'GET', `/rest/user/${accounts.plain.id}`, { apiKey: accounts.plain.apiKey })).body
      .users;
    expect(plain.groups.map((group: { name: string }) => group.name)).not.toContain('secret');
  });

  const groupsOf = async (account: Account) =>
    (
      (await call(app, 'GET', '/rest/user', { apiKey: app.admin.apiKey, query: { ids: String(account.id) } })).body
        .users[0].groups as Array<{ name: string }>
    ).map((group) => group.name);
  const membersOf = async (group: string) =>
    (
      (await call(app, 'GET', `/rest/group/${group}`, { apiKey: app.admin.apiKey, query: { membership: '1' } })).body
        .groups[0].membership as Array<{ id: number }>
    ).map((user) => user.id);

  it('applies a changed regexp to existing users at once, in their groups, the group listing and their permissions', async () => {
    const ops = await createAccount('ops-lead');
    const created = await call(app, 'POST', '/rest/group', {
      apiKey: app.admin.apiKey,
      body: { name: 'operators', description: 'Ops' },
    });
    expect(await groupsOf(ops)).not.toContain('operators');
    const changed = await call(app, 'PUT', '/rest/group/operators', {
      apiKey: app.admin.apiKey,
      body: { user_regexp: '^OPS-' },
    });
    expect(changed.body.groups[0].changes.user_regexp).toEqual({ removed: '', added: '^OPS-' });
    expect(await groupsOf(ops)).toContain('operators');
    expect(await membersOf('operators')).toContain(ops.id);
    expect(await membersOf('operators')).not.toContain(accounts.plain.id);
    // A regexp on a system group grants its rights: tweakparams lets the user change parameters.
    await call(app, 'PUT', '/rest/group/tweakparams', {
      apiKey: app.admin.apiKey,
      body: { user_regexp: '^ops-lead@' },
    });
    expect(
      (
        await call(app, 'PUT', '/rest/parameters', {
          apiKey: ops.apiKey,
          body: { announcehtml: 'Maintenance at noon' },
        })
      ).status,
    ).toBe(200);
    await call(app, 'PUT', '/rest/group/tweakparams', { apiKey: app.admin.apiKey, body: { user_regexp: '' } });
    expect(
      (await call(app, 'PUT', '/rest/parameters', { apiKey: ops.apiKey, body: { announcehtml: '' } })).body.code,
    ).toBe(304);
    // Cleared: nobody is a member through it any more.
    await call(app, 'PUT', `/rest/group/${created.body.id}`, { apiKey: app.admin.apiKey, body: { user_regexp: '' } });
    expect(await groupsOf(ops)).not.toContain('operators');
  });

  it('moves a user in and out of regexp groups when their login changes', async () => {
    const mover = await createAccount('mover');
    expect(await groupsOf(mover)).not.toContain('secret');
    await call(app, 'PUT', `/rest/user/${mover.id}`, {
      apiKey: app.admin.apiKey,
      body: { email: 'agent-mover@tracker.test' },
    });
    expect(await groupsOf(mover)).toContain('secret');
    expect(await membersOf('secret')).toContain(mover.id);
    await call(app, 'PUT', `/rest/user/${mover.id}`, {
      apiKey: app.admin.apiKey,
      body: { email: 'mover@tracker.test' },
    });
    expect(await groupsOf(mover)).not.toContain('secret');
    expect(await membersOf('secret')).not.toContain(mover.id);
  });

  it('misses no user created while a regexp changes, and keeps no one it does not match', async () => {
    await call(app, 'POST', '/rest/group', { apiKey: app.admin.apiKey, body: { name: 'racers', description: 'Race' } });
    const logins = Array.from(
      { length: 8 },
      (_, index) => `${index % 2 === 0 ? 'race' : 'walk'}-${index}@tracker.test`,
    );
    const [created] = await Promise.all([
      Promise.all(
        logins.map((email) =>
          call(app, 'POST', '/rest/user', { apiKey: app.admin.apiKey, body: { email, full_name: email } }),
        ),
      ),
      call(app, 'PUT', '/rest/group/racers', { apiKey: app.admin.apiKey, body: { user_regexp: '^race-' } }),
    ]);
    for (const response of created) expect(response.status).toBe(200);
    const expected = created.filter((_, index) => index % 2 === 0).map((response) => response.body.id as number);
    // Admins are members of every group.
    expect((await membersOf('racers')).filter((id) => id !== app.admin.id).sort((a, b) => a - b)).toEqual(
      expected.sort((a, b) => a - b),
    );
  });

  it('reads the groups of a user item stored before they were kept on it from its membership items', async () => {
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient, tableName } = await import('../../shared/storage/dynamoClient.ts');
    const { keys } = await import('../../shared/storage/keys.ts');
    const { getUserRecords } = await import('../../shared/storage/identity/userStore.ts');
    const admin = app.admin.apiKey;
    const group = await call(app, 'POST', '/rest/group', {
      apiKey: admin,
      body: { name: 'oldtimers', description: 'Old timers' },
    });
    expect(group.status, group.text).toBe(200);
    const account = await createAccount('oldtimer');
    const joined = await call(app, 'PUT', `/rest/user/${account.id}`, {
      apiKey: admin,
      body: { groups: { add: ['oldtimers'] }, bless_groups: { add: ['oldtimers'] } },
    });
    expect(joined.status, joined.text).toBe(200);
    const [before, adminRecord] = await getUserRecords([account.id, app.admin.id]);
    expect(before!.membership.memberOf).toContain(group.body.id);
    expect(before!.membership.canBless).toContain(group.body.id);
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(account.id),
        UpdateExpression: 'REMOVE memberOf, canBless',
      }),
    );
    // One user from the item, one from the membership items, in the order asked.
    const [adminAgain, agent] = await getUserRecords([app.admin.id, account.id]);
    expect(adminAgain).toEqual(adminRecord);
    expect(agent!.user.id).toBe(account.id);
    expect([...agent!.membership.memberOf].sort()).toEqual([...before!.membership.memberOf].sort());
    expect([...agent!.membership.canBless].sort()).toEqual([...before!.membership.canBless].sort());
  });

  it('derives the members of a regexp group stored before they were kept, at the next bootstrap', async () => {
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient, tableName } = await import('../../shared/storage/dynamoClient.ts');
    const { keys } = await import('../../shared/storage/keys.ts');
    const { bootstrapInstallation } = await import('../../shared/application/instance/bootstrapInstallation.ts');
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.group(secretId),
        UpdateExpression: 'REMOVE regexpMembers',
      }),
    );
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.catalogStamp(),
        UpdateExpression: 'ADD version :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    expect(await membersOf('secret')).not.toContain(accounts.agent.id);
    // Changing something else of the group leaves its members to be derived.
    expect(
      (
        await call(app, 'PUT', '/rest/group/secret', {
          apiKey: app.admin.apiKey,
          body: { description: 'Secret agents' },
        })
      ).status,
    ).toBe(200);
    expect((await bootstrapInstallation({ adminLogin: 'someone@tracker.test' })).created).toBe(false);
    expect(await membersOf('secret')).toContain(accounts.agent.id);
    expect(await groupsOf(accounts.agent)).toContain('secret');
  });
});

describe('API keys', () => {
  it('lists keys without the keys themselves, and revoking one makes it fail with 306', async () => {
    const account = await createAccount('keys');
    const extra = await call(app, 'POST', `/rest/user/${account.login}/api_key`, {
      apiKey: account.apiKey,
      body: { description: 'laptop' },
    });
    expect(extra.body.api_key).toMatch(/^[A-Za-z0-9]{40}$/);
    const listed = await call(app, 'GET', `/rest/user/${account.id}/api_key`, { apiKey: account.apiKey });
    expect(listed.body.api_keys).toHaveLength(2);
    expect(listed.body.api_keys[1]).toMatchObject({ id: extra.body.id, description: 'laptop', revoked: false });
    expect(listed.text).not.toContain(extra.body.api_key);

    const revoked = await call(app, 'PUT', `/rest/user/${account.id}/api_key/${extra.body.id}`, {
      apiKey: account.apiKey,
      body: { revoked: true },
    });
    expect(revoked.body).toEqual({
      api_keys: [{ id: extra.body.id, changes: { revoked: { removed: '0', added: '1' } } }],
    });
    const rejected = await call(app, 'GET', '/rest/whoami', { apiKey: extra.body.api_key });
    expect(rejected.body.code).toBe(306);
  });

  it("refuses to manage another user's keys without editusers (304)", async () => {
    const response = await call(app, 'GET', `/rest/user/${accounts.editor.id}/api_key`, {
      apiKey: accounts.plain.apiKey,
    });
    expect(response.body.code).toBe(304);
  });
});

describe('groups', () => {
  it('creates groups with the spec errors 800-803 and 304 outside creategroups', async () => {
    const maker = accounts.groupmaker.apiKey;
    expect(
      (await call(app, 'POST', '/rest/group', { apiKey: maker, body: { name: ' ', description: 'x' } })).body.code,
    ).toBe(800);
    expect(
      (await call(app, 'POST', '/rest/group', { apiKey: maker, body: { name: 'Testers', description: 'x' } })).body
        .code,
    ).toBe(801);
    expect((await call(app, 'POST', '/rest/group', { apiKey: maker, body: { name: 'nodesc' } })).body.code).toBe(802);
    expect(
      (
        await call(app, 'POST', '/rest/group', {
          apiKey: maker,
          body: { name: 'badre', description: 'x', user_regexp: '([' },
        })
      ).body.code,
    ).toBe(803);
    expect(
      (await call(app, 'POST', '/rest/group', { apiKey: accounts.plain.apiKey, body: { name: 'x', description: 'x' } }))
        .body.code,
    ).toBe(304);
    const created = await call(app, 'POST', '/rest/group', {
      apiKey: maker,
      body: { name: 'qa', description: 'Quality', is_active: false },
    });
    expect(created.body.id).toBeGreaterThan(0);
  });

  it('updates groups, reporting booleans as 1/0, refusing a taken name (801) and system group renames', async () => {
    const response = await call(app, 'PUT', '/rest/group/testers', {
      apiKey: accounts.groupmaker.apiKey,
      body: { description: 'Test team', is_active: false },
    });
    expect(response.body).toEqual({
      groups: [
        {
          id: testersId,
          changes: { description: { removed: 'Testers', added: 'Test team' }, is_active: { removed: '1', added: '0' } },
        },
      ],
    });
    expect(
      (await call(app, 'PUT', '/rest/group/testers', { apiKey: accounts.groupmaker.apiKey, body: { name: 'secret' } }))
        .body.code,
    ).toBe(801);
    expect(
      (await call(app, 'PUT', '/rest/group/admin', { apiKey: app.admin.apiKey, body: { name: 'bosses' } })).status,
    ).toBe(400);
    expect(
      (await call(app, 'PUT', '/rest/group/no-such-group', { apiKey: app.admin.apiKey, body: { description: 'x' } }))
        .body.code,
    ).toBe(51);
    await call(app, 'PUT', '/rest/group/testers', {
      apiKey: accounts.groupmaker.apiKey,
      body: { description: 'Testers', is_active: true },
    });
  });

  it('shows creategroups everything, editusers and blessers members without the admin fields', async () => {
    const full = await call(app, 'GET', '/rest/group/testers', {
      apiKey: accounts.groupmaker.apiKey,
      query: { membership: '1' },
    });
    expect(full.body.groups[0]).toMatchObject({
      id: testersId,
      name: 'testers',
      is_bug_group: true,
      user_regexp: '',
      is_active: true,
    });
    expect(full.body.groups[0].membership.map((user: { id: number }) => user.id)).toContain(accounts.subject.id);
    expect(full.body.groups[0].membership.map((user: { id: number }) => user.id)).not.toContain(accounts.plain.id);
    // Admins are members of every group (Bugzilla adds admin to each new group), so they are listed too.
    expect(full.body.groups[0].membership.map((user: { id: number }) => user.id)).toContain(app.admin.id);
    expect(
      full.body.groups[0].membership.find((user: { id: number }) => user.id === accounts.subject.id),
    ).toMatchObject({
      can_login: true,
      email_enabled: true,
      login_denied_text: '',
      email: accounts.subject.login,
    });

    for (const apiKey of [accounts.editor.apiKey, accounts.blesser.apiKey]) {
      const partial = await call(app, 'GET', '/rest/group', { apiKey, query: { names: 'testers', membership: '1' } });
      expect(Object.keys(partial.body.groups[0]).sort()).toEqual(['description', 'id', 'membership', 'name']);
    }
  });

  it('lists members matched by the regexp', async () => {
    const { body } = await call(app, 'GET', `/rest/group/${secretId}`, {
      apiKey: app.admin.apiKey,
      query: { membership: '1' },
    });
    const members = body.groups[0].membership.map((user: { id: number }) => user.id);
    expect(members).toContain(accounts.agent.id);
    expect(members).not.toContain(accounts.plain.id);
  });

  it('lists only blessable groups to a blesser, all to editusers, and refuses others (805, 410)', async () => {
    const blesser = await call(app, 'GET', '/rest/group', { apiKey: accounts.blesser.apiKey });
    expect(blesser.body.groups.map((group: { name: string }) => group.name)).toEqual(['testers']);
    const editor = await call(app, 'GET', '/rest/group', { apiKey: accounts.editor.apiKey });
    expect(editor.body.groups.length).toBeGreaterThan(10);
    expect((await call(app, 'GET', '/rest/group', { apiKey: accounts.plain.apiKey })).body.code).toBe(805);
    expect((await call(app, 'GET', '/rest/group')).body.code).toBe(410);
    expect(
      (await call(app, 'GET', '/rest/group', { apiKey: app.admin.apiKey, query: { names: 'nope' } })).body.code,
    ).toBe(51);
    expect((await call(app, 'GET', '/rest/group', { apiKey: app.admin.apiKey, query: { ids: '9999' } })).body).toEqual({
      groups: [],
    });
  });
});

describe('audit', () => {
  it('records user and group changes under Tracker::User and Tracker::Group', async () => {
    const before = (await call(app, 'GET', '/rest/last_audit_time', { query: { class: 'Tracker::User' } })).body
      .last_audit_time;
    nextSecond();
    await call(app, 'PUT', `/rest/user/${accounts.agent.id}`, {
      apiKey: app.admin.apiKey,
      body: { full_name: `Agent ${Date.now()}` },
    });
    const after = (await call(app, 'GET', '/rest/last_audit_time', { query: { class: 'Tracker::User' } })).body
      .last_audit_time;
    expect(after > before).toBe(true);
  });
});
