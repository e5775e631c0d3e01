import { updateMailPreferences } from '../../shared/application/identity/mailPreferences.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { mailPreferencesInput } from './mailPreferencesInput.ts';

/**
 * PUT /rest/preferences/mail (Tracker addition; Bugzilla's userprefs.cgi tab=email): the caller
 * changes their own bug mail on or off, the flag mails, any box of the relationship × event
 * matrix, the bugs they ignore and the people they watch; answers as GET does.
 */
export const handler = defineEndpoint({
  access: 'login',
  input: mailPreferencesInput,
  run: ({ input, caller }) => updateMailPreferences(caller, input),
});
