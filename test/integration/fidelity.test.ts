import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Bugzilla 5.2 behaviour where the spec is silent (clarifications.md, "More observed behaviour"):
 * derived system-group membership, product order, the user changes and fields an admin sees.
 * (Scalar results of valid_login and logout are checked with the sessions in identity.test.ts.)
 */
let app: TestApp;

interface Account {
  id: number;
  login: string;
  apiKey: string;
}

async function createAccount(name: string, groups: string[] = []): Promise<Account> {
  const login = `${name}@fidelity.test`;
  const created = await call(app, 'POST', '/rest/user', {
    apiKey: app.admin.apiKey,
    body: { email: login, full_name: `${name} User`, password: `${name}-password` },
  });
  expect(created.status).toBe(200);
  const id = created.body.id as number;
  if (groups.length > 0)
    expect(
      (await call(app, 'PUT', `/rest/user/${id}`, { apiKey: app.admin.apiKey, body: { groups: { add: groups } } }))
        .status,
    ).toBe(200);
  const key = await call(app, 'POST', `/rest/user/${id}/api_key`, {
    apiKey: app.admin.apiKey,
    body: { description: 'tests' },
  });
  return { id, login, apiKey: key.body.api_key };
}

const groupNamesOf = async (account: Account) => {
  const { body } = await call(app, 'GET', `/rest/user/${account.id}`, { apiKey: account.apiKey });
  return (body.users[0].groups as Array<{ name: string }>).map((group) => group.name);
};

const membersOf = async (group: string) => {
  const { body } = await call(app, 'GET', `/rest/group/${group}`, {
    apiKey: app.admin.apiKey,
    query: { membership: '1' },
  });
  return (body.groups[0].membership as Array<{ id: number }>).map((user) => user.id);
};

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('system group inheritance', () => {
  let plain: Account;
  let sudoer: Account;
  let whiner: Account;

  beforeAll(async () => {
    plain = await createAccount('plain');
    sudoer = await createAccount('sudoer', ['bz_sudoers']);
    whiner = await createAccount('whiner', ['bz_canusewhineatothers']);
  });

  it('puts bz_sudoers members in bz_sudo_protect, in their groups and in the group membership', async () => {
    expect(await groupNamesOf(sudoer)).toEqual(expect.arrayContaining(['bz_sudoers', 'bz_sudo_protect']));
    expect(await groupNamesOf(plain)).not.toContain('bz_sudo_protect');
    const members = await membersOf('bz_sudo_protect');
    expect(members).toContain(sudoer.id);
    expect(members).not.toContain(plain.id);
  });

  it('uses derived membership in permission checks (the group filter of GET /rest/user)', async () => {
    // Filtering users by a group the caller is not in is refused (804); a derived member may.
    const refused = await call(app, 'GET', '/rest/user', {
      apiKey: plain.apiKey,
      query: { match: 'fidelity.test', groups: 'bz_sudo_protect' },
    });
    expect(refused.body.code).toBe(804);
    const allowed = await call(app, 'GET', '/rest/user', {
      apiKey: sudoer.apiKey,
      query: { match: 'fidelity.test', groups: 'bz_sudo_protect' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.users.map((user: { id: number }) => user.id)).toEqual([sudoer.id]);
  });

  it('puts every editbugs member (every user, by its regexp) in bz_canusewhines', async () => {
    expect(await groupNamesOf(plain)).toEqual(expect.arrayContaining(['editbugs', 'bz_canusewhines']));
    expect(await membersOf('bz_canusewhines')).toEqual(expect.arrayContaining([plain.id, sudoer.id, whiner.id]));
  });

  it('puts bz_canusewhineatothers members in bz_canusewhines on their own, and no one else once editbugs is narrowed', async () => {
    const narrowed = await call(app, 'PUT', '/rest/group/editbugs', {
      apiKey: app.admin.apiKey,
      body: { user_regexp: '' },
    });
    expect(narrowed.status).toBe(200);
    try {
      expect(await groupNamesOf(whiner)).toEqual(expect.arrayContaining(['bz_canusewhineatothers', 'bz_canusewhines']));
      expect(await groupNamesOf(plain)).not.toContain('bz_canusewhines');
      const members = await membersOf('bz_canusewhines');
      expect(members).toContain(whiner.id);
      expect(members).not.toContain(plain.id);
      // admin is in every group, derived ones included.
      expect(members).toContain(app.admin.id);
    } finally {
      await call(app, 'PUT', '/rest/group/editbugs', { apiKey: app.admin.apiKey, body: { user_regexp: '.*' } });
    }
  });
});

describe('GET /rest/product', () => {
  it('lists products by name, case-insensitively, not by id', async () => {
    for (const name of ['zeta', 'Alpha', 'beta']) {
      const created = await call(app, 'POST', '/rest/product', {
        apiKey: app.admin.apiKey,
        body: { name, description: `${name} product`, version: '1.0' },
      });
      expect(created.status).toBe(200);
    }
    const { body } = await call(app, 'GET', '/rest/product', { query: { type: 'accessible' } });
    expect(body.products.map((product: { name: string }) => product.name)).toEqual([
      'Alpha',
      'beta',
      'TestProduct',
      'zeta',
    ]);
    const byIds = await call(app, 'GET', '/rest/product', { query: { names: ['zeta', 'Alpha'] } });
    expect(byIds.body.products.map((product: { name: string }) => product.name)).toEqual(['Alpha', 'zeta']);
  });
});

describe('user administration', () => {
  it('reports is_enabled when disabling and enabling a user', async () => {
    const target = await createAccount('target');
    const disabled = await call(app, 'PUT', `/rest/user/${target.id}`, {
      apiKey: app.admin.apiKey,
      body: { login_denied_text: 'Gone fishing' },
    });
    expect(disabled.body.users[0].changes).toEqual({
      login_denied_text: { removed: '', added: 'Gone fishing' },
      is_enabled: { removed: '1', added: '0' },
    });
    // A new reason for a disabled user changes only the text.
    const reworded = await call(app, 'PUT', `/rest/user/${target.id}`, {
      apiKey: app.admin.apiKey,
      body: { login_denied_text: 'Gone sailing' },
    });
    expect(reworded.body.users[0].changes).toEqual({
      login_denied_text: { removed: 'Gone fishing', added: 'Gone sailing' },
    });
    const enabled = await call(app, 'PUT', `/rest/user/${target.id}`, {
      apiKey: app.admin.apiKey,
      body: { login_denied_text: '' },
    });
    expect(enabled.body.users[0].changes).toEqual({
      login_denied_text: { removed: 'Gone sailing', added: '' },
      is_enabled: { removed: '0', added: '1' },
    });
  });

  it('gives an admin email_enabled and login_denied_text through include_fields, and a plain user not', async () => {
    const subject = await createAccount('subject');
    const asked = { include_fields: 'id,email_enabled,login_denied_text' };
    const admin = await call(app, 'GET', `/rest/user/${subject.id}`, { apiKey: app.admin.apiKey, query: asked });
    expect(admin.body.users).toEqual([{ id: subject.id, email_enabled: true, login_denied_text: '' }]);
    const plain = await createAccount('onlooker');
    const other = await call(app, 'GET', `/rest/user/${subject.id}`, { apiKey: plain.apiKey, query: asked });
    expect(other.body.users).toEqual([{ id: subject.id }]);
  });
});
