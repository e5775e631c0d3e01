import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Two (or more) administrators changing the same item at the same moment, for every kind of item
 * that can be changed: each request changes a different property, all are sent at once, and
 * afterwards every change that was answered with success must be in the stored item, and every
 * listing that shows the item must agree with it. Retries must absorb every conflict: a writer
 * answering 32000 ("try again", nothing saved) fails the case, and so would every writer failing.
 */
let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
});
afterAll(async () => {
  await app?.close();
});

const put = (path: string, body: Record<string, unknown>) => call(app, 'PUT', path, { apiKey: admin, body });
const post = async (path: string, body: Record<string, unknown>) => {
  const response = await call(app, 'POST', path, { apiKey: admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const get = async (path: string, query?: Record<string, string>) =>
  (await call(app, 'GET', path, { apiKey: admin, query })).body;

interface Change {
  request: () => Promise<ApiResponse>;
  /** Whether the stored state shows this change. */
  holds: () => Promise<boolean>;
}

/**
 * Sends every change at once. Every change here sets a different property, and a writer that loses
 * a race re-reads and tries again (retryOnConflict) more often than there are writers, so each one
 * must answer 200 and hold. A refusal is checked first to be an honest 32000 that saved nothing, so
 * a failure says whether the retries gave up or something worse happened.
 */
async function race(changes: Change[]): Promise<void> {
  const responses = await Promise.all(changes.map((change) => change.request()));
  const refused: string[] = [];
  for (const [index, response] of responses.entries()) {
    if (response.status === 200) {
      expect(
        await changes[index].holds(),
        `change ${index} answered 200 but is not stored: ${JSON.stringify(response.body)}`,
      ).toBe(true);
    } else {
      expect(response.body.code, JSON.stringify(response.body)).toBe(32000);
      expect(await changes[index].holds(), `change ${index} was refused but is stored`).toBe(false);
      refused.push(`change ${index}: ${response.body.message}`);
    }
  }
  expect(refused, 'writers gave up although retrying should have absorbed the race').toEqual([]);
}

describe('conflicting writes to one item of each kind', () => {
  it('users: profile fields and group memberships', async () => {
    const groups = ['c-one', 'c-two', 'c-three'];
    for (const name of groups) await post('/rest/group', { name, description: name });
    const { id } = await post('/rest/user', {
      email: 'racer@tracker.test',
      full_name: 'Racer',
      password: 'racer-password',
    });
    await put(`/rest/user/${id}`, { groups: { add: ['editbugs', 'c-three'] } });
    const user = async () => (await get(`/rest/user/${id}`)).users[0];
    const inGroup = async (name: string) =>
      (await user()).groups.some((group: { name: string }) => group.name === name);
    await race([
      {
        request: () => put(`/rest/user/${id}`, { full_name: 'Racer Renamed' }),
        holds: async () => (await user()).real_name === 'Racer Renamed',
      },
      { request: () => put(`/rest/user/${id}`, { groups: { add: ['c-one'] } }), holds: () => inGroup('c-one') },
      { request: () => put(`/rest/user/${id}`, { groups: { add: ['c-two'] } }), holds: () => inGroup('c-two') },
      {
        request: () => put(`/rest/user/${id}`, { groups: { remove: ['c-three'] } }),
        holds: async () => !(await inGroup('c-three')),
      },
      {
        request: () => put(`/rest/user/${id}`, { login_denied_text: 'Away' }),
        holds: async () => (await user()).login_denied_text === 'Away',
      },
      {
        request: () => put(`/rest/user/${id}`, { email_enabled: false }),
        holds: async () => (await user()).email_enabled === false,
      },
    ]);
    // Effective groups and the group listings agree.
    const effective = new Set(((await user()).groups as Array<{ name: string }>).map((group) => group.name));
    const listed = (await get('/rest/group', { membership: '1' })).groups as Array<{
      name: string;
      membership?: Array<{ id: number }>;
    }>;
    for (const group of listed.filter((candidate) => [...groups].includes(candidate.name))) {
      expect(group.membership?.some((member) => member.id === id) ?? false, group.name).toBe(effective.has(group.name));
    }
  });

  it('groups', async () => {
    const { id } = await post('/rest/group', { name: 'contested', description: 'before' });
    const group = async () => (await get(`/rest/group/${id}`)).groups[0];
    await race([
      {
        request: () => put(`/rest/group/${id}`, { description: 'after' }),
        holds: async () => (await group()).description === 'after',
      },
      {
        request: () => put(`/rest/group/${id}`, { user_regexp: '^contest-' }),
        holds: async () => (await group()).user_regexp === '^contest-',
      },
      {
        request: () => put(`/rest/group/${id}`, { is_active: false }),
        holds: async () => (await group()).is_active === false,
      },
    ]);
    const listed = (await get('/rest/group')).groups.find((candidate: { id: number }) => candidate.id === id);
    expect(listed).toEqual(await group());
  });

  it('products, with their group controls', async () => {
    await post('/rest/group', { name: 'c-control-a', description: 'a' });
    await post('/rest/group', { name: 'c-control-b', description: 'b' });
    const { id } = await post('/rest/product', { name: 'Contested', description: 'before', version: '1.0' });
    await post(`/rest/product/${id}/milestone`, { name: '2.0' });
    const product = async () => (await get(`/rest/product/${id}`, { include_fields: '_all' })).products[0];
    const control = async (name: string) =>
      (await product()).group_controls?.find(
        (entry: { group: string; name?: string }) => (entry.group ?? entry.name) === name,
      );
    await race([
      {
        request: () => put(`/rest/product/${id}`, { description: 'after' }),
        holds: async () => (await product()).description === 'after',
      },
      {
        request: () => put(`/rest/product/${id}`, { is_open: false }),
        holds: async () => (await product()).is_active === false,
      },
      {
        request: () => put(`/rest/product/${id}`, { has_unconfirmed: false }),
        holds: async () => (await product()).has_unconfirmed === false,
      },
      {
        request: () => put(`/rest/product/${id}`, { default_milestone: '2.0' }),
        holds: async () => (await product()).default_milestone === '2.0',
      },
      {
        request: () =>
          put(`/rest/product/${id}`, {
            group_controls: [{ group: 'c-control-a', membercontrol: 'SHOWN', othercontrol: 'NA' }],
          }),
        holds: async () => (await control('c-control-a')) !== undefined,
      },
      {
        request: () =>
          put(`/rest/product/${id}`, {
            group_controls: [{ group: 'c-control-b', membercontrol: 'DEFAULT', othercontrol: 'NA' }],
          }),
        holds: async () => (await control('c-control-b')) !== undefined,
      },
    ]);
    const listed = (await get('/rest/product', { ids: String(id), include_fields: '_all' })).products[0];
    expect(listed).toEqual(await product());
  });

  it('components', async () => {
    await post('/rest/product', { name: 'Parts', description: 'x', version: '1.0' });
    const { id } = await post('/rest/component', {
      product: 'Parts',
      name: 'Engine',
      description: 'before',
      default_assignee: app.admin.login,
    });
    const component = async () =>
      (await get('/rest/product', { names: 'Parts' })).products[0].components.find(
        (entry: { id: number }) => entry.id === id,
      );
    await race([
      {
        request: () => put(`/rest/component/${id}`, { description: 'after' }),
        holds: async () => (await component()).description === 'after',
      },
      {
        request: () => put(`/rest/component/${id}`, { is_active: false }),
        holds: async () => (await component()).is_active === false,
      },
      {
        request: () => put(`/rest/component/${id}`, { sort_key: 7 }),
        holds: async () => (await component()).sort_key === 7,
      },
      {
        request: () => put(`/rest/component/${id}`, { default_bug_type: 'task' }),
        holds: async () => (await component()).default_bug_type === 'task',
      },
    ]);
  });

  it('versions and milestones', async () => {
    await post('/rest/product', { name: 'Valued', description: 'x', version: '1.0' });
    await post('/rest/product/Valued/version', { name: '2.0' });
    await post('/rest/product/Valued/milestone', { name: 'M1' });
    const values = async (kind: 'versions' | 'milestones', name: string) =>
      (await get('/rest/product', { names: 'Valued' })).products[0][kind].find(
        (entry: { name: string }) => entry.name === name,
      );
    await race([
      {
        request: () => put('/rest/product/Valued/version/2.0', { sort_key: 9 }),
        holds: async () => (await values('versions', '2.0'))?.sort_key === 9,
      },
      {
        request: () => put('/rest/product/Valued/version/2.0', { is_active: false }),
        holds: async () => (await values('versions', '2.0'))?.is_active === false,
      },
      {
        request: () => put('/rest/product/Valued/milestone/M1', { sort_key: 4 }),
        holds: async () => (await values('milestones', 'M1'))?.sort_key === 4,
      },
      {
        request: () => put('/rest/product/Valued/milestone/M1', { is_active: false }),
        holds: async () => (await values('milestones', 'M1'))?.is_active === false,
      },
    ]);
  });

  it('classifications', async () => {
    const { id } = await post('/rest/classification', { name: 'Contested Class', description: 'before', sort_key: 1 });
    const classification = async () => (await get(`/rest/classification/${id}`)).classifications[0];
    await race([
      {
        request: () => put(`/rest/classification/${id}`, { description: 'after' }),
        holds: async () => (await classification()).description === 'after',
      },
      {
        request: () => put(`/rest/classification/${id}`, { sort_key: 42 }),
        holds: async () => (await classification()).sort_key === 42,
      },
    ]);
  });

  it('keywords', async () => {
    const { id } = await post('/rest/keyword', { name: 'contested', description: 'before' });
    const keyword = async () => (await get(`/rest/keyword/${id}`)).keywords[0];
    await race([
      {
        request: () => put(`/rest/keyword/${id}`, { description: 'after' }),
        holds: async () => (await keyword()).description === 'after',
      },
      {
        request: () => put(`/rest/keyword/${id}`, { is_active: false }),
        holds: async () => (await keyword()).is_active === false,
      },
    ]);
    const listed = (await get('/rest/keyword')).keywords.find((entry: { id: number }) => entry.id === id);
    expect(listed).toEqual(await keyword());
  });

  it('flag types', async () => {
    await post('/rest/product', { name: 'Flagged', description: 'x', version: '1.0' });
    const { id } = await post('/rest/flag_type', { name: 'contested', description: 'before', inclusions: ['Flagged'] });
    const flagType = async () => (await get(`/rest/flag_type/${id}`, { include_fields: '_all' })).flag_types[0];
    await race([
      {
        request: () => put(`/rest/flag_type/${id}`, { description: 'after' }),
        holds: async () => (await flagType()).description === 'after',
      },
      {
        request: () => put(`/rest/flag_type/${id}`, { sort_key: 3 }),
        holds: async () => (await flagType()).sort_key === 3,
      },
      {
        request: () => put(`/rest/flag_type/${id}`, { is_active: false }),
        holds: async () => (await flagType()).is_active === false,
      },
      {
        request: () => put(`/rest/flag_type/${id}`, { cc_list: 'qa@tracker.test' }),
        holds: async () => (await flagType()).cc_list === 'qa@tracker.test',
      },
      {
        request: () => put(`/rest/flag_type/${id}`, { inclusions: { add: ['TestProduct'] } }),
        holds: async () => Object.keys((await flagType()).inclusions ?? {}).includes('TestProduct'),
      },
    ]);
  });

  it('custom fields', async () => {
    await post('/rest/field/bug', { name: 'cf_contested', display_name: 'Before', type: 2, values: ['a'] });
    const field = async () => (await get('/rest/field/bug/cf_contested', { include_fields: '_all,_extra' })).fields[0];
    const hasValue = async (name: string) =>
      (await field()).values.some((value: { name: string }) => value.name === name);
    await race([
      {
        request: () => put('/rest/field/bug/cf_contested', { display_name: 'After' }),
        holds: async () => (await field()).display_name === 'After',
      },
      { request: () => put('/rest/field/bug/cf_contested', { values: { add: ['b'] } }), holds: () => hasValue('b') },
      { request: () => put('/rest/field/bug/cf_contested', { values: { add: ['c'] } }), holds: () => hasValue('c') },
      {
        request: () => put('/rest/field/bug/cf_contested', { is_mandatory: true }),
        holds: async () => (await field()).is_mandatory === true,
      },
    ]);
  });

  it('parameters', async () => {
    const parameters = async () => (await get('/rest/parameters')).parameters;
    await race([
      {
        request: () => put('/rest/parameters', { mailfrom: 'race@tracker.test' }),
        holds: async () => (await parameters()).mailfrom === 'race@tracker.test',
      },
      {
        request: () => put('/rest/parameters', { maxusermatches: 77 }),
        holds: async () => (await parameters()).maxusermatches === '77',
      },
      {
        request: () => put('/rest/parameters', { usestatuswhiteboard: false }),
        holds: async () => (await parameters()).usestatuswhiteboard === '0',
      },
      {
        request: () => put('/rest/parameters', { emailsuffix: '@race' }),
        holds: async () => (await parameters()).emailsuffix === '@race',
      },
    ]);
  });

  it('API keys', async () => {
    const { id: userId } = await post('/rest/user', {
      email: 'keyholder@tracker.test',
      password: 'keyholder-password',
    });
    const { id } = await post(`/rest/user/${userId}/api_key`, { description: 'before' });
    const key = async () =>
      (await get(`/rest/user/${userId}/api_key`)).api_keys.find((entry: { id: number }) => entry.id === id);
    await race([
      {
        request: () => put(`/rest/user/${userId}/api_key/${id}`, { description: 'after' }),
        holds: async () => (await key()).description === 'after',
      },
      {
        request: () => put(`/rest/user/${userId}/api_key/${id}`, { revoked: true }),
        holds: async () => (await key()).revoked === true,
      },
    ]);
  });
});

describe('afterwards', () => {
  it('left nothing half-written', async () => {
    const { tableInconsistencies } = await import('../support/tableIntegrity.ts');
    expect(await tableInconsistencies()).toEqual([]);
  });
});
