import { errors } from '../../../errors.ts';
import { hasCanConfirm } from '../bugAccess.ts';
import { UNCONFIRMED } from '../bugWorkflow.ts';
import type { NewBugContext } from './newBugContext.ts';
import { present } from './newBugInput.ts';

/**
 * Bugzilla's _check_bug_status: a canconfirm user's bug starts in the first status a new bug may
 * take other than UNCONFIRMED, or the one asked for; others file UNCONFIRMED where the product
 * allows it, whatever they ask. A new bug has no resolution.
 */
export function initialStatusOf({ env, input, record }: NewBugContext): string {
  const { values } = env;
  const canConfirm = hasCanConfirm(env.caller, record, env.groupName);
  const allowsUnconfirmed = record.product.hasUnconfirmed;
  let status = values.defaultInitialStatus(canConfirm, allowsUnconfirmed);
  if (present(input.status)) {
    // The old workflow's names (NEW, ASSIGNED, REOPENED) are read as on update.
    const wanted = values.canonicalStatus(String(input.status), null);
    if (!values.isKnownStatus(wanted)) throw errors.notFoundByName('status', String(input.status));
    const initial = values.initialStatuses();
    if (!initial.includes(wanted))
      throw errors.illegalStatusTransition(
        `A new bug cannot be filed with the status ${wanted}: it must start in a status the workflow allows (${initial.join(', ')}).`,
      );
    if (canConfirm && (wanted !== UNCONFIRMED || allowsUnconfirmed)) status = wanted;
  }
  if (status === undefined)
    throw errors.illegalStatusTransition('The workflow lets no new bug be filed: it has no status a new bug may take.');
  if (present(input.resolution))
    throw errors.resolutionNotAllowed('A new bug is open, so it cannot have a resolution.');
  return status;
}
