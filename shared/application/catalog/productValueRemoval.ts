import type { Caller } from '../../domain/identity/caller.ts';
import { deleteProductValue, type ProductValueKind, touchProduct } from '../../storage/catalog/productStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import { bugsUsingValue } from '../search/valueUsage.ts';
import { AUDIT_CLASSES, findValue, productFor } from './productValues.ts';
import { refusals } from './removalRefusals.ts';

/**
 * `DELETE /rest/product/{product}/version|milestone/{name_or_id}`, as editversions.cgi and
 * editmilestones.cgi delete: never a product's last version, never its default milestone, never a
 * version that bugs have. Bugzilla moves a milestone's bugs to the default milestone as it deletes
 * it; Tracker refuses while any bug has it (docs/bugzilla-5.2-behaviour.md) and says how many.
 */
export function removeProductValue(
  caller: Caller,
  kind: ProductValueKind,
  productReference: string,
  valueReference: string,
) {
  return retryOnConflict(() => removeProductValueOnce(caller, kind, productReference, valueReference));
}

async function removeProductValueOnce(
  caller: Caller,
  kind: ProductValueKind,
  productReference: string,
  valueReference: string,
) {
  const record = await productFor(caller, kind, productReference);
  const value = findValue(record, kind, valueReference);
  if (kind === 'version') {
    if (record.versions.length === 1) throw refusals.versionIsLast(value.name, record.product.name);
    const count = await bugsUsingValue({ kind: 'version', versionId: value.id });
    if (count > 0) throw refusals.versionHasBugs(count);
  } else {
    if (value.name === record.product.defaultMilestone)
      throw refusals.milestoneIsDefault(value.name, record.product.name);
    const count = await bugsUsingValue({ kind: 'milestone', milestoneId: value.id });
    if (count > 0) throw refusals.milestoneHasBugs(count, value.name);
  }
  const transaction = new WriteTransaction();
  deleteProductValue(transaction, kind, value);
  // The product's revision moves too: a default milestone chosen meanwhile must not be this one.
  touchProduct(transaction, record.product);
  recordAudit(transaction, {
    auditClass: AUDIT_CLASSES[kind],
    objectId: value.id,
    userId: caller.user!.id,
    changes: { __remove__: { removed: `${record.product.name}: ${value.name}`, added: '' } },
    at: new Date(),
  });
  await transaction.commit();
  return { [`${kind}s`]: [{ id: value.id }] };
}
