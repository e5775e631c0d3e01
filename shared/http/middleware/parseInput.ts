import type { MiddlewareObj } from '@middy/core';
import { checkInputLimits } from '../../domain/inputLimits.ts';
import { errors } from '../../errors.ts';
import { stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * Builds one parameter object per request: the JSON body, overridden by the query string (the
 * spec lets clients such as python-bugzilla send parameters there on PUT and POST), overridden by
 * path parameters. Repeated query keys become arrays; the endpoint's schema decides the rest.
 */
export function parseQueryString(raw: string | undefined): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(raw ?? '')) {
    const existing = params[key];
    if (existing === undefined) params[key] = value;
    else params[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return params;
}

/** The body decodeInput checked and kept as text, parsed: it must be a JSON object. */
function parseBody(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw errors.invalidParameter(`The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.invalidParameter('The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** `longText`: parameters exempt from the generic text limit (see shared/domain/inputLimits.ts). */
export const parseInput = (options: { longText?: readonly string[] } = {}): MiddlewareObj => ({
  before: (request) => {
    const trackerRequest = request as TrackerRequest;
    const { event } = trackerRequest;
    const state = stateOf(trackerRequest);
    const body = parseBody(state.body?.text);
    const pathParameters = Object.fromEntries(
      Object.entries(event.pathParameters ?? {}).filter(([, value]) => value !== undefined),
    );
    const params = { ...body, ...parseQueryString(event.rawQueryString), ...pathParameters };
    checkInputLimits(params, options);
    state.params = params;
  },
});
