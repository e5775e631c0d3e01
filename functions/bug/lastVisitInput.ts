import * as z from 'zod';
import { list, text } from '../../shared/http/inputSchemas.ts';

export const lastVisitInput = z.object({
  id: text().optional(),
  ids: list(z.union([z.string(), z.number()])).optional(),
});

export const lastVisitReferences = (value: z.infer<typeof lastVisitInput>): Array<string | number> => [
  ...(value.id === undefined ? [] : [value.id]),
  ...(value.ids ?? []),
];
