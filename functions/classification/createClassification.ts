import * as z from 'zod';
import { createClassification } from '../../shared/application/catalog/classifications.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, text } from '../../shared/http/inputSchemas.ts';
import { editClassificationsAccess } from '../product/catalogueAccess.ts';

export const classificationFields = {
  name: text().optional(),
  description: text().optional(),
  sort_key: integer().optional(),
};

export const handler = defineEndpoint({
  access: editClassificationsAccess('create classifications'),
  input: z.object(classificationFields),
  run: ({ input, caller }) => createClassification(caller, input),
});
