import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, fileTestBug } from '../support/testAccounts.ts';
import { type ApiResponse, call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Names longer than any key DynamoDB can hold (2,048 bytes of partition key, 1,024 of sort key)
 * reach the table's keys from everywhere a person is named: credentials, user lookups, searches,
 * writes. No such item can exist, so a read finds nothing and the caller gets the answer for a
 * name that does not exist, never a 500.
 */
let app: TestApp;
let bug: number;
const LONG = `${'x'.repeat(3_000)}@example.com`;
const LONG_MULTIBYTE = `${'é'.repeat(1_100)}@example.com`;

beforeAll(async () => {
  app = await startTestApp();
  bug = await fileTestBug(app, app.admin.apiKey);
});
afterAll(async () => {
  await app?.close();
});

function expectNotServerError(response: ApiResponse, where: string): void {
  expect(response.status, `${where}: ${response.text.slice(0, 200)}`).toBeLessThan(500);
  if (response.status >= 400) expect(response.body, where).toMatchObject({ error: true, code: expect.any(Number) });
}

describe.each([
  ['ASCII', LONG],
  ['multibyte', LONG_MULTIBYTE],
])('a %s login or name over the key size', (_, name) => {
  it('is a wrong login (300) as credentials, in the query, the headers and /rest/login', async () => {
    expectError(
      await call(app, 'GET', '/rest/whoami', { query: { Bugzilla_login: name, Bugzilla_password: 'secret' } }),
      300,
      401,
    );
    expectError(
      await call(app, 'GET', '/rest/whoami', {
        headers: { 'X-BUGZILLA-LOGIN': name, 'X-BUGZILLA-PASSWORD': 'secret' },
      }),
      300,
      401,
    );
    expectError(await call(app, 'GET', '/rest/login', { query: { login: name, password: 'secret' } }), 300, 401);
  });

  it('is a user that does not exist (51) when looked up', async () => {
    const apiKey = app.admin.apiKey;
    expectError(await call(app, 'GET', `/rest/user/${encodeURIComponent(name)}`, { apiKey }), 51, 404);
    expectError(await call(app, 'GET', '/rest/user', { apiKey, query: { names: name } }), 51, 404);
    // In a change, as any login that does not exist.
    for (const body of [{ cc: { add: [name] } }, { assigned_to: name }]) {
      const unknown = Object.fromEntries(
        Object.entries(body).map(([field, value]) => [
          field,
          JSON.parse(JSON.stringify(value).replace(JSON.stringify(name).slice(1, -1), 'nobody@example.com')),
        ]),
      );
      const long = await call(app, 'PUT', `/rest/bug/${bug}`, { apiKey, body });
      const short = await call(app, 'PUT', `/rest/bug/${bug}`, { apiKey, body: unknown });
      expectNotServerError(long, Object.keys(body)[0]!);
      expect([long.status, long.body.code]).toEqual([short.status, short.body.code]);
    }
  });

  it('finds nothing, or is refused as input, in searches', async () => {
    const apiKey = app.admin.apiKey;
    for (const query of [
      { assigned_to: name },
      { alias: name },
      { reporter: name },
      { cc: name },
      { quicksearch: name },
    ])
      expectNotServerError(await call(app, 'GET', '/rest/bug', { apiKey, query }), JSON.stringify(query).slice(0, 40));
    expectNotServerError(await call(app, 'GET', `/rest/bug/${encodeURIComponent(name)}`, { apiKey }), 'bug alias');
  });

  it('is a wrong login over XML-RPC too', async () => {
    const body = `<?xml version="1.0"?><methodCall><methodName>User.login</methodName><params><param><value><struct><member><name>login</name><value><string>${name}</string></value></member><member><name>password</name><value><string>secret</string></value></member></struct></value></param></params></methodCall>`;
    const response = await call(app, 'POST', '/xmlrpc.cgi', { rawBody: body, headers: { 'Content-Type': 'text/xml' } });
    expect(response.status).toBe(200);
    expect(response.text).toContain('<name>faultCode</name><value><int>300</int>');
  });
});
