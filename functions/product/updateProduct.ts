import * as z from 'zod';
import { updateProducts } from '../../shared/application/catalog/products.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';
import { productFields } from './productInput.ts';

export const handler = defineEndpoint({
  // editcomponents, or editcomponents rights on the product: checked with the product in hand.
  access: 'login',
  input: z.object({
    id_or_name: text().optional(),
    ids: list(integer()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
    ...productFields,
  }),
  run: ({ input, caller }) => {
    return updateProducts(caller, targetsOf(input), input);
  },
});
