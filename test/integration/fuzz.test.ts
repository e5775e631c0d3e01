import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteDefinition, routes } from '../../shared/routes.ts';
import { FUZZ_RUNS_PER_ROUTE, parameterName, STACK_TRACE, text, value } from '../support/fuzzInputs.ts';
import { tableInconsistencies } from '../support/tableIntegrity.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Every route of the route table driven with generated bad input (fast-check): wrong types, huge
 * and tiny values, odd Unicode (NUL, bidi overrides, lone surrogates), unknown and hostile
 * parameter names, malformed bodies. Whatever arrives, the answer must be a client error or a
 * success, never a 5xx, never a stack trace; and afterwards no item may be half-written.
 * About five requests a route keep the run short (`FUZZ_RUNS=80` for a long run, docs/operations.md);
 * fast-check prints the seed of a failure so it can be replayed (`fc.assert(..., { seed })`).
 */
let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  // Something for the generated requests to hit.
  await call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'fuzzgroup', description: 'x' } });
  await call(app, 'POST', '/rest/keyword', { apiKey: admin, body: { name: 'fuzzword', description: 'x' } });
  await call(app, 'POST', '/rest/field/bug', {
    apiKey: admin,
    body: { name: 'cf_fuzz', display_name: 'Fuzz', type: 2, values: ['a'] },
  });
  await call(app, 'POST', '/rest/flag_type', { apiKey: admin, body: { name: 'fuzzflag', description: 'x' } });
});
afterAll(async () => {
  await app?.close();
});

const body = fc.dictionary(parameterName, value, { maxKeys: 6 });
const rawBody = fc.constantFrom(
  '{',
  '[1,2]',
  '"text"',
  'null',
  '{"a":',
  '\u0000',
  '{"__proto__":{"admin":true}}',
  'x'.repeat(1000),
  '{"name":"\\ud800"}',
);

/** encodeURIComponent refuses lone surrogates; the path then carries raw invalid escapes, as an attacker's would. */
const encodePathPart = (part: string) => {
  try {
    return encodeURIComponent(part);
  } catch {
    return '%ED%A0%80%FF';
  }
};

const requestFor = (route: RouteDefinition) =>
  fc
    .record({
      pathParts: fc.array(text, { minLength: 4, maxLength: 4 }),
      query: fc.dictionary(parameterName, fc.oneof(text, fc.array(text, { maxLength: 3 })), { maxKeys: 4 }),
      body: fc.option(body, { nil: undefined }),
      raw: fc.option(rawBody, { nil: undefined, freq: 4 }),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        '',
      ),
      caller: fc.constantFrom('admin', 'admin', 'admin', 'anonymous', 'badkey'),
    })
    .map((generated) => {
      let index = 0;
      const path = route.path.replace(/\{[^}]+\}/g, () => encodePathPart(generated.pathParts[index++] ?? ''));
      const query = new URLSearchParams();
      for (const [key, entry] of Object.entries(generated.query)) {
        for (const item of Array.isArray(entry) ? entry : [entry]) {
          try {
            query.append(key, item);
          } catch {
            // A lone surrogate cannot be put in a URL by URLSearchParams: left out.
          }
        }
      }
      return { ...generated, path, query: query.toString() };
    });

describe('generated bad input on every route', () => {
  it('never answers a 5xx or a stack trace', async () => {
    const mutating = routes.filter((route) => route.method !== 'GET');
    const reading = routes.filter((route) => route.method === 'GET');
    for (const route of [...reading, ...mutating]) {
      await fc.assert(
        fc.asyncProperty(requestFor(route), async (request) => {
          const headers: Record<string, string> = {};
          if (request.contentType) headers['Content-Type'] = request.contentType;
          const apiKey = request.caller === 'admin' ? admin : request.caller === 'badkey' ? 'not-a-key' : undefined;
          const hasBody = route.method !== 'GET';
          const response = await call(app, route.method, request.path, {
            apiKey,
            headers,
            query: request.query,
            ...(hasBody && request.raw !== undefined ? { rawBody: request.raw } : {}),
            ...(hasBody && request.raw === undefined && request.body !== undefined
              ? { rawBody: JSON.stringify(request.body) }
              : {}),
          });
          const where = `${route.method} ${route.path} -> ${request.path}?${request.query.slice(0, 200)}: ${response.status} ${response.text.slice(0, 300)}`;
          expect(response.status, where).toBeLessThan(500);
          expect(response.text, where).not.toMatch(STACK_TRACE);
          if (response.status >= 400)
            expect(response.body, where).toMatchObject({ error: true, code: expect.any(Number) });
        }),
        { numRuns: FUZZ_RUNS_PER_ROUTE },
      );
    }
  });

  it('refuses every body with very many members, before authentication', async () => {
    // Over the limits of shared/domain/inputLimits.ts, as JSON text (building such objects would be slow).
    const members = (count: number, value: string) =>
      Array.from({ length: count }, (_, index) => `"k${index}":${value}`).join(',');
    const list = (count: number) => `[${'1,'.repeat(count - 1)}1]`;
    const oversized = fc.oneof(
      fc.integer({ min: 10_001, max: 200_000 }).map((count) => `{${members(count, '1')}}`),
      fc.integer({ min: 10_001, max: 500_000 }).map((count) => `{"ids":${list(count)}}`),
      fc.integer({ min: 18, max: 100_000 }).map((depth) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`),
      fc.integer({ min: 6, max: 20 }).map((lists) => `{${members(lists, list(9_999))}}`),
      fc.integer({ min: 10_001, max: 50_000 }).map((count) => `{"flags":[${'{"a":1},'.repeat(count - 1)}{}]}`),
    );
    // The RPC endpoints answer such bodies with their protocol's fault at HTTP 200
    // (test/integration/rpcHostile.test.ts), not with REST's 400.
    const mutating = routes.filter((route) => route.method !== 'GET' && !route.handler.startsWith('rpc/'));
    for (const route of mutating) {
      const path = route.path.replace(/\{[^}]+\}/g, '1');
      await fc.assert(
        fc.asyncProperty(
          oversized,
          fc.constantFrom('', '"Bugzilla_api_key":"not-a-key",'),
          async (text, credential) => {
            const rawBody = credential ? `{${credential}${text.slice(1)}` : text;
            const response = await call(app, route.method, path, {
              rawBody,
              headers: { 'Content-Type': 'application/json' },
            });
            const where = `${route.method} ${path} (${rawBody.length} bytes): ${response.status} ${response.text.slice(0, 200)}`;
            // 32000, never 306: the wrong key is never looked at.
            expect([response.status, response.body?.code], where).toEqual([400, 32000]);
          },
        ),
        { numRuns: 2 },
      );
    }
  });

  it('left nothing half-written', async () => {
    expect(await tableInconsistencies()).toEqual([]);
  });
});
