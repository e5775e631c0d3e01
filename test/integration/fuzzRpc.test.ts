import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RPC_METHODS } from '../../shared/http/rpc/rpcMethods.ts';
import { FUZZ_RPC_RUNS, parameterName, STACK_TRACE, text, value } from '../support/fuzzInputs.ts';
import { tableInconsistencies } from '../support/tableIntegrity.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Every RPC method (XML-RPC, JSON-RPC over POST and GET) called with generated parameters: the
 * same odd values, hostile names and over-long logins as the REST fuzz (test/support/fuzzInputs.ts),
 * credentials in the parameters as Bugzilla's clients send them (a valid key, a wrong key, a
 * login over any key's length, none). Whatever arrives, the answer is the protocol's result or
 * fault, never an HTTP 5xx and never a stack trace; and afterwards no item is half-written.
 * `FUZZ_RPC_RUNS` sets the number of calls (300); fast-check prints the seed of a failure.
 */
let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'fuzzgroup', description: 'x' } });
  await call(app, 'POST', '/rest/keyword', { apiKey: admin, body: { name: 'fuzzword', description: 'x' } });
});
afterAll(async () => {
  await app?.close();
});

const escapeXml = (raw: string) => raw.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A value as XML-RPC writes it; characters XML cannot hold are left in, as a careless client would send them. */
function xmlRpcValue(input: unknown): string {
  if (input === null || input === undefined) return '<value><nil/></value>';
  if (typeof input === 'boolean') return `<value><boolean>${input ? 1 : 0}</boolean></value>`;
  if (typeof input === 'number')
    return Number.isInteger(input) && Math.abs(input) < 2 ** 31
      ? `<value><int>${input}</int></value>`
      : `<value><double>${input}</double></value>`;
  if (typeof input === 'string') return `<value><string>${escapeXml(input)}</string></value>`;
  if (Array.isArray(input)) return `<value><array><data>${input.map(xmlRpcValue).join('')}</data></array></value>`;
  const members = Object.entries(input as Record<string, unknown>)
    .map(([name, member]) => `<member><name>${escapeXml(name)}</name>${xmlRpcValue(member)}</member>`)
    .join('');
  return `<value><struct>${members}</struct></value>`;
}

const methodName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...Object.keys(RPC_METHODS)) },
  { weight: 1, arbitrary: fc.constantFrom('User.offer_account_by_email', 'Nope.nothing', '', 'Bug.__proto__') },
  { weight: 1, arbitrary: text },
);

const credential = fc.constantFrom<Record<string, unknown>>(
  {},
  {},
  { Bugzilla_api_key: 'ADMIN' },
  { Bugzilla_api_key: 'ADMIN' },
  { Bugzilla_api_key: 'not-a-key' },
  { Bugzilla_login: `${'l'.repeat(2_100)}@example.test`, Bugzilla_password: 'x' },
  { Bugzilla_login: '', Bugzilla_password: 'secret' },
  { Bugzilla_token: `1-${'t'.repeat(3_000)}` },
);

const rpcCall = fc.record({
  method: methodName,
  params: fc.dictionary(parameterName, value, { maxKeys: 5 }),
  credential,
  transport: fc.constantFrom('xml-rpc', 'json-rpc', 'json-rpc', 'json-rpc GET'),
});

describe('generated calls of every RPC method', () => {
  it('answers a result or a fault, never a 5xx or a stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(rpcCall, async (generated) => {
        const withKey = Object.fromEntries(
          Object.entries(generated.credential).map(([name, entry]) => [name, entry === 'ADMIN' ? admin : entry]),
        );
        const params = { ...generated.params, ...withKey };
        let response: Awaited<ReturnType<typeof call>>;
        if (generated.transport === 'xml-rpc') {
          const body = `<?xml version="1.0"?><methodCall><methodName>${escapeXml(generated.method)}</methodName><params><param>${xmlRpcValue(params)}</param></params></methodCall>`;
          response = await call(app, 'POST', '/xmlrpc.cgi', { rawBody: body, headers: { 'Content-Type': 'text/xml' } });
        } else if (generated.transport === 'json-rpc') {
          const body = JSON.stringify({ version: '1.1', method: generated.method, params: [params], id: 7 });
          response = await call(app, 'POST', '/jsonrpc.cgi', {
            rawBody: body,
            headers: { 'Content-Type': 'application/json' },
          });
        } else {
          const query = new URLSearchParams();
          try {
            query.set('method', generated.method);
            query.set('params', JSON.stringify([params]));
          } catch {
            // A lone surrogate cannot go into a URL through URLSearchParams: sent without it.
          }
          response = await call(app, 'GET', '/jsonrpc.cgi', { query: query.toString() });
        }
        const where = `${generated.transport} ${generated.method.slice(0, 60)} ${JSON.stringify(generated.params).slice(0, 300)}: ${response.status} ${response.text.slice(0, 300)}`;
        expect(response.status, where).toBeLessThan(500);
        expect(response.text, where).not.toMatch(STACK_TRACE);
        if (generated.transport === 'xml-rpc') expect(response.text, where).toContain('<methodResponse>');
        else if (response.status === 200) {
          const answer = response.body as { result?: unknown; error?: { code?: unknown } | null };
          expect(answer && typeof answer === 'object', where).toBe(true);
          if (answer.error) expect(typeof answer.error.code, where).toBe('number');
          else expect('result' in answer, where).toBe(true);
        }
      }),
      { numRuns: FUZZ_RPC_RUNS },
    );
  });

  it('left nothing half-written', async () => {
    expect(await tableInconsistencies()).toEqual([]);
  });
});
