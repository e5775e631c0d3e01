import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';
import { updateOwnAccount } from '../../shared/application/identity/ownAccount.ts';
import { extractCredentials } from '../../shared/domain/identity/authentication.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, text } from '../../shared/http/inputSchemas.ts';
import { parseQueryString } from '../../shared/http/middleware/parseInput.ts';
import { lowerCaseHeaders, sourceIp } from '../../shared/http/requestState.ts';

/** The JSON body's members, where a token may also travel; nothing when it is not a JSON object. */
function bodyParameters(event: APIGatewayProxyEventV2): Record<string, unknown> {
  if (!event.body) return {};
  try {
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The caller's own account (Tracker addition; Bugzilla's userprefs.cgi tab=account): any logged-in
 * person may change their real name, their password (with the current one), bug mail on or off,
 * and (allowemailchange, with the current password) their login, confirmed by mail first. Never the groups: those stay with
 * Update User (editusers).
 */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({
    full_name: text().optional(),
    current_password: text().optional(),
    new_password: text().optional(),
    email_enabled: flag().optional(),
    email: text().optional(),
  }),
  run: ({ input, caller, event }) => {
    const credentials = extractCredentials(lowerCaseHeaders(event), {
      ...bodyParameters(event),
      ...parseQueryString(event.rawQueryString),
    });
    return updateOwnAccount(caller, input, {
      sourceIp: sourceIp(event),
      usedLoginToken: credentials?.kind === 'token',
    });
  },
});
