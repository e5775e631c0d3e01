import * as z from 'zod';
import { updateClassification } from '../../shared/application/catalog/classifications.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { editClassificationsAccess } from '../product/catalogueAccess.ts';
import { classificationFields } from './createClassification.ts';

export const handler = defineEndpoint({
  access: editClassificationsAccess('edit classifications'),
  input: z.object({ id_or_name: text(), ...classificationFields }),
  run: ({ input, caller }) => updateClassification(caller, input.id_or_name, input),
});
