import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebInto } from '../../local/webBuild.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The web app served beside the API, as `npm start` serves it (local/webFiles.ts) and as
 * CloudFront will: index.html for Bugzilla's page addresses, the built files with their types,
 * caching and security headers, and the API answering exactly as before.
 */
let app: TestApp;
let webDir = '';
let indexHtml: string;
let script: string;
let stylesheet: string;

beforeAll(async () => {
  // A build of its own (npm run build:web -- <dir>): web/dist may be rebuilt while the file runs.
  webDir = mkdtempSync(join(tmpdir(), 'tracker-web-'));
  await buildWebInto(webDir);
  indexHtml = readFileSync(join(webDir, 'index.html'), 'utf8');
  script = /<script[^>]*\ssrc="([^"]+)"/.exec(indexHtml)?.[1] ?? '';
  stylesheet = /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/.exec(indexHtml)?.[1] ?? '';
  app = await startTestApp({ webDir });
});
afterAll(async () => {
  await app?.close();
  if (webDir) rmSync(webDir, { recursive: true, force: true });
});

const get = (path: string, init: RequestInit = {}) => fetch(`${app.url}${path}`, { redirect: 'manual', ...init });

/** A request with its path sent exactly as written (fetch would resolve `..` first), nothing decoded. */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string; raw: Buffer; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const url = new URL(app.url);
    const outgoing = request({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({
          status: response.statusCode ?? 0,
          type: String(response.headers['content-type']),
          body: raw.toString('utf8'),
          raw,
          headers: response.headers,
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function expectSecurityHeaders(headers: Headers): void {
  const policy = headers.get('content-security-policy') ?? '';
  expect(policy).toMatch(/(^|; )script-src 'self'(;|$)/);
  expect(policy).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
  expect(policy).toMatch(/(^|; )default-src 'self'(;|$)/);
  expect(policy).not.toContain('unsafe-inline');
  expect(policy).not.toContain('unsafe-eval');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('same-origin');
  expect(headers.get('x-frame-options')).toBe('DENY');
}

describe('the build', () => {
  it('names one script and one stylesheet with hashed names, and has no inline script', () => {
    expect(script).toMatch(/^\/[\w.-]+-[A-Z0-9]{8,}\.js$/);
    expect(stylesheet).toMatch(/^\/[\w.-]+-[A-Z0-9]{8,}\.css$/);
    for (const tag of indexHtml.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) {
      expect(tag).toMatch(/\ssrc="/);
      expect(tag).toMatch(/>\s*<\/script>$/);
    }
    expect(indexHtml).not.toMatch(/\son[a-z]+=/i);
    expect(indexHtml).not.toMatch(/<style\b/i);
  });
});

describe('page addresses', () => {
  const pages = [
    '/',
    '/index.cgi',
    '/show_bug.cgi?id=1',
    '/show_bug.cgi?id=some-alias',
    '/buglist.cgi?quicksearch=crash&product=Widgets',
    '/buglist.cgi?f1=short_desc&o1=substring&v1=x&order=bug_id',
    '/query.cgi',
    '/enter_bug.cgi?product=Widgets',
    '/attachment.cgi?id=3&action=edit',
    '/userprefs.cgi?tab=apikey',
    '/auth.cgi?callback=https%3A%2F%2Fclient.example%2Fcb&description=tool',
    '/login',
    '/login?return=%2Fshow_bug.cgi%3Fid%3D1',
    '/a/page/nobody/made',
    '/report.cgi',
  ];
  it.each(pages)('%s answers index.html, never cached without asking', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expectSecurityHeaders(response.headers);
    expect(await response.text()).toBe(indexHtml);
  });

  it('answers 304 to a client that has the same index.html', async () => {
    const first = await get('/show_bug.cgi?id=1');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await get('/buglist.cgi', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers HEAD with the headers alone', async () => {
    const response = await get('/query.cgi', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(indexHtml)));
    expect(await response.text()).toBe('');
  });

  it('sends a page address with a query string over 10 KB home with a 302 (the spec)', async () => {
    const response = await get(`/buglist.cgi?quicksearch=${'x'.repeat(10 * 1024 + 1)}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    expectSecurityHeaders(response.headers);
    const justUnder = await get(`/buglist.cgi?q=${'x'.repeat(10 * 1024 - 2)}`);
    expect(justUnder.status).toBe(200);
  });
});

describe('the built files', () => {
  it('serves the script and the stylesheet as built, with their types, cached for good', async () => {
    for (const [path, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [stylesheet, 'text/css; charset=utf-8'],
    ] as const) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expectSecurityHeaders(response.headers);
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(webDir, path)))).toBe(true);
    }
  });

  it('compresses the script for a browser that takes brotli or gzip, as CloudFront does', async () => {
    const built = readFileSync(join(webDir, script));
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip;q=1.0, br;q=0', 'gzip', gunzipSync],
    ] as const) {
      const answer = await rawGet(script, { 'Accept-Encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.raw.length).toBeLessThan(built.length / 2);
      expect(decode(answer.raw).equals(built)).toBe(true);
    }
    // A client that asks for nothing gets the file as built.
    const plain = await rawGet(script);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.equals(built)).toBe(true);
  });

  it('answers a missing file 404 in plain text, not the page in its place', async () => {
    for (const path of ['/app-MISSING0.js', '/assets/nothing.css', '/favicon-none.png']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expectSecurityHeaders(response.headers);
    }
  });

  it('serves nothing outside web/dist, nor dot files', async () => {
    for (const path of [
      '/../package.json',
      '/..%2fpackage.json',
      '/%2e%2e/%2e%2e/package.json',
      '/.build-lock',
      '/.env',
    ]) {
      const response = await rawGet(path);
      expect(response.body).not.toContain('"devDependencies"');
      expect([200, 404]).toContain(response.status);
      if (response.status === 200) expect(response.body).toBe(indexHtml);
    }
  });
});

describe('the API', () => {
  it('answers its routes as before, JSON and without the page', async () => {
    const version = await call(app, 'GET', '/rest/version');
    expect(version.status).toBe(200);
    expect(version.headers.get('content-type')).toMatch(/^application\/json/);
    expect(version.body.version).toEqual(expect.any(String));
    const whoami = await call(app, 'GET', '/rest/whoami', { apiKey: app.admin.apiKey });
    expect(whoami.body.name).toBe(app.admin.login);
  });

  it('keeps its 404s JSON, under /rest and on its own', async () => {
    for (const path of ['/rest', '/rest/', '/rest/no/such/thing', '/rest/bug/999999']) {
      const response = await call(app, 'GET', path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.body.error).toBe(true);
    }
  });

  it('keeps answering JSON-RPC and XML-RPC, including XML-RPC posted to /', async () => {
    const jsonRpc = await call(app, 'GET', '/jsonrpc.cgi', { query: { method: 'Bugzilla.version', params: '[{}]' } });
    expect(jsonRpc.status).toBe(200);
    expect(jsonRpc.body.result.version).toEqual(expect.any(String));
    const xml =
      '<?xml version="1.0"?><methodCall><methodName>Bugzilla.version</methodName><params></params></methodCall>';
    for (const path of ['/xmlrpc.cgi', '/']) {
      const response = await call(app, 'POST', path, { rawBody: xml, headers: { 'Content-Type': 'text/xml' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/xml/);
      expect(response.text).toContain('<methodResponse>');
    }
  });

  it('answers an over-long query string 414 with its JSON envelope, not the 302 of the pages', async () => {
    const response = await call(app, 'GET', '/rest/bug', { query: `id=${'1,'.repeat(6000)}1` });
    expect(response.status).toBe(414);
    expect(response.body.error).toBe(true);
  });
});
