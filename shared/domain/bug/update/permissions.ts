import { errors } from '../../../errors.ts';
import { type FieldPermissionContext, mayChangeField, whoMayChange } from '../bugAccess.ts';
import type { BugNames, diffBugs } from '../bugChanges.ts';

/**
 * Bugzilla's check_can_change_field for every field the request changes on the bug itself, run
 * once everything else has been checked (who may change a field can depend on its new value).
 */
export function checkFieldPermissions(
  context: FieldPermissionContext,
  changes: ReturnType<typeof diffBugs>,
  me: number,
  names: BugNames,
): void {
  for (const [field, change] of Object.entries(changes)) {
    if (field === 'flagtypes.name') continue; // flag types have their own grant and request groups
    if (field === 'cc') {
      if (mayChangeField(context, 'cc_others', '0', '1')) continue;
      const myLogin = names.login(me);
      const others = [...change.added.split(', '), ...change.removed.split(', ')].filter(
        (login) => login !== '' && login !== myLogin,
      );
      if (others.length === 0) continue;
      throw errors.fieldChangeDenied(
        'You may add or remove only yourself on the CC list of this bug; changing others needs the reporter, assignee, QA contact or editbugs rights.',
      );
    }
    const checkedField = field === 'dupe_of' ? 'resolution' : field;
    if (!mayChangeField(context, checkedField, change.removed, change.added)) {
      throw errors.fieldChangeDenied(
        `You tried to change the ${field} field from '${change.removed}' to '${change.added}', but only ${whoMayChange(field)} may make this change.`,
      );
    }
  }
}
