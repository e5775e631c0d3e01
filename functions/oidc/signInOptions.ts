import { signInOptions } from '../../shared/application/identity/singleSignOn.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';
import { defineStorelessEndpoint } from '../../shared/http/storelessEndpoint.ts';

/** Whether single sign-on is on, and the issuer's name for the login form's button (Tracker addition). */
export const handler = defineStorelessEndpoint({
  access: 'public',
  loginExempt: true,
  input: noInput(),
  run: () => signInOptions(),
});
