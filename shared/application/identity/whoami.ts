import { isInsider, isTimeTracker } from '../../domain/bug/bugAccess.ts';
import { mayTagComments } from '../../domain/bug/commentTags.ts';
import { type Caller, nickFor } from '../../domain/identity/caller.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';

/**
 * GET /rest/whoami: Bugzilla's fields, then Tracker's additions, each from the very function that
 * enforces that right, so that a client offers exactly what the API then allows.
 */
export async function describeCaller(caller: Caller) {
  const user = caller.user!;
  const parameters = await loadParameters();
  return {
    id: user.id,
    name: user.login,
    real_name: user.realName,
    nick: nickFor(user),
    email_enabled: user.emailEnabled,
    is_insider: isInsider(caller, parameters),
    is_timetracker: isTimeTracker(caller, parameters),
    can_tag_comments: mayTagComments(caller, parameters),
  };
}
