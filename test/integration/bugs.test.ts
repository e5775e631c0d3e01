import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

let app: TestApp;
let admin: string;

const newBug = (overrides: Record<string, unknown> = {}) => ({
  product: 'TestProduct',
  component: 'TestComponent',
  version: 'unspecified',
  summary: 'Toolbar crashes on resize',
  description: 'Steps:\n1. open\n2. resize',
  op_sys: 'Linux',
  platform: 'PC',
  ...overrides,
});

async function fileBug(key: string, overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await call(app, 'POST', '/rest/bug', { apiKey: key, body: newBug(overrides) });
  expect(response.body, JSON.stringify(response.body)).toHaveProperty('id');
  return response.body.id;
}

async function getBug(id: number | string, key?: string, query: Record<string, string> = {}) {
  return call(app, 'GET', `/rest/bug/${id}`, { apiKey: key, query });
}

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
});
afterAll(async () => {
  await app?.close();
});

describe('filing a bug', () => {
  it('answers the new id and stores every field with Bugzilla defaults', async () => {
    const id = await fileBug(admin, {
      priority: 'High',
      severity: 'major',
      url: 'https://example.com/r/1',
      whiteboard: 'needs-triage',
    });
    const { status, body } = await getBug(id, admin, { include_fields: '_all' });
    expect(status).toBe(200);
    expect(body.faults).toEqual([]);
    const [bug] = body.bugs;
    expect(bug).toMatchObject({
      id,
      alias: null,
      summary: 'Toolbar crashes on resize',
      status: 'CONFIRMED',
      resolution: '',
      is_open: true,
      is_confirmed: true,
      product: 'TestProduct',
      component: 'TestComponent',
      classification: 'Unclassified',
      version: 'unspecified',
      target_milestone: '---',
      priority: 'High',
      severity: 'major',
      platform: 'PC',
      op_sys: 'Linux',
      type: 'defect',
      creator: app.admin.login,
      assigned_to: app.admin.login,
      url: 'https://example.com/r/1',
      whiteboard: 'needs-triage',
      cc: [],
      keywords: [],
      blocks: [],
      depends_on: [],
      dupe_of: null,
      duplicates: [],
      flags: [],
      comment_count: 1,
      description: 'Steps:\n1. open\n2. resize',
      filed_via: 'api',
      counts: expect.objectContaining({ comments: 1, cc: 0 }),
      estimated_time: 0,
      remaining_time: 0,
      actual_time: 0,
    });
    expect(bug.creation_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(bug.update_token).toMatch(/^\d+-/);
    expect(bug.assigned_to_detail).toMatchObject({ name: app.admin.login, email: app.admin.login });
  });

  it('refuses what Bugzilla refuses, with its codes', async () => {
    const cases: Array<[Record<string, unknown>, number, number]> = [
      [{ product: undefined }, 50, 400],
      [{ op_sys: undefined }, 50, 400],
      [{ summary: '' }, 107, 400],
      [{ summary: 'x'.repeat(256) }, 104, 400],
      [{ component: undefined }, 105, 400],
      [{ product: 'NoSuchProduct' }, 106, 401],
      [{ component: 'Nope' }, 51, 404],
      [{ version: 'nine' }, 51, 404],
      [{ priority: 'Urgent' }, 51, 404],
      [{ status: 'RESOLVED' }, 123, 400],
      [{ alias: '12345' }, 103, 400],
      [{ blocks: [999999] }, 101, 404],
      [{ cc: ['nobody@nowhere.test'] }, 504, 401],
      [{ groups: ['no-such-group'] }, 120, 401],
      [{ bogus_field: 1 }, 53, 400],
    ];
    for (const [overrides, code, httpStatus] of cases) {
      const body = newBug(overrides);
      for (const [key, value] of Object.entries(overrides))
        if (value === undefined) delete (body as Record<string, unknown>)[key];
      const response = await call(app, 'POST', '/rest/bug', { apiKey: admin, body });
      expect({ overrides, code: response.body.code, status: response.status }).toEqual({
        overrides,
        code,
        status: httpStatus,
      });
      expect(response.body.error).toBe(true);
    }
  });

  it('needs a login (410)', async () => {
    const response = await call(app, 'POST', '/rest/bug', { body: newBug() });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(410);
  });
});

describe('reading a bug', () => {
  it('answers 101 for a bug that does not exist and 100 for a bad id', async () => {
    expect((await getBug(999999, admin)).body.code).toBe(101);
    expect((await getBug(999999, admin)).status).toBe(404);
    const bad = await getBug('no-such-alias', admin);
    expect([bad.status, bad.body.code]).toEqual([400, 100]);
  });

  it('finds a bug by its alias and shows it to logged-out callers without e-mail', async () => {
    const id = await fileBug(admin, { alias: 'resize-crash' });
    const { body } = await getBug('resize-crash');
    expect(body.bugs[0].id).toBe(id);
    expect(body.bugs[0].alias).toBe('resize-crash');
    expect(body.bugs[0]).not.toHaveProperty('update_token');
    expect(body.bugs[0]).not.toHaveProperty('estimated_time');
    expect(body.bugs[0].assigned_to_detail).not.toHaveProperty('email');
  });

  it('turns errors into faults with permissive', async () => {
    const id = await fileBug(admin);
    const { body } = await call(app, 'GET', `/rest/bug/${id}`, {
      apiKey: admin,
      query: { ids: [999998], permissive: '1' },
    });
    expect(body.bugs.map((bug: { id: number }) => bug.id)).toEqual([id]);
    expect(body.faults).toEqual([expect.objectContaining({ id: 999998, faultCode: 101 })]);
  });
});

describe('changing a bug', () => {
  it('reports each change like Bugzilla and keeps comments out of changes', async () => {
    const id = await fileBug(admin, { priority: 'High' });
    const other = await fileBug(admin);
    const response = await call(app, 'PUT', `/rest/bug/${id}`, {
      apiKey: admin,
      body: {
        status: 'IN_PROGRESS',
        priority: 'Highest',
        cc: { add: [app.admin.login] },
        depends_on: { add: [other] },
        see_also: { add: ['https://bugs.example.org/show_bug.cgi?id=7'] },
        comment: { body: 'Working on it.' },
        deadline: '2027-01-31',
        estimated_time: 4.5,
        remaining_time: 3,
      },
    });
    expect(response.status).toBe(200);
    const [result] = response.body.bugs;
    expect(result).toMatchObject({ id, alias: null });
    expect(result.changes).toEqual({
      status: { removed: 'CONFIRMED', added: 'IN_PROGRESS' },
      priority: { removed: 'High', added: 'Highest' },
      cc: { removed: '', added: app.admin.login },
      depends_on: { removed: '', added: String(other) },
      see_also: { removed: '', added: 'https://bugs.example.org/show_bug.cgi?id=7' },
      deadline: { removed: '', added: '2027-01-31' },
      estimated_time: { removed: '0.00', added: '4.5' },
      remaining_time: { removed: '0.00', added: '3' },
    });
    const blocked = (await getBug(other, admin)).body.bugs[0];
    expect(blocked.blocks).toEqual([id]);
    const bug = (await getBug(id, admin, { include_fields: 'comments,comment_count' })).body.bugs[0];
    expect(bug.comment_count).toBe(2);
    expect(bug.comments.map((comment: { text: string }) => comment.text)).toEqual([
      'Steps:\n1. open\n2. resize',
      'Working on it.',
    ]);
  });

  it('answers the previous last_change_time and no changes when nothing changed', async () => {
    const id = await fileBug(admin, { priority: 'Low' });
    const before = (await getBug(id, admin)).body.bugs[0].last_change_time;
    const { body } = await call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body: { priority: 'Low' } });
    expect(body.bugs[0]).toEqual({ id, alias: null, last_change_time: before, changes: {} });
  });

  it('follows the workflow: 123, 121, 122, 119, and reopening clears the resolution', async () => {
    const id = await fileBug(admin);
    const put = (body: Record<string, unknown>) => call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body });
    expect((await put({ status: 'VERIFIED' })).body.code).toBe(123);
    expect((await put({ status: 'RESOLVED' })).body.code).toBe(121);
    expect((await put({ resolution: 'FIXED' })).body.code).toBe(122);
    expect((await put({ status: 'RESOLVED', resolution: 'DUPLICATE' })).body.code).toBe(119);
    expect((await put({ status: 'RESOLVED', resolution: 'INVALID' })).body.bugs[0].changes).toEqual({
      status: { removed: 'CONFIRMED', added: 'RESOLVED' },
      resolution: { removed: '', added: 'INVALID' },
    });
    expect((await put({ status: 'CONFIRMED' })).body.bugs[0].changes).toEqual({
      status: { removed: 'RESOLVED', added: 'CONFIRMED' },
      resolution: { removed: 'INVALID', added: '' },
    });
  });

  it("marks duplicates like Bugzilla: status, resolution, the target's duplicates, CC and comments", async () => {
    const target = await fileBug(admin);
    const dupe = await fileBug(admin);
    const { body } = await call(app, 'PUT', `/rest/bug/${dupe}`, {
      apiKey: admin,
      body: { dupe_of: target, comment: { body: 'Same as the first.' } },
    });
    expect(body.bugs[0].changes).toEqual({
      status: { removed: 'CONFIRMED', added: 'RESOLVED' },
      resolution: { removed: '', added: 'DUPLICATE' },
      dupe_of: { removed: '', added: String(target) },
    });
    const targetBug = (await getBug(target, admin, { include_fields: '_default,comments' })).body.bugs[0];
    expect(targetBug.duplicates).toEqual([dupe]);
    // Both bugs have the same reporter, so Bugzilla 5.2 puts nobody on the target's CC list
    // (updateReports.test.ts covers a reporter who does join it).
    expect(targetBug.cc).toEqual([]);
    expect(targetBug.comments.at(-1).text).toBe(`*** Bug ${dupe} has been marked as a duplicate of this bug. ***`);
    const dupeBug = (await getBug(dupe, admin, { include_fields: 'dupe_of,comments' })).body.bugs[0];
    expect(dupeBug.dupe_of).toBe(target);
    expect(dupeBug.comments.at(-1).text).toBe(
      `Same as the first.\n\n*** This bug has been marked as a duplicate of bug ${target} ***`,
    );
    expect(
      (await call(app, 'PUT', `/rest/bug/${target}`, { apiKey: admin, body: { dupe_of: target } })).body.code,
    ).toBe(118);
    expect((await call(app, 'PUT', `/rest/bug/${target}`, { apiKey: admin, body: { dupe_of: dupe } })).body.code).toBe(
      118,
    );
    const history = (await call(app, 'GET', `/rest/bug/${dupe}/history`, { apiKey: admin })).body.bugs[0].history;
    expect(
      history
        .flatMap((entry: { changes: Array<{ field_name: string }> }) =>
          entry.changes.map((change) => change.field_name),
        )
        .sort(),
    ).toEqual(['resolution', 'status']);
  });

  it('refuses dependency loops and self-dependencies with 116, writing nothing', async () => {
    const a = await fileBug(admin);
    const b = await fileBug(admin, { depends_on: [a] });
    const c = await fileBug(admin, { depends_on: [b] });
    expect(
      (
        await call(app, 'PUT', `/rest/bug/${a}`, {
          apiKey: admin,
          body: { depends_on: { add: [c] }, summary: 'changed' },
        })
      ).body.code,
    ).toBe(116);
    expect(
      (await call(app, 'PUT', `/rest/bug/${a}`, { apiKey: admin, body: { blocks: { add: [a] } } })).body.code,
    ).toBe(116);
    const bugA = (await getBug(a, admin)).body.bugs[0];
    expect(bugA.summary).toBe('Toolbar crashes on resize');
    expect(bugA.depends_on).toEqual([]);
    expect(bugA.blocks).toEqual([b]);
  });
});

describe('more of what a bug update can change', () => {
  it('moves a bug to another product, requiring a component that exists there', async () => {
    await call(app, 'POST', '/rest/product', {
      apiKey: admin,
      body: { name: 'Other', description: 'Another product', version: '2.0' },
    });
    await call(app, 'POST', '/rest/component', {
      apiKey: admin,
      body: { product: 'Other', name: 'Engine', description: 'Engine', default_assignee: app.admin.login },
    });
    const id = await fileBug(admin);
    const missing = await call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body: { product: 'Other' } });
    expect(missing.body.code).toBe(32000);
    expect(missing.body.message).toMatch(/component/);
    const moved = await call(app, 'PUT', `/rest/bug/${id}`, {
      apiKey: admin,
      body: { product: 'Other', component: 'Engine', version: '2.0' },
    });
    expect(moved.body.bugs[0].changes).toEqual({
      product: { removed: 'TestProduct', added: 'Other' },
      component: { removed: 'TestComponent', added: 'Engine' },
      version: { removed: 'unspecified', added: '2.0' },
    });
    expect((await getBug(id, admin)).body.bugs[0]).toMatchObject({
      product: 'Other',
      component: 'Engine',
      version: '2.0',
      target_milestone: '---',
    });
  });

  it('changes, frees and guards aliases', async () => {
    const first = await fileBug(admin, { alias: 'first-alias' });
    const second = await fileBug(admin);
    expect(
      (await call(app, 'PUT', `/rest/bug/${second}`, { apiKey: admin, body: { alias: 'FIRST-alias' } })).body.code,
    ).toBe(103);
    const renamed = await call(app, 'PUT', `/rest/bug/first-alias`, {
      apiKey: admin,
      body: { alias: 'renamed-alias' },
    });
    expect(renamed.body.bugs[0]).toMatchObject({
      id: first,
      alias: 'renamed-alias',
      changes: { alias: { removed: 'first-alias', added: 'renamed-alias' } },
    });
    expect(
      (await call(app, 'PUT', `/rest/bug/${second}`, { apiKey: admin, body: { alias: 'first-alias' } })).body.bugs[0]
        .alias,
    ).toBe('first-alias');
    expect((await getBug('renamed-alias', admin)).body.bugs[0].id).toBe(first);
    expect((await getBug('first-alias', admin)).body.bugs[0].id).toBe(second);
    const taken = await call(app, 'POST', '/rest/bug', { apiKey: admin, body: newBug({ alias: 'renamed-alias' }) });
    expect(taken.body.code).toBe(103);
  });

  it('keeps regressions symmetric, resets the assignee and checks see_also URLs', async () => {
    const cause = await fileBug(admin);
    const id = await fileBug(admin, { regressed_by: [cause] });
    expect((await getBug(cause, admin)).body.bugs[0].regressions).toEqual([id]);
    await call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body: { regressed_by: { remove: [cause] } } });
    expect((await getBug(cause, admin)).body.bugs[0].regressions).toEqual([]);
    expect(
      (
        await call(app, 'PUT', `/rest/bug/${id}`, {
          apiKey: admin,
          body: { see_also: { add: ['javascript:alert(1)'] } },
        })
      ).body.code,
    ).toBe(112);
    const reset = await call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body: { reset_assigned_to: true } });
    expect(reset.status).toBe(200);
    expect((await getBug(id, admin)).body.bugs[0].assigned_to).toBe(app.admin.login);
  });

  it('validates custom fields by type and legal values', async () => {
    await call(app, 'POST', '/rest/field/bug', {
      apiKey: admin,
      body: { name: 'cf_browser', display_name: 'Browser', type: 2, values: ['Firefox', 'Chrome'] },
    });
    await call(app, 'POST', '/rest/field/bug', {
      apiKey: admin,
      body: { name: 'cf_build', display_name: 'Build', type: 10 },
    });
    const id = await fileBug(admin, { cf_browser: 'firefox' });
    const bug = (await getBug(id, admin)).body.bugs[0];
    expect(bug).toMatchObject({ cf_browser: 'Firefox', cf_build: null });
    expect((await call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body: { cf_browser: 'Lynx' } })).body.code).toBe(
      51,
    );
    expect((await call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body: { cf_build: 'abc' } })).body.code).toBe(
      52,
    );
    const changed = await call(app, 'PUT', `/rest/bug/${id}`, {
      apiKey: admin,
      body: { cf_browser: 'Chrome', cf_build: 42 },
    });
    expect(changed.body.bugs[0].changes).toEqual({
      cf_browser: { removed: 'Firefox', added: 'Chrome' },
      cf_build: { removed: '', added: '42' },
    });
    expect((await getBug(id, admin, { include_fields: '_custom' })).body.bugs[0]).toEqual({
      cf_browser: 'Chrome',
      cf_build: 42,
    });
  });

  it('selects fields with include_fields and exclude_fields', async () => {
    const id = await fileBug(admin);
    expect((await getBug(id, admin, { include_fields: 'id,summary' })).body.bugs[0]).toEqual({
      id,
      summary: 'Toolbar crashes on resize',
    });
    const excluded = (await getBug(id, admin, { exclude_fields: 'cc,cc_detail,flags' })).body.bugs[0];
    expect(excluded).not.toHaveProperty('cc');
    expect(excluded).toHaveProperty('summary');
    expect(excluded).not.toHaveProperty('description');
    expect((await getBug(id, admin, { include_fields: 'assigned_to_detail.name' })).body.bugs[0]).toEqual({
      assigned_to_detail: { name: app.admin.login },
    });
  });
});

describe('comments that come with bug changes', () => {
  it('refuses private comments from non-insiders (113), over-long ones (114) and markdown when it is off (140)', async () => {
    const plainId = (
      await call(app, 'POST', '/rest/user', {
        apiKey: admin,
        body: { email: 'plain-commenter@tracker.test', password: 'plain-password' },
      })
    ).body.id;
    const plain = (await call(app, 'POST', `/rest/user/${plainId}/api_key`, { apiKey: admin, body: {} })).body.api_key;
    const id = await fileBug(admin);
    const put = (key: string, body: Record<string, unknown>) =>
      call(app, 'PUT', `/rest/bug/${id}`, { apiKey: key, body });
    expect((await put(plain, { comment: { body: 'secret', is_private: true } })).body.code).toBe(113);
    expect(
      (await call(app, 'POST', '/rest/bug', { apiKey: plain, body: newBug({ comment_is_private: true }) })).body.code,
    ).toBe(113);
    expect((await put(admin, { comment: { body: 'x'.repeat(65_536) } })).body.code).toBe(114);
    await call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { markdown_enabled: false } });
    try {
      expect((await put(admin, { comment: { body: '*bold*', is_markdown: true } })).body.code).toBe(140);
    } finally {
      await call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { markdown_enabled: true } });
    }
    const privateOne = await put(admin, { comment: { body: 'for insiders', is_private: true } });
    expect(privateOne.status).toBe(200);
    const asPlain = (await getBug(id, plain, { include_fields: 'comments' })).body.bugs[0].comments;
    expect(asPlain.map((comment: { text: string }) => comment.text)).not.toContain('for insiders');
    const asAdmin = (await getBug(id, admin, { include_fields: 'comments' })).body.bugs[0].comments;
    expect(asAdmin.at(-1)).toMatchObject({
      text: 'for insiders',
      is_private: true,
      creator: app.admin.login,
      count: asAdmin.length - 1,
    });
  });
});

describe('the description of a new bug', () => {
  it('is refused over 65,535 characters with 114', async () => {
    expect(
      (await call(app, 'POST', '/rest/bug', { apiKey: admin, body: newBug({ description: 'x'.repeat(65_536) }) })).body
        .code,
    ).toBe(114);
  });
});
