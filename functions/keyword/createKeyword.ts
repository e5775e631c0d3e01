import * as z from 'zod';
import { createKeyword } from '../../shared/application/catalog/keywords.ts';
import { EDITKEYWORDS_GROUP } from '../../shared/domain/catalog/keywords.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, text } from '../../shared/http/inputSchemas.ts';

export const keywordInput = {
  name: text().optional(),
  description: text().optional(),
  is_active: flag().optional(),
};

export const editkeywordsOnly = (action: string) => ({
  group: EDITKEYWORDS_GROUP,
  denied: () => errors.onlyGroupMembersMay(`${action} keywords`, EDITKEYWORDS_GROUP),
});

/** `POST /rest/keyword` (Tracker's addition): `{name, description, is_active}`; answers `{id}`. */
export const handler = defineEndpoint({
  access: editkeywordsOnly('create'),
  input: z.object(keywordInput),
  run: ({ input, caller }) => createKeyword(caller, input),
});
