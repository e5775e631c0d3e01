import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Issue #4's acceptance: an administrator builds a realistic installation through the API
 * alone (two classifications, three products with components, versions, milestones, flag types,
 * keywords, a custom field, a restricted product) and the field definitions reflect all of it.
 */
let app: TestApp;
let admin: string;

const ok = async (method: string, path: string, body: object) => {
  const response = await call(app, method, path, { apiKey: admin, body });
  expect(response.status, `${method} ${path}: ${response.text}`).toBe(200);
  return response.body;
};

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;

  await ok('PUT', '/rest/parameters', { useclassification: true });
  await ok('POST', '/rest/classification', { name: 'Client Software', description: 'Desktop and mobile' });
  await ok('POST', '/rest/classification', { name: 'Services', description: 'What runs on servers' });
  await ok('POST', '/rest/group', { name: 'security', description: 'Security team' });
  await ok('POST', '/rest/user', { email: 'dev@example.org', full_name: 'Dev Eloper', password: 'dev-password' });
  await ok('POST', '/rest/user', { email: 'qa@example.org', full_name: 'Q. A.', password: 'qa-password' });

  const products = [
    {
      name: 'Desktop',
      classification: 'Client Software',
      components: ['UI', 'Installer'],
      versions: ['1.0', '1.1'],
      milestones: ['1.1', '2.0'],
    },
    {
      name: 'Mobile',
      classification: 'Client Software',
      components: ['Android', 'iOS'],
      versions: ['3.0'],
      milestones: ['3.1'],
    },
    {
      name: 'Backend',
      classification: 'Services',
      components: ['API', 'Database'],
      versions: ['2024.1'],
      milestones: ['Q3'],
    },
  ];
  for (const product of products) {
    await ok('POST', '/rest/product', {
      name: product.name,
      description: `${product.name} product`,
      version: product.versions[0],
      classification: product.classification,
    });
    for (const version of product.versions.slice(1))
      await ok('POST', `/rest/product/${product.name}/version`, { name: version });
    for (const milestone of product.milestones)
      await ok('POST', `/rest/product/${product.name}/milestone`, { name: milestone });
    for (const component of product.components) {
      await ok('POST', '/rest/component', {
        product: product.name,
        name: component,
        description: `${component} of ${product.name}`,
        default_assignee: 'dev@example.org',
        default_qa_contact: 'qa@example.org',
      });
    }
  }
  await ok('POST', '/rest/product', {
    name: 'Vulnerabilities',
    description: 'Embargoed security reports',
    version: 'unspecified',
    classification: 'Services',
    group_controls: [{ group: 'security', entry: true, membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' }],
  });
  await ok('POST', '/rest/component', {
    product: 'Vulnerabilities',
    name: 'Reports',
    description: 'Reports',
    default_assignee: 'dev@example.org',
  });

  await ok('POST', '/rest/flag_type', {
    name: 'review',
    description: 'Code review',
    target_type: 'attachment',
    inclusions: ['Desktop', 'Backend:API'],
  });
  await ok('POST', '/rest/flag_type', {
    name: 'blocker',
    description: 'Blocks the release',
    inclusions: ['Desktop'],
    exclusions: ['Desktop:Installer'],
  });
  await ok('POST', '/rest/keyword', { name: 'regression', description: 'Worked before' });
  await ok('POST', '/rest/keyword', { name: 'crash', description: 'The program crashes' });
  await ok('POST', '/rest/field/bug', {
    name: 'cf_platforms',
    display_name: 'Affected platforms',
    type: 3,
    values: ['Windows 11', 'macOS 15', 'Ubuntu 24.04'],
    visibility_field: 'product',
    visibility_values: ['Desktop'],
    is_on_bug_entry: true,
  });
});
afterAll(async () => {
  await app?.close();
});

const fieldNamed = async (name: string, apiKey?: string) => {
  const { body } = await call(app, 'GET', `/rest/field/bug/${name}`, { apiKey });
  expect(body.fields, name).toHaveLength(1);
  return body.fields[0];
};

describe('a realistic installation built through the API', () => {
  it('lists the products, with their classifications, components, versions and milestones', async () => {
    const { body } = await call(app, 'GET', '/rest/product', {
      apiKey: admin,
      query: { include_fields: 'name,classification,components.name,versions.name,milestones.name' },
    });
    const byName = Object.fromEntries(body.products.map((product: { name: string }) => [product.name, product]));
    expect(byName.Desktop).toEqual({
      name: 'Desktop',
      classification: 'Client Software',
      components: [{ name: 'Installer' }, { name: 'UI' }],
      versions: [{ name: '1.0' }, { name: '1.1' }],
      milestones: [{ name: '---' }, { name: '1.1' }, { name: '2.0' }],
    });
    expect(byName.Backend.classification).toBe('Services');
    expect(Object.keys(byName).sort()).toEqual(['Backend', 'Desktop', 'Mobile', 'TestProduct', 'Vulnerabilities']);
  });

  it('restricts the security product to its group', async () => {
    const dev = (await call(app, 'POST', '/rest/user/dev@example.org/api_key', { apiKey: admin, body: {} })).body
      .api_key;
    const { body } = await call(app, 'GET', '/rest/product', { apiKey: dev, query: { include_fields: 'name' } });
    expect(body.products.map((product: { name: string }) => product.name)).not.toContain('Vulnerabilities');
    const services = await call(app, 'GET', '/rest/classification/Services', { apiKey: dev });
    expect(services.body.classifications[0].products.map((product: { name: string }) => product.name)).toEqual([
      'Backend',
    ]);
  });

  it('attaches flag types to the components they include and not to excluded ones', async () => {
    const { body } = await call(app, 'GET', '/rest/product/Desktop');
    const components = Object.fromEntries(
      body.products[0].components.map((component: { name: string }) => [component.name, component]),
    );
    expect(components.UI.flag_types.bug.map((type: { name: string }) => type.name)).toEqual(['blocker']);
    expect(components.UI.flag_types.attachment.map((type: { name: string }) => type.name)).toEqual(['review']);
    expect(components.Installer.flag_types.bug).toEqual([]);
    const backend = await call(app, 'GET', '/rest/flag_type/Backend/Database');
    expect(backend.body).toEqual({ bug: [], attachment: [] });
  });

  it('reflects everything in the field definitions', async () => {
    const component = await fieldNamed('component');
    expect(component.value_field).toBe('product');
    const desktopComponents = component.values.filter((value: { visibility_values: string[] }) =>
      value.visibility_values.includes('Desktop'),
    );
    expect(desktopComponents.map((value: { name: string }) => value.name).sort()).toEqual(['Installer', 'UI']);

    const version = await fieldNamed('version');
    expect(version.values).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: '2024.1', visibility_values: ['Backend'] })]),
    );
    const milestone = await fieldNamed('target_milestone');
    expect(milestone.values).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Q3', visibility_values: ['Backend'] })]),
    );

    const keywords = await fieldNamed('keywords');
    expect(keywords.values).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'crash', description: 'The program crashes' }),
        expect.objectContaining({ name: 'regression', description: 'Worked before' }),
      ]),
    );

    const custom = await fieldNamed('cf_platforms');
    expect(custom).toMatchObject({
      is_custom: true,
      type: 3,
      display_name: 'Affected platforms',
      visibility_field: 'product',
      visibility_values: ['Desktop'],
      is_on_bug_entry: true,
    });
    expect(custom.values.map((value: { name: string }) => value.name)).toEqual([
      'Windows 11',
      'macOS 15',
      'Ubuntu 24.04',
    ]);

    const status = await fieldNamed('bug_status');
    expect(status.values[0]).toMatchObject({ name: null });
    expect(status.values.slice(1).map((value: { name: string }) => value.name)).toEqual([
      'UNCONFIRMED',
      'CONFIRMED',
      'IN_PROGRESS',
      'RESOLVED',
      'VERIFIED',
    ]);
  });

  it('answers legal values for the new products', async () => {
    const [backend] = (await call(app, 'GET', '/rest/product/Backend')).body.products;
    const { body } = await call(app, 'GET', `/rest/field/bug/component/${backend.id}/values`);
    expect(body.values).toEqual(['API', 'Database']);
  });

  it('reports the latest change of every catalogue class', async () => {
    for (const auditClass of [
      'Product',
      'Component',
      'Version',
      'Milestone',
      'Classification',
      'FlagType',
      'Keyword',
      'Field',
      'Group',
      'User',
      'Config',
    ]) {
      const { body } = await call(app, 'GET', '/rest/last_audit_time', { query: { class: `Tracker::${auditClass}` } });
      expect(body.last_audit_time, auditClass).toMatch(/Z$/);
    }
  });
});
