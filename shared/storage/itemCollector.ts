import type { ItemKey } from './keys.ts';
import { WriteTransaction } from './transaction.ts';

/**
 * The items a transaction would write, collected instead of committed: what a bulk loader
 * (local/import) writes with BatchWriteItem. The storage functions that add an entity to a
 * transaction (putNewProduct, putNewGroup, ...) stay the one place that knows its item shapes
 * and guards, and the loader writes exactly those items. Conditions are dropped: a loader writes
 * into an installation it has checked, and its writes must be repeatable (a resumed import puts
 * the same items again). Unconditional deletes are collected too; updates cannot be (a batch
 * write has none), so adding one fails loudly.
 */
export type Item = Record<string, unknown> & ItemKey;

export class ItemCollector extends WriteTransaction {
  readonly puts: Item[] = [];
  readonly deletes: ItemKey[] = [];

  override put(item: Record<string, unknown>): this {
    this.puts.push(item as Item);
    return this;
  }

  override delete(key: ItemKey): this {
    this.deletes.push({ pk: key.pk, sk: key.sk });
    return this;
  }

  override update(key: ItemKey): this {
    throw new Error(`a bulk load cannot update ${key.pk}/${key.sk}: write the whole item`);
  }

  override conditionCheck(): this {
    return this;
  }

  override async commit(): Promise<void> {
    throw new Error('collected items are written by a bulk writer, not committed');
  }
}

/** The items `add` puts into a transaction (conditions dropped). */
export function collectItems(add: (transaction: WriteTransaction) => void): Item[] {
  const collector = new ItemCollector();
  add(collector);
  return collector.puts;
}

/** The keys of those items: what to delete to remove an entity `add` would have written. */
export const collectKeys = (add: (transaction: WriteTransaction) => void): ItemKey[] =>
  collectItems(add).map(({ pk, sk }) => ({ pk, sk }));
