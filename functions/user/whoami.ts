import { isInsider, isTimeTracker } from '../../shared/domain/bug/bugAccess.ts';
import { mayTagComments } from '../../shared/domain/bug/commentTags.ts';
import { nickFor } from '../../shared/domain/identity/caller.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';
import { loadParameters } from '../../shared/storage/instance/parameterStore.ts';

export const handler = defineEndpoint({
  access: 'login',
  input: noInput(),
  run: async ({ caller }) => {
    const user = caller.user!;
    const parameters = await loadParameters();
    return {
      id: user.id,
      name: user.login,
      real_name: user.realName,
      nick: nickFor(user),
      // Tracker additions, from the very functions that enforce each right, so that a client
      // offers exactly what the API then allows.
      email_enabled: user.emailEnabled,
      is_insider: isInsider(caller, parameters),
      is_timetracker: isTimeTracker(caller, parameters),
      can_tag_comments: mayTagComments(caller, parameters),
    };
  },
});
