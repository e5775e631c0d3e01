import { createHash } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { extractCredentials } from '../../domain/identity/authentication.ts';
import { isLoggedIn } from '../../domain/identity/caller.ts';
import { jsonPieces } from '../../domain/rawJson.ts';
import { unencodedTag } from '../lambdaResponse.ts';
import { type HttpResult, header, lowerCaseHeaders, stateOf, type TrackerRequest } from '../requestState.ts';
import { sequentialText } from '../sequentialText.ts';

/** Headers every answer carries, as Bugzilla sends them (plus `Vary: Accept`, which the spec asks for). */
export const COMMON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  Vary: 'Accept',
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
});

const JSON_TYPE = 'application/json; charset=UTF-8';
const JAVASCRIPT_TYPE = 'application/javascript; charset=UTF-8';

/** Pieces are hashed in runs of about this many characters: short strings V8 builds in its young generation. */
const HASHED_RUN = 32_768;

/**
 * The SHA-1 of the body's pieces in order, as of the body itself. Hashing a 1 MB page as one string
 * would first copy its thousand pieces into fresh memory, which cost five times the hash.
 */
function entityTag(pieces: readonly string[]): string {
  const hash = createHash('sha1');
  let run = '';
  for (const piece of pieces) {
    run += piece;
    if (run.length >= HASHED_RUN) {
      hash.update(run);
      run = '';
    }
  }
  hash.update(run);
  return `"${hash.digest('base64url')}"`;
}

function matchesEntityTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    // A tag of the gzipped answer names the same content (lambdaResponse.ts).
    const value = unencodedTag(candidate.trim().replace(/^W\//, ''));
    return value === '*' || value === tag;
  });
}

/** Serialises the handler's (or the error envelope's) payload: JSON or JSONP, headers, ETag / 304, HEAD. */
export function formatPayload(request: TrackerRequest): HttpResult {
  const state = stateOf(request);
  const method = request.event.requestContext?.http?.method ?? 'GET';
  const pieces = jsonPieces(request.response ?? null);
  if (state.jsonpCallback) {
    pieces.unshift(`/**/${state.jsonpCallback}(`);
    pieces.push(')');
  }
  const body = sequentialText(pieces);
  const headers: Record<string, string> = {
    ...COMMON_HEADERS,
    'Content-Type': state.jsonpCallback ? JAVASCRIPT_TYPE : JSON_TYPE,
  };
  // An answer for a logged-in caller (or to a login, which carries a token) is theirs alone: no
  // shared cache (a proxy, a CDN) may keep it and hand it to someone else.
  if (isLoggedIn(state.caller) || extractCredentials(lowerCaseHeaders(request.event), state.params) !== null)
    headers['Cache-Control'] = 'private';
  if (state.retryAfterSeconds !== undefined) headers['Retry-After'] = String(state.retryAfterSeconds);
  const cacheable = (method === 'GET' || method === 'HEAD') && state.statusCode === 200;
  if (cacheable) {
    headers.ETag = entityTag(pieces);
    if (matchesEntityTag(header(request.event, 'if-none-match'), headers.ETag)) {
      return { statusCode: 304, headers, body: '' };
    }
  }
  // HEAD keeps its body until the Lambda boundary has measured it (encodeResponse.ts): it must
  // answer exactly what GET would, an answer too large for Lambda included.
  return { statusCode: state.statusCode, headers, body };
}

export const formatResponse = (): MiddlewareObj => ({
  after: (request) => {
    request.response = formatPayload(request as TrackerRequest);
  },
  onError: (request) => {
    if (request.response !== undefined) request.response = formatPayload(request as TrackerRequest);
  },
});
