import * as z from 'zod';
import { logOut } from '../../shared/application/identity/sessions.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { lowerCaseHeaders } from '../../shared/http/requestState.ts';

export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  input: z.object({ token: text().optional(), Tracker_token: text().optional(), Bugzilla_token: text().optional() }),
  run: async ({ input, event }) => {
    // A parameter, as Bugzilla's clients send it, or the header, as the web app and other REST
    // clients send every credential.
    const header = lowerCaseHeaders(event)['x-bugzilla-token'];
    await logOut(input.token ?? input.Tracker_token ?? input.Bugzilla_token ?? header);
    // Bugzilla's logout returns nothing, which its REST layer wraps as {"result": null}.
    return { result: null };
  },
});
