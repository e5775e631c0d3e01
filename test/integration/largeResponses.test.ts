import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMBDA_RESPONSE_LIMIT } from '../../shared/http/lambdaResponse.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Answers at the Lambda boundary (shared/http/lambdaResponse.ts): long answers gzipped for clients
 * that accept it, and an answer over the 6 MB an invocation returns refused with Bugzilla's
 * envelope (or fault) instead of the bare 500 API Gateway would send. The emulator fails an
 * invocation over the limit as Lambda does.
 */
let app: TestApp;
let key: string;
/** A bug whose comments are more than 6 MB of JSON. */
let bigBug: number;
/** Bugs in a product of their own, enough for a page of about 30 KB. */
let pageProduct: string;

const COMMENT = 'The renderer stalls when the panel is resized. '.repeat(1354).slice(0, 65_000);
const COMMENTS = Math.ceil(LAMBDA_RESPONSE_LIMIT / COMMENT.length) + 2;

beforeAll(async () => {
  app = await startTestApp();
  key = app.admin.apiKey;
  bigBug = await fileTestBug(app, key, { summary: 'A bug with long comments' });
  // One at a time: comments on one bug written at once conflict on the bug's item and are tried
  // again (shared/storage/transaction.ts), which made the writing slower, not faster.
  for (let n = 0; n < COMMENTS; n++)
    await ok(call(app, 'POST', `/rest/bug/${bigBug}/comment`, { apiKey: key, body: { comment: COMMENT } }));
  pageProduct = `Paged${Date.now()}`;
  await ok(
    call(app, 'POST', '/rest/product', {
      apiKey: key,
      body: { name: pageProduct, description: 'Pages', version: '1.0', create_series: false },
    }),
  );
  await ok(
    call(app, 'POST', '/rest/component', {
      apiKey: key,
      body: { product: pageProduct, name: 'Core', description: 'Core', default_assignee: app.admin.login },
    }),
  );
  for (let index = 0; index < 24; index++)
    await fileTestBug(app, key, { product: pageProduct, component: 'Core', version: '1.0', summary: `Paged ${index}` });
});
afterAll(async () => {
  await app?.close();
});

describe('answers over the 6 MB a Lambda invocation returns', () => {
  it('are refused with a clear error to a client that does not accept gzip', async () => {
    const response = await call(app, 'GET', `/rest/bug/${bigBug}/comment`, {
      apiKey: key,
      headers: { 'Accept-Encoding': 'identity' },
    });
    expect(response.status, response.text.slice(0, 300)).toBe(400);
    expect(response.body).toMatchObject({ error: true, code: 32000 });
    expect(response.body.message).toMatch(/more than one response can carry \(Tracker answers at most 6 MB\)/);
    expect(response.body.message).toMatch(/Accept-Encoding: gzip/);
  });

  it('come whole, gzipped, to a client that accepts gzip', async () => {
    const response = await call(app, 'GET', `/rest/bug/${bigBug}/comment`, {
      apiKey: key,
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(Number(response.headers.get('content-length'))).toBeLessThan(LAMBDA_RESPONSE_LIMIT / 20);
    const comments = response.body.bugs[String(bigBug)].comments;
    expect(comments).toHaveLength(COMMENTS + 1);
    expect(comments.at(-1).text).toBe(COMMENT);
  });

  it('answer HEAD as GET: refused without gzip, the headers alone with it', async () => {
    const refused = await call(app, 'HEAD', `/rest/bug/${bigBug}/comment`, {
      apiKey: key,
      headers: { 'Accept-Encoding': 'identity' },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toBe('');
    const whole = await call(app, 'HEAD', `/rest/bug/${bigBug}/comment`, {
      apiKey: key,
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-encoding')).toBe('gzip');
    expect(whole.text).toBe('');
  });

  it('are an XML-RPC fault, or the answer gzipped', async () => {
    const body = `<?xml version="1.0"?><methodCall><methodName>Bug.comments</methodName><params><param><value><struct><member><name>ids</name><value><array><data><value><int>${bigBug}</int></value></data></array></value></member><member><name>Bugzilla_api_key</name><value><string>${key}</string></value></member></struct></value></param></params></methodCall>`;
    const plain = await call(app, 'POST', '/xmlrpc.cgi', {
      rawBody: body,
      headers: { 'Content-Type': 'text/xml', 'Accept-Encoding': 'identity' },
    });
    expect(plain.status).toBe(200);
    expect(plain.text).toMatch(/<name>faultCode<\/name><value><int>32000<\/int>/);
    expect(plain.text).toMatch(/at most 6 MB/);
    const gzipped = await call(app, 'POST', '/xmlrpc.cgi', {
      rawBody: body,
      headers: { 'Content-Type': 'text/xml', 'Accept-Encoding': 'gzip' },
    });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.text).not.toMatch(/faultCode/);
    expect(gzipped.text.split('The renderer stalls').length).toBeGreaterThan(COMMENTS * 1000);
  });

  it('are a JSON-RPC error, or the answer gzipped', async () => {
    const rawBody = JSON.stringify({
      method: 'Bug.comments',
      params: [{ ids: [bigBug], Bugzilla_api_key: key }],
      id: 7,
    });
    const plain = await call(app, 'POST', '/jsonrpc.cgi', {
      rawBody,
      headers: { 'Content-Type': 'application/json', 'Accept-Encoding': 'identity' },
    });
    expect(plain.body).toMatchObject({ id: 7, result: null, error: { code: 32000 } });
    expect(plain.body.error.message).toMatch(/at most 6 MB/);
    const gzipped = await call(app, 'POST', '/jsonrpc.cgi', {
      rawBody,
      headers: { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' },
    });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.body.error).toBeNull();
    expect(gzipped.body.result.bugs[String(bigBug)].comments).toHaveLength(COMMENTS + 1);
  });
});

describe('long answers', () => {
  const search = (headers: Record<string, string>) =>
    call(app, 'GET', '/rest/bug', { apiKey: key, query: { product: pageProduct }, headers });

  it('are gzipped for a client that accepts gzip, the same answer as uncompressed', async () => {
    const plain = await search({ 'Accept-Encoding': 'identity' });
    const gzipped = await search({ 'Accept-Encoding': 'gzip, deflate' });
    expect(plain.body.bugs).toHaveLength(24);
    expect(plain.text.length).toBeGreaterThan(16 * 1024);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect(gzipped.text).toBe(plain.text);
    expect(Number(gzipped.headers.get('content-length'))).toBeLessThan(plain.text.length / 4);
    expect(gzipped.headers.get('etag')).toBe(plain.headers.get('etag')!.replace(/"$/, '-gzip"'));
  });

  it('answer 304 to either entity tag', async () => {
    const plain = await search({ 'Accept-Encoding': 'identity' });
    const gzipped = await search({ 'Accept-Encoding': 'gzip' });
    for (const tag of [plain.headers.get('etag')!, gzipped.headers.get('etag')!]) {
      for (const encoding of ['identity', 'gzip']) {
        const again = await search({ 'Accept-Encoding': encoding, 'If-None-Match': tag });
        expect(again.status, `${tag} ${encoding}`).toBe(304);
      }
    }
  });

  it('are not compressed when short', async () => {
    const response = await call(app, 'GET', `/rest/bug/${bigBug}`, {
      apiKey: key,
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('vary')).toBe('Accept');
  });
});
