import type { FlagScope, FlagType } from '../../domain/catalog/flagTypes.ts';
import type { AuditEntry } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { recordAudit } from '../instance/auditStore.ts';
import { catalogKeys } from '../keys.ts';
import { queryPartition } from '../tableReads.ts';
import { WriteTransaction } from '../transaction.ts';
import { cachedCatalogRead } from './catalogCache.ts';

/**
 * Flag types: one item each in the `FLAGTYPES` partition (read consistently), inclusions and
 * exclusions as list attributes of `{productId, componentId}` (0 = any). Names are not unique.
 */
const toScopes = (value: unknown): FlagScope[] =>
  Array.isArray(value)
    ? value.map((scope) => ({ productId: Number(scope.productId), componentId: Number(scope.componentId) }))
    : [];

const optionalId = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

const toFlagType = (item: Record<string, unknown>): FlagType => ({
  id: Number(item.id),
  name: String(item.name),
  description: String(item.description ?? ''),
  ccList: String(item.ccList ?? ''),
  sortKey: Number(item.sortKey ?? 0),
  isActive: item.isActive !== false,
  isRequestable: item.isRequestable !== false,
  isRequesteeble: item.isRequesteeble !== false,
  isMultiplicable: item.isMultiplicable !== false,
  grantGroupId: optionalId(item.grantGroupId),
  requestGroupId: optionalId(item.requestGroupId),
  targetType: item.targetType === 'attachment' ? 'attachment' : 'bug',
  inclusions: toScopes(item.inclusions),
  exclusions: toScopes(item.exclusions),
  rev: Number(item.rev ?? 0),
});

export function loadFlagTypes(): Promise<FlagType[]> {
  return cachedCatalogRead('flagTypes', async () =>
    (await queryPartition(catalogKeys.flagTypesPartition)).map(toFlagType),
  );
}

const itemOf = (flagType: FlagType) => ({
  ...catalogKeys.flagType(flagType.id),
  type: 'flagType',
  id: flagType.id,
  name: flagType.name,
  description: flagType.description,
  ccList: flagType.ccList,
  sortKey: flagType.sortKey,
  isActive: flagType.isActive,
  isRequestable: flagType.isRequestable,
  isRequesteeble: flagType.isRequesteeble,
  isMultiplicable: flagType.isMultiplicable,
  grantGroupId: flagType.grantGroupId,
  requestGroupId: flagType.requestGroupId,
  targetType: flagType.targetType,
  inclusions: flagType.inclusions.map(({ productId, componentId }) => ({ productId, componentId })),
  exclusions: flagType.exclusions.map(({ productId, componentId }) => ({ productId, componentId })),
});

export function putNewFlagType(transaction: WriteTransaction, flagType: FlagType): void {
  transaction.putNew(itemOf(flagType), () =>
    errors.invalidParameter(`A flag type with the id ${flagType.id} already exists.`),
  );
}

/** Replaces a flag type as it was read (`previous.rev`); a concurrent change is a RevisionConflict. */
export function putFlagType(transaction: WriteTransaction, previous: FlagType, flagType: FlagType): void {
  transaction.putAtRevision(itemOf(flagType), previous.rev ?? 0);
}

export async function createFlagType(flagType: FlagType, audit: AuditEntry): Promise<void> {
  const transaction = new WriteTransaction();
  putNewFlagType(transaction, flagType);
  recordAudit(transaction, audit);
  await transaction.commit();
}

/** Deletes the flag type as it was read: a concurrent change is a RevisionConflict. */
export function deleteFlagType(transaction: WriteTransaction, flagType: FlagType): void {
  transaction.deleteAtRevision(catalogKeys.flagType(flagType.id), flagType.rev ?? 0);
}
