import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSERVED_BUGZILLA_METHODS } from '../../shared/http/rpc/rpcMethods.ts';
import { createHiddenAndLockedProducts, fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { type ApiResponse, call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Bugzilla's JSON-RPC (jsonrpc.cgi) over HTTP, as its clients meet it: versions 1.0 and 1.1 by
 * POST, GET with JSONP, credentials inside the params, errors as error objects with Bugzilla's
 * codes and HTTP 200 (as Bugzilla 5.2 answers them), and the protocol's own
 * faults with 5.2's codes and wording (WebService/Server/JSONRPC.pm, JSON::RPC::Legacy::Server).
 */
let app: TestApp;
let bug: number;
let hiddenBug: number;
let plainKey: string;

beforeAll(async () => {
  app = await startTestApp();
  bug = await fileTestBug(app, app.admin.apiKey, { summary: 'First bug python' });
  // A bug in a group the plain user is not in: only credentials show it.
  await createHiddenAndLockedProducts(app);
  hiddenBug = await fileTestBug(app, app.admin.apiKey, {
    product: 'Hidden',
    component: 'Core',
    version: '1.0',
    summary: 'Behind a group',
  });
  plainKey = await userWithKey(app, 'plain');
});

afterAll(async () => {
  await app?.close();
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  call(app, 'POST', '/jsonrpc.cgi', {
    rawBody: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const getRpc = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  call(app, 'GET', '/jsonrpc.cgi', { query, headers });

/** `/**` + `/name(json)`, Bugzilla's JSONP, taken apart. */
function jsonpCall(text: string): { callback: string; value: unknown } {
  const match = /^\/\*\*\/([^(]+)\((.*)\)$/s.exec(text);
  expect(match, text).not.toBeNull();
  return { callback: match![1]!, value: JSON.parse(match![2]!) };
}

function expectJsonAnswer(response: ApiResponse): void {
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
}

describe('JSON-RPC 1.0 by POST', () => {
  it('answers as the reference: {result, error: null, id}', async () => {
    const response = await post({
      method: 'Bug.get',
      params: [
        { ids: [bug], include_fields: ['id', 'summary', 'last_change_time'], Bugzilla_api_key: app.admin.apiKey },
      ],
      id: 1,
    });
    expectJsonAnswer(response);
    expect(response.body).toEqual({
      result: {
        bugs: [{ id: bug, summary: 'First bug python', last_change_time: expect.stringMatching(/Z$/) }],
        faults: [],
      },
      error: null,
      id: 1,
    });
    expect(response.headers.get('cache-control')).toBe('private');
  });

  it("answers an error as an error object with Bugzilla's code and message, and HTTP 200", async () => {
    const response = await post({
      method: 'Bug.get',
      params: [{ ids: [99999999], Bugzilla_api_key: app.admin.apiKey }],
      id: 2,
    });
    expectJsonAnswer(response);
    expect(response.body).toEqual({
      result: null,
      error: { code: 101, message: 'Bug #99999999 does not exist.' },
      id: 2,
    });
  });

  it('echoes any id, and runs a call without one (a notification) but answers nothing', async () => {
    expect((await post({ method: 'Bugzilla.version', params: [], id: 'abc' })).body).toEqual({
      result: { version: '5.2' },
      error: null,
      id: 'abc',
    });
    const notification = await post({
      method: 'Bug.add_comment',
      params: [{ id: bug, comment: 'Said quietly', Bugzilla_api_key: app.admin.apiKey }],
    });
    expect(notification.status).toBe(200);
    expect(notification.text).toBe('');
    const comments = await ok(call(app, 'GET', `/rest/bug/${bug}/comment`, { apiKey: app.admin.apiKey }));
    expect(comments.bugs[bug].comments.map((comment: { text: string }) => comment.text)).toContain('Said quietly');
  });

  it('takes params as a list holding one object; anything else is JSON::RPC error 100400', async () => {
    const response = await post({ method: 'Bugzilla.version', params: {}, id: 3 });
    expect(response.body).toEqual({
      result: null,
      error: { code: 100400, message: 'Invalid params for JSONRPC 1.0.' },
      id: 3,
    });
    const notAnObject = await post({ method: 'Bugzilla.version', params: ['x'], id: 4 });
    expect(notAnObject.body.error.code).toBe(32000);
  });

  it('treats a JSON-RPC 2.0 call as 1.0, as Bugzilla does', async () => {
    const response = await post({ jsonrpc: '2.0', method: 'Bugzilla.version', params: [{}], id: 5 });
    expect(response.body).toEqual({ result: { version: '5.2' }, error: null, id: 5 });
  });
});

describe('a call whose REST form would be a long query string', () => {
  it('has no 10 KB limit: the limit is on HTTP query strings, and the call comes in a POST body', async () => {
    // python-bugzilla's getbugs with a few thousand ids: 5.2 answers it; Tracker ran the call
    // through its GET route and its 414 (issue 41).
    const ids = Array.from({ length: 3_000 }, () => bug);
    const response = await post({ method: 'Bug.get', params: [{ ids, include_fields: ['id'] }], id: 1 });
    expect(response.body.error, response.text.slice(0, 300)).toBeNull();
    expect(response.body.result.bugs.map((found: { id: number }) => found.id)).toContain(bug);
  });
});

describe('JSON-RPC 1.1 by POST', () => {
  it('answers {version, result} without the error member or an id, as JSON::RPC does', async () => {
    const response = await post({ version: '1.1', method: 'Bugzilla.version', params: {}, id: 7 });
    expectJsonAnswer(response);
    expect(response.body).toEqual({ version: '1.1', result: { version: '5.2' } });
  });

  it('takes params as an object or as a list of one', async () => {
    for (const params of [{ ids: [bug], include_fields: 'id' }, [{ ids: [bug], include_fields: 'id' }]]) {
      const response = await post({ version: '1.1', method: 'Bug.get', params, id: 8 });
      expect(response.body.result.bugs).toEqual([{ id: bug }]);
    }
  });

  it('answers an error with the JSONRPCError name and the id', async () => {
    const response = await post({ version: '1.1', method: 'Bug.get', params: { ids: [99999999] }, id: 9 });
    expect(response.body).toEqual({
      version: '1.1',
      error: { name: 'JSONRPCError', code: 101, message: 'Bug #99999999 does not exist.' },
      id: 9,
    });
  });
});

describe('methods', () => {
  it('answers a method Bugzilla does not have with JSON::RPC error 100302, and serves every one it has', async () => {
    const unknown = await post({ method: 'Bug.frobnicate', params: [{}], id: 1 });
    expectJsonAnswer(unknown);
    expect(unknown.body.error).toEqual({ code: 100302, message: "No such a method : 'Bug.frobnicate'." });
    // The last 5.2 method Tracker did not serve (-32601 until issue 40's accounts by mail).
    expect(UNSERVED_BUGZILLA_METHODS).toEqual([]);
    const offered = await post({ method: 'User.offer_account_by_email', params: [{ email: 'x@y.z' }], id: 2 });
    expect(offered.body.error?.code ?? null).not.toBe(-32601);
    // A REST route with no 5.2 method of its own is no method either.
    expect((await post({ method: 'User.whoami', params: [{}], id: 3 })).body.error.code).toBe(100302);
  });

  it('answers a call without a method 100300, and a method name with other characters 100301', async () => {
    expect((await post({ params: [{}], id: 1 })).body.error).toEqual({ code: 100300, message: 'method is nothing.' });
    expect((await post({ method: 'Bug get', params: [{}], id: 2 })).body.error).toEqual({
      code: 100301,
      message: 'method is invalid.',
    });
  });

  it('returns the bare value where REST wraps a scalar in {result}', async () => {
    const valid = await post({
      method: 'User.valid_login',
      params: [{ login: app.admin.login, Bugzilla_api_key: app.admin.apiKey }],
      id: 1,
    });
    expect(valid.body).toEqual({ result: true, error: null, id: 1 });
    const { token } = (
      await post({ method: 'User.login', params: [{ login: app.admin.login, password: app.admin.password }], id: 2 })
    ).body.result;
    expect(token).toEqual(expect.any(String));
    const logout = await post({ method: 'User.logout', params: [{ Bugzilla_token: token }], id: 3 });
    expect(logout.body).toEqual({ result: null, error: null, id: 3 });
  });
});

describe('credentials in the params', () => {
  const summaryOf = async (params: Record<string, unknown>) =>
    (await post({ method: 'Bug.get', params: [{ ids: [hiddenBug], include_fields: 'summary', ...params }], id: 1 }))
      .body;

  it('reads Bugzilla_api_key, Bugzilla_login with Bugzilla_password, and a Bugzilla_token from User.login', async () => {
    expect((await summaryOf({})).error.code).toBe(102);
    expect((await summaryOf({ Bugzilla_api_key: plainKey })).error.code).toBe(102);
    expect((await summaryOf({ Bugzilla_api_key: app.admin.apiKey })).result.bugs).toEqual([
      { summary: 'Behind a group' },
    ]);
    expect(
      (await summaryOf({ Bugzilla_login: app.admin.login, Bugzilla_password: app.admin.password })).result.bugs,
    ).toEqual([{ summary: 'Behind a group' }]);
    const login = await post({
      method: 'User.login',
      params: [{ login: app.admin.login, password: app.admin.password }],
      id: 1,
    });
    expect((await summaryOf({ Bugzilla_token: login.body.result.token })).result.bugs).toEqual([
      { summary: 'Behind a group' },
    ]);
  });

  it('refuses a wrong credential, as REST does, never answering anonymously', async () => {
    expect((await summaryOf({ Bugzilla_api_key: 'not-a-key' })).error.code).toBe(306);
    expect((await summaryOf({ Bugzilla_login: app.admin.login, Bugzilla_password: 'wrong' })).error.code).toBe(300);
  });

  it('ignores credential headers, which Bugzilla reads only on REST', async () => {
    const response = await post(
      { method: 'Bug.get', params: [{ ids: [hiddenBug] }], id: 1 },
      { 'X-BUGZILLA-API-KEY': app.admin.apiKey },
    );
    expect(response.body.error.code).toBe(102);
  });

  it('needs a login where the REST route does', async () => {
    const response = await post({
      method: 'Bug.add_comment',
      params: [{ id: bug, comment: 'Anonymous?' }],
      id: 1,
    });
    expect(response.body.error).toEqual({ code: 410, message: 'You must log in before using this part of Tracker.' });
  });
});

describe('field selection', () => {
  it('passes include_fields and exclude_fields to the route, as lists or as text', async () => {
    const included = await post({
      method: 'Bug.get',
      params: [{ ids: [bug], include_fields: ['id', 'status'] }],
      id: 1,
    });
    expect(included.body.result.bugs).toEqual([{ id: bug, status: expect.any(String) }]);
    const excluded = await post({ method: 'Bug.get', params: [{ ids: [bug], exclude_fields: 'summary,id' }], id: 1 });
    expect(excluded.body.result.bugs[0]).not.toHaveProperty('summary');
    expect(excluded.body.result.bugs[0]).not.toHaveProperty('id');
    expect(excluded.body.result.bugs[0]).toHaveProperty('status');
  });
});

describe('the request', () => {
  it('must be application/json or application/json-rpc: anything else is 32613', async () => {
    const body = { method: 'Bugzilla.version', params: [{}], id: 1 };
    expect((await post(body, { 'Content-Type': 'application/json-rpc; charset=UTF-8' })).body.result).toEqual({
      version: '5.2',
    });
    const plain = await post(body, { 'Content-Type': 'text/plain' });
    expectJsonAnswer(plain);
    expect(plain.body).toEqual({
      result: null,
      error: {
        code: 32613,
        message:
          'When using JSON-RPC over POST, you cannot send data as text/plain. Only application/json and application/json-rpc are allowed.',
      },
      id: 1,
    });
  });

  it("answers a body that is not JSON with JSON::RPC's 100201, in the 1.1 form", async () => {
    const response = await post('{"method": "Bug.get", ');
    expectJsonAnswer(response);
    expect(response.body).toEqual({
      version: '1.1',
      error: { name: 'JSONRPCError', code: 100201, message: "Can't parse JSON data." },
    });
    expect((await post('[1, 2]')).body.error.code).toBe(32000);
  });

  it('answers an empty body 403 "No data.", as JSON::RPC does, in the error envelope of every 4xx', async () => {
    const response = await call(app, 'POST', '/jsonrpc.cgi', { headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: true, code: 32000, message: 'No data.' });
  });

  it('holds a body to the limits of a REST body: a fault, never a 500', async () => {
    const deep = `{"method": "Bug.get", "params": [{"ids": ${'['.repeat(40)}1${']'.repeat(40)}}], "id": 1}`;
    const response = await post(deep);
    expectJsonAnswer(response);
    expect(response.body.error).toMatchObject({ code: 32000, message: expect.stringContaining('nested too deeply') });
    const wide = `{"method": "Bug.get", "params": [{"ids": [${Array(60_000).fill(1).join(',')}]}], "id": 1}`;
    expect((await post(wide)).body.error.code).toBe(32000);
  });

  it('refuses a body that is not UTF-8', async () => {
    const response = await fetch(`${app.url}/jsonrpc.cgi`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.concat([
        Buffer.from('{"method": "Bugzilla.version", "params": [{"x": "'),
        Buffer.from([0xff]),
        Buffer.from('"}], "id": 1}'),
      ]),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).error.code).toBe(32000);
  });
});

describe('JSON-RPC by GET', () => {
  it('answers method and params from the query string, with the request URL as id when none is given', async () => {
    const response = await getRpc({
      method: 'Bug.get',
      params: JSON.stringify([{ ids: [bug], include_fields: 'id' }]),
    });
    expectJsonAnswer(response);
    expect(response.body).toEqual({
      result: { bugs: [{ id: bug }], faults: [] },
      error: null,
      id: `${app.url.replace(/^http:/, 'https:')}/`,
    });
    expect((await getRpc({ method: 'Bugzilla.version', id: '12' })).body).toEqual({
      result: { version: '5.2' },
      error: null,
      id: '12',
    });
    expect((await getRpc({ method: 'Bugzilla.version', version: '1.1' })).body).toEqual({
      version: '1.1',
      result: { version: '5.2' },
    });
  });

  it('answers JSONP with a callback, errors too', async () => {
    const response = await getRpc({
      method: 'Bug.get',
      params: JSON.stringify([{ ids: [bug], include_fields: 'id' }]),
      callback: 'handle.bugs[0]',
      id: '1',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=UTF-8');
    expect(jsonpCall(response.text)).toEqual({
      callback: 'handle.bugs[0]',
      value: { result: { bugs: [{ id: bug }], faults: [] }, error: null, id: '1' },
    });
    const error = await getRpc({ method: 'Bug.get', params: '[{"ids": [99999999]}]', callback: 'cb', id: '2' });
    expect(jsonpCall(error.text)).toEqual({
      callback: 'cb',
      value: { result: null, error: { code: 101, message: 'Bug #99999999 does not exist.' }, id: '2' },
    });
  });

  it("refuses a callback outside Bugzilla's characters with 32611, as plain JSON", async () => {
    const response = await getRpc({ method: 'Bugzilla.version', callback: 'alert(1)//', id: '1' });
    expectJsonAnswer(response);
    expect(response.body.error).toEqual({
      code: 32611,
      message:
        "You cannot use 'alert(1)//' as your 'callback' parameter. For security reasons, only letters, numbers, and the following characters are allowed in the 'callback' parameter: []._",
    });
  });

  it('calls only the methods Bugzilla lists as read-only: others are 32610', async () => {
    const response = await getRpc({
      method: 'Bug.add_comment',
      params: JSON.stringify([{ id: bug, comment: 'By GET?', Bugzilla_api_key: app.admin.apiKey }]),
      id: '1',
    });
    expect(response.body.error).toEqual({
      code: 32610,
      message: "For security reasons, you must use HTTP POST to call the 'Bug.add_comment' method.",
    });
    expect((await getRpc({ method: 'User.login', params: '[{}]' })).body.error.code).toBe(32610);
  });

  it('needs a method, and params that are JSON', async () => {
    expect((await getRpc({ id: '1' })).body.error).toMatchObject({
      code: 32000,
      message: expect.stringContaining("you must specify a 'method' parameter"),
    });
    expect((await getRpc({ method: 'Bug.get', params: '[{', id: '1' })).body.error).toMatchObject({
      code: 32000,
      message: expect.stringContaining("Could not parse the 'params' argument as valid JSON."),
    });
  });

  it('answers 304 to a client that has the answer', async () => {
    const first = await getRpc({ method: 'Bugzilla.version', id: '1' });
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await getRpc({ method: 'Bugzilla.version', id: '1' }, { 'If-None-Match': etag! })).status).toBe(304);
  });

  it('holds the query string to the REST limit', async () => {
    const response = await getRpc({ method: 'Bug.get', params: JSON.stringify([{ ids: Array(3000).fill(bug) }]) });
    expect(response.status).toBe(200);
    expect(response.body.error.code).toBe(414);
  });
});
