import type { ProductValue } from '../../domain/catalog/catalog.ts';
import { checkValueName } from '../../domain/catalog/productRules.ts';
import { flagText } from '../../domain/changeReport.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { type ProductValueKind, putNewProductValue, putProductValue } from '../../storage/catalog/productStore.ts';

export type { ProductValueKind };

import { allocateId } from '../../storage/counterStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import {
  assertMayAdministerProduct,
  assertMayAdministerSomeProduct,
  findProduct,
  loadCatalog,
} from './catalogContext.ts';

/**
 * Versions and milestones of a product (Tracker's addition: Bugzilla edits them in its pages):
 * `POST /rest/product/{product}/version|milestone` and `PUT .../{name_or_id}`.
 */
export const AUDIT_CLASSES = { version: AUDIT_CLASS.version, milestone: AUDIT_CLASS.milestone };

export async function productFor(caller: Caller, kind: ProductValueKind, reference: string) {
  const catalog = await loadCatalog();
  assertMayAdministerSomeProduct(caller, catalog, `manage ${kind}s`);
  const record = findProduct(catalog, reference);
  if (!record) throw errors.productNotFound(reference);
  assertMayAdministerProduct(caller, catalog, record, `manage ${kind}s`);
  return record;
}

const valuesOf = (record: Awaited<ReturnType<typeof productFor>>, kind: ProductValueKind) =>
  kind === 'version' ? record.versions : record.milestones;

/** A value by its exact name, or else by id. */
export function findValue(record: Awaited<ReturnType<typeof productFor>>, kind: ProductValueKind, reference: string) {
  const values = valuesOf(record, kind);
  const found =
    values.find((value) => value.name === reference) ??
    (/^\d+$/.test(reference) ? values.find((value) => value.id === Number(reference)) : undefined);
  if (!found) throw errors.notFound(`${record.product.name} has no ${kind} '${reference}'.`);
  return found;
}

export async function addProductValue(
  caller: Caller,
  kind: ProductValueKind,
  productReference: string,
  input: { name?: string; sort_key?: number; is_active?: boolean },
) {
  const record = await productFor(caller, kind, productReference);
  const name = checkValueName(kind, input.name);
  if (valuesOf(record, kind).some((value) => value.name.toLowerCase() === name.toLowerCase())) {
    throw errors.productValueTaken(kind, name, record.product.name);
  }
  const id = await allocateId(kind);
  const transaction = new WriteTransaction();
  putNewProductValue(transaction, kind, {
    id,
    productId: record.product.id,
    name,
    sortKey: input.sort_key ?? 0,
    isActive: input.is_active ?? true,
  });
  recordAudit(transaction, {
    auditClass: AUDIT_CLASSES[kind],
    objectId: id,
    userId: caller.user!.id,
    changes: { __create__: { removed: '', added: name } },
    at: new Date(),
  });
  await transaction.commit();
  return { id };
}

/** Re-read and re-applied when another request changed the same items meanwhile (retryOnConflict). */
export function updateProductValue(
  caller: Caller,
  kind: ProductValueKind,
  productReference: string,
  valueReference: string,
  input: { name?: string; sort_key?: number; is_active?: boolean },
) {
  return retryOnConflict(() => updateProductValueOnce(caller, kind, productReference, valueReference, input));
}

async function updateProductValueOnce(
  caller: Caller,
  kind: ProductValueKind,
  productReference: string,
  valueReference: string,
  input: { name?: string; sort_key?: number; is_active?: boolean },
) {
  const record = await productFor(caller, kind, productReference);
  const values = valuesOf(record, kind);
  const previous = findValue(record, kind, valueReference);
  const next: ProductValue = {
    ...previous,
    name: input.name !== undefined ? checkValueName(kind, input.name) : previous.name,
    sortKey: input.sort_key ?? previous.sortKey,
    isActive: input.is_active ?? previous.isActive,
  };
  if (
    next.name !== previous.name &&
    values.some((value) => value.id !== previous.id && value.name.toLowerCase() === next.name.toLowerCase())
  ) {
    throw errors.productValueTaken(kind, next.name, record.product.name);
  }
  if (kind === 'milestone' && next.name !== previous.name && previous.name === record.product.defaultMilestone) {
    throw errors.invalidParameter(
      `'${previous.name}' is the default milestone of ${record.product.name}; choose another default before renaming it.`,
    );
  }
  if (kind === 'milestone' && !next.isActive && previous.name === record.product.defaultMilestone) {
    throw errors.invalidParameter(
      `'${previous.name}' is the default milestone of ${record.product.name} and cannot be disabled.`,
    );
  }
  const changes: Record<string, { removed: string; added: string }> = {};
  if (next.name !== previous.name) changes.name = { removed: previous.name, added: next.name };
  if (next.sortKey !== previous.sortKey)
    changes.sort_key = { removed: String(previous.sortKey), added: String(next.sortKey) };
  if (next.isActive !== previous.isActive)
    changes.is_active = { removed: flagText(previous.isActive), added: flagText(next.isActive) };
  if (Object.keys(changes).length > 0) {
    // One write whatever the number of bugs: bugs keep the value's id (catalog/bugValues.ts), so a
    // rename reaches them all at once, as Bugzilla's rewrite of their column does (no history row,
    // no new last change time). Only the default milestone is kept by name, hence the rule above.
    const transaction = new WriteTransaction();
    putProductValue(transaction, kind, previous, next);
    recordAudit(transaction, {
      auditClass: AUDIT_CLASSES[kind],
      objectId: previous.id,
      userId: caller.user!.id,
      changes,
      at: new Date(),
    });
    await transaction.commit();
  }
  return { [`${kind}s`]: [{ id: previous.id, changes }] };
}
