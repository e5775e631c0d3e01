import * as z from 'zod';
import { inviteAccountsWithoutPassword } from '../../shared/application/identity/accountsByMail.ts';
import { EDITUSERS_GROUP } from '../../shared/domain/identity/userView.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, integer } from '../../shared/http/inputSchemas.ts';

/**
 * After an import: mails every enabled account without a password a link to set one (editusers).
 * `dry_run` lists who would be invited and mails nobody. One request mails at most `limit` (and
 * at most 50) people and says how many it did not reach (`remaining`). Running it again mails nobody whose
 * invitation has not lapsed (fourteen days); `npm run invite` does the same from a shell, with progress.
 */
export const handler = defineEndpoint({
  access: {
    group: EDITUSERS_GROUP,
    denied: () =>
      errors.authorizationRequired(
        `Sorry, you aren't a member of the '${EDITUSERS_GROUP}' group, and so you are not authorized to invite users.`,
      ),
  },
  input: z.object({ dry_run: flag().optional(), limit: integer().optional() }),
  run: ({ input }) => inviteAccountsWithoutPassword({ dryRun: input.dry_run, limit: input.limit }),
});
