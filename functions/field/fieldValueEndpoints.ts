import type * as z from 'zod';
import { ADMIN_GROUP } from '../../shared/domain/identity/caller.ts';
import { errors } from '../../shared/errors.ts';
import { flag, integer, text } from '../../shared/http/inputSchemas.ts';

/**
 * What the legal-value and workflow routes share: Bugzilla lets only the admin group use
 * editvalues.cgi and editworkflow.cgi, and a value is `{name, sort_key (or sortkey), is_active, is_open}`.
 */
export const adminsOnly = (action: string) => ({
  group: ADMIN_GROUP,
  denied: () => errors.authorizationRequired(`Sorry, you are not authorized to ${action}: only administrators may.`),
});

/** `id_or_name` is the field, from the path. */
export const valueProperties = {
  id_or_name: text(),
  name: text().optional(),
  sort_key: integer().optional(),
  sortkey: integer().optional(),
  is_active: flag().optional(),
  is_open: flag().optional(),
};

type ValueProperties = { [K in keyof typeof valueProperties]?: z.infer<(typeof valueProperties)[K]> };

/** Bugzilla's `sortkey` is read as `sort_key`. */
export const valueInput = (input: ValueProperties) => ({
  name: input.name,
  sort_key: input.sort_key ?? input.sortkey,
  is_active: input.is_active,
  is_open: input.is_open,
});
