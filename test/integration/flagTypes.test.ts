import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSecond, useSteppableClock } from '../support/clock.ts';
import * as accounts from '../support/testAccounts.ts';
import { ok } from '../support/testAccounts.ts';
import { type ApiResponse, call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Flag types (Bugzilla 5's FlagType API) on a catalogue built through the product and
 * component API: Widgets (Frobber, Gizmo), Gadgets (Core), Hidden (Vault; entry and mandatory
 * group "secret", so inaccessible to others) and a product named "4" without components.
 */
let app: TestApp;
let admin: string;
let editorKey: string;
let plainKey: string;
let granterKey: string;
let reviewersId: number;
const ids: Record<string, number> = {};

const userWithKey = (name: string, groups: string[] = []) => accounts.userWithKey(app, name, groups, `${name}-pw`);

async function product(name: string, components: string[], body: Record<string, unknown> = {}) {
  await ok(
    call(app, 'POST', '/rest/product', {
      apiKey: admin,
      body: { name, description: `${name} product`, version: '1.0', ...body },
    }),
  );
  for (const component of components) {
    await ok(
      call(app, 'POST', '/rest/component', {
        apiKey: admin,
        body: {
          product: name,
          name: component,
          description: `${component} component`,
          default_assignee: app.admin.login,
        },
      }),
    );
  }
}

const createType = (body: Record<string, unknown>, apiKey = editorKey) =>
  call(app, 'POST', '/rest/flag_type', { apiKey, body });
const getTypes = (path: string, apiKey?: string, query?: Record<string, string>) =>
  call(app, 'GET', `/rest/flag_type/${path}`, { apiKey, query });
const updateType = (path: string, body: Record<string, unknown>, apiKey = editorKey) =>
  call(app, 'PUT', `/rest/flag_type/${path}`, { apiKey, body });
const auditTime = async () =>
  (await ok(call(app, 'GET', '/rest/last_audit_time', { query: { class: 'Tracker::FlagType' } }))).last_audit_time;
const namesOf = (types: Array<{ name: string }>) => types.map((type) => type.name);

function expectError(response: ApiResponse, code: number, status = 400) {
  expect(response.body?.code, response.text).toBe(code);
  expect(response.status).toBe(status);
  expect(response.body.error).toBe(true);
}

let auditBeforeCreates: string | null;

useSteppableClock();
beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  reviewersId = (
    await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'reviewers', description: 'Reviewers' } }))
  ).id;
  await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'secret', description: 'Secret' } }));
  editorKey = await userWithKey('editor', ['editcomponents']);
  plainKey = await userWithKey('plain');
  granterKey = await userWithKey('granter', ['reviewers']);
  await product('Widgets', ['Frobber', 'Gizmo']);
  await product('Gadgets', ['Core']);
  await product('Hidden', ['Vault'], {
    group_controls: [{ group: 'secret', entry: true, membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' }],
  });
  await product('4', []);
  auditBeforeCreates = await auditTime();

  ids.review = (await ok(createType({ name: 'review', description: 'Code review' }))).id;
  ids.qa = (
    await ok(
      createType({
        name: 'qa',
        description: 'QA sign-off',
        inclusions: ['Widgets'],
        exclusions: ['Widgets:Gizmo'],
        grant_group: 'reviewers',
        sort_key: 5,
        cc_list: 'qa@example.com other@example.com',
        is_multiplicable: false,
      }),
    )
  ).id;
  ids.screenshot = (
    await ok(
      createType({
        name: 'screenshot',
        description: 'Screenshot ok',
        target_type: 'attachment',
        inclusions: [{ Gadgets: ['Core'] }, { product: 'Widgets', component: 'Frobber' }],
      }),
    )
  ).id;
  ids.retired = (
    await ok(
      createType({ name: 'retired', description: 'Old', inclusions: 'Gadgets', is_active: false, sort_key: '0' }),
    )
  ).id;
  ids.vault = (
    await ok(createType({ name: 'vault', description: 'Vault only', inclusions: ['Hidden:Vault'] }, admin))
  ).id;
});
afterAll(async () => {
  await app?.close();
});

describe('POST /rest/flag_type', () => {
  it('answers {id} with increasing ids and stores Bugzilla’s defaults', async () => {
    expect(Object.values(ids).every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    expect(new Set(Object.values(ids)).size).toBe(5);
    const [review] = (await ok(getTypes(String(ids.review)))).flag_types;
    expect(review).toEqual({
      id: ids.review,
      name: 'review',
      description: 'Code review',
      cc_list: '',
      sort_key: 1,
      is_active: true,
      is_requestable: true,
      is_requesteeble: true,
      is_multiplicable: true,
      grant_group: null,
      request_group: null,
      target_type: 'bug',
      values: ['X', '?', '+', '-'],
      inclusions: { __Any__: ['__Any__'] },
      exclusions: {},
    });
  });

  it('stores what it was given: groups by id, the CC list normalized, inclusions and exclusions', async () => {
    const [qa] = (await ok(getTypes(String(ids.qa), admin))).flag_types;
    expect(qa).toMatchObject({
      name: 'qa',
      sort_key: 5,
      cc_list: 'qa@example.com, other@example.com',
      is_multiplicable: false,
      grant_group: reviewersId,
      request_group: null,
      inclusions: { Widgets: ['__Any__'] },
      exclusions: { Widgets: ['Gizmo'] },
    });
    const [screenshot] = (await ok(getTypes(String(ids.screenshot)))).flag_types;
    expect(screenshot).toMatchObject({
      target_type: 'attachment',
      inclusions: { Gadgets: ['Core'], Widgets: ['Frobber'] },
    });
  });

  it('refuses logged-out callers (410) and callers outside editcomponents (304)', async () => {
    expectError(await call(app, 'POST', '/rest/flag_type', { body: { name: 'x', description: 'x' } }), 410, 401);
    expectError(await createType({ name: 'x', description: 'x' }, plainKey), 304, 401);
  });

  it('answers 50 for a missing name or description, 1101 for an invalid name, 1102 for a blank description', async () => {
    expectError(await createType({ description: 'x' }), 50);
    expectError(await createType({ name: '', description: 'x' }), 50);
    expectError(await createType({ name: 'x' }), 50);
    expectError(await createType({ name: 'code review', description: 'x' }), 1101);
    expectError(await createType({ name: 'a,b', description: 'x' }), 1101);
    expectError(await createType({ name: 'n'.repeat(51), description: 'x' }), 1101);
    expectError(await createType({ name: '   ', description: 'x' }), 1101);
    expectError(await createType({ name: 'x', description: '   ' }), 1102);
  });

  it('answers 1103 for a CC list over 200 characters, 501 for a bad address, 1104 for a bad sort key', async () => {
    expectError(await createType({ name: 'x', description: 'x', cc_list: `${'a'.repeat(195)}@example.com` }), 1103);
    expectError(await createType({ name: 'x', description: 'x', cc_list: 'good@example.com, not an address' }), 501);
    expectError(await createType({ name: 'x', description: 'x', sort_key: -1 }), 1104);
    expectError(await createType({ name: 'x', description: 'x', sort_key: 'first' }), 1104);
    expectError(await createType({ name: 'x', description: 'x', sort_key: 40000 }), 1104);
  });

  it('answers 106 for an unknown or inaccessible product, 51 for an unknown component or group, 32000 for malformed input', async () => {
    expectError(await createType({ name: 'x', description: 'x', inclusions: ['Nowhere'] }), 106, 401);
    expectError(
      await createType({ name: 'x', description: 'x', exclusions: [{ product: 'Nowhere', component: 'Core' }] }),
      106,
      401,
    );
    // The editor is not in "secret", so Hidden is inaccessible to them (the admin could use it above).
    expectError(await createType({ name: 'x', description: 'x', inclusions: ['Hidden'] }), 106, 401);
    expectError(await createType({ name: 'x', description: 'x', inclusions: ['Widgets:Core'] }), 51, 404);
    expectError(await createType({ name: 'x', description: 'x', grant_group: 'no-such-group' }), 51, 404);
    expectError(await createType({ name: 'x', description: 'x', request_group: 'no-such-group' }), 51, 404);
    expectError(await createType({ name: 'x', description: 'x', target_type: 'comment' }), 32000);
    expectError(await createType({ name: 'x', description: 'x', inclusions: [42] }), 32000);
    expectError(await createType({ name: 'x', description: 'x', is_active: 'maybe' }), 32000);
  });

  it('writes nothing when it refuses', async () => {
    // Refused creations allocate no id and write nothing: the next id is still free.
    expectError(await getTypes(String(ids.vault + 1), admin), 106, 401);
  });

  it('is audited as Tracker::FlagType (and Bugzilla::FlagType)', async () => {
    expect(auditBeforeCreates).toBeNull();
    const after = await auditTime();
    expect(after).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(
      (await ok(call(app, 'GET', '/rest/last_audit_time', { query: { class: 'Bugzilla::FlagType' } }))).last_audit_time,
    ).toBe(after);
  });
});

describe('GET /rest/flag_type/{product}[/{component}]', () => {
  // The spec's Flagtype keys plus `values` and, as Bugzilla 5.2 sends, `type`.
  const SPEC_KEYS = [
    'cc_list',
    'description',
    'grant_group',
    'id',
    'is_active',
    'is_multiplicable',
    'is_requestable',
    'is_requesteeble',
    'name',
    'request_group',
    'sort_key',
    'type',
    'values',
  ];

  it('lists the types that apply to some component of the product, by sort key then name', async () => {
    const widgets = await ok(getTypes('Widgets'));
    expect(namesOf(widgets.bug)).toEqual(['review', 'qa']);
    expect(namesOf(widgets.attachment)).toEqual(['screenshot']);
    expect(Object.keys(widgets.bug[0]).sort()).toEqual(SPEC_KEYS);
    expect(widgets.bug.map((type: { type: string }) => type.type)).toEqual(['bug', 'bug']);
    expect(widgets.attachment.map((type: { type: string }) => type.type)).toEqual(['attachment']);
    const gadgets = await ok(getTypes('gadgets'));
    expect(namesOf(gadgets.bug)).toEqual(['retired', 'review']);
    expect(gadgets.bug[0]).toMatchObject({ id: ids.retired, is_active: false, sort_key: 0 });
    expect(namesOf(gadgets.attachment)).toEqual(['screenshot']);
  });

  it('applies inclusions and exclusions per component', async () => {
    const frobber = await ok(getTypes('Widgets/Frobber'));
    expect(namesOf(frobber.bug)).toEqual(['review', 'qa']);
    expect(namesOf(frobber.attachment)).toEqual(['screenshot']);
    const gizmo = await ok(getTypes('Widgets/gizmo'));
    expect(namesOf(gizmo.bug)).toEqual(['review']);
    expect(gizmo.attachment).toEqual([]);
    const testComponent = await ok(getTypes('TestProduct/TestComponent'));
    expect(testComponent).toEqual({ bug: [expect.objectContaining({ id: ids.review })], attachment: [] });
  });

  it('lists the flag types of each component in the product object', async () => {
    const [widgets] = (await ok(call(app, 'GET', '/rest/product/Widgets'))).products;
    const byName = Object.fromEntries(
      widgets.components.map((component: { name: string; flag_types: unknown }) => [
        component.name,
        component.flag_types,
      ]),
    );
    expect(namesOf(byName.Frobber.bug)).toEqual(['review', 'qa']);
    expect(namesOf(byName.Frobber.attachment)).toEqual(['screenshot']);
    expect(namesOf(byName.Gizmo.bug)).toEqual(['review']);
    expect(byName.Frobber.bug[1]).toMatchObject({ id: ids.qa, grant_group: reviewersId, sort_key: 5 });
  });

  it('offers + and - only to members of the grant group', async () => {
    const valuesFor = async (apiKey?: string) =>
      (await ok(getTypes('Widgets/Frobber', apiKey))).bug.find((type: { id: number }) => type.id === ids.qa).values;
    expect(await valuesFor()).toEqual(['X', '?']);
    expect(await valuesFor(plainKey)).toEqual(['X', '?']);
    expect(await valuesFor(granterKey)).toEqual(['X', '?', '+', '-']);
    expect(await valuesFor(admin)).toEqual(['X', '?', '+', '-']);
  });

  it('answers 106 for an unknown or inaccessible product and 51 for an unknown component', async () => {
    expectError(await getTypes('Nowhere'), 106, 401);
    expectError(await getTypes('Nowhere/Core'), 106, 401);
    expectError(await getTypes('Hidden', plainKey), 106, 401);
    expectError(await getTypes('Hidden/Vault'), 106, 401);
    expect(namesOf((await ok(getTypes('Hidden/Vault', admin))).bug)).toEqual(['review', 'vault']);
    expectError(await getTypes('Widgets/Core'), 51, 404);
  });

  it('applies include_fields to the listed types', async () => {
    const { bug, attachment } = await ok(getTypes('Widgets', undefined, { include_fields: 'id,name' }));
    expect(bug).toEqual([
      { id: ids.review, name: 'review' },
      { id: ids.qa, name: 'qa' },
    ]);
    expect(attachment).toEqual([{ id: ids.screenshot, name: 'screenshot' }]);
  });
});

describe('GET /rest/flag_type/{id}', () => {
  it('answers one type when the digits name no product, and lets a product named with digits win', async () => {
    expect(ids.retired).toBe(4);
    // The product named "4" has no components, so nothing applies to it; it still wins over flag type 4.
    expect(await ok(getTypes('4'))).toEqual({ bug: [], attachment: [] });
    const { flag_types } = await ok(getTypes(String(ids.qa)));
    expect(flag_types.map((type: { id: number }) => type.id)).toEqual([ids.qa]);
  });

  it('shows inclusions only in products the caller may see', async () => {
    expect((await ok(getTypes(String(ids.vault), admin))).flag_types[0].inclusions).toEqual({ Hidden: ['Vault'] });
    expect((await ok(getTypes(String(ids.vault), plainKey))).flag_types[0].inclusions).toEqual({});
  });

  it('answers 106 for digits that name neither a product nor a flag type', async () => {
    expectError(await getTypes('99999'), 106, 401);
  });
});

describe('GET /rest/flag_type (every type, for editcomponents)', () => {
  it('lists every type, inactive ones too, bug types first by sort key, with scopes and group names', async () => {
    const { flag_types } = await ok(call(app, 'GET', '/rest/flag_type', { apiKey: editorKey }));
    expect(flag_types.map((type: { id: number }) => type.id)).toEqual([
      ids.retired,
      ids.review,
      ids.vault,
      ids.qa,
      ids.screenshot,
    ]);
    const qa = flag_types.find((type: { id: number }) => type.id === ids.qa);
    expect(qa).toMatchObject({
      name: 'qa',
      target_type: 'bug',
      is_multiplicable: false,
      grant_group: reviewersId,
      grant_group_name: 'reviewers',
      request_group_name: '',
      inclusions: { Widgets: ['__Any__'] },
      exclusions: { Widgets: ['Gizmo'] },
    });
    expect(flag_types.find((type: { id: number }) => type.id === ids.retired).is_active).toBe(false);
    // editcomponents administers every type, so it sees the scope in a product it cannot enter.
    expect(flag_types.find((type: { id: number }) => type.id === ids.vault).inclusions).toEqual({ Hidden: ['Vault'] });
  });

  it('refuses logged-out callers (410) and callers outside editcomponents (304)', async () => {
    expectError(await call(app, 'GET', '/rest/flag_type'), 410, 401);
    expectError(await call(app, 'GET', '/rest/flag_type', { apiKey: plainKey }), 304, 401);
  });
});

describe('PUT /rest/flag_type/{id_or_name}', () => {
  it('refuses logged-out callers (410) and callers outside editcomponents (304)', async () => {
    expectError(await call(app, 'PUT', `/rest/flag_type/${ids.review}`, { body: { sort_key: 3 } }), 410, 401);
    expectError(await updateType(String(ids.review), { sort_key: 3 }, plainKey), 304, 401);
  });

  it('answers 51 for an unknown id or name', async () => {
    expectError(await updateType('99999', { sort_key: 3 }), 51, 404);
    expectError(await updateType('nosuchtype', { sort_key: 3 }), 51, 404);
    expectError(await updateType(String(ids.review), { ids: [99999], sort_key: 3 }), 51, 404);
  });

  it('checks values as create does, and changes nothing when one is refused', async () => {
    expectError(await updateType(String(ids.review), { name: 'bad name' }), 1101);
    expectError(await updateType(String(ids.review), { name: '' }), 1101);
    expectError(await updateType(String(ids.review), { description: ' ' }), 1102);
    expectError(await updateType(String(ids.review), { cc_list: 'x'.repeat(201) }), 1103);
    expectError(await updateType(String(ids.review), { sort_key: 'x' }), 1104);
    expectError(await updateType(String(ids.review), { cc_list: 'nobody' }), 501);
    expectError(await updateType(String(ids.review), { grant_group: 'nobody' }), 51, 404);
    expectError(await updateType(String(ids.review), { target_type: 'attachment' }), 32000);
    expectError(await updateType(String(ids.review), { sort_key: 9, inclusions: { add: ['Nowhere'] } }), 106, 401);
    expectError(
      await updateType(String(ids.review), { ids: [ids.qa], sort_key: 9, exclusions: ['Widgets:Core'] }),
      51,
      404,
    );
    const [review] = (await ok(getTypes(String(ids.review)))).flag_types;
    expect(review).toMatchObject({
      name: 'review',
      description: 'Code review',
      sort_key: 1,
      cc_list: '',
      grant_group: null,
    });
  });

  it('answers a no-op update with empty changes and writes no audit entry', async () => {
    const before = await auditTime();
    nextSecond();
    const { flagtypes } = await ok(
      updateType('review', {
        description: 'Code review',
        is_active: true,
        target_type: 'bug',
        inclusions: ['__Any__'],
      }),
    );
    expect(flagtypes).toEqual([{ id: ids.review, name: 'review', changes: {} }]);
    expect(await auditTime()).toBe(before);
  });

  it('changes fields by id, reporting booleans as 1/0 and groups by name, and is audited', async () => {
    const before = await auditTime();
    nextSecond();
    const { flagtypes } = await ok(
      updateType(String(ids.qa), {
        name: 'qa-signoff',
        is_requestable: false,
        sort_key: 2,
        grant_group: '',
        request_group: 'reviewers',
        cc_list: 'lead@example.com',
      }),
    );
    expect(flagtypes).toEqual([
      {
        id: ids.qa,
        name: 'qa-signoff',
        changes: {
          name: { removed: 'qa', added: 'qa-signoff' },
          is_requestable: { removed: '1', added: '0' },
          sort_key: { removed: '5', added: '2' },
          grant_group: { removed: 'reviewers', added: '' },
          request_group: { removed: '', added: 'reviewers' },
          cc_list: { removed: 'qa@example.com, other@example.com', added: 'lead@example.com' },
        },
      },
    ]);
    expect((await auditTime()) > before).toBe(true);
    const [qa] = (await ok(getTypes(String(ids.qa)))).flag_types;
    expect(qa).toMatchObject({
      name: 'qa-signoff',
      is_requestable: false,
      sort_key: 2,
      grant_group: null,
      request_group: reviewersId,
      values: ['X', '+', '-'],
    });
  });

  it('replaces inclusions and exclusions with a list, or edits them with {add, remove}', async () => {
    const replaced = await ok(updateType(String(ids.qa), { exclusions: [] }));
    expect(replaced.flagtypes[0].changes).toEqual({ exclusions: { removed: 'Widgets:Gizmo', added: '' } });
    expect(namesOf((await ok(getTypes('Widgets/Gizmo'))).bug)).toEqual(['review', 'qa-signoff']);

    const edited = await ok(
      updateType(String(ids.qa), {
        inclusions: { add: ['Gadgets:Core'], remove: ['Widgets'] },
        exclusions: { add: [{ Gadgets: ['Core'] }] },
      }),
    );
    expect(edited.flagtypes[0].changes).toEqual({
      inclusions: { removed: 'Widgets:__Any__', added: 'Gadgets:Core' },
      exclusions: { removed: '', added: 'Gadgets:Core' },
    });
    // Included only where it is also excluded: it applies nowhere.
    expect(namesOf((await ok(getTypes('Widgets'))).bug)).toEqual(['review']);
    expect(namesOf((await ok(getTypes('Gadgets/Core'))).bug)).toEqual(['retired', 'review']);

    await ok(updateType(String(ids.qa), { exclusions: { remove: ['Gadgets:Core'] } }));
    expect(namesOf((await ok(getTypes('Gadgets/Core'))).bug)).toEqual(['retired', 'review', 'qa-signoff']);
    const [qa] = (await ok(getTypes(String(ids.qa)))).flag_types;
    expect(qa).toMatchObject({ inclusions: { Gadgets: ['Core'] }, exclusions: {} });
  });

  it('updates every type with a name, plus those named by ids', async () => {
    const twin = (await ok(createType({ name: 'retired', description: 'Another old one', inclusions: [] }))).id;
    const { flagtypes } = await ok(updateType('retired', { ids: [ids.screenshot], is_active: false }));
    expect(flagtypes.map((type: { id: number }) => type.id)).toEqual([ids.screenshot, ids.retired, twin]);
    expect(flagtypes.map((type: { changes: object }) => type.changes)).toEqual([
      { is_active: { removed: '1', added: '0' } },
      {},
      { is_active: { removed: '1', added: '0' } },
    ]);
    // An empty inclusion list means the type applies nowhere.
    expect((await ok(getTypes('Gadgets', admin))).bug.map((type: { id: number }) => type.id)).toEqual([
      ids.retired,
      ids.review,
      ids.qa,
    ]);
    expect((await ok(getTypes(String(twin)))).flag_types[0].inclusions).toEqual({});
  });
});
