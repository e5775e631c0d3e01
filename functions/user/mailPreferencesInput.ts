import * as z from 'zod';
import {
  EVENT_NAMES,
  EXCEPTION_NAMES,
  RELATIONSHIP_NAMES,
} from '../../shared/domain/notification/mailPreferenceNames.ts';
import { flag } from '../../shared/http/inputSchemas.ts';

/** One column of the matrix: any of its boxes, by the API's names; another name is refused. */
const column = z
  .object(
    Object.fromEntries(
      [...Object.values(EVENT_NAMES), ...Object.values(EXCEPTION_NAMES)].map((name) => [name, flag().optional()]),
    ),
  )
  .strict();

const listChange = <T extends z.ZodType>(item: T) =>
  z.object({ add: z.array(item).max(1000).optional(), remove: z.array(item).max(1000).optional() }).strict();

/** The body of PUT /rest/preferences/mail: only what it names changes. */
export const mailPreferencesInput = z.object({
  email_enabled: flag().optional(),
  flag_requested_of_me: flag().optional(),
  flag_i_requested: flag().optional(),
  relationships: z
    .object(Object.fromEntries(Object.values(RELATIONSHIP_NAMES).map((name) => [name, column.optional()])))
    .strict()
    .optional(),
  ignored_bugs: listChange(z.union([z.number().int(), z.string()])).optional(),
  watched_users: listChange(z.string()).optional(),
});
