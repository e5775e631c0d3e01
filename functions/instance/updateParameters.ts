import * as z from 'zod';
import { changeParameters } from '../../shared/application/instance/parameterUpdate.ts';
import { DEFAULT_PARAMETERS, TWEAKPARAMS_GROUP } from '../../shared/domain/instance/parameters.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';

/**
 * Tracker's addition in Bugzilla's style (Bugzilla edits parameters only in its web UI):
 * `PUT /rest/parameters` with `{"name": value, ...}`, tweakparams only. All or nothing.
 */
export const handler = defineEndpoint({
  access: {
    group: TWEAKPARAMS_GROUP,
    denied: () =>
      errors.authorizationRequired(
        'Sorry, you are not authorized to change parameters: that needs the tweakparams group.',
      ),
  },
  // Every parameter by name, with its default: the values are checked by parameterChanges.ts.
  input: z.looseObject(
    Object.fromEntries(
      Object.entries(DEFAULT_PARAMETERS).map(([name, value]) => [
        name,
        z
          .union([z.string(), z.number(), z.boolean()])
          .nullable()
          .optional()
          .meta({ description: `Default ${JSON.stringify(value)}.` }),
      ]),
    ),
  ),
  run: ({ input, caller }) => changeParameters(caller, input),
});
