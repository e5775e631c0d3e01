import { insideRequest, oncePerRequest } from '../../runtime/requestScope.ts';
import { deepFreeze } from '../deepFreeze.ts';
import { tableName } from '../dynamoClient.ts';
import { readItem } from '../itemReads.ts';
import { catalogKeys, keys } from '../keys.ts';

/**
 * The catalogue (classifications, products with their children, flag types, keywords, custom
 * fields, the built-in fields' values and the workflow), the groups and the parameters, kept by
 * the function instance between requests.
 *
 * Every request that needs any of them first reads one small item, `INSTANCE/CATALOG`, strongly
 * consistent; its `version` counts the transactions that ever wrote a cached item (WriteTransaction
 * adds the increment to such a transaction itself, see `touchesCachedItem`). The instance's copies
 * are used while that version is the one they were read under; otherwise they are read again, each
 * on first use. A write on any instance is therefore seen by the very next request on every
 * instance, as when every request read the partitions itself: a listing read after the stamp
 * sees every write the stamp counts, because both are strongly consistent and the stamp moves in
 * the same transaction as the items.
 *
 * Cached values are shared by every later request of the instance, so they are frozen (outside
 * production, deepFreeze.ts: the tests catch any writer): code that
 * wants a changed list builds a new one (sorting in place throws).
 */

/** Partitions read whole into the cache. */
const CACHED_PARTITIONS: ReadonlySet<string> = new Set([
  catalogKeys.classificationsPartition,
  catalogKeys.productsPartition,
  catalogKeys.keywordsPartition,
  catalogKeys.flagTypesPartition,
  catalogKeys.fieldsPartition,
  catalogKeys.fieldValuesPartition,
  keys.groupsPartition,
]);

const PARAMETERS = keys.parameters();

/** Whether a write to this key changes something the cache holds (so it must move the stamp). */
export function touchesCachedItem(key: { pk?: unknown; sk?: unknown }): boolean {
  return CACHED_PARTITIONS.has(String(key.pk)) || (key.pk === PARAMETERS.pk && key.sk === PARAMETERS.sk);
}

/** Whether a write to this key changes a group (it also changes a cached item). */
export function touchesGroup(key: { pk?: unknown } | undefined): boolean {
  return key?.pk === keys.groupsPartition;
}

/** Whether a write to this key changes a user item, which userCache.ts keeps (so it must move the users' count). */
export function touchesCachedUser(key: { pk?: unknown; sk?: unknown }): boolean {
  return key.sk === 'USER' && String(key.pk).startsWith('USER#');
}

/**
 * The update WriteTransaction adds, once, to a transaction that touches a cached item: the stamp
 * item counts catalogue writes in `version` and user writes in `users`, so one read serves both caches.
 * `groups` counts the writes that change which groups exist or their regexps (every group write
 * but those that only add or remove regexp members), which a user's regexp memberships are derived
 * under; unless told, any catalogue write counts.
 */
export function stampIncrement(touches: { catalog: boolean; users: boolean; groups?: boolean }) {
  const counters = [
    ...(touches.catalog ? ['version'] : []),
    ...(touches.users ? ['users'] : []),
    ...((touches.groups ?? touches.catalog) ? ['groups'] : []),
  ];
  return {
    key: keys.catalogStamp(),
    update: {
      expression: `ADD ${counters.map((name) => `#${name} :one`).join(', ')}`,
      names: Object.fromEntries(counters.map((name) => [`#${name}`, name])),
      values: { ':one': 1 },
    },
  };
}

interface InstanceStamp {
  /** Catalogue, group and parameter writes. */
  catalog: number;
  /** User item writes. */
  users: number;
  /** Group writes other than regexp members (stampIncrement). */
  groups: number;
}

interface InstanceCache {
  table: string;
  version: number;
  reads: Map<string, Promise<unknown>>;
}

let cache: InstanceCache | undefined;

/** The stamp, read once per request (a committed write clears the request's reads, so it is read again). */
export function currentStamp(): Promise<InstanceStamp> {
  return oncePerRequest('catalogStamp', async () => {
    const stamp = await readItem(keys.catalogStamp());
    return {
      catalog: Number(stamp?.version ?? 0),
      users: Number(stamp?.users ?? 0),
      groups: Number(stamp?.groups ?? 0),
    };
  });
}

/**
 * `load` through the instance's cache, valid for the request's stamp. Outside a request
 * (bootstrap, scripts) nothing is cached and every call reads afresh.
 */
export function cachedCatalogRead<T>(name: string, load: () => Promise<T>): Promise<T> {
  if (!insideRequest()) return load();
  return oncePerRequest(`catalog:${name}`, async () => {
    const version = (await currentStamp()).catalog;
    const table = tableName();
    // A request that read an older stamp than the cache's (concurrent requests in one process,
    // locally) may use the newer copies; a newer stamp replaces them all.
    if (!cache || cache.table !== table || cache.version < version) cache = { table, version, reads: new Map() };
    const reads = cache.reads;
    let pending = reads.get(name) as Promise<T> | undefined;
    if (!pending) {
      const loading = load().then(deepFreeze);
      pending = loading;
      reads.set(name, loading);
      // A failed read is not kept: the next request tries again.
      loading.catch(() => {
        if (reads.get(name) === loading) reads.delete(name);
      });
    }
    return pending;
  });
}
