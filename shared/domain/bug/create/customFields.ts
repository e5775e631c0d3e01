import { errors } from '../../../errors.ts';
import { checkCustomValue, customFieldDefault } from '../bugFieldRules.ts';
import type { NewBugContext } from './newBugContext.ts';
import { mustEnter, present } from './newBugInput.ts';

/** Every custom field in use: the value given, or its default; a mandatory one shown on entry must be given. */
export function customValuesOf({ env, input }: NewBugContext): Record<string, unknown> {
  const custom: Record<string, unknown> = {};
  for (const field of env.customFields) {
    if (field.isObsolete) continue;
    const value = input[field.name];
    if (present(value) || (Array.isArray(value) && value.length > 0)) {
      custom[field.name] = checkCustomValue(field, value);
    } else {
      if (field.isMandatory && field.isOnBugEntry) throw mustEnter(`a value for ${field.displayName} (${field.name})`);
      custom[field.name] = customFieldDefault(field);
    }
  }
  for (const name of Object.keys(input)) {
    if (name.startsWith('cf_') && !env.customFields.some((field) => field.name === name && !field.isObsolete)) {
      throw errors.unknownField(`There is no custom field named '${name}'.`);
    }
  }
  return custom;
}
