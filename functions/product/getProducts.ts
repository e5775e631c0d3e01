import * as z from 'zod';
import { getProducts } from '../../shared/application/catalog/products.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';

const productType = z.enum(['accessible', 'selectable', 'enterable']);

/**
 * `GET /rest/product` and `GET /rest/product/{id_or_name}`. The path merges with ids/names, so
 * python-bugzilla's `GET /rest/product/get?ids=1` returns product 1 ("get" names no product).
 */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({
    id_or_name: text().optional(),
    type: list(productType).optional(),
    ids: list(integer()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
  }),
  responseFields: {
    products: {
      fields: {
        extra: ['group_controls'],
        nested: {
          components: { nested: { flag_types: { nested: { bug: {}, attachment: {} } } } },
          versions: {},
          milestones: {},
        },
      },
    },
  },
  run: ({ input, caller }) => {
    return getProducts(caller, { types: input.type, ...targetsOf(input) });
  },
});
