import { isUtf8 } from 'node:buffer';
import { Semaphore } from './concurrency.ts';
import { BugzillaApiError, ImportStopped, SourceRequestError, type SourceRequestFailure } from './sourceErrors.ts';

/**
 * The one way the importer talks to a source: GET requests to a Bugzilla-compatible REST root
 * (`https://bugzilla.example.org/rest`), answered as parsed JSON.
 *
 * - **The key** goes as the `X-BUGZILLA-API-KEY` header (Harmony/BMO and Tracker read it) and as
 *   the `Bugzilla_api_key` parameter, because stock Bugzilla 5.0 and 5.2 read only parameters
 *   (Bugzilla/Auth/Login/APIKey.pm takes `Bugzilla_api_key`; their REST server maps no header).
 *   The probe says which one the source needs (`keyTransport`), so a known source is not sent
 *   the key in its URLs, where access logs keep it.
 * - **Connections:** at most `connections` requests are in flight (a semaphore). Node's fetch
 *   (undici) keeps connections alive and pools them per origin, so that is also how many sockets
 *   stay open to the source.
 * - **Retries:** 429 (honouring `Retry-After`, which also pauses every other request of this
 *   client: the source asked all of us to wait), any 5xx, network errors and per-request timeouts
 *   are retried with exponential backoff and jitter. Bugzilla's error envelope on any other status
 *   is final: a `BugzillaApiError` with its code.
 * - **A source is not trusted** (issue 41): redirects are followed only within the source's own
 *   origin (fetch would carry `X-BUGZILLA-API-KEY` to any host it is sent to; a redirect
 *   elsewhere is refused, final, naming where it pointed); an answer is read as a stream and
 *   abandoned past `maxAnswerBytes` (final, naming the request); it must be UTF-8 (a replacement
 *   character would silently change the data); and `signal` (Ctrl-C) aborts the requests in
 *   flight and every wait at once.
 */

export type KeyTransport = 'header' | 'query' | 'both';
export type QueryValue = string | number | boolean | ReadonlyArray<string | number> | undefined;
export type Query = Record<string, QueryValue>;

export interface BugzillaClientOptions {
  /** The REST root, ending in `/rest` (or `/rest.cgi`); a trailing slash is ignored. */
  baseUrl: string;
  apiKey?: string;
  /** Default `both`: right for every source, until the probe knows which one it is. */
  keyTransport?: KeyTransport;
  /** Requests in flight at most (`--connections`); default 8. */
  connections?: number;
  /** Per attempt, from sending to the last byte of the answer; default 60 s. */
  timeoutMs?: number;
  /** Further attempts after the first; default 6. */
  retries?: number;
  /**
   * Instead of a number of attempts: keep retrying a request until it has failed for this long
   * (an outage of the source while a long import runs), then give up.
   */
  retryForMs?: number;
  /** Backoff of the first retry; it doubles each time, up to `backoffMaxMs`. Defaults 500 ms, 30 s. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** The longest `Retry-After` obeyed; default 5 minutes. */
  retryAfterMaxMs?: number;
  /** For tests and instrumentation. */
  fetch?: typeof fetch;
  /** Told of every retry, e.g. for a progress display's "source is throttling" line. */
  onRetry?: (event: RetryEvent) => void;
  /** The largest answer read, in bytes (default 128 MiB): past it the answer is refused, final. */
  maxAnswerBytes?: number;
  /** Aborted: every request in flight and every wait stops with an `ImportStopped`. */
  signal?: AbortSignal;
}

/** Redirects followed within the source's origin, at most. */
const MAX_REDIRECTS = 5;
export const DEFAULT_MAX_ANSWER_BYTES = 128 * 1024 * 1024;

export interface RequestOptions {
  /** Send no key: for `version` and `extensions`, which must answer even when the key is bad. */
  anonymous?: boolean;
  timeoutMs?: number;
}

export interface RetryEvent {
  path: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface ClientStats {
  requests: number;
  retries: number;
  bytes: number;
}

export interface BugzillaClient {
  readonly baseUrl: string;
  readonly connections: number;
  readonly stats: Readonly<ClientStats>;
  get<T = unknown>(path: string, query?: Query, options?: RequestOptions): Promise<T>;
}

/** A path segment for a name (product, group, field): Bugzilla names may hold spaces and `&`. */
export const segment = (name: string | number): string => encodeURIComponent(String(name));

type Attempt =
  | { kind: 'ok'; body: unknown }
  | { kind: 'final'; error: Error }
  | {
      kind: 'retry';
      failure: SourceRequestFailure;
      detail: string;
      status?: number;
      envelope?: BugzillaApiError;
      retryAfterMs?: number;
    };

export function createBugzillaClient(options: BugzillaClientOptions): BugzillaClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const connections = options.connections ?? 8;
  const semaphore = new Semaphore(connections);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const retries = options.retries ?? 6;
  const backoffBaseMs = options.backoffBaseMs ?? 500;
  const backoffMaxMs = options.backoffMaxMs ?? 30_000;
  const retryAfterMaxMs = options.retryAfterMaxMs ?? 300_000;
  const keyTransport = options.keyTransport ?? 'both';
  const fetchImpl = options.fetch ?? fetch;
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const stopSignal = options.signal;
  const origin = new URL(baseUrl).origin;
  const stats: ClientStats = { requests: 0, retries: 0, bytes: 0 };
  let pausedUntil = 0;

  function urlOf(path: string, query: Query, anonymous: boolean): string {
    const url = new URL(`${baseUrl}${path}`);
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
    if (!anonymous && options.apiKey && keyTransport !== 'header')
      url.searchParams.set('Bugzilla_api_key', options.apiKey);
    return url.toString();
  }

  /** A request as an error message names it: path and query, without the key. */
  const shown = (url: string) => {
    const parsed = new URL(url);
    parsed.searchParams.delete('Bugzilla_api_key');
    return redact(`${parsed.pathname}${parsed.search}`);
  };

  /** An error page may quote the URL, and with it a key sent as a parameter. */
  const redact = (text: string) => (options.apiKey ? text.split(options.apiKey).join('***') : text);

  function headersOf(anonymous: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'tracker-import' };
    if (!anonymous && options.apiKey && keyTransport !== 'query') headers['X-BUGZILLA-API-KEY'] = options.apiKey;
    return headers;
  }

  async function attempt(
    url: string,
    path: string,
    headers: Record<string, string>,
    timeout: number,
  ): Promise<Attempt> {
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      stats.requests++;
      const signal = stopSignal
        ? AbortSignal.any([stopSignal, AbortSignal.timeout(timeout)])
        : AbortSignal.timeout(timeout);
      let response = await fetchImpl(url, { headers, signal, redirect: 'manual' });
      for (let redirects = 0; isRedirect(response.status); redirects++) {
        const location = response.headers.get('location');
        await response.body?.cancel().catch(() => {});
        const next = location === null ? null : URL.canParse(location, url) ? new URL(location, url) : null;
        if (next === null || redirects >= MAX_REDIRECTS)
          return final(
            new SourceRequestError(
              'redirect',
              path,
              `HTTP ${response.status} without a usable Location, or more than ${MAX_REDIRECTS} redirects`,
              1,
              response.status,
            ),
          );
        if (next.origin !== origin)
          return final(
            new SourceRequestError(
              'redirect',
              path,
              `the source redirected to another origin (${next.origin}), which the importer does not follow: it would carry the source's API key there. If the source moved, give its new address with --from.`,
              1,
              response.status,
            ),
          );
        response = await fetchImpl(next.toString(), { headers, signal, redirect: 'manual' });
      }
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      const raw = await readCapped(response, maxAnswerBytes);
      if (raw === null)
        return final(
          new SourceRequestError(
            'too-large',
            path,
            `the answer to ${shown(url)} is larger than ${maxAnswerBytes} bytes, the most the importer reads in one answer (--max-answer-mb)`,
            1,
            status,
          ),
        );
      stats.bytes += raw.byteLength;
      if (isUtf8(raw)) text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
      else
        return final(
          new SourceRequestError(
            'not-utf8',
            path,
            `the answer to ${shown(url)} is not valid UTF-8 (at byte ${firstInvalidUtf8(raw)}): the importer does not replace what it cannot read`,
            1,
            status,
          ),
        );
    } catch (error) {
      if (stopSignal?.aborted) return final(new ImportStopped());
      const timedOut = (error as Error)?.name === 'TimeoutError' || (error as Error)?.name === 'AbortError';
      return timedOut
        ? { kind: 'retry', failure: 'timeout', detail: `no complete answer within ${timeout} ms` }
        : { kind: 'retry', failure: 'network', detail: `network error: ${describe(error)}` };
    }
    const body = parseJson(text);
    const overloaded = status === 429 || status >= 500;
    const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfter, retryAfterMaxMs) : undefined;
    if (isEnvelope(body)) {
      const error = new BugzillaApiError(Number(body.code), String(body.message ?? ''), status, path);
      return overloaded
        ? { kind: 'retry', failure: 'http', detail: error.message, status, envelope: error, retryAfterMs }
        : { kind: 'final', error };
    }
    if (overloaded) return { kind: 'retry', failure: 'http', detail: `HTTP ${status}`, status, retryAfterMs };
    if (status >= 400)
      return { kind: 'final', error: new SourceRequestError('http', path, `HTTP ${status}`, 1, status) };
    if (body === undefined)
      return {
        kind: 'final',
        error: new SourceRequestError(
          'not-json',
          path,
          `the answer is not JSON: ${JSON.stringify(redact(text.slice(0, 80)))}`,
          1,
          status,
        ),
      };
    return { kind: 'ok', body };
  }

  const final = (error: Error): Attempt => ({ kind: 'final', error });

  async function get<T>(path: string, query: Query = {}, requestOptions: RequestOptions = {}): Promise<T> {
    const anonymous = requestOptions.anonymous ?? false;
    const url = urlOf(path, query, anonymous);
    const headers = headersOf(anonymous);
    let firstFailure = 0;
    for (let attempts = 1; ; attempts++) {
      if (stopSignal?.aborted) throw new ImportStopped();
      const wait = pausedUntil - Date.now();
      if (wait > 0) await sleep(wait, stopSignal);
      await semaphore.acquire();
      let outcome: Attempt;
      try {
        outcome = await attempt(url, path, headers, requestOptions.timeoutMs ?? timeoutMs);
      } finally {
        semaphore.release();
      }
      if (outcome.kind === 'ok') return outcome.body as T;
      if (outcome.kind === 'final') throw outcome.error;
      firstFailure ||= Date.now();
      const exhausted =
        options.retryForMs === undefined ? attempts > retries : Date.now() - firstFailure >= options.retryForMs;
      if (exhausted)
        throw (
          outcome.envelope ?? new SourceRequestError(outcome.failure, path, outcome.detail, attempts, outcome.status)
        );
      const delayMs = outcome.retryAfterMs ?? backoff(attempts, backoffBaseMs, backoffMaxMs);
      if (outcome.retryAfterMs !== undefined) pausedUntil = Math.max(pausedUntil, Date.now() + delayMs);
      stats.retries++;
      options.onRetry?.({ path, attempt: attempts, delayMs, reason: outcome.detail });
      await sleep(delayMs, stopSignal);
    }
  }

  return { baseUrl, connections, stats, get };
}

/** Exponential, with half of each delay random so that many retrying readers spread out. */
function backoff(attempt: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** `Retry-After` is seconds or an HTTP date; anything else is ignored (backoff applies). */
export function parseRetryAfter(value: string | null, maxMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - Date.now();
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(maxMs, Math.max(0, ms));
}

function isEnvelope(body: unknown): body is { error: true; code: unknown; message?: unknown } {
  return typeof body === 'object' && body !== null && (body as { error?: unknown }).error === true;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}

/** A wait that ends early, with an `ImportStopped`, when `signal` aborts. */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new ImportStopped());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ImportStopped());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

const isRedirect = (status: number) => status >= 300 && status < 400 && status !== 304;

/** The body, or null once it grows past `maxBytes` (the rest is not read: the stream is cancelled). */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, length);
}

/** The offset of the first byte that is not well-formed UTF-8 (only asked once decoding failed). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let at = 0; at < bytes.length; ) {
    const lead = bytes[at];
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead >= 0xf0 && lead <= 0xf4
              ? 4
              : 0;
    if (length === 0 || !isUtf8(bytes.subarray(at, at + length))) return at;
    at += length;
  }
  return bytes.length;
}
