import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Bugzilla 5.2's rules for who may see and change a bug, flags, and what holds when several
 * requests change bugs at once. Every user here is an ordinary user unless a group says so:
 * the installation's `editbugs` regexp (everyone) is switched off first.
 */
let app: TestApp;
let admin: string;
const keys: Record<string, string> = {};
const logins: Record<string, string> = {};

async function user(name: string, groups: string[] = []): Promise<void> {
  const login = `${name}@tracker.test`;
  const id = (
    await call(app, 'POST', '/rest/user', { apiKey: admin, body: { email: login, password: `${name}-password` } })
  ).body.id;
  if (groups.length > 0)
    await call(app, 'PUT', `/rest/user/${id}`, { apiKey: admin, body: { groups: { add: groups } } });
  keys[name] = (await call(app, 'POST', `/rest/user/${id}/api_key`, { apiKey: admin, body: {} })).body.api_key;
  logins[name] = login;
}

const base = {
  product: 'TestProduct',
  component: 'Rules',
  version: 'unspecified',
  summary: 'A bug',
  description: 'Described',
  op_sys: 'Linux',
  platform: 'PC',
};

async function fileBug(key: string, overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await call(app, 'POST', '/rest/bug', { apiKey: key, body: { ...base, ...overrides } });
  if (response.status !== 200) throw new Error(JSON.stringify(response.body));
  return response.body.id;
}
const update = (key: string, id: number, body: Record<string, unknown>) =>
  call(app, 'PUT', `/rest/bug/${id}`, { apiKey: key, body });
const bugOf = async (id: number, key = admin, query: Record<string, string> = {}) =>
  (await call(app, 'GET', `/rest/bug/${id}`, { apiKey: key, query })).body.bugs?.[0];

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await call(app, 'PUT', '/rest/group/editbugs', { apiKey: admin, body: { user_regexp: '' } });
  await call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'secret', description: 'Secret bugs' } });
  await call(app, 'POST', '/rest/group', {
    apiKey: admin,
    body: { name: 'granters', description: 'May grant review' },
  });
  await user('reporter');
  await user('assignee');
  await user('qa');
  await user('stranger');
  await user('confirmer', ['canconfirm']);
  await user('editor', ['editbugs']);
  await user('insider', ['secret']);
  await user('granter', ['granters']);
  const component = await call(app, 'POST', '/rest/component', {
    apiKey: admin,
    body: {
      product: 'TestProduct',
      name: 'Rules',
      description: 'Rules',
      default_assignee: logins.assignee,
      default_qa_contact: logins.qa,
    },
  });
  expect(component.status).toBe(200);
  await call(app, 'PUT', '/rest/product/TestProduct', {
    apiKey: admin,
    body: { group_controls: [{ group: 'secret', membercontrol: 'SHOWN', othercontrol: 'NA' }] },
  });
  await call(app, 'POST', '/rest/flag_type', {
    apiKey: admin,
    body: {
      name: 'review',
      description: 'Review',
      target_type: 'bug',
      is_requestable: true,
      is_requesteeble: true,
      grant_group: 'granters',
    },
  });
  await call(app, 'POST', '/rest/flag_type', {
    apiKey: admin,
    body: { name: 'qe', description: 'QE', target_type: 'bug', is_requestable: false, is_requesteeble: false },
  });
  await call(app, 'POST', '/rest/flag_type', {
    apiKey: admin,
    body: { name: 'dup', description: 'One of two', target_type: 'bug', is_multiplicable: true },
  });
  await call(app, 'POST', '/rest/flag_type', {
    apiKey: admin,
    body: { name: 'dup', description: 'Two of two', target_type: 'bug' },
  });
  const retired = await call(app, 'POST', '/rest/flag_type', {
    apiKey: admin,
    body: { name: 'retired', description: 'Old', target_type: 'bug' },
  });
  await call(app, 'PUT', `/rest/flag_type/${retired.body.id}`, { apiKey: admin, body: { is_active: false } });
});
afterAll(async () => {
  await app?.close();
});

describe('filing', () => {
  it("files an ordinary user's bug UNCONFIRMED with the component's people, and a canconfirm user's CONFIRMED", async () => {
    const plain = await bugOf(await fileBug(keys.reporter, { assigned_to: logins.stranger, status: 'IN_PROGRESS' }));
    expect(plain).toMatchObject({
      status: 'UNCONFIRMED',
      is_confirmed: false,
      assigned_to: logins.assignee,
      qa_contact: logins.qa,
      creator: logins.reporter,
    });
    const confirmed = await bugOf(await fileBug(keys.confirmer));
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', is_confirmed: true });
    const chosen = await bugOf(await fileBug(keys.editor, { status: 'IN_PROGRESS', assigned_to: logins.stranger }));
    expect(chosen).toMatchObject({ status: 'IN_PROGRESS', assigned_to: logins.stranger });
  });
});

describe('who may change what', () => {
  it('lets the reporter change ordinary fields but not the assignee, QA contact or an open status', async () => {
    const id = await fileBug(keys.reporter);
    expect((await update(keys.reporter, id, { summary: 'Reworded', severity: 'major' })).status).toBe(200);
    for (const body of [{ assigned_to: logins.stranger }, { qa_contact: logins.stranger }, { status: 'CONFIRMED' }]) {
      const response = await update(keys.reporter, id, body);
      expect({ body, code: response.body.code, status: response.status }).toEqual({ body, code: 115, status: 401 });
    }
    expect((await update(keys.reporter, id, { status: 'RESOLVED', resolution: 'INVALID' })).status).toBe(200);
  });

  it('lets the assignee and the QA contact change anything but confirm an unconfirmed bug', async () => {
    const id = await fileBug(keys.reporter);
    expect((await update(keys.assignee, id, { priority: 'High', assigned_to: logins.stranger })).status).toBe(200);
    expect((await update(keys.qa, id, { target_milestone: '---', severity: 'minor' })).status).toBe(200);
    expect((await update(keys.qa, id, { status: 'CONFIRMED' })).body.code).toBe(115);
    expect((await update(keys.confirmer, id, { status: 'CONFIRMED' })).body.bugs[0].changes.status).toEqual({
      removed: 'UNCONFIRMED',
      added: 'CONFIRMED',
    });
    expect((await bugOf(id)).is_confirmed).toBe(true);
  });

  it('lets anyone else only comment and add or remove themselves on CC, saving nothing of a refused request', async () => {
    const id = await fileBug(keys.reporter);
    const before = await bugOf(id, admin, { include_fields: 'summary,cc,comment_count' });
    const refused = await update(keys.stranger, id, { summary: 'Hijacked', comment: { body: 'and a comment' } });
    expect([refused.status, refused.body.code]).toEqual([401, 115]);
    expect(refused.body.message).toMatch(/summary/);
    expect(await bugOf(id, admin, { include_fields: 'summary,cc,comment_count' })).toEqual(before);
    expect((await update(keys.stranger, id, { cc: { add: [logins.qa] } })).body.code).toBe(115);
    const self = await update(keys.stranger, id, { cc: { add: [logins.stranger] }, comment: { body: 'Me too' } });
    expect(self.body.bugs[0].changes).toEqual({ cc: { removed: '', added: logins.stranger } });
    expect((await update(keys.stranger, id, { cc: { remove: [logins.stranger] } })).status).toBe(200);
    expect((await bugOf(id, admin, { include_fields: 'comment_count' })).comment_count).toBe(2);
  });

  it('lets editbugs change everything and refuses time tracking to non-members (115, as 5.2)', async () => {
    const id = await fileBug(keys.reporter);
    const fields = { status: 'IN_PROGRESS', assigned_to: logins.editor };
    const refused = await update(keys.editor, id, { ...fields, estimated_time: 5, deadline: '2030-01-01' });
    expect(refused.body.code).toBe(115);
    const response = await update(keys.editor, id, fields);
    expect(response.body.bugs[0].changes).toEqual({
      status: { removed: 'UNCONFIRMED', added: 'IN_PROGRESS' },
      is_confirmed: { removed: '0', added: '1' },
      assigned_to: { removed: logins.assignee, added: logins.editor },
    });
  });

  it("honours a product's canedit control (109) for everyone outside the group", async () => {
    await call(app, 'POST', '/rest/product', {
      apiKey: admin,
      body: { name: 'Locked', description: 'Locked product', version: '1.0' },
    });
    await call(app, 'POST', '/rest/component', {
      apiKey: admin,
      body: { product: 'Locked', name: 'Core', description: 'Core', default_assignee: logins.assignee },
    });
    const id = await fileBug(keys.reporter, { product: 'Locked', component: 'Core', version: '1.0' });
    await call(app, 'PUT', '/rest/product/Locked', {
      apiKey: admin,
      body: { group_controls: [{ group: 'granters', canedit: true }] },
    });
    const refused = await update(keys.reporter, id, { comment: { body: 'let me in' } });
    expect([refused.status, refused.body.code]).toEqual([401, 109]);
    expect((await update(keys.granter, id, { comment: { body: 'members may' } })).status).toBe(200);
  });
});

describe('who may see a bug', () => {
  it('hides a bug in a group from outsiders (102) but not from its people', async () => {
    const id = await fileBug(keys.insider, { groups: ['secret'], cc: [logins.stranger] });
    for (const name of ['insider', 'assignee', 'qa', 'stranger'])
      expect((await bugOf(id, keys[name]))?.id, name).toBe(id);
    const outsider = await call(app, 'GET', `/rest/bug/${id}`, { apiKey: keys.confirmer });
    expect([outsider.status, outsider.body.code]).toEqual([401, 102]);
    const anonymous = await call(app, 'GET', `/rest/bug/${id}`);
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 102]);
    await update(keys.insider, id, { is_cc_accessible: false });
    expect((await call(app, 'GET', `/rest/bug/${id}`, { apiKey: keys.stranger })).body.code).toBe(102);
  });

  it('lets the reporter see their own restricted bug only while it is creator-accessible', async () => {
    const id = await fileBug(keys.reporter, { groups: [] });
    // Only members of a group may put a bug in it; the administrator is in every group.
    expect((await update(keys.editor, id, { groups: { add: ['secret'] } })).body.code).toBe(120);
    expect((await update(admin, id, { groups: { add: ['secret'] }, is_creator_accessible: false })).status).toBe(200);
    expect((await call(app, 'GET', `/rest/bug/${id}`, { apiKey: keys.reporter })).body.code).toBe(102);
    await update(admin, id, { is_creator_accessible: true });
    expect((await bugOf(id, keys.reporter)).id).toBe(id);
  });

  it('never lets a relation or a duplicate point at a bug the caller cannot see', async () => {
    const hidden = await fileBug(keys.insider, { groups: ['secret'] });
    const visible = await fileBug(keys.editor);
    expect((await update(keys.editor, visible, { depends_on: { add: [hidden] } })).body.code).toBe(102);
    expect((await update(keys.editor, visible, { dupe_of: hidden })).body.code).toBe(102);
    expect(
      (await call(app, 'POST', '/rest/bug', { apiKey: keys.editor, body: { ...base, blocks: [hidden] } })).body.code,
    ).toBe(102);
  });
});

describe('flags on bugs', () => {
  it('requests a flag from a person, grants it and clears it, reporting each change', async () => {
    const id = await fileBug(keys.reporter);
    const requested = await update(keys.reporter, id, {
      flags: [{ name: 'review', status: '?', requestee: logins.granter }],
    });
    expect(requested.body.bugs[0].changes['flagtypes.name']).toEqual({
      removed: '',
      added: `review?(${logins.granter})`,
    });
    const [flag] = (await bugOf(id)).flags;
    expect(flag).toMatchObject({ name: 'review', status: '?', setter: logins.reporter, requestee: logins.granter });
    expect((await update(keys.reporter, id, { flags: [{ id: flag.id, status: '+' }] })).body.code).toBe(130);
    const granted = await update(keys.granter, id, { flags: [{ id: flag.id, status: '+' }] });
    expect(granted.body.bugs[0].changes['flagtypes.name']).toEqual({
      removed: `review?(${logins.granter})`,
      added: 'review+',
    });
    expect(
      (await update(keys.granter, id, { flags: [{ name: 'review', status: 'X' }] })).body.bugs[0].changes[
        'flagtypes.name'
      ],
    ).toEqual({ removed: 'review+', added: '' });
    expect((await bugOf(id)).flags).toEqual([]);
  });

  it("answers each flag error with Bugzilla's code", async () => {
    const id = await fileBug(keys.editor);
    const dupTypes = (await call(app, 'GET', '/rest/flag_type/TestProduct', { apiKey: admin })).body.bug.filter(
      (type: { name: string }) => type.name === 'dup',
    );
    await update(admin, id, {
      flags: [
        { type_id: dupTypes.find((type: { is_multiplicable: boolean }) => type.is_multiplicable).id, status: '+' },
        {
          type_id: dupTypes.find((type: { is_multiplicable: boolean }) => type.is_multiplicable).id,
          status: '-',
          new: true,
        },
      ],
    });
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ name: 'review', status: '!' }, 129],
      [{ name: 'review' }, 129],
      [{ name: 'qe', status: '?' }, 129],
      [{ name: 'review', status: '+' }, 130],
      [{ name: 'qe', status: '?', requestee: logins.qa }, 129],
      [{ name: 'review', status: '?', requestee: 'nobody@nowhere.test' }, 51],
      [{ name: 'no-such-flag', status: '+' }, 51],
      [{ name: 'dup', status: '+' }, 133],
      [{ type_id: dupTypes.find((type: { is_multiplicable: boolean }) => type.is_multiplicable).id, status: '-' }, 132],
      [{ name: 'retired', status: '+' }, 134],
    ];
    for (const [flag, code] of cases) {
      const response = await update(keys.editor, id, { flags: [flag] });
      expect({ flag, code: response.body.code }).toEqual({ flag, code });
    }
  });
});

describe('several bugs at once', () => {
  it('changes every bug named in ids, and none when one of them refuses', async () => {
    const mine = await fileBug(keys.reporter);
    const theirs = await fileBug(keys.editor);
    const refused = await call(app, 'PUT', `/rest/bug/${mine}`, {
      apiKey: keys.reporter,
      body: { ids: [theirs], whiteboard: 'batch' },
    });
    expect(refused.body.code).toBe(115);
    expect((await bugOf(mine)).whiteboard).toBe('');
    const done = await call(app, 'PUT', `/rest/bug/${mine}`, {
      apiKey: keys.editor,
      body: { ids: [theirs], whiteboard: 'batch' },
    });
    expect(done.body.bugs.map((bug: { id: number; changes: object }) => [bug.id, bug.changes])).toEqual([
      [mine, { whiteboard: { removed: '', added: 'batch' } }],
      [theirs, { whiteboard: { removed: '', added: 'batch' } }],
    ]);
  });
});

describe('concurrent changes', () => {
  it('keeps every answered change when many requests change one bug at the same moment', async () => {
    const id = await fileBug(keys.editor);
    const others = await Promise.all(Array.from({ length: 4 }, () => fileBug(keys.editor)));
    const fields = ['whiteboard', 'url', 'summary'] as const;
    const requests = [
      ...fields.map((field, index) =>
        update(keys.editor, id, { [field]: field === 'url' ? `https://example.com/${index}` : `value ${index}` }),
      ),
      ...others.map((other) => update(keys.editor, id, { depends_on: { add: [other] } })),
      ...['assignee', 'qa', 'stranger'].map((name) => update(keys[name], id, { cc: { add: [logins[name]] } })),
    ];
    const responses = await Promise.all(requests);
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    const bug = await bugOf(id);
    expect(bug).toMatchObject({ whiteboard: 'value 0', url: 'https://example.com/1', summary: 'value 2' });
    expect(bug.depends_on).toEqual([...others].sort((a, b) => a - b));
    expect(bug.cc).toEqual([logins.assignee, logins.qa, logins.stranger].sort());
    for (const other of others) expect((await bugOf(other)).blocks).toEqual([id]);
    const history = (await call(app, 'GET', `/rest/bug/${id}/history`, { apiKey: admin })).body.bugs[0].history;
    const dependencyChanges = history.flatMap((entry: { changes: Array<{ field_name: string; added: string }> }) =>
      entry.changes.filter((change) => change.field_name === 'depends_on').map((change) => change.added),
    );
    expect(
      dependencyChanges
        .flatMap((added: string) => added.split(', '))
        .map(Number)
        .sort((a: number, b: number) => a - b),
    ).toEqual([...others].sort((a, b) => a - b));
  });

  it('never builds a dependency loop from two requests racing in opposite directions', async () => {
    const a = await fileBug(keys.editor);
    const b = await fileBug(keys.editor);
    const [first, second] = await Promise.all([
      update(keys.editor, a, { depends_on: { add: [b] } }),
      update(keys.editor, b, { depends_on: { add: [a] } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 400]);
    expect([first.body.code, second.body.code]).toContain(116);
    const [bugA, bugB] = [await bugOf(a), await bugOf(b)];
    expect(bugA.depends_on.length + bugB.depends_on.length).toBe(1);
    // Whichever won, both sides of the one dependency agree.
    expect(bugA.depends_on.length > 0 ? [bugA.depends_on, bugB.blocks] : [bugB.depends_on, bugA.blocks]).toEqual(
      bugA.depends_on.length > 0 ? [[b], [a]] : [[a], [b]],
    );
  });

  it('gives every bug filed at the same moment its own id', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => fileBug(keys.editor)));
    expect(new Set(ids).size).toBe(8);
  });
});

describe('personal tags, history and last visits', () => {
  it('keeps tags personal', async () => {
    const id = await fileBug(keys.reporter);
    const response = await call(app, 'PUT', `/rest/bug/${id}/tags`, {
      apiKey: keys.reporter,
      body: { add: ['urgent', 'mine'] },
    });
    expect(response.body).toEqual({ changes: { [id]: { added: ['urgent', 'mine'], removed: [] } } });
    expect((await bugOf(id, keys.reporter, { include_fields: 'tags' })).tags).toEqual(['mine', 'urgent']);
    expect((await bugOf(id, keys.editor, { include_fields: 'tags' })).tags).toEqual([]);
    expect(
      (await call(app, 'PUT', `/rest/bug/${id}/tags`, { apiKey: keys.reporter, body: { remove: ['urgent'] } })).body
        .changes[id],
    ).toEqual({ added: [], removed: ['urgent'] });
  });

  it("merges one user's changes of one second into one history entry and filters by new_since", async () => {
    const id = await fileBug(keys.editor);
    await update(keys.editor, id, { priority: 'High' });
    await update(keys.editor, id, { severity: 'major' });
    const { body } = await call(app, 'GET', `/rest/bug/${id}/history`, { apiKey: admin });
    const entries = body.bugs[0].history;
    const fields = entries.flatMap((entry: { changes: Array<{ field_name: string }> }) =>
      entry.changes.map((change) => change.field_name),
    );
    expect(fields).toEqual(['priority', 'severity']);
    for (const entry of entries) expect(entry.who).toBe(logins.editor);
    const whens = entries.map((entry: { when: string }) => entry.when);
    expect(new Set(whens).size).toBe(entries.length);
    const later = await call(app, 'GET', `/rest/bug/${id}/history`, {
      apiKey: admin,
      query: { new_since: '2999-01-01T00:00:00Z' },
    });
    expect(later.body.bugs[0].history).toEqual([]);
    expect(
      (await call(app, 'GET', `/rest/bug/${id}/history`, { apiKey: admin, query: { new_since: 'yesterday-ish' } })).body
        .code,
    ).toBe(56);
  });

  it('records last visits only for people involved with the bug', async () => {
    const id = await fileBug(keys.reporter);
    const visited = await call(app, 'POST', `/rest/bug_user_last_visit/${id}`, { apiKey: keys.reporter });
    expect(visited.body).toEqual([
      { id, last_visit_ts: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/) },
    ]);
    const refused = await call(app, 'POST', `/rest/bug_user_last_visit/${id}`, { apiKey: keys.stranger });
    expect([refused.status, refused.body.code]).toEqual([400, 1300]);
    expect((await call(app, 'GET', `/rest/bug_user_last_visit/${id}`, { apiKey: keys.reporter })).body).toEqual(
      visited.body,
    );
    expect(
      (await call(app, 'GET', '/rest/bug_user_last_visit', { apiKey: keys.reporter })).body.map(
        (visit: { id: number }) => visit.id,
      ),
    ).toContain(id);
    expect((await call(app, 'GET', '/rest/bug_user_last_visit')).body.code).toBe(410);
  });
});
