import * as z from 'zod';
import { createField } from '../../shared/application/catalog/fields.ts';
import { ADMIN_GROUP } from '../../shared/domain/identity/caller.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, integer, list, text } from '../../shared/http/inputSchemas.ts';

/** A legal value: a name, or `{name, sort_key (or sortkey), visibility_values}`. */
export const valueInput = z.union([
  z.string(),
  z
    .object({
      name: z.string(),
      sort_key: integer().optional(),
      sortkey: integer().optional(),
      visibility_values: list(z.string(), { splitCommas: false }).optional(),
    })
    .transform((value) => ({
      name: value.name,
      sort_key: value.sort_key ?? value.sortkey,
      visibility_values: value.visibility_values,
    })),
]);

const optionalName = () => text().nullable().optional();

/**
 * The properties of a custom field, by the names the field definition uses, with Bugzilla's
 * editfields names as aliases (description, mandatory, enter_bug, sortkey, obsolete).
 */
export const fieldProperties = {
  name: text().optional(),
  display_name: text().optional(),
  description: text().optional(),
  type: integer().optional(),
  is_mandatory: flag().optional(),
  mandatory: flag().optional(),
  is_on_bug_entry: flag().optional(),
  enter_bug: flag().optional(),
  visibility_field: optionalName(),
  visibility_values: list(z.string(), { splitCommas: false }).optional(),
  value_field: optionalName(),
  sort_key: integer().optional(),
  sortkey: integer().optional(),
  is_obsolete: flag().optional(),
  obsolete: flag().optional(),
};

type FieldProperties = { [K in keyof typeof fieldProperties]?: z.infer<(typeof fieldProperties)[K]> };

/** Aliases folded into the definition's names; an empty controlling field name clears it. */
export function fieldInput(input: FieldProperties) {
  const clearable = (value: string | null | undefined) =>
    value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim();
  return {
    name: input.name,
    display_name: input.display_name ?? input.description,
    type: input.type,
    is_mandatory: input.is_mandatory ?? input.mandatory,
    is_on_bug_entry: input.is_on_bug_entry ?? input.enter_bug,
    visibility_field: clearable(input.visibility_field),
    visibility_values: input.visibility_values,
    value_field: clearable(input.value_field),
    sort_key: input.sort_key ?? input.sortkey,
    is_obsolete: input.is_obsolete ?? input.obsolete,
  };
}

export const adminOnly = (action: string) => ({
  group: ADMIN_GROUP,
  denied: () =>
    errors.authorizationRequired(`Sorry, you are not authorized to ${action} custom fields: only administrators may.`),
});

/** `POST /rest/field/bug` (Tracker's addition): creates a custom field; answers `{id}`. */
export const handler = defineEndpoint({
  access: adminOnly('create'),
  input: z.object({ ...fieldProperties, values: list(valueInput, { splitCommas: false }).optional() }),
  run: ({ input, caller }) => createField(caller, { ...fieldInput(input), values: input.values }),
});
