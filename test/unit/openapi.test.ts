import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { handler as openApiHandler } from '../../functions/instance/openapi.ts';
import { buildEvent } from '../../local/apiGatewayEmulator.ts';
import { canonicalJson } from '../../local/openapi/canonicalJson.ts';
import { ALL_ERROR_CODES } from '../../local/openapi/errorResponses.ts';
import type { JsonSchema } from '../../local/openapi/jsonSchema.ts';
import { buildOpenApiDocument } from '../../local/openapi/openApiDocument.ts';
import { OPERATIONS } from '../../local/openapi/operations.ts';
import { constructorCodes } from '../../local/openapi/routeErrors.ts';
import { OPENAPI_PATH } from '../../local/openapi/writeOpenApi.ts';
import { inputJsonSchema, UNCONVERTIBLE_NOTE } from '../../local/openapi/zodJsonSchema.ts';
import { ERROR_CATALOG } from '../../shared/errors.ts';
import { routes } from '../../shared/routes.ts';
import { httpStatusForCode, INTERNAL_ERROR } from '../../shared/trackerError.ts';

/**
 * docs/openapi.json against the code it is generated from (like apiReference.test.ts for
 * docs/api-reference.md), against the OpenAPI 3.1 schema, and as the function serves it.
 * test/integration/openapiResponses.test.ts checks its answers against real ones.
 */
type Operation = JsonSchema & { parameters?: JsonSchema[]; responses: Record<string, JsonSchema> };

let generated: JsonSchema;
let paths: Record<string, Record<string, Operation>>;
const operation = (method: string, path: string) => paths[path][method.toLowerCase()];
/** The Bugzilla codes an operation's error answers carry, from its `components/responses` entries. */
const codesOf = (op: Operation): number[] => {
  const responses = (generated.components as { responses: Record<string, JsonSchema> }).responses;
  return Object.entries(op.responses)
    .filter(([status]) => Number(status) >= 400)
    .flatMap(([status, response]) => {
      const name = String(response.$ref).replace('#/components/responses/', '');
      const schema = (responses[name].content as any)['application/json'].schema;
      const codes = schema.allOf[1].properties.code.enum as number[];
      for (const code of codes) expect(httpStatusForCode(code), `${name}: ${code}`).toBe(Number(status));
      return codes;
    });
};

beforeAll(async () => {
  generated = await buildOpenApiDocument();
  paths = generated.paths as typeof paths;
}, 300_000);

describe('docs/openapi.json', () => {
  it('is what the route table, the handlers and the error registry say (run `npx tsx local/openapi/writeOpenApi.ts` after changing them)', () => {
    // Compared as data in its key order: the file's layout is Biome's, which `npm test` checks.
    const written = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
    expect(JSON.stringify(written)).toBe(JSON.stringify(generated));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(generated));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("names package.json's license, whose text is in LICENSE", () => {
    const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(packageJson.license).toBe('Apache-2.0');
    expect((generated.info as { license: unknown }).license).toEqual({
      name: 'Apache License 2.0',
      identifier: 'Apache-2.0',
    });
    expect(readFileSync(new URL('../../LICENSE', import.meta.url), 'utf8')).toContain('Apache License');
  });

  it('is written in canonical key order (the drift check above proves that runs agree)', () => {
    expect(JSON.stringify(canonicalJson(generated))).toBe(JSON.stringify(generated));
    expect(Object.keys(generated)).toEqual([...Object.keys(generated)].sort());
  });
});

describe('the routes', () => {
  it('describes every route of the table, with its method, and nothing else', () => {
    const described = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(described.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
  });

  it('declares every path variable as a required path parameter', () => {
    for (const route of routes) {
      const declared = (operation(route.method, route.path).parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => [parameter.name, parameter.required]);
      const variables = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => [match[1], true]);
      expect(declared, `${route.method} ${route.path}`).toEqual(variables);
    }
  });

  it('gives unique operation ids', () => {
    const ids = routes.map((route) => operation(route.method, route.path).operationId);
    expect(new Set(ids).size).toBe(routes.length);
    expect(operation('GET', '/rest/user/{id_or_name}').operationId).toBe('getUsersByIdOrName');
  });

  it('has a summary and an answer described for every handler, and notes for no handler that is gone', () => {
    const handlers = [...new Set(routes.map((route) => route.handler))];
    expect(handlers.filter((handler) => OPERATIONS[handler] === undefined)).toEqual([]);
    expect(Object.keys(OPERATIONS).filter((handler) => !handlers.includes(handler))).toEqual([]);
  });

  it("takes query parameters from the handler's zod schema on GET, and a JSON body on PUT and POST", () => {
    const getUsers = operation('GET', '/rest/user');
    const ids = getUsers.parameters?.find((parameter) => parameter.name === 'ids');
    expect(ids).toMatchObject({ in: 'query', schema: { type: 'array', items: { type: 'integer' } } });
    expect(getUsers.requestBody).toBeUndefined();

    const createUser = operation('POST', '/rest/user');
    const body = (createUser.requestBody as any).content['application/json'].schema;
    expect(body.required).toEqual(['email']);
    expect(Object.keys(body.properties).sort()).toEqual(['email', 'full_name', 'password']);
    // The path variable is a path parameter, not a body property.
    const updateUser = operation('PUT', '/rest/user/{id_or_name}');
    expect(Object.keys((updateUser.requestBody as any).content['application/json'].schema.properties)).not.toContain(
      'id_or_name',
    );
  });

  it('offers field selection where the handler applies it', () => {
    const names = (op: Operation) => (op.parameters ?? []).map((parameter) => parameter.$ref ?? parameter.name);
    expect(names(operation('GET', '/rest/bug/{id_or_alias}'))).toContain('#/components/parameters/IncludeFields');
    expect(names(operation('GET', '/rest/bug/{id_or_alias}/comment'))).toContain(
      '#/components/parameters/ExcludeFields',
    );
    expect(names(operation('GET', '/rest/version'))).not.toContain('#/components/parameters/IncludeFields');
  });

  it('lets a search take any parameter', () => {
    const params = operation('GET', '/rest/bug').parameters?.find((parameter) => parameter.name === 'params');
    expect(params).toMatchObject({ in: 'query', style: 'form', explode: true, schema: { type: 'object' } });
  });
});

describe('authentication', () => {
  it('describes the API key header and parameters and the login token', () => {
    const schemes = (generated.components as { securitySchemes: Record<string, JsonSchema> }).securitySchemes;
    const forms = Object.values(schemes).map((scheme) => `${scheme.in ?? scheme.scheme}:${scheme.name ?? ''}`);
    expect(forms).toEqual(
      expect.arrayContaining([
        'header:X-BUGZILLA-API-KEY',
        'query:api_key',
        'query:Bugzilla_api_key',
        'query:token',
        'bearer:',
      ]),
    );
  });

  it('needs credentials by default, makes them optional on public routes and lists none where they are ignored', () => {
    expect((generated.security as JsonSchema[]).length).toBeGreaterThan(3);
    expect(operation('GET', '/rest/whoami').security).toBeUndefined();
    const publicRoute = operation('GET', '/rest/bug/{id_or_alias}').security as JsonSchema[];
    expect(publicRoute[0]).toEqual({});
    expect(publicRoute).toContainEqual({ ApiKeyHeader: [] });
    expect(operation('GET', '/rest/openapi.json').security).toEqual([{}]);
    expect(operation('POST', '/rest/login').security).toEqual([{}]);
  });
});

describe('errors', () => {
  it('has one error envelope with every code of the registry', () => {
    const errorSchema = (generated.components as any).schemas.Error;
    const codes = Object.values(ERROR_CATALOG).map(({ code }) => code);
    expect([...errorSchema.properties.code.enum].sort()).toEqual([...new Set(codes)].sort());
    expect(ALL_ERROR_CODES).toContain(INTERNAL_ERROR);
    expect(errorSchema.required).toEqual(['error', 'code', 'message']);
  });

  it('lists per route the codes its code raises, under the HTTP status of each', () => {
    const getBug = codesOf(operation('GET', '/rest/bug/{id_or_alias}'));
    expect(getBug).toEqual(expect.arrayContaining([101, 102, 100, INTERNAL_ERROR]));
    expect(getBug).not.toContain(600);
    const createAttachment = codesOf(operation('POST', '/rest/bug/{id_or_alias}/attachment'));
    expect(createAttachment).toEqual(expect.arrayContaining([600, 601, 603, 604, 606, 410]));
    // The version route raises no bug error, and the document route only what the chain itself can.
    expect(codesOf(operation('GET', '/rest/version'))).not.toContain(101);
    expect(codesOf(operation('GET', '/rest/openapi.json'))).not.toContain(101);
    // The RPC endpoints answer every error, -32000 included, as a fault with HTTP 200: no error responses.
    for (const route of routes.filter((entry) => !entry.handler.startsWith('rpc/')))
      expect(codesOf(operation(route.method, route.path))).toContain(INTERNAL_ERROR);
    expect(codesOf(operation('POST', '/xmlrpc.cgi'))).toEqual([]);
  });

  it('knows the code of every constructor of the registry, those with a message of their own too', () => {
    const codes = constructorCodes();
    expect(codes.get('bugNotFound')).toBe(101);
    expect(codes.get('relatedBugNotFound')).toBe(101);
    expect(codes.get('privateAttachment')).toBe(304);
    expect(codes.size).toBeGreaterThan(Object.keys(ERROR_CATALOG).length);
  });
});

describe('zod input schemas', () => {
  it('describes a parameter zod cannot express as any value, and says so', () => {
    const schema = inputJsonSchema(z.object({ name: z.string(), when: z.date() }));
    expect(schema.properties).toEqual({ name: { type: 'string' }, when: { description: UNCONVERTIBLE_NOTE } });
    expect(String(schema.description)).toContain(UNCONVERTIBLE_NOTE);
  });

  it('describes a whole input zod cannot express as an object, and says so', () => {
    expect(inputJsonSchema(z.custom<string>(() => true))).toEqual({ type: 'object', description: UNCONVERTIBLE_NOTE });
  });

  it("drops zod's safe-integer bounds and the dialect, and keeps real bounds", () => {
    const schema = inputJsonSchema(z.object({ limit: z.number().int().max(100) }));
    expect(schema).toEqual({
      type: 'object',
      properties: { limit: { type: 'integer', maximum: 100 } },
      required: ['limit'],
    });
  });
});

describe('GET /rest/openapi.json', () => {
  async function get(headers: Record<string, string> = {}) {
    const event = buildEvent(
      { method: 'GET', url: '/rest/openapi.json', headers, body: Buffer.alloc(0) },
      'GET /rest/openapi.json',
      undefined,
      'request-1',
    );
    return openApiHandler(event, { awsRequestId: 'request-1' } as Context);
  }

  it('serves the checked-in document to anyone, ignoring credentials', async () => {
    const forms: Array<Record<string, string>> = [{}, { 'x-bugzilla-api-key': 'not-a-key' }];
    for (const headers of forms) {
      const response = await get(headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers?.['Content-Type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.body ?? '')).toEqual(JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')));
    }
  });

  it('answers 304 to a client that has it', async () => {
    const first = await get();
    const again = await get({ 'if-none-match': String(first.headers?.ETag) });
    expect(again.statusCode).toBe(304);
  });
});
