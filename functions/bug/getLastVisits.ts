import { lastVisits } from '../../shared/application/bug/bugActivity.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { lastVisitInput, lastVisitReferences } from './lastVisitInput.ts';

/** GET /rest/bug_user_last_visit[/{id}] (`ids` repeatable): the caller's visits, or their latest 20. */
export const handler = defineEndpoint({
  access: 'login',
  input: lastVisitInput,
  run: ({ input, caller }) => lastVisits(caller, lastVisitReferences(input)),
});
