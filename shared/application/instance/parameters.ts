/**
 * The installation's parameters as a caller may see them (some only with tweakparams). Changing
 * them is parameterUpdate.ts, apart, so this reader's bundle carries no regexp engine.
 */
import type { Caller } from '../../domain/identity/caller.ts';
import { visibleParameters } from '../../domain/instance/parameters.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';

export async function parametersFor(caller: Caller) {
  return { parameters: visibleParameters(caller, await loadParameters()) };
}
