import type { FlagScope } from '../../domain/catalog/flagTypes.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { logger } from '../../observability/logger.ts';
import { putFlagType } from '../../storage/catalog/flagTypeStore.ts';
import { deleteProduct, deleteProductLeftovers } from '../../storage/catalog/productStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import { bugsUsingValue } from '../search/valueUsage.ts';
import { findProduct, loadCatalog } from './catalogContext.ts';
import { refusals } from './removalRefusals.ts';

/**
 * `DELETE /rest/product/{id_or_name}` (editcomponents), as editproducts.cgi deletes with
 * allowbugdeletion off (Bugzilla's default, and Tracker never deletes bugs): refused while the
 * product has any bug, with their number. Otherwise the product goes with its components,
 * versions, milestones and group controls, and flag types stop naming it in their inclusions and
 * exclusions (Bugzilla's flaginclusions rows go with the product).
 */
export function removeProduct(caller: Caller, reference: string) {
  return retryOnConflict(() => removeProductOnce(caller, reference));
}

const withoutProduct = (scopes: readonly FlagScope[], productId: number) =>
  scopes.filter((scope) => scope.productId !== productId);

async function removeProductOnce(caller: Caller, reference: string) {
  const catalog = await loadCatalog();
  const record = findProduct(catalog, reference);
  if (!record) throw errors.productNotFound(reference);
  const { product } = record;
  const count = await bugsUsingValue({ kind: 'product', productId: product.id });
  if (count > 0) throw refusals.productHasBugs(count);

  const transaction = new WriteTransaction();
  for (const type of catalog.flagTypes) {
    const inclusions = withoutProduct(type.inclusions, product.id);
    const exclusions = withoutProduct(type.exclusions, product.id);
    if (inclusions.length !== type.inclusions.length || exclusions.length !== type.exclusions.length)
      putFlagType(transaction, type, { ...type, inclusions, exclusions });
  }
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.product,
    objectId: product.id,
    userId: caller.user!.id,
    changes: { __remove__: { removed: product.name, added: '' } },
    at: new Date(),
  });
  // Last, so that its parts fill what room the transaction has left; the rest go right after.
  const leftovers = deleteProduct(transaction, record);
  await transaction.commit();
  // Invisible already: a failure here leaves unread items behind, never a half-deleted product.
  await deleteProductLeftovers(leftovers).catch((error) =>
    logger.error('deleting the parts of a deleted product failed', { productId: product.id, error: String(error) }),
  );
  return { products: [{ id: product.id }] };
}
