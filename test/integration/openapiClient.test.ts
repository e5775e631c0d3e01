import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../local/client/trackerApi.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The typed client generated from docs/openapi.json (local/client/trackerApi.ts, by
 * openapi-typescript) with openapi-fetch: it files, changes and finds bugs against the local
 * server, every request and answer typed by the document alone.
 */
let app: TestApp;
let tracker: ReturnType<typeof createClient<paths>>;

beforeAll(async () => {
  app = await startTestApp();
  tracker = createClient<paths>({ baseUrl: app.url, headers: { 'X-BUGZILLA-API-KEY': app.admin.apiKey } });
});
afterAll(async () => {
  await app?.close();
});

describe('the generated typed client', () => {
  it('files, updates and searches bugs', async () => {
    const filed = await tracker.POST('/rest/bug', {
      body: {
        product: 'TestProduct',
        component: 'TestComponent',
        version: 'unspecified',
        summary: 'Filed by the typed client',
        description: 'Generated from the OpenAPI document.',
        op_sys: 'Linux',
        platform: 'PC',
        priority: 'High',
        cc: [app.admin.login],
        is_cc_accessible: true,
      },
    });
    expect(filed.response.status, JSON.stringify(filed.error)).toBe(200);
    const id = filed.data!.id;
    expect(id).toBeGreaterThan(0);

    const changed = await tracker.PUT('/rest/bug/{id_or_alias}', {
      params: { path: { id_or_alias: String(id) } },
      body: {
        summary: 'Changed by the typed client',
        priority: 'Highest',
        keywords: { add: [] },
        cc: { remove: [app.admin.login] },
        comment: { body: 'Changed.' },
      },
    });
    expect(changed.response.status, JSON.stringify(changed.error)).toBe(200);
    expect(JSON.stringify(changed.data)).toContain('Changed by the typed client');

    const found = await tracker.GET('/rest/bug', {
      params: {
        query: { summary: 'typed client', product: 'TestProduct', include_fields: ['id', 'summary', 'priority'] },
      },
    });
    expect(found.response.status, JSON.stringify(found.error)).toBe(200);
    expect(found.data).toMatchObject({ bugs: [{ id, summary: 'Changed by the typed client', priority: 'Highest' }] });

    const refused = await tracker.POST('/rest/bug', {
      body: { product: 'NoSuchProduct', component: 'x', version: 'x', summary: 'x', op_sys: 'Linux', platform: 'PC' },
    });
    expect(refused.data).toBeUndefined();
    expect(refused.error).toMatchObject({ error: true, code: 106 });
  });
});
