import { type Caller, inGroup } from '../../domain/identity/caller.ts';
import { EDITUSERS_GROUP } from '../../domain/identity/userView.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { targetsOf } from '../../domain/objectTargets.ts';
import { toBugzillaDateTime } from '../../domain/time.ts';
import { errors } from '../../errors.ts';
import { findUserIdByLogin, getUsers } from '../../storage/identity/userStore.ts';
import { auditEntriesOf } from '../../storage/instance/auditStore.ts';

/**
 * A user's account history (Bugzilla's editusers "View Account History", profiles_activity):
 * the audit entries about the account, newest first, each as a bug's history is answered.
 */
export const DEFAULT_ACTIVITY_LIMIT = 100;
export const MAX_ACTIVITY_LIMIT = 1000;

export async function userActivity(caller: Caller, idOrName: string, page: { limit?: number; offset?: number }) {
  // Bugzilla opens editusers.cgi to editusers (and, for some actions, to blessers); Tracker keeps
  // account history to editusers, as every other admin read of an account.
  if (!inGroup(caller, EDITUSERS_GROUP)) throw errors.onlyGroupMembersMay('view account history', EDITUSERS_GROUP);
  const limit = page.limit ?? DEFAULT_ACTIVITY_LIMIT;
  const offset = page.offset ?? 0;
  if (limit < 1 || limit > MAX_ACTIVITY_LIMIT)
    throw errors.invalidParameter(`limit must be between 1 and ${MAX_ACTIVITY_LIMIT}.`);
  if (offset < 0) throw errors.invalidParameter('offset must not be negative.');
  const { ids, names } = targetsOf({ id_or_name: idOrName });
  const userId = ids[0] ?? (await findUserIdByLogin(names[0]));
  if (userId === null || (await getUsers([userId])).length === 0) throw errors.notFoundByNameOrNumber('user', idOrName);

  const entries = await auditEntriesOf(AUDIT_CLASS.user, userId, { limit, offset });
  const actorIds = [...new Set(entries.flatMap((entry) => (entry.userId === null ? [] : [entry.userId])))];
  const logins = new Map((await getUsers(actorIds)).map((user) => [user.id, user.login]));
  return {
    activity: entries.map((entry) => ({
      when: toBugzillaDateTime(entry.at),
      // Null: the installation itself (its bootstrap).
      who: entry.userId === null ? null : (logins.get(entry.userId) ?? null),
      changes: Object.entries(entry.changes).map(([field, change]) => ({
        field_name: field,
        removed: change.removed,
        added: change.added,
      })),
    })),
  };
}
