import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { deleteFlagType } from '../../storage/catalog/flagTypeStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import { flagsOfType } from '../search/valueUsage.ts';
import { loadCatalog } from './catalogContext.ts';
import { targetFlagTypes } from './flagTypes.ts';
import { refusals } from './removalRefusals.ts';

/**
 * `DELETE /rest/flag_type/{id_or_name}` (editcomponents). A name that several types share is
 * refused (133): the id says which. Bugzilla deletes the type's flags with it; Tracker refuses
 * while any bug or attachment has one (docs/bugzilla-5.2-behaviour.md) and says how many.
 */
export function removeFlagType(caller: Caller, targets: { ids: number[]; names: string[] }) {
  return retryOnConflict(() => removeFlagTypeOnce(caller, targets));
}

async function removeFlagTypeOnce(caller: Caller, targets: { ids: number[]; names: string[] }) {
  const catalog = await loadCatalog();
  const selected = targetFlagTypes(catalog, targets);
  if (selected.length === 0) throw errors.idsOrNamesRequired();
  if (selected.length > 1)
    throw errors.flagTypeNotUnique(
      `The flag type '${selected[0]!.name}' matches several flag types. You must specify the type id to delete one.`,
    );
  const type = selected[0]!;
  const flags = await flagsOfType(type);
  if (flags.bugs + flags.attachments > 0) throw refusals.flagTypeInUse(type.name, flags.bugs, flags.attachments);
  const transaction = new WriteTransaction();
  deleteFlagType(transaction, type);
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.flagType,
    objectId: type.id,
    userId: caller.user!.id,
    changes: { __remove__: { removed: type.name, added: '' } },
    at: new Date(),
  });
  await transaction.commit();
  return { flagtypes: [{ id: type.id }] };
}
