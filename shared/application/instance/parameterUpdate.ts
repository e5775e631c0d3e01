/**
 * Changing the installation's parameters: tweakparams' all-or-nothing update, Tracker's REST
 * stand-in for Bugzilla's web UI. Each value is checked by its rule (parameterChanges.ts).
 */
import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { planParameterUpdate } from '../../domain/instance/parameterChanges.ts';
import { loadParametersForUpdate, saveParameterChanges } from '../../storage/instance/parameterStore.ts';
import { retryOnConflict } from '../../storage/transaction.ts';

/**
 * Planned against a consistent read and written only if no one changed the parameters since;
 * otherwise planned again, so the reported `removed` values are the ones really replaced.
 */
export function changeParameters(caller: Caller, requested: Record<string, unknown>) {
  return retryOnConflict(async () => {
    const current = await loadParametersForUpdate();
    const changes = planParameterUpdate(current.values, requested);
    await saveParameterChanges(changes, current.rev, {
      auditClass: AUDIT_CLASS.parameters,
      objectId: 'parameters',
      userId: caller.user!.id,
      changes,
      at: new Date(),
    });
    return { changes };
  });
}
