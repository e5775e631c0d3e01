import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { errors } from '../errors.ts';
import type { TrackerError } from '../trackerError.ts';
import type { HttpResult } from './requestState.ts';

/**
 * What crosses the Lambda boundary: an answer as API Gateway gets it from the function.
 *
 * A synchronous invocation answers at most 6 MB, counted over the JSON the runtime writes of the
 * result, so a body's quotes count twice and its other characters as UTF-8. Past that the
 * invocation fails and API Gateway answers a bare 500. A search of 10,000 bugs (Bugzilla's
 * `max_search_results`) with the default fields is about 14 MB of JSON, so an installation of a
 * million bugs meets that limit with ordinary queries.
 *
 * Bug JSON shrinks about eightfold with gzip at level 1, and the clients that ask for large answers
 * (python-bugzilla and every other `requests`, `xmlrpc.client` or browser client) accept it. Such
 * answers are compressed and sent as base64, which API Gateway decodes before it sends them on.
 * API Gateway's HTTP APIs compress nothing themselves.
 */

/** Lambda's limit on a synchronous invocation's response, in bytes (its error message names it). */
export const LAMBDA_RESPONSE_LIMIT = 6_291_556;

/** Bodies from this many characters are compressed for a client that accepts gzip: below, the bytes saved cost more than they save. */
export const COMPRESS_FROM_CHARACTERS = 16 * 1024;

/**
 * A body this long fits whatever it holds: a character costs at most 6 bytes in the runtime's
 * JSON (a control character written `\u001f`), and the headers take a few KB.
 */
const ALWAYS_FITS_CHARACTERS = 1_040_000;

const gzipped = promisify(gzip);

/** Whether `Accept-Encoding` takes gzip: named (or `x-gzip`, or `*`) with a quality above 0. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let star: boolean | undefined;
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((text) => text.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    const accepted = quality === undefined || Number(quality.slice(2)) > 0;
    if (name === 'gzip' || name === 'x-gzip') return accepted;
    if (name === '*') star = accepted;
  }
  return star === true;
}

/** Bytes the body takes inside the runtime's JSON of the result: UTF-8, with quotes, backslashes and control characters escaped. */
function escapedBodyBytes(body: string): number {
  let extra = 0;
  for (let index = 0; index < body.length; index++) {
    const code = body.charCodeAt(index);
    if (code === 34 || code === 92) extra += 1;
    else if (code < 32) extra += code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 1 : 5;
  }
  return Buffer.byteLength(body, 'utf8') + extra;
}

/** Whether Lambda can answer with this result (its JSON within LAMBDA_RESPONSE_LIMIT): a body of JSON or XML text. */
export function fitsLambdaResponse(result: HttpResult): boolean {
  const body = result.body ?? '';
  if (body.length <= ALWAYS_FITS_CHARACTERS) return true;
  const room = LAMBDA_RESPONSE_LIMIT - Buffer.byteLength(JSON.stringify({ ...result, body: '' }), 'utf8');
  // Escaping at most doubles a byte but for the control characters written `\u00XX`, which JSON
  // and XML text never carries raw: a 1,000-bug page (1.4 MB) is settled without reading it.
  if (Buffer.byteLength(body, 'utf8') * 2 <= room) return true;
  return escapedBodyBytes(body) <= room;
}

/**
 * The result with its body gzipped and base64-encoded, when the client accepts gzip and the body
 * is long enough to gain from it; otherwise the result as it was. The entity tag names the
 * encoding (`"<tag>-gzip"`), as two encodings of one answer are two representations.
 */
export async function compressedForClient(result: HttpResult, acceptEncoding: string | undefined): Promise<HttpResult> {
  const body = result.body ?? '';
  if (result.isBase64Encoded || body.length < COMPRESS_FROM_CHARACTERS) return result;
  // Whether this answer comes compressed depends on the request's Accept-Encoding: a cache must know.
  const vary = String(result.headers?.Vary ?? '');
  const varied: Record<string, string | number | boolean> = {
    ...result.headers,
    Vary: vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding',
  };
  if (!acceptsGzip(acceptEncoding)) return { ...result, headers: varied };
  const headers: Record<string, string | number | boolean> = { ...varied, 'Content-Encoding': 'gzip' };
  const tag = headers.ETag;
  if (typeof tag === 'string' && tag.endsWith('"')) headers.ETag = `${tag.slice(0, -1)}-gzip"`;
  const compressed = await gzipped(body, { level: 1 });
  return { ...result, headers, body: compressed.toString('base64'), isBase64Encoded: true };
}

/**
 * The result as Lambda can return it, gzipped for a client that accepts it; or, when it is over
 * the limit even so, the error to answer instead (its size, and how to ask for less).
 */
export async function fittedForLambda(
  result: HttpResult,
  acceptEncoding: string | undefined,
): Promise<HttpResult | TrackerError> {
  const encoded = await compressedForClient(result, acceptEncoding);
  if (fitsLambdaResponse(encoded)) return encoded;
  const kilobytes = Math.ceil(Buffer.byteLength(result.body ?? '', 'utf8') / 1024);
  return errors.responseTooLarge(kilobytes, encoded.isBase64Encoded === true);
}

/** The entity tag a client holds, without the encoding's suffix: the answer it names is the same either way. */
export const unencodedTag = (tag: string): string => tag.replace(/-gzip"$/, '"');
