import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Reads that one request may make several times (parameters, the group list, items by key) are
 * made once per request: the request sees one snapshot, and nothing is cached across requests,
 * so a change is visible to the very next request on every Lambda. Outside a request (bootstrap,
 * scripts) every call reads afresh.
 */
interface RequestScope {
  memo: Map<string, Promise<unknown>>;
  /** Per-request helpers that are not reads (itemReads.ts's batch queue); kept across forgetting. */
  locals: Map<string, unknown>;
}

const scope = new AsyncLocalStorage<RequestScope>();

export function inRequestScope<T>(work: () => Promise<T>): Promise<T> {
  return scope.run({ memo: new Map(), locals: new Map() }, work);
}

/** Whether the code runs inside a request (inRequestScope). */
export const insideRequest = (): boolean => scope.getStore() !== undefined;

export function oncePerRequest<T>(key: string, load: () => Promise<T>): Promise<T> {
  const memo = scope.getStore()?.memo;
  if (!memo) return load();
  let pending = memo.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = load();
    memo.set(key, pending);
    // A failed read is not remembered: a later attempt in the same request may succeed.
    pending.catch(() => {
      if (memo.get(key) === pending) memo.delete(key);
    });
  }
  return pending;
}

/** One value per request (created on first use), or undefined outside a request. */
export function requestLocal<T>(key: string, create: () => T): T | undefined {
  const locals = scope.getStore()?.locals;
  if (!locals) return undefined;
  if (!locals.has(key)) locals.set(key, create());
  return locals.get(key) as T;
}

/** After a write, the request's later reads must see it: every write to the table calls this. */
export function forgetRequestReads(): void {
  scope.getStore()?.memo.clear();
}
