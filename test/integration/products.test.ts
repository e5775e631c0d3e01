import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSecond, useSteppableClock } from '../support/clock.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

let app: TestApp;
let admin: string;
let outsiderKey: string;
let insiderKey: string;
let plainKey: string;

async function userWithKey(name: string, groups: string[] = []): Promise<string> {
  const id = (
    await call(app, 'POST', '/rest/user', {
      apiKey: admin,
      body: { email: `${name}@tracker.test`, password: `${name}-pw` },
    })
  ).body.id;
  if (groups.length > 0)
    await call(app, 'PUT', `/rest/user/${id}`, { apiKey: admin, body: { groups: { add: groups } } });
  return (await call(app, 'POST', `/rest/user/${id}/api_key`, { apiKey: admin, body: {} })).body.api_key;
}

useSteppableClock();
beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'insiders', description: 'Insiders' } });
  await call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'partners', description: 'Partners' } });
  plainKey = await userWithKey('plain');
  outsiderKey = await userWithKey('outsider');
  insiderKey = await userWithKey('insider', ['insiders']);
});
afterAll(async () => {
  await app?.close();
});

describe('a new installation', () => {
  it('has TestProduct shaped like Bugzilla 5.2 answers it', async () => {
    const { body } = await call(app, 'GET', '/rest/product/1');
    expect(body.products).toHaveLength(1);
    const [product] = body.products;
    expect(product).toMatchObject({
      id: 1,
      name: 'TestProduct',
      classification: 'Unclassified',
      default_milestone: '---',
      has_unconfirmed: true,
      is_active: true,
      versions: [{ id: expect.any(Number), name: 'unspecified', sort_key: 0, is_active: true }],
      milestones: [{ id: expect.any(Number), name: '---', sort_key: 0, is_active: true }],
    });
    expect(product.components).toEqual([
      expect.objectContaining({
        name: 'TestComponent',
        default_assigned_to: app.admin.login,
        default_qa_contact: '',
        triage_owner: '',
        sort_key: 0,
        is_active: true,
        flag_types: { bug: [], attachment: [] },
      }),
    ]);
    expect(product).not.toHaveProperty('group_controls');
  });

  it("answers python-bugzilla's GET /rest/product/get?ids=1 with product 1", async () => {
    const { body } = await call(app, 'GET', '/rest/product/get', { query: { ids: '1' } });
    expect(body.products.map((product: { id: number }) => product.id)).toEqual([1]);
  });

  it('leaves out unknown products silently', async () => {
    expect((await call(app, 'GET', '/rest/product', { query: { names: 'NoSuchProduct', ids: '999' } })).body).toEqual({
      products: [],
    });
  });

  it('applies include_fields subfields such as components.name', async () => {
    const { body } = await call(app, 'GET', '/rest/product/TestProduct', {
      query: { include_fields: 'name,components.name' },
    });
    expect(body.products).toEqual([{ name: 'TestProduct', components: [{ name: 'TestComponent' }] }]);
    const excluded = await call(app, 'GET', '/rest/product/TestProduct', {
      query: { exclude_fields: 'components.flag_types,versions,milestones' },
    });
    expect(excluded.body.products[0]).not.toHaveProperty('versions');
    expect(excluded.body.products[0].components[0]).not.toHaveProperty('flag_types');
    expect(excluded.body.products[0].components[0]).toHaveProperty('name');
  });
});

describe('creating and updating products', () => {
  it('creates a product with its first version and default milestone', async () => {
    const created = await call(app, 'POST', '/rest/product', {
      apiKey: admin,
      body: { name: 'Widget', description: 'Widgets', version: '1.0', default_milestone: 'M1', has_unconfirmed: false },
    });
    expect(created.status).toBe(200);
    const [product] = (await call(app, 'GET', `/rest/product/${created.body.id}`)).body.products;
    expect(product).toMatchObject({
      name: 'Widget',
      default_milestone: 'M1',
      has_unconfirmed: false,
      versions: [{ name: '1.0' }],
      milestones: [{ name: 'M1' }],
    });
  });

  it('answers the spec errors 51, 700-704 and 304', async () => {
    const make = (body: object, apiKey = admin) => call(app, 'POST', '/rest/product', { apiKey, body });
    expect((await make({ name: ' ', description: 'd', version: '1' })).body.code).toBe(700);
    expect((await make({ name: 'x'.repeat(65), description: 'd', version: '1' })).body.code).toBe(701);
    expect((await make({ name: 'widget', description: 'd', version: '1' })).body.code).toBe(702);
    expect((await make({ name: 'NoDescription', version: '1' })).body.code).toBe(703);
    expect((await make({ name: 'NoVersion', description: 'd' })).body.code).toBe(704);
    const unknownClassification = await make({
      name: 'Lost',
      description: 'd',
      version: '1',
      classification: 'Nowhere',
    });
    expect(unknownClassification.status).toBe(404);
    expect(unknownClassification.body.code).toBe(51);
    expect((await make({ name: 'Denied', description: 'd', version: '1' }, plainKey)).body.code).toBe(304);
  });

  it('reports changes with booleans as 1/0, an empty object for a no-op, and refuses a default milestone that does not exist (705)', async () => {
    const changed = await call(app, 'PUT', '/rest/product/Widget', {
      apiKey: admin,
      body: { description: 'Better widgets', has_unconfirmed: true, is_open: true },
    });
    expect(changed.body.products[0].changes).toEqual({
      description: { removed: 'Widgets', added: 'Better widgets' },
      has_unconfirmed: { removed: '0', added: '1' },
    });
    const noop = await call(app, 'PUT', '/rest/product/Widget', {
      apiKey: admin,
      body: { description: 'Better widgets' },
    });
    expect(noop.body.products[0].changes).toEqual({});
    expect(
      (await call(app, 'PUT', '/rest/product/Widget', { apiKey: admin, body: { default_milestone: 'M9' } })).body.code,
    ).toBe(705);
    const unknown = await call(app, 'PUT', '/rest/product/NoSuchProduct', {
      apiKey: admin,
      body: { description: 'x' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe(106);
    expect(
      (await call(app, 'PUT', '/rest/product/Widget', { apiKey: admin, body: { name: 'TestProduct' } })).body.code,
    ).toBe(702);
    expect(
      (await call(app, 'PUT', '/rest/product/Widget', { apiKey: admin, body: { description: '' } })).body.code,
    ).toBe(703);
    expect(
      (await call(app, 'PUT', '/rest/product/Widget', { apiKey: admin, body: { ids: [1], name: 'Both' } })).body.code,
    ).toBe(700);
  });
});

describe('versions and milestones', () => {
  it('adds and updates versions and milestones, refusing duplicates and disabling the default milestone', async () => {
    const version = await call(app, 'POST', '/rest/product/Widget/version', {
      apiKey: admin,
      body: { name: '2.0', sort_key: 20 },
    });
    expect(version.body.id).toBeGreaterThan(0);
    expect(
      (await call(app, 'POST', '/rest/product/Widget/version', { apiKey: admin, body: { name: '2.0' } })).status,
    ).toBe(400);
    const renamed = await call(app, 'PUT', '/rest/product/Widget/version/2.0', {
      apiKey: admin,
      body: { name: '2.0.1', is_active: false },
    });
    expect(renamed.body).toEqual({
      versions: [
        {
          id: version.body.id,
          changes: { name: { removed: '2.0', added: '2.0.1' }, is_active: { removed: '1', added: '0' } },
        },
      ],
    });
    await call(app, 'POST', '/rest/product/Widget/milestone', { apiKey: admin, body: { name: 'M2', sort_key: 2 } });
    expect(
      (await call(app, 'PUT', '/rest/product/Widget/milestone/M1', { apiKey: admin, body: { is_active: false } }))
        .status,
    ).toBe(400);
    const [product] = (await call(app, 'GET', '/rest/product/Widget')).body.products;
    expect(product.versions.map((value: { name: string }) => value.name)).toEqual(['1.0', '2.0.1']);
    expect(product.milestones.map((value: { name: string }) => value.name)).toEqual(['M1', 'M2']);
    expect(
      (await call(app, 'PUT', '/rest/product/Widget/version/9.9', { apiKey: admin, body: { name: 'x' } })).body.code,
    ).toBe(51);
  });
});

describe('components', () => {
  it("creates components with Bugzilla's errors", async () => {
    const make = (body: object, apiKey = admin) => call(app, 'POST', '/rest/component', { apiKey, body });
    const base = { product: 'Widget', description: 'Gears', default_assignee: app.admin.login };
    const created = await make({
      ...base,
      name: 'Gears',
      default_qa_contact: 'plain@tracker.test',
      default_cc: ['insider@tracker.test'],
    });
    expect(created.body.id).toBeGreaterThan(0);
    expect((await make({ ...base, name: 'gears' })).body.code).toBe(1200);
    expect((await make({ ...base, name: 'x'.repeat(65) })).body.code).toBe(105);
    expect((await make({ ...base, name: 'Ghost', default_assignee: 'nobody@tracker.test' })).body.code).toBe(51);
    expect((await make({ ...base, name: 'Lost', product: 'NoSuchProduct' })).body.code).toBe(106);
    expect((await make({ ...base, name: ' ' })).body.code).toBe(32000);
    expect((await make({ ...base, name: 'NoDescription', description: undefined })).body.code).toBe(32000);
    expect((await make({ product: 'Widget', name: 'NoAssignee', description: 'd' })).body.code).toBe(32000);
    expect((await make({ ...base, name: 'Denied' }, plainKey)).body.code).toBe(304);

    const [product] = (await call(app, 'GET', '/rest/product/Widget')).body.products;
    expect(product.components).toEqual([
      expect.objectContaining({
        name: 'Gears',
        default_assigned_to: app.admin.login,
        default_qa_contact: 'plain@tracker.test',
      }),
    ]);
  });

  it('updates a component by id or by product and name', async () => {
    const [product] = (await call(app, 'GET', '/rest/product/Widget')).body.products;
    const id = product.components[0].id;
    const byName = await call(app, 'PUT', '/rest/component/Widget/Gears', {
      apiKey: admin,
      body: { description: 'Cogs and gears', sort_key: 5 },
    });
    expect(byName.body).toEqual({
      components: [
        {
          id,
          changes: {
            description: { removed: 'Gears', added: 'Cogs and gears' },
            sort_key: { removed: '0', added: '5' },
          },
        },
      ],
    });
    const byId = await call(app, 'PUT', `/rest/component/${id}`, {
      apiKey: admin,
      body: { triage_owner: 'plain@tracker.test', is_active: false },
    });
    expect(byId.body.components[0].changes).toEqual({
      triage_owner: { removed: '', added: 'plain@tracker.test' },
      is_active: { removed: '1', added: '0' },
    });
    expect(
      (await call(app, 'PUT', '/rest/component/Widget/NoSuch', { apiKey: admin, body: { description: 'x' } })).body
        .code,
    ).toBe(51);
  });

  it('deletes a component without bugs but never the last one (1201)', async () => {
    await call(app, 'POST', '/rest/component', {
      apiKey: admin,
      body: { product: 'Widget', name: 'Spare', description: 'Spare parts', default_assignee: app.admin.login },
    });
    const deleted = await call(app, 'DELETE', '/rest/component/Widget/Spare', { apiKey: admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.components).toHaveLength(1);
    const last = await call(app, 'DELETE', '/rest/component/Widget/Gears', { apiKey: admin });
    expect(last.body.code).toBe(1201);
  });
});

describe('product access through group controls', () => {
  beforeAll(async () => {
    const created = await call(app, 'POST', '/rest/product', {
      apiKey: admin,
      body: {
        name: 'Secret',
        description: 'Restricted to insiders',
        version: '1.0',
        group_controls: [{ group: 'insiders', entry: true, membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' }],
      },
    });
    expect(created.status).toBe(200);
    await call(app, 'POST', '/rest/component', {
      apiKey: admin,
      body: { product: 'Secret', name: 'Vault', description: 'The vault', default_assignee: app.admin.login },
    });
    const partner = await call(app, 'POST', '/rest/product', {
      apiKey: admin,
      body: {
        name: 'PartnerPortal',
        description: 'Visible to all, entered by partners',
        version: '1.0',
        group_controls: [{ group: 'partners', entry: true, membercontrol: 'SHOWN', othercontrol: 'NA' }],
      },
    });
    expect(partner.status).toBe(200);
    await call(app, 'POST', '/rest/component', {
      apiKey: admin,
      body: { product: 'PartnerPortal', name: 'Web', description: 'Web', default_assignee: app.admin.login },
    });
  });

  const names = async (path: string, apiKey?: string) => {
    const { body } = await call(app, 'GET', path, { apiKey });
    const ids: string[] = body.ids;
    const all = (await call(app, 'GET', '/rest/product', { apiKey: admin, query: { ids: ids.join(',') || '0' } })).body
      .products;
    return all.map((product: { name: string }) => product.name).sort();
  };

  it('hides a mandatory-group product from outsiders and shows it to members', async () => {
    expect(await names('/rest/product_accessible', outsiderKey)).not.toContain('Secret');
    expect(await names('/rest/product_accessible')).not.toContain('Secret');
    expect(await names('/rest/product_accessible', insiderKey)).toContain('Secret');
    expect((await call(app, 'GET', '/rest/product/Secret', { apiKey: outsiderKey })).body.products).toEqual([]);
    expect((await call(app, 'GET', '/rest/product/Secret', { apiKey: insiderKey })).body.products).toHaveLength(1);
  });

  it('lets everyone search a product whose entry is restricted, but only entry-group members enter bugs', async () => {
    expect(await names('/rest/product_selectable', outsiderKey)).toContain('PartnerPortal');
    expect(await names('/rest/product_enterable', outsiderKey)).not.toContain('PartnerPortal');
    expect(await names('/rest/product_enterable', admin)).toContain('PartnerPortal');
  });

  it('sends product ids as strings, as the spec shows', async () => {
    const { body } = await call(app, 'GET', '/rest/product_accessible');
    expect(body.ids).toContain('1');
  });

  it('merges several types without duplicates', async () => {
    const { body } = await call(app, 'GET', '/rest/product', {
      apiKey: outsiderKey,
      query: { type: ['selectable', 'enterable'], include_fields: 'name' },
    });
    const productNames = body.products.map((product: { name: string }) => product.name);
    expect(new Set(productNames).size).toBe(productNames.length);
    expect(productNames).toContain('PartnerPortal');
  });

  it('shows group controls to editcomponents only, as an extra field', async () => {
    const { body } = await call(app, 'GET', '/rest/product/Secret', {
      apiKey: admin,
      query: { include_fields: 'name,group_controls' },
    });
    expect(body.products[0].group_controls).toEqual([
      {
        group: 'insiders',
        entry: true,
        membercontrol: 'MANDATORY',
        othercontrol: 'MANDATORY',
        canedit: false,
        editcomponents: false,
        editbugs: false,
        canconfirm: false,
      },
    ]);
    const insider = await call(app, 'GET', '/rest/product/Secret', {
      apiKey: insiderKey,
      query: { include_fields: '_all' },
    });
    expect(insider.body.products[0]).not.toHaveProperty('group_controls');
  });

  it('refuses contradictory controls and groups that are not bug groups', async () => {
    const contradictory = await call(app, 'PUT', '/rest/product/Widget', {
      apiKey: admin,
      body: { group_controls: [{ group: 'insiders', membercontrol: 'NA', othercontrol: 'SHOWN' }] },
    });
    expect(contradictory.status).toBe(400);
    const systemGroup = await call(app, 'PUT', '/rest/product/Widget', {
      apiKey: admin,
      body: { group_controls: [{ group: 'admin', membercontrol: 'SHOWN' }] },
    });
    expect(systemGroup.status).toBe(400);
  });
});

describe('product-specific administration', () => {
  it('lets members of a group with editcomponents on a product manage that product only', async () => {
    await call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'widgeteers', description: 'Widget team' } });
    const teamKey = await userWithKey('widgeteer', ['widgeteers']);
    await call(app, 'PUT', '/rest/product/Widget', {
      apiKey: admin,
      body: {
        group_controls: [{ group: 'widgeteers', membercontrol: 'SHOWN', othercontrol: 'SHOWN', editcomponents: true }],
      },
    });

    const component = await call(app, 'POST', '/rest/component', {
      apiKey: teamKey,
      body: { product: 'Widget', name: 'Springs', description: 'Springs', default_assignee: app.admin.login },
    });
    expect(component.status, component.text).toBe(200);
    expect(
      (await call(app, 'POST', '/rest/product/Widget/version', { apiKey: teamKey, body: { name: '3.0' } })).status,
    ).toBe(200);
    expect(
      (
        await call(app, 'PUT', '/rest/product/Widget', {
          apiKey: teamKey,
          body: { description: 'Widgets by the team' },
        })
      ).status,
    ).toBe(200);

    const elsewhere = await call(app, 'POST', '/rest/component', {
      apiKey: teamKey,
      body: { product: 'TestProduct', name: 'Intruder', description: 'x', default_assignee: app.admin.login },
    });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.code).toBe(304);
    expect(
      (
        await call(app, 'PUT', '/rest/product/Widget', {
          apiKey: teamKey,
          body: { group_controls: [{ group: 'widgeteers', membercontrol: 'NA', othercontrol: 'NA' }] },
        })
      ).body.code,
    ).toBe(304);
    expect(
      (
        await call(app, 'POST', '/rest/product', {
          apiKey: teamKey,
          body: { name: 'Gadget', description: 'd', version: '1' },
        })
      ).body.code,
    ).toBe(304);
    expect(
      (
        await call(app, 'POST', '/rest/component', {
          apiKey: plainKey,
          body: { product: 'Widget', name: 'Nope', description: 'x', default_assignee: app.admin.login },
        })
      ).body.code,
    ).toBe(304);
  });
});

describe('classifications', () => {
  // Others than editclassifications read classifications only while they are in use (5.2: 900).
  beforeAll(async () => {
    await call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { useclassification: '1' } });
  });

  it('creates, reads and updates classifications with their visible products', async () => {
    const created = await call(app, 'POST', '/rest/classification', {
      apiKey: admin,
      body: { name: 'Hardware', description: 'Physical things', sort_key: 10 },
    });
    expect(created.body.id).toBeGreaterThan(1);
    await call(app, 'PUT', '/rest/product/Widget', { apiKey: admin, body: { classification: 'Hardware' } });
    const { body } = await call(app, 'GET', '/rest/classification/Hardware');
    expect(body.classifications).toEqual([
      {
        id: created.body.id,
        name: 'Hardware',
        description: 'Physical things',
        sort_key: 10,
        products: [expect.objectContaining({ name: 'Widget' })],
      },
    ]);
    const updated = await call(app, 'PUT', `/rest/classification/${created.body.id}`, {
      apiKey: admin,
      body: { description: 'Things you can touch' },
    });
    expect(updated.body.classifications[0].changes).toEqual({
      description: { removed: 'Physical things', added: 'Things you can touch' },
    });
    expect((await call(app, 'GET', '/rest/classification/Nowhere')).body.code).toBe(51);
    expect((await call(app, 'POST', '/rest/classification', { apiKey: plainKey, body: { name: 'X' } })).body.code).toBe(
      304,
    );
    expect(
      (await call(app, 'POST', '/rest/classification', { apiKey: admin, body: { name: 'hardware' } })).status,
    ).toBe(400);
  });

  it('hides restricted products in a classification from outsiders', async () => {
    const unclassified = await call(app, 'GET', '/rest/classification/Unclassified', { apiKey: outsiderKey });
    expect(
      unclassified.body.classifications[0].products.map((product: { name: string }) => product.name),
    ).not.toContain('Secret');
  });
});

describe('audit', () => {
  it('records each catalogue class, so last_audit_time can be asked per class', async () => {
    for (const auditClass of [
      'Tracker::Product',
      'Tracker::Component',
      'Tracker::Version',
      'Tracker::Milestone',
      'Tracker::Classification',
    ]) {
      const { body } = await call(app, 'GET', '/rest/last_audit_time', { query: { class: auditClass } });
      expect(body.last_audit_time, auditClass).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const before = (await call(app, 'GET', '/rest/last_audit_time', { query: { class: 'Tracker::Product' } })).body
      .last_audit_time;
    nextSecond();
    await call(app, 'PUT', '/rest/product/Widget', { apiKey: admin, body: { description: `Audited ${Date.now()}` } });
    const after = (await call(app, 'GET', '/rest/last_audit_time', { query: { class: 'Tracker::Product' } })).body
      .last_audit_time;
    expect(after > before).toBe(true);
  });
});
