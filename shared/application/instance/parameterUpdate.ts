/**
 * Changing the installation's parameters: tweakparams' all-or-nothing update, Tracker's REST
 * stand-in for Bugzilla's web UI. Each value is checked by its rule (parameterChanges.ts).
 */
import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { planParameterUpdate } from '../../domain/instance/parameterChanges.ts';
import { currentStamp } from '../../storage/catalog/catalogCache.ts';
import { loadFieldValues } from '../../storage/catalog/fieldValueStore.ts';
import { loadParametersForUpdate, saveParameterChanges } from '../../storage/instance/parameterStore.ts';
import { retryOnConflict } from '../../storage/transaction.ts';

/**
 * Planned against a consistent read and written only if no one changed the parameters since;
 * otherwise planned again, so the reported `removed` values are the ones really replaced. The
 * parameters that name a legal value are checked against the installation's values, read under
 * the catalogue stamp the write then requires: a value disabled meanwhile is not made a default.
 */
export function changeParameters(caller: Caller, requested: Record<string, unknown>) {
  return retryOnConflict(async () => {
    const stamp = await currentStamp();
    const [current, values] = await Promise.all([loadParametersForUpdate(), loadFieldValues()]);
    const changes = planParameterUpdate(current.values, requested, values);
    await saveParameterChanges(changes, current.rev, stamp.catalog, {
      auditClass: AUDIT_CLASS.parameters,
      objectId: 'parameters',
      userId: caller.user!.id,
      changes,
      at: new Date(),
    });
    return { changes };
  });
}
