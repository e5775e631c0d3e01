import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Bug rules that depend on the installation's parameters or on who asks, end to end: the
 * parameters a new or duplicate bug takes are checked when an administrator sets them, filing
 * reads old status names and refuses what an update refuses, and only canconfirm confirms a bug.
 */
let app: TestApp;
let admin: string;
let reporter: string;

const base = {
  product: 'TestProduct',
  component: 'TestComponent',
  version: 'unspecified',
  summary: 'A bug',
  description: 'Described',
  op_sys: 'Linux',
  platform: 'PC',
};
const file = (key: string, overrides: Record<string, unknown> = {}) =>
  call(app, 'POST', '/rest/bug', { apiKey: key, body: { ...base, ...overrides } });
async function fileBug(key: string, overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await file(key, overrides);
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.id;
}
const update = (key: string, id: number, body: Record<string, unknown>) =>
  call(app, 'PUT', `/rest/bug/${id}`, { apiKey: key, body });
const bugOf = async (id: number) => (await call(app, 'GET', `/rest/bug/${id}`, { apiKey: admin })).body.bugs[0];
const setParameters = (body: Record<string, unknown>) => call(app, 'PUT', '/rest/parameters', { apiKey: admin, body });
const parameters = async () => (await call(app, 'GET', '/rest/parameters', { apiKey: admin })).body.parameters;

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  // Everyone is in editbugs by default; the reporter here must be an ordinary user.
  await call(app, 'PUT', '/rest/group/editbugs', { apiKey: admin, body: { user_regexp: '' } });
  const login = 'reporter@tracker.test';
  const id = (await call(app, 'POST', '/rest/user', { apiKey: admin, body: { email: login, password: 'reporter-pw' } }))
    .body.id;
  reporter = (await call(app, 'POST', `/rest/user/${id}/api_key`, { apiKey: admin, body: {} })).body.api_key;
});
afterAll(async () => {
  await app?.close();
});

describe('parameters a bug takes', () => {
  it.each([
    ['duplicate_or_move_bug_status', 'IN_PROGRESS'],
    ['duplicate_or_move_bug_status', 'VERIFIED'],
    ['duplicate_or_move_bug_status', 'garbage'],
    ['defaultpriority', 'Urgent'],
    ['defaultseverity', 'huge'],
    ['defaultplatform', 'Amiga'],
  ])('refuses %s = %s (32000) and keeps the old value', async (name, value) => {
    const before = (await parameters())[name];
    const response = await setParameters({ [name]: value });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: true, code: 32000 });
    expect(response.body.message).toContain(`'${name}'`);
    expect((await parameters())[name]).toBe(before);
  });

  it('files new bugs with a legal default priority and severity once they are set', async () => {
    expect((await setParameters({ defaultpriority: 'High', defaultseverity: 'major' })).status).toBe(200);
    try {
      expect(await bugOf(await fileBug(admin))).toMatchObject({ priority: 'High', severity: 'major' });
    } finally {
      await setParameters({ defaultpriority: '---', defaultseverity: 'enhancement' });
    }
  });

  it('closes a duplicate in RESOLVED, then applies a status sent again with the same target', async () => {
    expect((await setParameters({ duplicate_or_move_bug_status: 'RESOLVED' })).status).toBe(200);
    const target = await fileBug(admin);
    const dupe = await fileBug(admin, { status: 'IN_PROGRESS' });
    const marked = await update(admin, dupe, { dupe_of: target });
    expect(marked.status).toBe(200);
    expect(await bugOf(dupe)).toMatchObject({ status: 'RESOLVED', resolution: 'DUPLICATE', dupe_of: target });
    const verified = await update(admin, dupe, { dupe_of: target, status: 'VERIFIED' });
    expect(verified.status).toBe(200);
    expect(verified.body.bugs[0].changes).toEqual({ status: { removed: 'RESOLVED', added: 'VERIFIED' } });
    expect(await bugOf(dupe)).toMatchObject({ status: 'VERIFIED', resolution: 'DUPLICATE', dupe_of: target });
  });
});

describe('filing', () => {
  it("reads the old workflow's status names (NEW, ASSIGNED, REOPENED)", async () => {
    expect((await bugOf(await fileBug(admin, { status: 'NEW' }))).status).toBe('CONFIRMED');
    expect((await bugOf(await fileBug(admin, { status: 'ASSIGNED' }))).status).toBe('IN_PROGRESS');
    expect((await bugOf(await fileBug(admin, { status: 'REOPENED' }))).status).toBe('CONFIRMED');
  });

  it('refuses a bug both regressed by and causing the same bug (32000), as an update does', async () => {
    const other = await fileBug(admin);
    const response = await file(admin, { regressed_by: [other], regressions: [other] });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 32000,
      message: 'A bug cannot both be regressed by and cause the same bug.',
    });
  });
});

describe('confirming', () => {
  it('does not let a reporter without canconfirm confirm their bug by closing and reopening it (115)', async () => {
    const id = await fileBug(reporter);
    expect(await bugOf(id)).toMatchObject({ status: 'UNCONFIRMED', is_confirmed: false });
    expect((await update(reporter, id, { status: 'RESOLVED', resolution: 'INVALID' })).status).toBe(200);
    const reopened = await update(reporter, id, { status: 'CONFIRMED' });
    expect(reopened.body).toMatchObject({ error: true, code: 115 });
    expect(await bugOf(id)).toMatchObject({ status: 'RESOLVED', is_confirmed: false });
    expect((await update(reporter, id, { status: 'UNCONFIRMED' })).status).toBe(200);
  });
});
