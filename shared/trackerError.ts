/**
 * Typed errors carrying a Bugzilla error code. The HTTP status is derived from the code with
 * Bugzilla's own table (clarifications.md), so code that throws only ever chooses the code, and
 * it chooses by name: the constructors are in shared/errors.ts.
 */

/** Bugzilla's ERROR_UNKNOWN_FATAL: anything that is not the caller's fault. */
export const INTERNAL_ERROR = -32000;
/** Bugzilla's ERROR_UNKNOWN_TRANSIENT: the generic "your input is wrong" code. */
export const GENERIC_USER_ERROR = 32000;
/** No such route or method. */
export const NO_SUCH_METHOD = 32614;
/** Tracker's code for an over-long query string; clients act on the HTTP status (414). */
export const QUERY_TOO_LONG = 414;

const STATUS_BY_CODE = new Map<number, number>([
  ...[51, 101, NO_SUCH_METHOD].map((code) => [code, 404] as const),
  ...[102, 106, 109, 110, 113, 115, 120, 300, 301, 302, 303, 304, 410, 504, 505].map((code) => [code, 401] as const),
  [58, 413],
  [QUERY_TOO_LONG, 414],
  [INTERNAL_ERROR, 500],
]);

export function httpStatusForCode(code: number): number {
  return STATUS_BY_CODE.get(code) ?? 400;
}

export class TrackerError extends Error {
  readonly code: number;
  readonly httpStatus: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = 'TrackerError';
    this.code = code;
    this.httpStatus = httpStatusForCode(code);
  }
}
