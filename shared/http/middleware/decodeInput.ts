import type { MiddlewareObj } from '@middy/core';
import { checkJsonTextLimits } from '../../domain/inputLimits.ts';
import { errors } from '../../errors.ts';
import { header, stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * The first look at a request's input, before anything is built from it or anyone is
 * authenticated: the query string and the body must be UTF-8 (Bugzilla's encoding; a byte that is
 * not would otherwise be stored as U+FFFD, silently), the body must be JSON by its content type,
 * and its shape within the limits of checkJsonTextLimits. What passes is kept as text, with the
 * names of its top-level members, for parseInput to parse.
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const REPLACEMENT_CHARACTER = '\uFFFD';

const notUtf8 = (what: string) =>
  errors.invalidParameter(`${what} is not valid UTF-8: Tracker accepts only UTF-8 text.`);

/** Percent escapes must decode to UTF-8; a `%` that starts no escape is text, as URLSearchParams reads it. */
function queryIsUtf8(rawQuery: string): boolean {
  if (!rawQuery.includes('%')) return true;
  try {
    decodeURIComponent(rawQuery.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
    return true;
  } catch {
    return false;
  }
}

function bodyText(request: TrackerRequest): string {
  const { event } = request;
  const body = event.body ?? '';
  if (event.isBase64Encoded) {
    try {
      return strictUtf8.decode(Buffer.from(body, 'base64'));
    } catch {
      throw notUtf8('The request body');
    }
  }
  // API Gateway hands a text body over already decoded. Where it replaced bytes that were not
  // UTF-8, the text no longer has the length the client sent.
  const sentLength = Number(header(event, 'content-length'));
  if (body.includes(REPLACEMENT_CHARACTER) && sentLength > 0 && Buffer.byteLength(body, 'utf8') !== sentLength) {
    throw notUtf8('The request body');
  }
  return body;
}

export const decodeInput = (options: { ignoreBody?: boolean } = {}): MiddlewareObj => ({
  before: (request) => {
    const trackerRequest = request as TrackerRequest;
    const { event } = trackerRequest;
    if (!queryIsUtf8(event.rawQueryString ?? '')) throw notUtf8('The query string');
    const method = event.requestContext?.http?.method ?? 'GET';
    if (method === 'GET' || method === 'HEAD' || !event.body || options.ignoreBody) return;
    const text = bodyText(trackerRequest);
    if (text.trim() === '') return;
    const contentType = header(event, 'content-type') ?? '';
    if (contentType && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
      throw errors.invalidParameter(
        `Tracker accepts only JSON request bodies (Content-Type: application/json), not '${contentType}'.`,
      );
    }
    stateOf(trackerRequest).body = { text, ...checkJsonTextLimits(text) };
  },
});
