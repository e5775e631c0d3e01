import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import type * as z from 'zod';
import { REST_HANDLER_MODULES } from '../../functions/rpc/restHandlers.ts';
import { buildEvent } from '../../local/apiGatewayEmulator.ts';
import type { EndpointDefinition, LambdaHandler } from '../../shared/http/endpointChain.ts';
import {
  callParams,
  readJsonRpcGet,
  readJsonRpcPost,
  writeJsonRpcError,
  writeJsonRpcResult,
} from '../../shared/http/rpc/jsonRpcCodec.ts';
import { restCallFor, routeOf } from '../../shared/http/rpc/restCall.ts';
import { restContextFor, restEventFor } from '../../shared/http/rpc/restEvent.ts';
import { RpcFault } from '../../shared/http/rpc/rpcCall.ts';
import { dispatchRpcCall } from '../../shared/http/rpc/rpcDispatcher.ts';
import {
  isBugzillaMethod,
  RPC_METHODS,
  rpcMethod,
  UNSERVED_BUGZILLA_METHODS,
} from '../../shared/http/rpc/rpcMethods.ts';
import { rpcEndpoint } from '../../shared/http/rpc/rpcServer.ts';
import type { TrackerError } from '../../shared/trackerError.ts';

/**
 * The RPC method table against the route table and Bugzilla 5.2's method lists, how a call
 * becomes its REST request, the JSON-RPC codec, and the dispatcher and endpoint with stand-in
 * REST handlers. test/integration/rpcMethods.test.ts and jsonRpc.test.ts run the real ones.
 */

/** PUBLIC_METHODS and READ_ONLY of each class in Bugzilla 5.2's Bugzilla/WebService/*.pm. */
const BUGZILLA_52 = {
  Bug: {
    public: [
      'add_attachment',
      'add_comment',
      'attachments',
      'comments',
      'create',
      'fields',
      'get',
      'history',
      'legal_values',
      'possible_duplicates',
      'render_comment',
      'search',
      'search_comment_tags',
      'update',
      'update_attachment',
      'update_comment_tags',
      'update_see_also',
      'update_tags',
    ],
    readOnly: ['attachments', 'comments', 'fields', 'get', 'history', 'legal_values', 'search'],
  },
  BugUserLastVisit: { public: ['get', 'update'], readOnly: [] },
  Bugzilla: {
    public: ['extensions', 'last_audit_time', 'parameters', 'time', 'timezone', 'version'],
    readOnly: ['extensions', 'parameters', 'timezone', 'time', 'version'],
  },
  Classification: { public: ['get'], readOnly: ['get'] },
  Component: { public: ['create'], readOnly: [] },
  FlagType: { public: ['create', 'get', 'update'], readOnly: [] },
  Group: { public: ['create', 'get', 'update'], readOnly: ['get'] },
  Product: {
    public: ['create', 'get', 'get_accessible_products', 'get_enterable_products', 'get_selectable_products', 'update'],
    readOnly: ['get', 'get_accessible_products', 'get_enterable_products', 'get_selectable_products'],
  },
  User: {
    public: ['create', 'get', 'login', 'logout', 'offer_account_by_email', 'update', 'valid_login'],
    readOnly: ['get'],
  },
};
const bugzillaMethods = Object.entries(BUGZILLA_52).flatMap(([type, { public: names }]) =>
  names.map((name) => `${type}.${name}`),
);

type Definition = EndpointDefinition<z.ZodType>;

async function definitionOf(module: string): Promise<Definition> {
  const { handler } = await REST_HANDLER_MODULES[module]!();
  return (handler as LambdaHandler & { definition: Definition }).definition;
}

describe('the method table', () => {
  it('serves every public method of Bugzilla 5.2 but those it names as unserved, and nothing 5.2 lacks', () => {
    const served = Object.keys(RPC_METHODS);
    expect(served.filter((method) => !bugzillaMethods.includes(method))).toEqual([]);
    expect(bugzillaMethods.filter((method) => !served.includes(method)).sort()).toEqual([...UNSERVED_BUGZILLA_METHODS]);
    expect(isBugzillaMethod('User.offer_account_by_email')).toBe(true);
    expect(isBugzillaMethod('Bug.frobnicate')).toBe(false);
    expect(rpcMethod('Bug.toString')).toBeUndefined();
    expect(rpcMethod('__proto__')).toBeUndefined();
  });

  it("lets a JSON-RPC GET call exactly the methods in 5.2's READ_ONLY lists", () => {
    const readOnly = Object.entries(BUGZILLA_52).flatMap(([type, { readOnly: names }]) =>
      names.map((name) => `${type}.${name}`),
    );
    const marked = Object.entries(RPC_METHODS)
      .filter(([, method]) => method.readOnly)
      .map(([name]) => name);
    expect(marked.sort()).toEqual(readOnly.filter((name) => rpcMethod(name)).sort());
  });

  it('names only routes of the route table, and read-only methods only GET routes', () => {
    for (const [name, method] of Object.entries(RPC_METHODS))
      for (const choice of method.routes) {
        const route = routeOf(choice.route);
        if (method.readOnly) expect(route.method, name).toBe('GET');
      }
    expect(() => routeOf('GET /rest/nowhere')).toThrow(/No route/);
  });

  it("fills every path variable a route's handler requires, from a parameter", async () => {
    for (const [name, method] of Object.entries(RPC_METHODS))
      for (const choice of method.routes) {
        const route = routeOf(choice.route);
        const shape = ((await definitionOf(route.handler)).input as z.ZodObject).shape as Record<string, z.ZodType>;
        for (const [, variable] of route.path.matchAll(/\{(\w+)\}/g)) {
          const filled = choice.path?.[variable!] !== undefined;
          expect(filled || shape[variable!]?.safeParse(undefined).success, `${name}: {${variable}}`).toBe(true);
        }
      }
  });

  it('bundles exactly the handler modules the table names (functions/rpc/restHandlers.ts)', async () => {
    const named = new Set(
      Object.values(RPC_METHODS).flatMap((method) => method.routes.map((choice) => routeOf(choice.route).handler)),
    );
    expect(Object.keys(REST_HANDLER_MODULES).sort()).toEqual([...named].sort());
    for (const module of named) expect(typeof (await REST_HANDLER_MODULES[module]!()).handler, module).toBe('function');
  });
});

const restCall = (method: string, params: Record<string, unknown>) => {
  const call = restCallFor(method, rpcMethod(method)!, params);
  if ('answer' in call) throw new Error(`${method} answered without a REST call`);
  return call;
};
const codeOf = (work: () => unknown): { code?: number; message?: string } => {
  try {
    work();
  } catch (error) {
    return { code: (error as TrackerError).code, message: (error as Error).message };
  }
  return {};
};

describe('a call as its REST request', () => {
  it("puts a list's first value in the path and keeps the rest; lists become repeated keys, booleans 1 and 0", () => {
    const call = restCall('Bug.get', {
      ids: [7, 'alias', 8],
      include_fields: ['id', 'summary'],
      permissive: true,
      Bugzilla_api_key: 'KEY',
    });
    expect(call.route).toMatchObject({ method: 'GET', path: '/rest/bug/{id_or_alias}', handler: 'bug/getBug' });
    expect(call.pathParameters).toEqual({ id_or_alias: '7' });
    expect(call.rawPath).toBe('/rest/bug/7');
    expect(call.body).toBeUndefined();
    expect([...new URLSearchParams(call.rawQueryString)]).toEqual([
      ['ids', 'alias'],
      ['ids', '8'],
      ['include_fields', 'id'],
      ['include_fields', 'summary'],
      ['permissive', '1'],
      ['Bugzilla_api_key', 'KEY'],
    ]);
  });

  it('moves a single value into the path, escaped there, and sends the rest of a POST as its JSON body', () => {
    const call = restCall('Bug.add_comment', { id: 'a b/c', comment: 'Hi', is_private: false, Bugzilla_token: 'T' });
    expect(call.pathParameters).toEqual({ id_or_alias: 'a b/c' });
    expect(call.rawPath).toBe('/rest/bug/a%20b%2Fc/comment');
    expect(JSON.parse(call.body!)).toEqual({ comment: 'Hi', is_private: false, Bugzilla_token: 'T' });
  });

  it('takes the first route whose path it can fill', () => {
    expect(restCall('Bug.comments', { comment_ids: [3, 4] })).toMatchObject({
      pathParameters: { comment_id: '3' },
      rawQueryString: 'comment_ids=4',
    });
    expect(restCall('Bug.comments', { ids: [1], comment_ids: [3] }).pathParameters).toEqual({ id_or_alias: '1' });
    expect(restCall('Bug.legal_values', { field: 'version', product_id: 2 }).rawPath).toBe(
      '/rest/field/bug/version/2/values',
    );
    expect(restCall('Bug.legal_values', { field: 'op_sys' }).rawPath).toBe('/rest/field/bug/op_sys/values');
    expect(restCall('Classification.get', { names: ['Hardware'] }).pathParameters).toEqual({ id_or_name: 'Hardware' });
  });

  it("answers what a call lacks with Bugzilla's param_required (50), naming the method", () => {
    expect(codeOf(() => restCall('Bug.get', {}))).toEqual({
      code: 50,
      message: 'The function Bug.get requires a ids argument, and that argument was not set.',
    });
    // An empty id list reads no bug: 5.2 answers empty, as does a null id 100.
    expect(restCallFor('Bug.get', rpcMethod('Bug.get')!, { ids: [] })).toEqual({ answer: { bugs: [], faults: [] } });
    expect(codeOf(() => restCall('Bug.get', { ids: [null] }))).toEqual({
      code: 100,
      message: 'You must enter a valid bug number!',
    });
    expect(codeOf(() => restCall('Bug.comments', {})).message).toBe(
      'The function Bug.comments requires that you set one of the following parameters: ids, comment_ids',
    );
    expect(codeOf(() => restCall('Bug.legal_values', { product_id: 1 })).message).toMatch(/requires a field argument/);
    expect(codeOf(() => restCall('Bug.add_attachment', { data: 'eA==' })).message).toMatch(/requires a ids argument/);
    expect(codeOf(() => restCall('Bug.update_see_also', { ids: [1] })).message).toMatch(/parameters: add, remove/);
  });

  it('sends every id of Bug.add_attachment in the body: the path would replace them', () => {
    const call = restCall('Bug.add_attachment', { ids: [1, 2], data: 'eA==' });
    expect(call.pathParameters).toEqual({});
    expect(JSON.parse(call.body!)).toEqual({ ids: [1, 2], data: 'eA==' });
  });

  it("renames 5.2's parameter names where the route's differ", () => {
    expect(restCall('Bug.possible_duplicates', { summary: 'x', products: ['A', 'B'] }).rawQueryString).toBe(
      'summary=x&product=A&product=B',
    );
  });

  it('refuses a nested value where the route reads a query string', () => {
    expect(codeOf(() => restCall('Bug.search', { product: { name: 'x' } }))).toMatchObject({ code: 32000 });
    expect(codeOf(() => restCall('Bug.search', { product: [['x']] })).code).toBe(32000);
    expect(restCall('Bug.search', { product: null, summary: ['a', null] }).rawQueryString).toBe('summary=a');
  });

  it('makes Bug.update_see_also an update of see_also alone, and answers in 5.2 shape', () => {
    const call = restCall('Bug.update_see_also', {
      ids: [4],
      add: ['https://a.example/1'],
      comment: 'not part of it',
      Bugzilla_api_key: 'KEY',
    });
    expect(call.route).toMatchObject({ method: 'PUT', path: '/rest/bug' });
    expect(JSON.parse(call.body!)).toEqual({
      Bugzilla_api_key: 'KEY',
      ids: [4],
      see_also: { add: ['https://a.example/1'] },
    });
    const result = rpcMethod('Bug.update_see_also')!.result!({
      bugs: [
        { id: 4, changes: { see_also: { added: 'https://a.example/1, https://a.example/2', removed: '' } } },
        { id: 5, changes: {} },
      ],
    });
    expect(result).toEqual({
      changes: {
        4: { see_also: { added: ['https://a.example/1', 'https://a.example/2'], removed: [] } },
        5: { see_also: { added: [], removed: [] } },
      },
    });
  });

  it('leaves the call parameters as they were', () => {
    const params = { ids: [1, 2] };
    restCall('Bug.get', params);
    expect(params).toEqual({ ids: [1, 2] });
  });
});

const outerEvent = (headers: Record<string, string> = {}) =>
  buildEvent(
    {
      method: 'POST',
      url: '/jsonrpc.cgi?x=1',
      headers: { 'content-type': 'application/json', 'user-agent': 'pybugz/0.13', ...headers },
      body: Buffer.from('{}'),
      sourceIp: '203.0.113.9',
    },
    'POST /jsonrpc.cgi',
    undefined,
    'request-7',
  );

describe("the REST route's event", () => {
  it("is the route's, inside the RPC request: its id, address and user agent, no other header", () => {
    const event = restEventFor(
      restCall('Bug.get', { ids: [3, 4] }),
      outerEvent({ 'x-bugzilla-api-key': 'KEY', accept: 'application/javascript', 'if-none-match': '*' }),
    );
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /rest/bug/{id_or_alias}',
      rawPath: '/rest/bug/3',
      rawQueryString: 'ids=4',
      queryStringParameters: { ids: '4' },
      pathParameters: { id_or_alias: '3' },
      isBase64Encoded: false,
      requestContext: {
        requestId: 'request-7',
        routeKey: 'GET /rest/bug/{id_or_alias}',
        http: { method: 'GET', path: '/rest/bug/3', sourceIp: '203.0.113.9' },
      },
    });
    expect(event.headers).toEqual({ 'user-agent': 'pybugz/0.13' });
    expect(event.body).toBeUndefined();
  });

  it('carries a JSON body with its content type', () => {
    const event = restEventFor(restCall('Bug.create', { summary: 'x' }), outerEvent());
    expect(event.headers['content-type']).toBe('application/json');
    expect(JSON.parse(event.body!)).toEqual({ summary: 'x' });
  });

  it("gets the RPC request's context without the RPC chain's state", () => {
    const context = { awsRequestId: 'request-7', tracker: { statusCode: 200 } } as unknown as Context;
    const copy = restContextFor(context) as Context & { tracker?: unknown };
    expect(copy.awsRequestId).toBe('request-7');
    expect(copy.tracker).toBeUndefined();
    expect((context as Context & { tracker?: unknown }).tracker).toBeDefined();
  });
});

describe('the JSON-RPC codec', () => {
  const message = (text: string) => {
    const reading = readJsonRpcPost(text);
    if (!('message' in reading)) throw reading.fault;
    return reading.message;
  };

  it('reads the version as JSON::RPC does: any true value is 1.1', () => {
    expect(message('{"method":"Bug.get","params":[{}],"id":1}').envelope).toEqual({ version: '1.0', id: 1 });
    expect(message('{"version":"1.1","method":"Bug.get","id":"a"}').envelope.version).toBe('1.1');
    expect(message('{"version":"2.0","method":"Bug.get"}').envelope.version).toBe('1.1');
    expect(message('{"version":"0","method":"Bug.get"}').envelope.version).toBe('1.0');
    expect(message('{"jsonrpc":"2.0","method":"Bug.get"}').envelope.version).toBe('1.0');
  });

  it('answers what cannot be read in the 1.1 form, without an id', () => {
    for (const [text, code] of [
      ['{"method": ', 100201],
      ['[{"method":"Bug.get"}]', 32000],
      ['"Bug.get"', 32000],
      [`{"params": ${'['.repeat(30)}${']'.repeat(30)}}`, 32000],
    ] as const) {
      const reading = readJsonRpcPost(text);
      expect(reading, text).toMatchObject({ envelope: { version: '1.1', id: undefined }, fault: { code } });
    }
  });

  it("refuses a missing method (100300) and one with other characters (100301), in the call's version", () => {
    expect(readJsonRpcPost('{"id":3}')).toMatchObject({ envelope: { id: 3 }, fault: { code: 100300 } });
    expect(readJsonRpcPost('{"method":"Bug.get()","id":3}')).toMatchObject({ fault: { code: 100301 } });
    expect(readJsonRpcPost('{"method":{"x":1},"id":3}')).toMatchObject({ fault: { code: 100301 } });
  });

  it('takes the struct from the params: a list of it in 1.0, it or a list of it in 1.1', () => {
    expect(callParams(message('{"method":"m","params":[{"a":1}],"id":1}'))).toEqual({ a: 1 });
    expect(callParams(message('{"method":"m","params":[],"id":1}'))).toEqual({});
    expect(callParams(message('{"version":"1.1","method":"m","params":{"a":1}}'))).toEqual({ a: 1 });
    expect(callParams(message('{"version":"1.1","method":"m"}'))).toEqual({});
    expect(() => callParams(message('{"method":"m","params":{"a":1},"id":1}'))).toThrow(
      expect.objectContaining({ code: 100400 }),
    );
    expect(() => callParams(message('{"method":"m","params":[1],"id":1}'))).toThrow(
      expect.objectContaining({ code: 32000 }),
    );
  });

  it('reads a GET: method, params as JSON text, id (the default when absent), version, callback', () => {
    const read = (query: string) => readJsonRpcGet(new URLSearchParams(query), 'https://tracker.example/');
    expect(read('method=Bug.get&params=[{"ids":[1]}]')).toEqual({
      message: {
        envelope: { version: '1.0', id: 'https://tracker.example/' },
        method: 'Bug.get',
        params: [{ ids: [1] }],
      },
    });
    expect(read('method=Bug.get&version=1.1&id=')).toEqual({
      message: { envelope: { version: '1.1', id: '' }, method: 'Bug.get', params: {} },
    });
    expect(read('method=Bug.get&callback=%20cb.x[1]%20')).toMatchObject({
      message: { envelope: { callback: 'cb.x[1]' } },
    });
    const refused = read('method=Bug.get&callback=a(b)');
    expect(refused).toMatchObject({ fault: { code: 32611 } });
    expect((refused as { envelope: object }).envelope).not.toHaveProperty('callback');
    expect(read('method=Bug.get&callback=')).toMatchObject({ fault: { code: 32611 } });
    expect(read('callback=cb')).toMatchObject({ fault: { code: 32000 }, envelope: { callback: 'cb' } });
    expect(read('method=Bug.get&params={')).toMatchObject({ fault: { code: 32000 } });
  });

  it('writes 1.0 with all three members, 1.1 as JSON::RPC does, and nothing for a 1.0 notification', () => {
    const fault = new RpcFault(101, 'Bug #9 does not exist.');
    expect(JSON.parse(writeJsonRpcResult({ version: '1.0', id: 4 }, { a: 1 }))).toEqual({
      result: { a: 1 },
      error: null,
      id: 4,
    });
    expect(JSON.parse(writeJsonRpcResult({ version: '1.0', id: 4 }, undefined))).toEqual({
      result: null,
      error: null,
      id: 4,
    });
    expect(JSON.parse(writeJsonRpcError({ version: '1.0', id: 4 }, fault))).toEqual({
      result: null,
      error: { code: 101, message: 'Bug #9 does not exist.' },
      id: 4,
    });
    expect(JSON.parse(writeJsonRpcResult({ version: '1.1', id: 4 }, true))).toEqual({ version: '1.1', result: true });
    expect(JSON.parse(writeJsonRpcError({ version: '1.1', id: 4 }, fault))).toEqual({
      version: '1.1',
      error: { name: 'JSONRPCError', code: 101, message: 'Bug #9 does not exist.' },
      id: 4,
    });
    expect(JSON.parse(writeJsonRpcError({ version: '1.1', id: null }, fault))).not.toHaveProperty('id');
    expect(writeJsonRpcResult({ version: '1.0', id: null }, 1)).toBe('');
    expect(writeJsonRpcError({ version: '1.0', id: undefined }, fault)).toBe('');
  });
});

/** A REST handler that answers this. */
const answering =
  (statusCode: number, body: string, headers: Record<string, string> = {}): LambdaHandler =>
  async () => ({ statusCode, body, headers });

const context = { awsRequestId: 'request-7' } as Context;

describe('the dispatcher', () => {
  const dispatch = (method: string, handler: LambdaHandler, params: Record<string, unknown> = { ids: [1] }) =>
    dispatchRpcCall({ method, params }, () => handler, { event: outerEvent(), context });

  it("answers the route's JSON as the result, a scalar REST wraps bare", async () => {
    expect(await dispatch('Bug.get', answering(200, '{"bugs":[],"faults":[]}'))).toEqual({
      result: { bugs: [], faults: [] },
      personal: false,
    });
    expect(
      await dispatch('User.valid_login', answering(200, '{"result":true}', { 'Cache-Control': 'private' })),
    ).toEqual({
      result: true,
      personal: true,
    });
  });

  it("answers the route's error envelope as a fault with its code and message", async () => {
    const handler = answering(404, '{"error":true,"code":101,"message":"Bug #1 does not exist.","documentation":"x"}');
    await expect(dispatch('Bug.get', handler)).rejects.toEqual(new RpcFault(101, 'Bug #1 does not exist.'));
  });

  it('answers what is not an envelope as the unexpected -32000 fault with the request id', async () => {
    for (const handler of [answering(500, 'oops'), answering(502, '{"message":"Internal Server Error"}')])
      await expect(dispatch('Bug.get', handler)).rejects.toMatchObject({
        code: -32000,
        message: expect.stringContaining('request-7'),
      });
  });

  it('gives the handler the REST event and a context of its own', async () => {
    const handler = vi.fn(answering(200, '{}'));
    await dispatch('Bug.history', handler, { ids: [5], new_since: '2025-01-01T00:00:00Z' });
    const [event, handlerContext] = handler.mock.calls[0]!;
    expect(event.routeKey).toBe('GET /rest/bug/{id_or_alias}/history');
    expect(event.rawQueryString).toBe('new_since=2025-01-01T00%3A00%3A00Z');
    expect(handlerContext).not.toBe(context);
    expect(handlerContext.awsRequestId).toBe('request-7');
  });

  it('refuses a method the table does not have', async () => {
    await expect(dispatch('Bug.frobnicate', answering(200, '{}'))).rejects.toMatchObject({ code: -32601 });
  });
});

describe('the endpoint', () => {
  const xmlCall = (method: string) =>
    `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params><param><value><struct><member><name>ids</name><value><array><data><value><int>1</int></value></data></array></value></member></struct></value></param></params></methodCall>`;

  const invoke = (handler: LambdaHandler, path: string, body: string, headers: Record<string, string>) =>
    handler(
      buildEvent(
        { method: 'POST', url: path, headers, body: Buffer.from(body) },
        `POST ${path}`,
        undefined,
        'request-9',
      ),
      { awsRequestId: 'request-9' } as Context,
    );

  it('answers XML-RPC in any other content type than 5.2 allows with 32612, before reading the XML', async () => {
    const endpoint = rpcEndpoint(() => answering(200, '{}'));
    const response = await invoke(endpoint, '/xmlrpc.cgi', 'not xml', { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Content-Type']).toBe('text/xml; charset=UTF-8');
    expect(response.body).toContain('<int>32612</int>');
    expect(response.body).toContain(
      'When using XML-RPC, you cannot send data as application/json. Allowed content types are text/xml, application/xml.',
    );
    const xml = await invoke(endpoint, '/xmlrpc.cgi', xmlCall('Bug.get'), {
      'content-type': 'application/xml; charset=utf-8',
    });
    expect(xml.body).toContain('<methodResponse><params>');
  });

  it('answers an unknown XML-RPC method with unknown_method (-32601)', async () => {
    const response = await invoke(
      rpcEndpoint(() => answering(200, '{}')),
      '/xmlrpc.cgi',
      xmlCall('Bug.frobnicate'),
      {
        'content-type': 'text/xml',
      },
    );
    expect(response.body).toContain('<int>-32601</int>');
    expect(response.body).toContain("The requested method 'Bug.frobnicate' was not found.");
  });

  it('answers a handler that fails unexpectedly with the -32000 fault and HTTP 200, never a 500 or a stack', async () => {
    // The stack goes to the log (checked here), not to the answer.
    const errorLog = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const failing: LambdaHandler = async () => {
      throw new Error('secret internals at /var/task/index.mjs:1:2');
    };
    for (const [path, body, type] of [
      ['/xmlrpc.cgi', xmlCall('Bug.get'), 'text/xml'],
      ['/jsonrpc.cgi', '{"method":"Bug.get","params":[{"ids":[1]}],"id":1}', 'application/json'],
    ] as const) {
      const response = await invoke(
        rpcEndpoint(() => failing),
        path,
        body,
        { 'content-type': type },
      );
      expect(response.statusCode, path).toBe(200);
      expect(response.body).toContain('-32000');
      expect(response.body).toContain('request-9');
      expect(response.body).not.toContain('secret internals');
    }
    expect(errorLog.mock.calls.map((args) => String(args[0])).join('')).toContain('secret internals');
    errorLog.mockRestore();
  });

  it('answers a handler module that cannot be loaded the same way', async () => {
    const errorLog = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const endpoint = rpcEndpoint(() => Promise.reject(new TypeError('no such module')));
    const response = await invoke(endpoint, '/jsonrpc.cgi', '{"method":"Bug.get","params":[{"ids":[1]}],"id":1}', {
      'content-type': 'application/json',
    });
    expect(JSON.parse(response.body ?? '')).toMatchObject({ error: { code: -32000 }, id: 1 });
    errorLog.mockRestore();
  });
});
