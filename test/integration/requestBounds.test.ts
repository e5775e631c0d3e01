import { createConnection } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';
import { dynamodbEndpoint, s3Endpoint } from '../support/testEngines.ts';

/**
 * What a request can cost, and what it can smuggle, before the API looks at what it asks for:
 * bodies with very many members, text that is not UTF-8, request heads over every limit; and what
 * the local engines expose to the network.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const manyMembers = (count: number, extra = '') =>
  `{${extra}${Array.from({ length: count }, (_, index) => `"k${index}":1`).join(',')}}`;

async function postBytes(path: string, body: Buffer | string, headers: Record<string, string> = {}) {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as { code: number; message: string } };
}

describe('a body with very many members', () => {
  it('is refused with 32000 whoever sends it, and the instance keeps answering meanwhile', async () => {
    const [refused, version] = await Promise.all([
      call(app, 'POST', '/rest/bug', {
        rawBody: manyMembers(700_000),
        headers: { 'Content-Type': 'application/json' },
      }),
      call(app, 'GET', '/rest/version'),
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: true, code: 32000 });
    expect(refused.body.message).toMatch(/more than 10000 entries/);
    expect(version.status).toBe(200);
    const admin = await call(app, 'POST', '/rest/bug', {
      apiKey: app.admin.apiKey,
      rawBody: manyMembers(700_000),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(admin.body).toMatchObject({ code: 32000 });
  });

  it('is refused before authentication: a wrong key in it is never judged', async () => {
    const response = await call(app, 'POST', '/rest/bug', {
      rawBody: manyMembers(700_000, '"Bugzilla_api_key":"not-a-key",'),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.body).toMatchObject({ code: 32000 });
  });

  it('within the limits and without credentials, is answered 410 for a write that needs a login', async () => {
    const response = await call(app, 'POST', '/rest/bug', {
      rawBody: manyMembers(10_000),
      headers: { 'Content-Type': 'application/json' },
    });
    expect([response.status, response.body.code]).toEqual([401, 410]);
  });

  it('still authenticates with credentials in the body', async () => {
    const response = await call(app, 'POST', '/rest/keyword', {
      body: {
        Bugzilla_login: app.admin.login,
        Bugzilla_password: app.admin.password,
        name: 'bodylogin',
        description: 'x',
      },
    });
    expect(response.status).toBe(200);
  });
});

describe('text that is not UTF-8', () => {
  it('is refused in a body, and nothing is stored', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('","description":"x"}')]);
    const response = await postBytes('/rest/keyword', body, { 'X-BUGZILLA-API-KEY': app.admin.apiKey });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: true, code: 32000 });
    expect(response.body.message).toMatch(/not valid UTF-8/);
    const keywords = await call(app, 'GET', '/rest/keyword', { apiKey: app.admin.apiKey });
    expect(JSON.stringify(keywords.body)).not.toContain('caf');
  });

  it('is refused in a query string', async () => {
    const response = await call(app, 'GET', '/rest/bug', { query: 'summary=caf%E9' });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/query string is not valid UTF-8/);
  });
});

describe('an over-long query string', () => {
  it.each([16_000, 60_000, 100_000, 300_000])('of %i bytes gets the JSON 414', async (size) => {
    const response = await call(app, 'GET', '/rest/version', { query: `pad=${'x'.repeat(size)}` });
    expect(response.status).toBe(414);
    expect(response.body).toMatchObject({ error: true, code: 414 });
    expect(response.body.message).toMatch(/10240/);
  });
});

describe('the local engines', () => {
  /** This machine's addresses other than loopback: another machine would reach the engines there. */
  const outsideAddresses = Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && !address.internal)
    .map((address) => address!.address);

  const accepts = (host: string, port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = createConnection({ host, port, timeout: 2_000 });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(false));
    });

  it.skipIf(outsideAddresses.length === 0)('listen on loopback only', async () => {
    for (const endpoint of [dynamodbEndpoint(), s3Endpoint()]) {
      const port = Number(new URL(endpoint).port);
      expect(await accepts('127.0.0.1', port), endpoint).toBe(true);
      for (const address of outsideAddresses) expect(await accepts(address, port), `${address}:${port}`).toBe(false);
    }
  });
});
