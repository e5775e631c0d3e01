import { insideRequest } from '../../runtime/requestScope.ts';
import { currentStamp } from '../catalog/catalogCache.ts';
import { tableName } from '../dynamoClient.ts';
import { type Item, readItems } from '../itemReads.ts';
import { keys } from '../keys.ts';

/**
 * User items kept by the function instance between requests, as the catalogue is: valid while the
 * `users` count on the stamp item (catalogCache.ts) is the one they were read under. Every
 * transaction that writes a user item raises that count (WriteTransaction.commit), and every
 * request reads the stamp strongly consistent, beside its API key; so a change to a user (login,
 * name, groups, password, disabling) is seen by the very next request on every instance, and
 * an unchanged user costs no read at all: the caller and the people a bug names are usually here.
 *
 * Items are frozen (itemReads.ts) and shared by every later request of the instance.
 */
interface Cache {
  table: string;
  version: number;
  items: Map<number, Item | null>;
}

let cache: Cache | undefined;

/** Past this many users the instance starts over rather than grow without bound. */
const MAX_CACHED_USERS = 50_000;

/** User items by id; unknown ids are absent. */
export async function cachedUserItems(ids: readonly number[]): Promise<Map<number, Item>> {
  const unique = [...new Set(ids)];
  if (!insideRequest()) return byId(await readItems(unique.map((id) => keys.user(id))));
  const { users: version } = await currentStamp();
  const table = tableName();
  // A request that read an older stamp than the cache's (concurrent requests in one process)
  // may use the newer copies; a newer stamp replaces them all.
  if (!cache || cache.table !== table || cache.version < version || cache.items.size > MAX_CACHED_USERS)
    cache = { table, version, items: new Map() };
  const held = cache.items;
  const missing = unique.filter((id) => !held.has(id));
  if (missing.length > 0) {
    const read = byId(await readItems(missing.map((id) => keys.user(id))));
    for (const id of missing) held.set(id, read.get(id) ?? null);
  }
  const found = new Map<number, Item>();
  for (const id of unique) {
    const item = held.get(id);
    if (item) found.set(id, item);
  }
  return found;
}

const byId = (items: readonly Item[]) => new Map(items.map((item) => [Number(item.id), item]));

/** For tests: forget every user this instance kept. */
export function clearUserCache(): void {
  cache = undefined;
}
