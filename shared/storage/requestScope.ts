import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Reads that one request may make several times (parameters, the group list) are made once per
 * request: the request sees one snapshot, and nothing is cached across requests, so a change is
 * visible to the very next request on every Lambda. Outside a request (bootstrap, scripts) every
 * call reads afresh.
 */
const scope = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

export function inRequestScope<T>(work: () => Promise<T>): Promise<T> {
  return scope.run(new Map(), work);
}

/** Whether the code runs inside a request (inRequestScope). */
export const insideRequest = (): boolean => scope.getStore() !== undefined;

export function oncePerRequest<T>(key: string, load: () => Promise<T>): Promise<T> {
  const memo = scope.getStore();
  if (!memo) return load();
  let pending = memo.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = load();
    memo.set(key, pending);
    // A failed read is not remembered: a later attempt in the same request may succeed.
    pending.catch(() => memo.delete(key));
  }
  return pending;
}

/** After a write, the request's later reads must see it: every committed transaction calls this. */
export function forgetRequestReads(): void {
  scope.getStore()?.clear();
}
