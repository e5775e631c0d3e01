import { recordLastVisits } from '../../shared/application/bug/bugActivity.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { lastVisitInput, lastVisitReferences } from './lastVisitInput.ts';

/** POST /rest/bug_user_last_visit[/{id}] (`ids` in the body): now becomes the caller's last visit. */
export const handler = defineEndpoint({
  access: 'login',
  input: lastVisitInput,
  run: ({ input, caller }) => recordLastVisits(caller, lastVisitReferences(input)),
});
