/**
 * What can go wrong reading a source, as types a caller can act on: Bugzilla said no (its error
 * envelope: final, retrying would get the same answer), the exchange itself failed (network,
 * timeout, an HTTP status without an envelope, an answer that is not JSON: retried while it
 * may be passing), or the probe found the source unusable (not a Bugzilla, a bad key, ...).
 * Messages name the request without its query string, so an API key sent as a parameter never
 * reaches a log or a report.
 */

/** Bugzilla's `{"error": true, "code": N, "message": "..."}`. */
export class BugzillaApiError extends Error {
  override readonly name = 'BugzillaApiError';

  constructor(
    readonly code: number,
    readonly bugzillaMessage: string,
    readonly httpStatus: number,
    readonly path: string,
  ) {
    super(`${path}: Bugzilla error ${code} (HTTP ${httpStatus}): ${bugzillaMessage}`);
  }
}

export type SourceRequestFailure = 'network' | 'timeout' | 'http' | 'not-json' | 'redirect' | 'too-large' | 'not-utf8';

/** The exchange failed below Bugzilla's own errors; `attempts` says how often it was tried. */
export class SourceRequestError extends Error {
  override readonly name = 'SourceRequestError';

  constructor(
    readonly failure: SourceRequestFailure,
    readonly path: string,
    detail: string,
    readonly attempts: number,
    readonly httpStatus?: number,
  ) {
    super(`${path}: ${detail}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}`);
  }
}

export type SourceProbeFailure = 'unreachable' | 'not-bugzilla' | 'unsupported-version' | 'bad-key';

/** The probe's verdict that the import cannot start, with a sentence for the operator. */
export class SourceProbeError extends Error {
  override readonly name = 'SourceProbeError';

  constructor(
    readonly reason: SourceProbeFailure,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** Bugzilla's code for a route it does not have (5.0/5.2 have no `whoami`, 5.2 no `keyword`...). */
export const UNKNOWN_ROUTE = 32614;

export const isUnknownRoute = (error: unknown): boolean =>
  error instanceof BugzillaApiError && error.code === UNKNOWN_ROUTE;

/** The import was asked to stop (Ctrl-C): what was in flight was abandoned. */
export class ImportStopped extends Error {
  override readonly name = 'ImportStopped';

  constructor() {
    super('stopped on request (Ctrl-C)');
  }
}

/**
 * The source's data breaks a rule nothing can repair (issue 41): ids that collide, ids that are
 * not positive or are beyond any Bugzilla's. The import stops before writing the batch that
 * holds them, and the message names them.
 */
export class SourceDataError extends Error {
  override readonly name = 'SourceDataError';
}
