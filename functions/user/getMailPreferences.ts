import { describeMailPreferences } from '../../shared/application/identity/mailPreferences.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';

/** GET /rest/preferences/mail (Tracker addition; Bugzilla's userprefs.cgi tab=email): the caller's own. */
export const handler = defineEndpoint({
  access: 'login',
  input: noInput(),
  run: ({ caller }) => describeMailPreferences(caller),
});
