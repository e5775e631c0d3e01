import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('wire format', () => {
  it('answers JSON with the headers Bugzilla clients expect', async () => {
    const response = await call(app, 'GET', '/rest/version');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ version: '5.2' });
    expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('etag')).toMatch(/^".+"$/);
  });

  it('wraps the answer in a JSONP callback when asked with Accept: application/javascript', async () => {
    const response = await call(app, 'GET', '/rest/version', {
      query: { callback: 'window.handlers.onVersion' },
      headers: { Accept: 'application/javascript' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=UTF-8');
    expect(response.text).toBe('/**/window.handlers.onVersion({"version":"5.2"})');
  });

  it('wraps errors in the JSONP callback too', async () => {
    const response = await call(app, 'GET', '/rest/jobqueue_status', {
      query: { callback: 'cb' },
      headers: { Accept: 'application/javascript' },
    });
    expect(response.status).toBe(401);
    expect(response.text).toMatch(/^\/\*\*\/cb\(\{"error":true,"code":410,/);
  });

  it('refuses a callback that is not a plain identifier path', async () => {
    const response = await call(app, 'GET', '/rest/version', {
      query: { callback: 'alert(document.cookie)//' },
      headers: { Accept: 'application/javascript' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(response.body).toMatchObject({ error: true, code: 32000 });
    expect(response.body.message).toMatch(/callback/);
  });

  it('answers plain JSON to a callback without the JavaScript Accept header', async () => {
    const response = await call(app, 'GET', '/rest/version', { query: { callback: 'cb' } });
    expect(response.body).toEqual({ version: '5.2' });
  });

  it('answers 414 with the error envelope when the query string exceeds 10 KB', async () => {
    const ids = Array.from({ length: 2100 }, (_, index) => String(index + 1)).join(',');
    const response = await call(app, 'GET', '/rest/version', { query: { id: ids } });
    expect(response.status).toBe(414);
    expect(response.body).toMatchObject({ error: true, code: 414 });
    expect(response.body.message).toMatch(/10240 bytes/);
  });

  it('accepts a query string just under the limit', async () => {
    const response = await call(app, 'GET', '/rest/version', { query: { pad: 'x'.repeat(10 * 1024 - 4) } });
    expect(response.status).toBe(200);
  });

  it('answers a malformed JSON body with code 32000 and HTTP 400', async () => {
    const response = await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      rawBody: '{"maintainer": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: true, code: 32000 });
    expect(response.body.message).toMatch(/not valid JSON/);
  });

  it('refuses a body that is not a JSON object, and a non-JSON content type', async () => {
    const array = await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      rawBody: '[1,2]',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(array.status).toBe(400);
    expect(array.body.message).toMatch(/JSON object/);
    const form = await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      rawBody: 'maintainer=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect(form.body.message).toMatch(/only JSON/);
  });

  it('lets the query string override the body on non-GET requests', async () => {
    const response = await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { mailfrom: 'from-body@tracker.test' },
      query: { mailfrom: 'from-query@tracker.test' },
    });
    expect(response.status).toBe(200);
    expect(response.body.changes.mailfrom.added).toBe('from-query@tracker.test');
  });
});

describe('routing', () => {
  it('answers an unknown route with 32614 and HTTP 404', async () => {
    const response = await call(app, 'GET', '/rest/no_such_thing');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: true, code: 32614 });
  });

  it('answers an unknown route with 32614 whatever body it was sent, never that the body is not JSON', async () => {
    for (const [type, body] of [
      ['text/xml', '<?xml version="1.0"?><methodCall><methodName>Bug.get</methodName></methodCall>'],
      ['application/json', '{"not": "closed"'],
      ['application/octet-stream', '\u0000\u0001'],
    ]) {
      const response = await call(app, 'POST', '/cgi-bin/xmlrpc.cgi', {
        rawBody: body,
        headers: { 'Content-Type': type },
      });
      expect([response.status, response.body?.code], type).toEqual([404, 32614]);
      expect(response.body.message).toContain("'POST /cgi-bin/xmlrpc.cgi'");
    }
  });

  it('answers an unknown method on a known path with 32614', async () => {
    const response = await call(app, 'DELETE', '/rest/version');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe(32614);
  });

  it('answers OPTIONS with the methods of the path', async () => {
    const response = await call(app, 'OPTIONS', '/rest/parameters');
    expect(response.status).toBe(200);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS, PUT');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS, PUT');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/X-Bugzilla-Api-Key/);
  });

  it('answers OPTIONS on an unknown path with 32614', async () => {
    const response = await call(app, 'OPTIONS', '/rest/no_such_thing');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe(32614);
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await call(app, 'HEAD', '/rest/version');
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('etag')).toBeTruthy();
  });
});

describe('conditional requests', () => {
  it('answers 304 to If-None-Match with the current ETag, and 200 when it changed', async () => {
    const first = await call(app, 'GET', '/rest/parameters');
    const tag = first.headers.get('etag')!;
    const again = await call(app, 'GET', '/rest/parameters', { headers: { 'If-None-Match': tag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { maintainer: 'someone-else@tracker.test' },
    });
    const changed = await call(app, 'GET', '/rest/parameters', { headers: { 'If-None-Match': tag } });
    expect(changed.status).toBe(200);
    expect(changed.body.parameters.maintainer).toBe('someone-else@tracker.test');
    await call(app, 'PUT', '/rest/parameters', { apiKey: app.admin.apiKey, body: { maintainer: app.admin.login } });
  });

  it('never answers 304 to a write', async () => {
    const response = await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { mailfrom: 'x@tracker.test' },
      headers: { 'If-None-Match': '*' },
    });
    expect(response.status).toBe(200);
  });
});

describe('include_fields and exclude_fields', () => {
  const names = async (query: Record<string, string>) =>
    Object.keys(
      (await call(app, 'GET', '/rest/parameters', { apiKey: app.admin.apiKey, query })).body.parameters,
    ).sort();

  it('returns only the named fields', async () => {
    expect(await names({ include_fields: 'maintainer,urlbase' })).toEqual(['maintainer', 'urlbase']);
  });

  it('ignores unknown names', async () => {
    expect(await names({ include_fields: 'maintainer,no_such_parameter' })).toEqual(['maintainer']);
  });

  it('lets exclusion win over inclusion', async () => {
    expect(await names({ include_fields: 'maintainer,urlbase', exclude_fields: 'urlbase' })).toEqual(['maintainer']);
  });

  it('treats _default and _all as every field here, and excludes from them', async () => {
    const all = await names({});
    expect(all.length).toBeGreaterThan(40);
    expect(await names({ include_fields: '_default' })).toEqual(all);
    expect(await names({ include_fields: '_all' })).toEqual(all);
    expect(await names({ include_fields: '_all', exclude_fields: 'maintainer' })).toEqual(
      all.filter((name) => name !== 'maintainer'),
    );
    expect(await names({ exclude_fields: '_default' })).toEqual([]);
  });

  it('returns nothing for _extra or _custom alone, since parameters have neither', async () => {
    expect(await names({ include_fields: '_extra' })).toEqual([]);
    expect(await names({ include_fields: '_custom' })).toEqual([]);
  });
});

describe('errors', () => {
  it('never leaks a stack trace', async () => {
    const response = await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { maxattachmentsize: 'lots' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: true,
      code: 32000,
      message: "The parameter 'maxattachmentsize' must be a whole number from 0 to 2147483647.",
      documentation: expect.any(String),
    });
    expect(response.text).not.toMatch(/at \w+ \(/);
  });
});
