import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  acceptsGzip,
  COMPRESS_FROM_CHARACTERS,
  compressedForClient,
  fitsLambdaResponse,
  LAMBDA_RESPONSE_LIMIT,
  unencodedTag,
} from '../../shared/http/lambdaResponse.ts';
import type { HttpResult } from '../../shared/http/requestState.ts';

const headers = { 'Content-Type': 'application/json; charset=UTF-8', Vary: 'Accept', ETag: '"abc"' };

/** What Lambda counts: the runtime's JSON of the result, in UTF-8. */
const invocationBytes = (result: HttpResult) => Buffer.byteLength(JSON.stringify(result), 'utf8');

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate', true],
    ['br, gzip, deflate', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['gzip;q=0.5', true],
    ['*', true],
    ['deflate, *;q=0.1', true],
    ['gzip;q=0', false],
    ['gzip; q=0.0, *', false],
    ['*;q=0', false],
    ['identity', false],
    ['deflate, br', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('fitsLambdaResponse', () => {
  /** A body whose runtime JSON is exactly `bytes` more or fewer than the limit allows, made of `unit`. */
  function resultOfBytes(unit: string, slack: number): HttpResult {
    const frame = invocationBytes({ statusCode: 200, headers, body: '' });
    const unitBytes = invocationBytes({ statusCode: 200, headers, body: unit }) - frame;
    const units = Math.floor((LAMBDA_RESPONSE_LIMIT - frame) / unitBytes);
    const filler = 'x'.repeat(LAMBDA_RESPONSE_LIMIT - frame - units * unitBytes + slack);
    return { statusCode: 200, headers, body: unit.repeat(units) + filler };
  }

  it.each([
    ['plain ASCII', 'abcd'],
    ['quotes and backslashes, which the runtime escapes', '{"a":"\\\\"}'],
    ['characters of two and three UTF-8 bytes', 'é—€'],
    ['a character outside the BMP', '😀'],
    ['control characters, in a body long enough to be read through', 'abcdefgh\u0001\n'],
  ])('counts %s as the runtime writes them', (_, unit) => {
    const atLimit = resultOfBytes(unit, 0);
    expect(invocationBytes(atLimit)).toBe(LAMBDA_RESPONSE_LIMIT);
    expect(fitsLambdaResponse(atLimit)).toBe(true);
    const over = resultOfBytes(unit, 1);
    expect(invocationBytes(over)).toBe(LAMBDA_RESPONSE_LIMIT + 1);
    expect(fitsLambdaResponse(over)).toBe(false);
  });
});

describe('compressedForClient', () => {
  const long = JSON.stringify({ bugs: Array.from({ length: 500 }, (_, id) => ({ id, summary: `Bug ${id} crashes` })) });

  it('gzips a long body for a client that accepts it, naming the encoding in the entity tag', async () => {
    expect(long.length).toBeGreaterThanOrEqual(COMPRESS_FROM_CHARACTERS);
    const result = await compressedForClient({ statusCode: 200, headers, body: long }, 'gzip, deflate');
    expect(result.isBase64Encoded).toBe(true);
    expect(result.headers).toMatchObject({
      'Content-Encoding': 'gzip',
      Vary: 'Accept, Accept-Encoding',
      ETag: '"abc-gzip"',
    });
    expect(gunzipSync(Buffer.from(result.body!, 'base64')).toString('utf8')).toBe(long);
    expect(result.body!.length).toBeLessThan(long.length / 4);
    expect(unencodedTag(String(result.headers!.ETag))).toBe('"abc"');
  });

  it('leaves a long body as it is for a client that does not accept gzip, saying it varies', async () => {
    const result = await compressedForClient({ statusCode: 200, headers, body: long }, 'identity');
    expect(result.body).toBe(long);
    expect(result.isBase64Encoded).toBeUndefined();
    expect(result.headers).toEqual({ ...headers, Vary: 'Accept, Accept-Encoding' });
  });

  it('leaves a short body, and a body already in base64, as they are', async () => {
    const short = { statusCode: 200, headers, body: '{"version":"5.2"}' };
    expect(await compressedForClient(short, 'gzip')).toBe(short);
    const binary = { statusCode: 200, headers, body: 'A'.repeat(COMPRESS_FROM_CHARACTERS), isBase64Encoded: true };
    expect(await compressedForClient(binary, 'gzip')).toBe(binary);
  });
});
