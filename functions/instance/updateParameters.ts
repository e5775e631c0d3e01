import * as z from 'zod';
import { AUDIT_CLASS } from '../../shared/domain/instance/audit.ts';
import { planParameterUpdate } from '../../shared/domain/instance/parameterChanges.ts';
import { TWEAKPARAMS_GROUP } from '../../shared/domain/instance/parameters.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { loadParametersForUpdate, saveParameterChanges } from '../../shared/storage/instance/parameterStore.ts';
import { retryOnConflict } from '../../shared/storage/transaction.ts';
import { TrackerError } from '../../shared/trackerError.ts';

/**
 * Tracker's addition in Bugzilla's style (Bugzilla edits parameters only in its web UI):
 * `PUT /rest/parameters` with `{"name": value, ...}`, tweakparams only. All or nothing.
 */
export const handler = defineEndpoint({
  access: {
    group: TWEAKPARAMS_GROUP,
    denied: () =>
      new TrackerError(304, 'Sorry, you are not authorized to change parameters: that needs the tweakparams group.'),
  },
  input: z.record(z.string(), z.unknown()),
  // Planned against a consistent read and written only if no one changed the parameters since;
  // otherwise planned again, so the reported `removed` values are the ones really replaced.
  run: ({ input, caller }) =>
    retryOnConflict(async () => {
      const current = await loadParametersForUpdate();
      const changes = planParameterUpdate(current.values, input);
      await saveParameterChanges(changes, current.rev, {
        auditClass: AUDIT_CLASS.parameters,
        objectId: 'parameters',
        userId: caller.user!.id,
        changes,
        at: new Date(),
      });
      return { changes };
    }),
});
