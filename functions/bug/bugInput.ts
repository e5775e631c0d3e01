import * as z from 'zod';
import { list, text } from '../../shared/http/inputSchemas.ts';

/**
 * Bug calls take many fields with Bugzilla's own rules (lists or `{add, remove, set}`, names or
 * ids, custom fields), so their schemas only shape what is common and let the domain rules check
 * each field with Bugzilla's error codes.
 */
export const bugReferences = {
  id_or_alias: text().optional(),
  ids: list(z.union([z.string(), z.number()])).optional(),
};

export const referencesOf = (input: { id_or_alias?: string; ids?: Array<string | number> }): Array<string | number> => [
  ...(input.id_or_alias === undefined ? [] : [input.id_or_alias]),
  ...(input.ids ?? []),
];

const referencesSchema = z.object(bugReferences);

/**
 * An endpoint's `prefetch` over the bugs its raw parameters name (before validation, which runs
 * after authentication; parameters that do not validate name no bugs, and `run` answers them).
 */
export const prefetchNamedBugs =
  (prefetch: (references: Array<string | number>, params: Record<string, unknown>) => Promise<unknown>) =>
  async (params: Record<string, unknown>) => {
    const parsed = referencesSchema.safeParse(params);
    if (parsed.success) await prefetch(referencesOf(parsed.data), params);
  };
