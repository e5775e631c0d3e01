import * as z from 'zod';
import { createProduct } from '../../shared/application/catalog/products.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, nameText } from '../../shared/http/inputSchemas.ts';
import { editComponentsAccess } from './catalogueAccess.ts';
import { productFields } from './productInput.ts';

export const handler = defineEndpoint({
  access: editComponentsAccess('create products'),
  input: z.object({ ...productFields, version: nameText().optional(), create_series: flag().optional() }),
  run: ({ input, caller }) => createProduct(caller, input),
});
