import type { Bug } from '../../domain/bug/bug.ts';
import { type LegacyValueId, legacyValueId, type ValueKind } from '../../domain/catalog/bugValues.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { cachedCatalogRead } from '../catalog/catalogCache.ts';
import { loadProducts } from '../catalog/productStore.ts';
import { keys } from '../keys.ts';
import { queryPartition } from '../tableReads.ts';
import type { BugAsStored } from './bugItems.ts';

/**
 * Bugs stored before bugs kept their version and milestone by id (catalog/bugValues.ts) carry
 * the names instead: bug items, change-log entries (3 days) and search snapshots of version 1.
 * They are read as if they held ids: the product's value of that name, or the value renamed from
 * it, since a rename left those bugs with the old name. The next write of such a bug stores the
 * ids, and the next search snapshot holds them; nothing is rewritten in bulk. Items written since
 * hold ids and cost nothing here. Such bugs are read as BugAsStored (bugItems.ts) and come out
 * of withValueIds as Bug.
 */
type WithBug<T> = Omit<T, 'bug'> & { bug: Bug };

/** A record whose bug holds ids and no names: it is returned as it is. */
const holdsIds = <T extends { bug: BugAsStored }>(record: T): record is T & { bug: Bug } =>
  record.bug.versionId !== undefined &&
  record.bug.targetMilestoneId !== undefined &&
  record.bug.version === undefined &&
  record.bug.targetMilestone === undefined;

/** Renames of versions and milestones from the audit log, kept with the catalogue (they are written with it). */
const valueRenames = () =>
  cachedCatalogRead('valueRenames', async () =>
    (
      await Promise.all(
        (['version', 'milestone'] as const).map(async (kind) =>
          (
            await queryPartition(keys.auditEntry(AUDIT_CLASS[kind], '', '').pk)
          ).flatMap((item) => {
            const name = (item.changes as Record<string, { removed: string }> | undefined)?.name;
            return name ? [{ kind, valueId: Number(item.objectId), from: name.removed, at: String(item.at) }] : [];
          }),
        ),
      )
    ).flat(),
  );

/** The id each legacy name stands for, from the catalogue as it is now. */
export async function legacyValueResolver(): Promise<LegacyValueId> {
  const [products, renames] = await Promise.all([loadProducts(), valueRenames()]);
  return (kind, productId, name) => legacyValueId(products, renames, kind, productId, name);
}

/** The records with every bug holding ids (new objects only for the bugs that did not). */
export async function withValueIds<T extends { bug: BugAsStored }>(records: T[]): Promise<Array<WithBug<T>>> {
  if (records.every(holdsIds)) return records;
  const resolve = await legacyValueResolver();
  return records.map((record) => {
    if (holdsIds(record)) return record;
    const { version, targetMilestone, ...bug } = record.bug;
    const id = (kind: ValueKind, current: number | undefined, name = '') =>
      current ?? resolve(kind, bug.productId, name);
    return {
      ...record,
      bug: {
        ...bug,
        versionId: id('version', bug.versionId, version),
        targetMilestoneId: id('milestone', bug.targetMilestoneId, targetMilestone),
      },
    };
  });
}

/** One record, as withValueIds. */
export const withValueIdsOf = async <T extends { bug: BugAsStored }>(
  record: T | undefined,
): Promise<WithBug<T> | undefined> => record && (await withValueIds([record]))[0];
