import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSecond, useSteppableClock } from '../support/clock.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

let app: TestApp;
let admin: string;
let plainKey: string;
let keyworderKey: string;
const productIds: Record<string, number> = {};

async function userWithKey(name: string, groups: string[] = []): Promise<string> {
  const created = await call(app, 'POST', '/rest/user', {
    apiKey: admin,
    body: { email: `${name}@tracker.test`, password: `${name}-password` },
  });
  expect(created.status).toBe(200);
  if (groups.length > 0)
    expect(
      (await call(app, 'PUT', `/rest/user/${created.body.id}`, { apiKey: admin, body: { groups: { add: groups } } }))
        .status,
    ).toBe(200);
  return (
    await call(app, 'POST', `/rest/user/${created.body.id}/api_key`, { apiKey: admin, body: { description: 'tests' } })
  ).body.api_key;
}

async function createProduct(name: string, version: string, components: string[], extra: object = {}): Promise<void> {
  const created = await call(app, 'POST', '/rest/product', {
    apiKey: admin,
    body: { name, description: `The ${name}`, version, ...extra },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  productIds[name] = created.body.id;
  for (const component of components) {
    const made = await call(app, 'POST', '/rest/component', {
      apiKey: admin,
      body: { product: name, name: component, description: component, default_assignee: app.admin.login },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  }
}

type Value = { name: string | null; visibility_values: string[]; [key: string]: unknown };
type Field = { id: number; name: string; values: Value[]; [key: string]: unknown };

const getField = async (name: string, apiKey?: string): Promise<Field> => {
  const response = await call(app, 'GET', `/rest/field/bug/${name}`, { apiKey });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.fields).toHaveLength(1);
  return response.body.fields[0];
};

const auditTime = async (auditClass: string): Promise<string | null> =>
  (await call(app, 'GET', '/rest/last_audit_time', { query: { class: auditClass } })).body.last_audit_time;

useSteppableClock();
beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  expect(
    (await call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'insiders', description: 'Insiders' } }))
      .status,
  ).toBe(200);
  plainKey = await userWithKey('plain');
  keyworderKey = await userWithKey('keyworder', ['editkeywords']);
  // Created through the product and component endpoints of the catalogue.
  await createProduct('Widget', '1.0', ['Gears', 'Bolts']);
  await createProduct('Gadget', '2.0', ['Gears']);
  await createProduct('Secret', '1.0', ['Vault'], {
    group_controls: [{ group: 'insiders', entry: true, membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' }],
  });
});
afterAll(async () => {
  await app?.close();
});

describe('GET /rest/field/bug', () => {
  it('lists the built-in fields in id order with every property of the field definition', async () => {
    const { status, body } = await call(app, 'GET', '/rest/field/bug');
    expect(status).toBe(200);
    const builtIn = body.fields.filter((field: Field) => !field.is_custom);
    expect(builtIn).toHaveLength(62);
    expect(builtIn.map((field: Field) => field.id)).toEqual(Array.from({ length: 62 }, (_, index) => index + 1));
    expect(builtIn.slice(0, 4).map((field: Field) => field.name)).toEqual([
      'bug_id',
      'short_desc',
      'classification',
      'product',
    ]);
    expect(builtIn.slice(-3).map((field: Field) => field.name)).toEqual(['bug_type', 'regressed_by', 'regresses']);
    for (const field of body.fields) {
      expect(Object.keys(field).sort()).toEqual([
        'display_name',
        'id',
        'is_custom',
        'is_mandatory',
        'is_on_bug_entry',
        'name',
        'type',
        'value_field',
        'values',
        'visibility_field',
        'visibility_values',
      ]);
    }
    expect(builtIn.find((field: Field) => field.name === 'short_desc')).toMatchObject({
      display_name: 'Summary',
      type: 0,
      is_mandatory: true,
      values: [],
    });
    expect(builtIn.find((field: Field) => field.name === 'priority').values.map((value: Value) => value.name)).toEqual([
      'Highest',
      'High',
      'Normal',
      'Low',
      'Lowest',
      '---',
    ]);
  });

  it('describes bug_status with the new-bug pseudo-value first and the workflow', async () => {
    const field = await getField('bug_status');
    expect(field).toMatchObject({ id: 9, display_name: 'Status', type: 2, value_field: null });
    expect(field.values[0]).toEqual({
      name: null,
      sort_key: 0,
      sortkey: 0,
      visibility_values: [],
      is_open: true,
      can_change_to: [
        { name: 'UNCONFIRMED', comment_required: false },
        { name: 'CONFIRMED', comment_required: false },
        { name: 'IN_PROGRESS', comment_required: false },
      ],
    });
    expect(field.values.slice(1).map((value) => [value.name, value.is_open, value.sort_key, value.sortkey])).toEqual([
      ['UNCONFIRMED', true, 100, 100],
      ['CONFIRMED', true, 200, 200],
      ['IN_PROGRESS', true, 300, 300],
      ['RESOLVED', false, 400, 400],
      ['VERIFIED', false, 500, 500],
    ]);
    const resolved = field.values.find((value) => value.name === 'RESOLVED')!;
    expect((resolved.can_change_to as Array<{ name: string }>).map((move) => move.name)).toEqual([
      'UNCONFIRMED',
      'CONFIRMED',
      'VERIFIED',
    ]);
  });

  it('gives components per product, and only of products the caller may see', async () => {
    const anonymous = await getField('component');
    expect(anonymous.value_field).toBe('product');
    const pairs = (field: Field) => field.values.map((value) => `${value.visibility_values.join('|')}/${value.name}`);
    expect(pairs(anonymous)).toEqual(['TestProduct/TestComponent', 'Widget/Bolts', 'Widget/Gears', 'Gadget/Gears']);
    expect(anonymous.values[0]).toEqual({
      name: 'TestComponent',
      sort_key: 0,
      sortkey: 0,
      visibility_values: ['TestProduct'],
      is_active: true,
    });
    expect(pairs(await getField('component', admin))).toContain('Secret/Vault');
    const versions = await getField('version');
    expect(versions.values.map((value) => `${value.visibility_values[0]}/${value.name}`)).toEqual([
      'TestProduct/unspecified',
      'Widget/1.0',
      'Gadget/2.0',
    ]);
    expect((await getField('target_milestone')).value_field).toBe('product');
    expect((await getField('product')).values).toEqual([]);
  });

  it('merges the path with ids and names and answers 51 for an unknown field', async () => {
    const { body } = await call(app, 'GET', '/rest/field/bug/priority', { query: { ids: '1', names: 'bug_severity' } });
    expect(body.fields.map((field: Field) => field.name)).toEqual(['bug_id', 'bug_severity', 'priority']);
    expect((await call(app, 'GET', '/rest/field/bug/14')).body.fields[0].name).toBe('priority');
    for (const path of ['/rest/field/bug/no_such_field', '/rest/field/bug/9999']) {
      const unknown = await call(app, 'GET', path);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: true, code: 51 });
    }
  });

  it('applies include_fields to fields and to their values', async () => {
    const { body } = await call(app, 'GET', '/rest/field/bug/rep_platform', {
      query: { include_fields: 'name,values.name' },
    });
    expect(body.fields).toEqual([
      { name: 'rep_platform', values: [{ name: 'All' }, { name: 'PC' }, { name: 'Macintosh' }, { name: 'Other' }] },
    ]);
    const namesOnly = await call(app, 'GET', '/rest/field/bug', { query: { include_fields: 'name' } });
    expect(namesOnly.body.fields[0]).toEqual({ name: 'bug_id' });
    const extra = await call(app, 'GET', '/rest/field/bug/priority', {
      query: { include_fields: '_default,is_obsolete', exclude_fields: 'values' },
    });
    expect(extra.body.fields[0]).toMatchObject({ name: 'priority', is_obsolete: false });
    expect(extra.body.fields[0]).not.toHaveProperty('values');
    expect(extra.body.fields[0]).not.toHaveProperty('sort_key');
  });
});

describe('custom fields', () => {
  let fieldId: number;

  it('refuses callers outside admin: 410 logged out, 304 otherwise', async () => {
    const body = { name: 'cf_nope', display_name: 'Nope', type: 1 };
    const anonymous = await call(app, 'POST', '/rest/field/bug', { body });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 410]);
    const plain = await call(app, 'POST', '/rest/field/bug', { apiKey: plainKey, body });
    expect([plain.status, plain.body.code]).toEqual([401, 304]);
  });

  it('creates a multi-select field shown for some products, audited as Tracker::Field', async () => {
    expect(await auditTime('Tracker::Field')).toBeNull();
    const created = await call(app, 'POST', '/rest/field/bug', {
      apiKey: admin,
      body: {
        name: 'cf_browsers',
        display_name: 'Browsers',
        type: 3,
        values: ['Firefox', { name: 'Chrome', sort_key: 5 }, 'Safari'],
        visibility_field: 'product',
        visibility_values: ['Widget', 'Gadget'],
        enter_bug: true,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    fieldId = created.body.id;
    expect(fieldId).toBeGreaterThan(1000);
    expect(await auditTime('Tracker::Field')).not.toBeNull();
    expect(await auditTime('Bugzilla::Field')).toBe(await auditTime('Tracker::Field'));

    const field = await getField('cf_browsers');
    expect(field).toEqual({
      id: fieldId,
      name: 'cf_browsers',
      display_name: 'Browsers',
      type: 3,
      is_custom: true,
      is_mandatory: false,
      is_on_bug_entry: true,
      visibility_field: 'product',
      visibility_values: ['Widget', 'Gadget'],
      value_field: null,
      values: [
        { name: 'Chrome', sort_key: 5, sortkey: 5, visibility_values: [] },
        { name: 'Firefox', sort_key: 10, sortkey: 10, visibility_values: [] },
        { name: 'Safari', sort_key: 20, sortkey: 20, visibility_values: [] },
      ],
    });
    const all = (await call(app, 'GET', '/rest/field/bug')).body.fields;
    expect(all.at(-1).name).toBe('cf_browsers');
    expect((await getField(String(fieldId))).name).toBe('cf_browsers');
  });

  it('refuses bad names, duplicates, unknown types and visibility values that do not exist', async () => {
    const refused = [
      { name: 'browsers', display_name: 'B', type: 1 },
      { name: 'cf_Browsers', display_name: 'B', type: 1 },
      { name: 'cf_browsers', display_name: 'Again', type: 1 },
      { name: 'cf_kind', display_name: 'Kind', type: 7 },
      {
        name: 'cf_kind',
        display_name: 'Kind',
        type: 2,
        visibility_field: 'product',
        visibility_values: ['NoSuchProduct'],
      },
    ];
    for (const body of refused) {
      const response = await call(app, 'POST', '/rest/field/bug', { apiKey: admin, body });
      expect([response.status, response.body.code], JSON.stringify(body)).toEqual([400, 32000]);
    }
  });

  it("updates a custom field's values with add and remove, reporting the changes", async () => {
    const before = (await auditTime('Tracker::Field'))!;
    nextSecond();
    const updated = await call(app, 'PUT', '/rest/field/bug/cf_browsers', {
      apiKey: admin,
      body: { display_name: 'Web browsers', values: { add: ['Edge'], remove: ['Safari'] }, mandatory: true },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.fields).toEqual([
      {
        id: fieldId,
        name: 'cf_browsers',
        changes: {
          display_name: { removed: 'Browsers', added: 'Web browsers' },
          is_mandatory: { removed: '0', added: '1' },
          values: { removed: 'Safari', added: 'Edge' },
        },
      },
    ]);
    expect((await auditTime('Tracker::Field'))! > before).toBe(true);
    const field = await getField('cf_browsers');
    expect(field.values.map((value) => value.name)).toEqual(['Chrome', 'Firefox', 'Edge']);
    expect(field).toMatchObject({ display_name: 'Web browsers', is_mandatory: true });
    const noop = await call(app, 'PUT', `/rest/field/bug/${fieldId}`, {
      apiKey: admin,
      body: { display_name: 'Web browsers' },
    });
    expect(noop.body.fields[0].changes).toEqual({});
    const cleared = await call(app, 'PUT', `/rest/field/bug/${fieldId}`, {
      apiKey: admin,
      body: { visibility_field: null },
    });
    expect(cleared.body.fields[0].changes).toEqual({
      visibility_field: { removed: 'product', added: '' },
      visibility_values: { removed: 'Widget, Gadget', added: '' },
    });
    expect(await getField('cf_browsers')).toMatchObject({ visibility_field: null, visibility_values: [] });
  });

  it('refuses to change built-in fields (32000) and unknown fields (51)', async () => {
    const builtIn = await call(app, 'PUT', '/rest/field/bug/priority', {
      apiKey: admin,
      body: { display_name: 'Urgency' },
    });
    expect([builtIn.status, builtIn.body.code]).toEqual([400, 32000]);
    const unknown = await call(app, 'PUT', '/rest/field/bug/cf_nothing', {
      apiKey: admin,
      body: { display_name: 'X' },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 51]);
    const plain = await call(app, 'PUT', '/rest/field/bug/cf_browsers', {
      apiKey: plainKey,
      body: { display_name: 'X' },
    });
    expect(plain.body.code).toBe(304);
  });

  it('leaves obsolete fields out of the full list but answers them by name', async () => {
    const created = await call(app, 'POST', '/rest/field/bug', {
      apiKey: admin,
      body: { name: 'cf_old_notes', description: 'Old notes', type: 4, obsolete: true },
    });
    expect(created.status).toBe(200);
    const all = (await call(app, 'GET', '/rest/field/bug')).body.fields.map((field: Field) => field.name);
    expect(all).not.toContain('cf_old_notes');
    expect(all).toContain('cf_browsers');
    expect((await getField('cf_old_notes')).type).toBe(4);
  });
});

describe('legal values (deprecated)', () => {
  const values = (path: string, apiKey?: string) => call(app, 'GET', `/rest/field/bug/${path}`, { apiKey });

  it("lists a drop-down field's values by stored or bug-call name", async () => {
    expect((await values('priority/values')).body).toEqual({
      values: ['Highest', 'High', 'Normal', 'Low', 'Lowest', '---'],
    });
    expect((await values('status/values')).body).toEqual({
      values: ['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS', 'RESOLVED', 'VERIFIED'],
    });
    expect((await values('type/values')).body).toEqual({ values: ['defect', 'enhancement', 'task'] });
    expect((await values('cf_browsers/values')).body).toEqual({ values: ['Chrome', 'Firefox', 'Edge'] });
  });

  it("lists a product's components, versions and milestones", async () => {
    expect((await values(`component/${productIds.Widget}/values`)).body).toEqual({ values: ['Bolts', 'Gears'] });
    expect((await values(`version/${productIds.Gadget}/values`)).body).toEqual({ values: ['2.0'] });
    expect((await values(`target_milestone/${productIds.Widget}/values`)).body).toEqual({ values: ['---'] });
    expect((await values(`component/${productIds.Secret}/values`, admin)).body).toEqual({ values: ['Vault'] });
  });

  it('answers 50 without a product, 106 for an unknown or inaccessible one, 108 for a field that is not a drop-down', async () => {
    const missing = await values('component/values');
    expect([missing.status, missing.body.code]).toEqual([400, 50]);
    for (const path of ['component/99999/values', `component/${productIds.Secret}/values`, 'version/Widget/values']) {
      const refused = await values(path, plainKey);
      expect([refused.status, refused.body.code], path).toEqual([401, 106]);
    }
    for (const path of ['no_such_field/values', 'short_desc/values', 'keywords/values', 'cf_old_notes/values']) {
      const refused = await values(path);
      expect([refused.status, refused.body.code], path).toEqual([400, 108]);
    }
  });
});

describe('keywords', () => {
  let keywordId: number;

  it('is created by editkeywords members only, audited as Tracker::Keyword', async () => {
    expect(await auditTime('Tracker::Keyword')).toBeNull();
    const anonymous = await call(app, 'POST', '/rest/keyword', { body: { name: 'crash', description: 'Crashes' } });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 410]);
    const plain = await call(app, 'POST', '/rest/keyword', {
      apiKey: plainKey,
      body: { name: 'crash', description: 'Crashes' },
    });
    expect([plain.status, plain.body.code]).toEqual([401, 304]);
    const created = await call(app, 'POST', '/rest/keyword', {
      apiKey: keyworderKey,
      body: { name: 'crash', description: 'The program crashes' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    keywordId = created.body.id;
    expect(await auditTime('Tracker::Keyword')).not.toBeNull();
    expect(
      (
        await call(app, 'POST', '/rest/keyword', {
          apiKey: admin,
          body: { name: 'regression', description: 'It used to work' },
        })
      ).status,
    ).toBe(200);
  });

  it('refuses duplicate names in any case, spaces, commas and blank descriptions', async () => {
    for (const body of [
      { name: 'CRASH', description: 'x' },
      { name: 'two words', description: 'x' },
      { name: 'a,b', description: 'x' },
      { name: 'fine', description: ' ' },
    ]) {
      const response = await call(app, 'POST', '/rest/keyword', { apiKey: keyworderKey, body });
      expect([response.status, response.body.code], JSON.stringify(body)).toEqual([400, 32000]);
    }
  });

  it('lists keywords publicly, and offers the active ones as values of the keywords field', async () => {
    const { body } = await call(app, 'GET', '/rest/keyword');
    expect(body.keywords).toEqual([
      { id: keywordId, name: 'crash', description: 'The program crashes', is_active: true },
      { id: expect.any(Number), name: 'regression', description: 'It used to work', is_active: true },
    ]);
    const field = await getField('keywords');
    expect(field.values.map((value) => [value.name, value.description])).toEqual([
      ['crash', 'The program crashes'],
      ['regression', 'It used to work'],
    ]);
  });

  it('updates a keyword by name, reporting changes; an inactive keyword is no longer a legal value', async () => {
    const before = (await auditTime('Tracker::Keyword'))!;
    nextSecond();
    const updated = await call(app, 'PUT', '/rest/keyword/regression', {
      apiKey: keyworderKey,
      body: { name: 'regressed', is_active: false },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toEqual({
      keywords: [
        {
          id: expect.any(Number),
          changes: { name: { removed: 'regression', added: 'regressed' }, is_active: { removed: '1', added: '0' } },
        },
      ],
    });
    expect((await auditTime('Tracker::Keyword'))! > before).toBe(true);
    expect((await getField('keywords')).values.map((value) => value.name)).toEqual(['crash']);
    expect((await call(app, 'GET', `/rest/keyword/regressed`)).body.keywords[0]).toMatchObject({
      name: 'regressed',
      is_active: false,
    });
    const renamedOnto = await call(app, 'PUT', `/rest/keyword/${keywordId}`, {
      apiKey: keyworderKey,
      body: { name: 'Regressed' },
    });
    expect([renamedOnto.status, renamedOnto.body.code]).toEqual([400, 32000]);
    const caseOnly = await call(app, 'PUT', `/rest/keyword/${keywordId}`, {
      apiKey: keyworderKey,
      body: { name: 'Crash' },
    });
    expect(caseOnly.body.keywords[0].changes).toEqual({ name: { removed: 'crash', added: 'Crash' } });
    const unknown = await call(app, 'PUT', '/rest/keyword/nothing', {
      apiKey: keyworderKey,
      body: { description: 'x' },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 51]);
  });
});
