import * as z from 'zod';
import { removeKeyword } from '../../shared/application/catalog/keywordRemoval.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { editkeywordsOnly } from './createKeyword.ts';

/** `DELETE /rest/keyword/{id_or_name}` (Tracker's addition); refused while bugs have it. Answers `{keywords: [{id}]}`. */
export const handler = defineEndpoint({
  access: editkeywordsOnly('delete'),
  input: z.object({ id_or_name: text() }),
  run: ({ input, caller }) => removeKeyword(caller, input.id_or_name),
});
