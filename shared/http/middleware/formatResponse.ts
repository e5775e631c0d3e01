import { createHash } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { extractCredentials } from '../../domain/identity/authentication.ts';
import { isLoggedIn } from '../../domain/identity/caller.ts';
import { stringifyJson } from '../../domain/rawJson.ts';
import { type HttpResult, header, lowerCaseHeaders, stateOf, type TrackerRequest } from '../requestState.ts';

/** Headers every answer carries, as Bugzilla sends them (plus `Vary: Accept`, which the spec asks for). */
export const COMMON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  Vary: 'Accept',
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
});

const JSON_TYPE = 'application/json; charset=UTF-8';
const JAVASCRIPT_TYPE = 'application/javascript; charset=UTF-8';

function entityTag(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

function matchesEntityTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim().replace(/^W\//, '');
    return value === '*' || value === tag;
  });
}

/** Serialises the handler's (or the error envelope's) payload: JSON or JSONP, headers, ETag / 304, HEAD. */
export function formatPayload(request: TrackerRequest): HttpResult {
  const state = stateOf(request);
  const method = request.event.requestContext?.http?.method ?? 'GET';
  const json = stringifyJson(request.response ?? null);
  const body = state.jsonpCallback ? `/**/${state.jsonpCallback}(${json})` : json;
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
    headers.ETag = entityTag(body);
    if (matchesEntityTag(header(request.event, 'if-none-match'), headers.ETag)) {
      return { statusCode: 304, headers, body: '' };
    }
  }
  return { statusCode: state.statusCode, headers, body: method === 'HEAD' ? '' : body };
}

export const formatResponse = (): MiddlewareObj => ({
  after: (request) => {
    request.response = formatPayload(request as TrackerRequest);
  },
  onError: (request) => {
    if (request.response !== undefined) request.response = formatPayload(request as TrackerRequest);
  },
});
