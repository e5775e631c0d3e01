import { session, setSession } from '../state/session.ts';

/**
 * The one place the app talks to Tracker: same-origin `/rest/...`, JSON in and out, the
 * credential in a header (never in an address, where logs and the Referer would keep it).
 */

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number | undefined,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The service was too busy (503): nothing was saved, or the message says to check. */
  get retryable(): boolean {
    return this.status === 503;
  }
}

export type Query =
  | URLSearchParams
  | Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

function toSearch(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  if (query instanceof URLSearchParams) {
    for (const [k, v] of query) params.append(k, v);
  } else {
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
      else params.append(k, String(v));
    }
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Words for a failure: the API's own message, or what to do when there is none. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 503) {
      return `Tracker is busy right now. Nothing you typed is lost: try again in a moment. (${error.message})`;
    }
    return error.message;
  }
  if (error instanceof TypeError) return 'Tracker could not be reached. Check your connection and try again.';
  return error instanceof Error ? error.message : String(error);
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Send no credential (logging in). */
  anonymous?: boolean;
  signal?: AbortSignal;
}

export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const current = session.value;
  if (current && !options.anonymous) {
    if (current.apiKey) headers['X-BUGZILLA-API-KEY'] = current.apiKey;
    else if (current.token) headers['X-BUGZILLA-TOKEN'] = current.token;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`/rest${path}${toSearch(options.query)}`, {
    method,
    headers,
    body,
    signal: options.signal,
    credentials: 'omit',
  });
  let data: unknown;
  const text = await response.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(
      response.ok
        ? 'Tracker sent an answer that is not JSON.'
        : `Tracker answered ${response.status} ${response.statusText}.`,
      undefined,
      response.status,
    );
  }
  if (!response.ok || (data && typeof data === 'object' && (data as { error?: unknown }).error === true)) {
    const envelope = (data ?? {}) as { message?: string; code?: number };
    if (current && !options.anonymous && isDeadCredential(envelope)) {
      // The key was revoked or the token ended (logout elsewhere, new password): log out here too.
      setSession(null);
      throw new ApiError(`${envelope.message} You have been logged out: log in again.`, envelope.code, response.status);
    }
    throw new ApiError(
      envelope.message ?? `Tracker answered ${response.status} ${response.statusText}.`,
      envelope.code,
      response.status,
    );
  }
  return data as T;
}

function isDeadCredential(envelope: { message?: string; code?: number }): boolean {
  return (
    envelope.code === 306 || (envelope.code === 32000 && /token .*(invalid|expired)/i.test(envelope.message ?? ''))
  );
}

export const get = <T>(path: string, query?: Query, signal?: AbortSignal) => api<T>('GET', path, { query, signal });
export const post = <T>(path: string, body: unknown) => api<T>('POST', path, { body });
export const put = <T>(path: string, body: unknown) => api<T>('PUT', path, { body });

/** Path segment for an id, alias or name. */
export const seg = (value: string | number) => encodeURIComponent(String(value));
