import * as z from 'zod';
import { updateKeywords } from '../../shared/application/catalog/keywords.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';
import { editkeywordsOnly, keywordInput } from './createKeyword.ts';

/** `PUT /rest/keyword/{id_or_name}` (Tracker's addition); answers `{keywords: [{id, changes}]}`. */
export const handler = defineEndpoint({
  access: editkeywordsOnly('edit'),
  input: z.object({
    id_or_name: text().optional(),
    ids: list(integer()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
    ...keywordInput,
  }),
  run: ({ input, caller }) => {
    return updateKeywords(caller, targetsOf(input), input);
  },
});
