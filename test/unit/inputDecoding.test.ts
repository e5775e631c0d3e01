import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { buildEvent } from '../../local/apiGatewayEmulator.ts';
import {
  checkInputLimits,
  checkJsonTextLimits,
  MAX_BODY_VALUES,
  MAX_DEPTH,
  MAX_LIST_LENGTH,
} from '../../shared/domain/inputLimits.ts';
import { defineEndpoint, type LambdaHandler } from '../../shared/http/endpoint.ts';
import { TrackerError } from '../../shared/trackerError.ts';
import { InMemoryDirectory } from './support/inMemoryDirectory.ts';

/**
 * What the chain does with a request's raw input before anything is built from it: the JSON
 * text's shape is bounded before it is parsed (and before authentication), an anonymous write is
 * refused without parsing its body, and text that is not UTF-8 is refused.
 */
const KEY = 'JaneKey0000000000000000000000000000000000';
const directory = new InMemoryDirectory().addGroup(1, 'admin');

beforeAll(async () => {
  await directory.addUser(7, 'jane@example.com');
  directory.addApiKey(KEY, 7);
});

afterEach(() => vi.restoreAllMocks());

const dependencies = { directory: () => directory, installationRequiresLogin: async () => false };
const echo = (access: 'public' | 'login'): LambdaHandler =>
  defineEndpoint(
    {
      access,
      input: z.record(z.string(), z.unknown()),
      run: ({ input, caller }) => ({ input, callerId: caller.user?.id ?? null }),
    },
    dependencies,
  );
const publicEcho = echo('public');
const loginEcho = echo('login');

async function send(handler: LambdaHandler, event: APIGatewayProxyEventV2) {
  const context = { awsRequestId: 'request', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
  const result = await handler(event, context);
  return { status: result.statusCode, body: JSON.parse(result.body ?? 'null') };
}

function post(
  handler: LambdaHandler,
  body: string | Buffer,
  options: { url?: string; headers?: Record<string, string> } = {},
) {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const headers = { 'content-type': 'application/json', ...options.headers };
  const event = buildEvent(
    { method: 'POST', url: options.url ?? '/rest/test', headers, body: bytes },
    'POST /rest/test',
    undefined,
    'request',
  );
  return send(handler, event);
}

const manyMembers = (count: number, extra = '') =>
  `{${extra}${Array.from({ length: count }, (_, index) => `"k${index}":1`).join(',')}}`;

/** The TrackerError `check` throws, or undefined when it passes. */
function refusalOf(check: () => unknown): TrackerError | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(TrackerError);
    return error as TrackerError;
  }
}

describe('checkJsonTextLimits', () => {
  const refusal = (text: string) => refusalOf(() => checkJsonTextLimits(text));

  it('refuses an object or list over MAX_LIST_LENGTH entries, at the top or nested', () => {
    expect(refusal(manyMembers(MAX_LIST_LENGTH + 1))).toMatchObject({ code: 32000 });
    expect(refusal(`{"ids":[${'1,'.repeat(MAX_LIST_LENGTH)}1]}`)?.message).toMatch(/more than 10000 entries/);
    expect(refusal(manyMembers(MAX_LIST_LENGTH))).toBeUndefined();
  });

  it('refuses a 700,000-member body without building it', () => {
    const text = manyMembers(700_000);
    const parse = vi.spyOn(JSON, 'parse');
    expect(refusal(text)).toMatchObject({ code: 32000 });
    expect(parse).not.toHaveBeenCalled();
  });

  it('refuses more than MAX_BODY_VALUES values in all, though each list is within its limit', () => {
    const list = `[${'1,'.repeat(MAX_LIST_LENGTH - 2)}1]`;
    const lists = Math.ceil(MAX_BODY_VALUES / (MAX_LIST_LENGTH - 1)) + 1;
    const text = `{${Array.from({ length: lists }, (_, index) => `"l${index}":${list}`).join(',')}}`;
    expect(refusal(text)?.message).toMatch(/more than 50000 values/);
  });

  it('bounds nesting as checkInputLimits does, one level more for the body itself', () => {
    const nested = (levels: number) => `{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    expect(refusal(nested(MAX_DEPTH))).toBeUndefined();
    expect(refusalOf(() => checkInputLimits(JSON.parse(nested(MAX_DEPTH))))).toBeUndefined();
    expect(refusal(nested(MAX_DEPTH + 1))?.message).toMatch(/nested too deeply/);
    expect(refusalOf(() => checkInputLimits(JSON.parse(nested(MAX_DEPTH + 1))))).toBeDefined();
    expect(refusal('['.repeat(1_000_000))?.message).toMatch(/nested too deeply/);
  });

  it('counts nothing inside strings', () => {
    const text = JSON.stringify({ a: ',['.repeat(60_000), b: 'x\\",{"token":"y' });
    expect(checkJsonTextLimits(text).memberNames).toEqual(['a', 'b']);
  });

  it('lists the top-level member names only, decoded', () => {
    const text = '{"Bugzilla\\u005fapi_key":"k","nested":{"token":"t"},"list":[{"login":"x"}],"s":"\\\\","last":1}';
    expect(checkJsonTextLimits(text).memberNames).toEqual(['Bugzilla_api_key', 'nested', 'list', 's', 'last']);
    expect(checkJsonTextLimits('[{"token":"t"}]').memberNames).toEqual([]);
  });
});

describe('a large body before authentication', () => {
  it('refuses a body over the limits before authenticating, whatever credential it carries', async () => {
    const findApiKey = vi.spyOn(directory, 'findApiKey');
    const response = await post(loginEcho, manyMembers(700_000, `"Bugzilla_api_key":"${KEY}",`));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: true, code: 32000 });
    expect(findApiKey).not.toHaveBeenCalled();
  });

  it('answers an anonymous write 410 without parsing its body', async () => {
    const body = manyMembers(MAX_LIST_LENGTH);
    const parse = vi.spyOn(JSON, 'parse');
    const response = await post(loginEcho, body);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 410 });
    expect(parse).not.toHaveBeenCalledWith(body);
  });

  it('still accepts credentials from the body, the query string or a header', async () => {
    const body = JSON.stringify({ Bugzilla_api_key: KEY, a: 1 });
    expect((await post(loginEcho, body)).body).toEqual({ input: { a: 1 }, callerId: 7 });
    const escaped = `{"Bugzilla\\u005fapi_key":"${KEY}","a":1}`;
    expect((await post(loginEcho, escaped)).body).toEqual({ input: { a: 1 }, callerId: 7 });
    const query = await post(loginEcho, '{"a":1}', { url: `/rest/test?api_key=${KEY}` });
    expect(query.body).toEqual({ input: { a: 1 }, callerId: 7 });
    const header = await post(loginEcho, '{"a":1}', { headers: { 'x-bugzilla-api-key': KEY } });
    expect(header.body).toEqual({ input: { a: 1 }, callerId: 7 });
  });

  it('lets an anonymous body through to a public endpoint', async () => {
    expect((await post(publicEcho, '{"a":1}')).body).toEqual({ input: { a: 1 }, callerId: null });
  });
});

describe('UTF-8', () => {
  const invalid = Buffer.concat([Buffer.from('{"a":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);

  it('refuses a body that is not UTF-8 (the emulator hands such bytes over as base64)', async () => {
    const response = await post(publicEcho, invalid);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 32000, message: expect.stringMatching(/body is not valid UTF-8/) });
  });

  it('refuses a text body in which the gateway replaced bytes, told by its length', async () => {
    const event = buildEvent(
      { method: 'POST', url: '/rest/test', headers: {}, body: Buffer.from('{"a":1}') },
      'POST /rest/test',
      undefined,
      'request',
    );
    const replaced = { ...event, body: '{"a":"caf\uFFFD"}', headers: { 'content-length': String(invalid.length) } };
    expect((await send(publicEcho, replaced)).body).toMatchObject({ code: 32000 });
    const sent = { ...replaced, headers: { 'content-length': String(Buffer.byteLength(replaced.body)) } };
    expect((await send(publicEcho, sent)).body).toEqual({ input: { a: 'caf\uFFFD' }, callerId: null });
  });

  it('accepts UTF-8 text, in the body and in the query string', async () => {
    const response = await post(publicEcho, '{"a":"café 😀"}', { url: '/rest/test?b=%C3%A9&c=50%' });
    expect(response.body).toEqual({ input: { a: 'café 😀', b: 'é', c: '50%' }, callerId: null });
  });

  it.each(['a=%FF', 'a=%C3', 'a=%ED%A0%80'])('refuses the query string %s', async (query) => {
    const response = await post(publicEcho, '{}', { url: `/rest/test?${query}` });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 32000,
      message: expect.stringMatching(/query string is not valid UTF-8/),
    });
  });
});
