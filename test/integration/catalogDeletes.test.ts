import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Deleting keywords, products, versions, milestones and flag types (Tracker's additions, as
 * Bugzilla's edit*.cgi pages delete them): each goes when unused, is refused with the number of
 * bugs while in use, is refused to callers without the group, and is gone from every listing after.
 */
let app: TestApp;
let admin: string;
let plainKey: string;
let productAdminKey: string;

async function userWithKey(name: string, groups: string[] = []): Promise<string> {
  const id = (
    await call(app, 'POST', '/rest/user', {
      apiKey: admin,
      body: { email: `${name}@tracker.test`, password: `${name}-password-1` },
    })
  ).body.id;
  if (groups.length > 0)
    await call(app, 'PUT', `/rest/user/${id}`, { apiKey: admin, body: { groups: { add: groups } } });
  return (await call(app, 'POST', `/rest/user/${id}/api_key`, { apiKey: admin, body: {} })).body.api_key;
}

async function ok(response: Promise<{ status: number; body: any }>) {
  const { status, body } = await response;
  if (status !== 200) throw new Error(JSON.stringify(body));
  return body;
}

const post = (path: string, body: Record<string, unknown>) => ok(call(app, 'POST', path, { apiKey: admin, body }));
const remove = (path: string, apiKey?: string) => call(app, 'DELETE', path, apiKey ? { apiKey } : {});

async function newProduct(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const { id } = await post('/rest/product', { name, description: `${name} things`, version: '1.0', ...extra });
  await post('/rest/component', {
    product: name,
    name: 'Main',
    description: 'Main',
    default_assignee: app.admin.login,
  });
  return id;
}

const fileBug = async (product: string, extra: Record<string, unknown> = {}): Promise<number> =>
  (
    await post('/rest/bug', {
      product,
      component: 'Main',
      version: '1.0',
      summary: 'A bug',
      description: 'Described',
      op_sys: 'Linux',
      platform: 'PC',
      ...extra,
    })
  ).id;

const productNamed = async (name: string) =>
  (await call(app, 'GET', `/rest/product/${encodeURIComponent(name)}`, { apiKey: admin })).body.products[0];

const countOf = async (query: Record<string, string>) =>
  (await call(app, 'GET', '/rest/bug', { apiKey: admin, query: { ...query, count_only: '1' } })).body.bug_count;

/** Refused with Bugzilla's code and HTTP status, and a message that says the given words. */
function expectRefused(response: { status: number; body: any }, code: number, status: number, words?: RegExp) {
  expect(response.body).toMatchObject({ error: true, code });
  expect(response.status).toBe(status);
  if (words) expect(response.body.message).toMatch(words);
}

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  plainKey = await userWithKey('plain');
  await post('/rest/group', { name: 'stewards', description: 'Administer some products' });
  productAdminKey = await userWithKey('productadmin', ['stewards']);
});
afterAll(async () => {
  await app?.close();
});

describe('DELETE /rest/keyword/{id_or_name}', () => {
  it('deletes an unused keyword: gone from the keywords and the field values', async () => {
    const { id } = await post('/rest/keyword', { name: 'obsolete-kw', description: 'Never used' });
    expect(await ok(remove('/rest/keyword/obsolete-kw', admin))).toEqual({ keywords: [{ id }] });
    expect(
      (await call(app, 'GET', '/rest/keyword', { apiKey: admin })).body.keywords.map((k: any) => k.name),
    ).not.toContain('obsolete-kw');
    expectRefused(await call(app, 'GET', `/rest/keyword/${id}`, { apiKey: admin }), 51, 404);
    const field = (await call(app, 'GET', '/rest/field/bug/keywords', { apiKey: admin })).body.fields[0];
    expect(field.values.map((value: any) => value.name)).not.toContain('obsolete-kw');
    // Its name is free again.
    await post('/rest/keyword', { name: 'obsolete-kw', description: 'Back' });
    await ok(remove('/rest/keyword/obsolete-kw', admin));
  });

  it('refuses a keyword that bugs have, saying how many, and keeps it', async () => {
    await post('/rest/keyword', { name: 'regression-kw', description: 'Used' });
    await newProduct('KeywordHome');
    await fileBug('KeywordHome', { keywords: ['regression-kw'] });
    await fileBug('KeywordHome', { keywords: ['regression-kw'] });
    const refused = await remove('/rest/keyword/regression-kw', admin);
    expectRefused(refused, 32000, 400, /There are 2 bugs with the keyword regression-kw!.*deactivate/);
    expect(await countOf({ keywords: 'regression-kw' })).toBe(2);
    expect((await call(app, 'GET', '/rest/keyword/regression-kw', { apiKey: admin })).body.keywords).toHaveLength(1);
  });

  it('refuses callers outside editkeywords, and anonymous callers', async () => {
    await post('/rest/keyword', { name: 'guarded-kw', description: 'Guarded' });
    expectRefused(await remove('/rest/keyword/guarded-kw', plainKey), 304, 401);
    expectRefused(await remove('/rest/keyword/guarded-kw'), 410, 401);
    expect((await call(app, 'GET', '/rest/keyword/guarded-kw', { apiKey: admin })).body.keywords).toHaveLength(1);
  });

  it("answers Bugzilla's not-found error for an unknown keyword", async () => {
    expectRefused(await remove('/rest/keyword/no-such-kw', admin), 51, 404, /no-such-kw/);
  });
});

describe('DELETE /rest/product/{id_or_name}', () => {
  it('deletes a product without bugs with its parts: gone from the products, legal values and flag types', async () => {
    const id = await newProduct('Doomed');
    await post('/rest/product/Doomed/milestone', { name: '2.0' });
    const flagType = await post('/rest/flag_type', {
      name: 'doomcheck',
      description: 'Only in Doomed',
      target_type: 'bug',
      inclusions: ['Doomed', 'TestProduct'],
    });
    expect(await ok(remove('/rest/product/Doomed', admin))).toEqual({ products: [{ id }] });
    expect(await productNamed('Doomed')).toBeUndefined();
    const products = (await call(app, 'GET', '/rest/product', { apiKey: admin, query: { type: 'accessible' } })).body;
    expect(products.products.map((product: any) => product.name)).not.toContain('Doomed');
    const values = (await call(app, 'GET', '/rest/field/bug/product', { apiKey: admin })).body.fields[0].values;
    expect(values.map((value: any) => value.name)).not.toContain('Doomed');
    const type = (await call(app, 'GET', '/rest/flag_type', { apiKey: admin })).body.flag_types.find(
      (candidate: any) => candidate.id === flagType.id,
    );
    expect(Object.keys(type.inclusions)).toEqual(['TestProduct']);
    // The name, its components' names and its versions' are free again.
    await newProduct('Doomed');
    expect((await productNamed('Doomed')).components.map((component: any) => component.name)).toEqual(['Main']);
    expect((await productNamed('Doomed')).milestones.map((milestone: any) => milestone.name)).toEqual(['---']);
  });

  it('refuses a product with bugs, saying how many, as Bugzilla does with allowbugdeletion off', async () => {
    await newProduct('Busy');
    await fileBug('Busy');
    await fileBug('Busy');
    await fileBug('Busy');
    expectRefused(
      await remove('/rest/product/Busy', admin),
      32000,
      400,
      /^There are 3 bugs entered for this product! You must move those bugs to another product/,
    );
    expect(await productNamed('Busy')).toBeDefined();
    expect(await countOf({ product: 'Busy' })).toBe(3);
  });

  it('refuses callers outside editcomponents, even those who administer the product, and anonymous callers', async () => {
    await newProduct('Kept', { group_controls: [{ group: 'stewards', editcomponents: true }] });
    expectRefused(await remove('/rest/product/Kept', plainKey), 304, 401);
    expectRefused(await remove('/rest/product/Kept', productAdminKey), 304, 401);
    expectRefused(await remove('/rest/product/Kept'), 410, 401);
    expect(await productNamed('Kept')).toBeDefined();
  });

  it("answers Bugzilla's invalid-product error for an unknown product", async () => {
    expectRefused(await remove('/rest/product/NoSuchProduct', admin), 106, 401, /NoSuchProduct/);
  });

  it('deletes a product with more parts than one transaction holds', async () => {
    await newProduct('Sprawling');
    for (let number = 1; number <= 48; number++) await post('/rest/product/Sprawling/version', { name: `v${number}` });
    await ok(remove('/rest/product/Sprawling', admin));
    expect(await productNamed('Sprawling')).toBeUndefined();
    await newProduct('Sprawling');
    expect((await productNamed('Sprawling')).versions.map((version: any) => version.name)).toEqual(['1.0']);
  });
});

describe('DELETE /rest/product/{product}/version/{value} and .../milestone/{value}', () => {
  beforeAll(async () => {
    await newProduct('Versioned');
    await post('/rest/product/Versioned/version', { name: '2.0' });
    await post('/rest/product/Versioned/version', { name: '3.0' });
    await post('/rest/product/Versioned/milestone', { name: 'M1' });
    await post('/rest/product/Versioned/milestone', { name: 'M2' });
    await fileBug('Versioned', { version: '2.0', target_milestone: 'M1' });
  });

  it('deletes an unused version: gone from the product and its legal values', async () => {
    const product = await productNamed('Versioned');
    const version = product.versions.find((candidate: any) => candidate.name === '3.0');
    expect(await ok(remove('/rest/product/Versioned/version/3.0', admin))).toEqual({ versions: [{ id: version.id }] });
    expect((await productNamed('Versioned')).versions.map((candidate: any) => candidate.name)).toEqual(['1.0', '2.0']);
    const values = (await call(app, 'GET', `/rest/field/bug/version/${product.id}/values`, { apiKey: admin })).body;
    expect(values.values).not.toContain('3.0');
  });

  it('refuses a version that bugs have, saying how many', async () => {
    expectRefused(
      await remove('/rest/product/Versioned/version/2.0', admin),
      32000,
      400,
      /^There are 1 bugs associated with this version! You must reassign those bugs/,
    );
  });

  it("refuses the product's last version", async () => {
    await newProduct('OneVersion');
    expectRefused(
      await remove('/rest/product/OneVersion/version/1.0', admin),
      32000,
      400,
      /'1.0' is the last version of the 'OneVersion' product/,
    );
  });

  it('deletes an unused milestone and refuses one that bugs have, and the default one', async () => {
    const product = await productNamed('Versioned');
    const m2 = product.milestones.find((candidate: any) => candidate.name === 'M2');
    expect(await ok(remove('/rest/product/Versioned/milestone/M2', admin))).toEqual({ milestones: [{ id: m2.id }] });
    expect((await productNamed('Versioned')).milestones.map((candidate: any) => candidate.name)).not.toContain('M2');
    expectRefused(
      await remove('/rest/product/Versioned/milestone/M1', admin),
      32000,
      400,
      /There are 1 bugs targeted at the milestone M1!.*disable the milestone instead/,
    );
    expectRefused(
      await remove('/rest/product/Versioned/milestone/---', admin),
      32000,
      400,
      /--- is the default milestone for the 'Versioned' product/,
    );
    expect(await countOf({ product: 'Versioned', target_milestone: 'M1' })).toBe(1);
  });

  it('lets those with editcomponents on the product delete, and refuses others and anonymous callers', async () => {
    await newProduct('Delegated', { group_controls: [{ group: 'stewards', editcomponents: true }] });
    await post('/rest/product/Delegated/version', { name: 'spare' });
    await post('/rest/product/Delegated/milestone', { name: 'spare' });
    expectRefused(await remove('/rest/product/Delegated/version/spare', plainKey), 304, 401);
    expectRefused(await remove('/rest/product/Delegated/milestone/spare'), 410, 401);
    expect((await productNamed('Delegated')).versions.map((value: any) => value.name)).toContain('spare');
    await ok(remove('/rest/product/Delegated/version/spare', productAdminKey));
    await ok(remove('/rest/product/Delegated/milestone/spare', productAdminKey));
    expect((await productNamed('Delegated')).versions.map((value: any) => value.name)).not.toContain('spare');
    // Stewards of Delegated administer no other product.
    await post('/rest/product/Versioned/version', { name: 'theirs' });
    expectRefused(await remove('/rest/product/Versioned/version/theirs', productAdminKey), 304, 401);
  });

  it('answers not-found for an unknown value or product', async () => {
    expectRefused(
      await remove('/rest/product/Versioned/version/9.9', admin),
      51,
      404,
      /Versioned has no version '9.9'/,
    );
    expectRefused(
      await remove('/rest/product/Versioned/milestone/M9', admin),
      51,
      404,
      /Versioned has no milestone 'M9'/,
    );
    expectRefused(await remove('/rest/product/NoSuch/version/1.0', admin), 106, 401);
  });
});

describe('DELETE /rest/flag_type/{id_or_name}', () => {
  it('deletes an unused flag type by id or name: gone from the flag types', async () => {
    const first = await post('/rest/flag_type', { name: 'unusedflag', description: 'Unused', target_type: 'bug' });
    expect(await ok(remove(`/rest/flag_type/${first.id}`, admin))).toEqual({ flagtypes: [{ id: first.id }] });
    const second = await post('/rest/flag_type', { name: 'unusedflag2', description: 'Unused', target_type: 'bug' });
    expect(await ok(remove('/rest/flag_type/unusedflag2', admin))).toEqual({ flagtypes: [{ id: second.id }] });
    const ids = (await call(app, 'GET', '/rest/flag_type', { apiKey: admin })).body.flag_types.map(
      (type: any) => type.id,
    );
    expect(ids).not.toContain(first.id);
    expect(ids).not.toContain(second.id);
  });

  it('refuses a flag type with flags set on bugs or attachments, saying how many', async () => {
    await newProduct('Flagged');
    await post('/rest/flag_type', {
      name: 'bugcheck',
      description: 'On bugs',
      target_type: 'bug',
      inclusions: ['Flagged'],
    });
    await post('/rest/flag_type', {
      name: 'patchcheck',
      description: 'On attachments',
      target_type: 'attachment',
      inclusions: ['Flagged'],
    });
    const bug = await fileBug('Flagged', { flags: [{ name: 'bugcheck', status: '+' }] });
    await ok(
      call(app, 'POST', `/rest/bug/${bug}/attachment`, {
        apiKey: admin,
        body: {
          file_name: 'fix.patch',
          summary: 'Fix',
          content_type: 'text/plain',
          data: Buffer.from('fix').toString('base64'),
          flags: [{ name: 'patchcheck', status: '+' }],
        },
      }),
    );
    expectRefused(
      await remove('/rest/flag_type/bugcheck', admin),
      32000,
      400,
      /There are 1 bugcheck flags set \(1 on bugs, 0 on attachments\)/,
    );
    expectRefused(
      await remove('/rest/flag_type/patchcheck', admin),
      32000,
      400,
      /There are 1 patchcheck flags set \(0 on bugs, 1 on attachments\)!.*deactivate/,
    );
  });

  it('refuses a name several types share, callers outside editcomponents and anonymous callers', async () => {
    await post('/rest/flag_type', { name: 'twinflag', description: 'One', target_type: 'bug' });
    await post('/rest/flag_type', { name: 'twinflag', description: 'Two', target_type: 'bug' });
    expectRefused(await remove('/rest/flag_type/twinflag', admin), 133, 400, /matches several flag types/);
    expectRefused(await remove('/rest/flag_type/twinflag', plainKey), 304, 401);
    expectRefused(await remove('/rest/flag_type/twinflag'), 410, 401);
  });

  it("answers Bugzilla's not-found error for an unknown flag type", async () => {
    expectRefused(await remove('/rest/flag_type/9999', admin), 51, 404);
    expectRefused(await remove('/rest/flag_type/nosuchflag', admin), 51, 404);
  });
});
