import { z } from 'zod';
import { updateProducts } from '../../shared/application/products.ts';
import { splitIdOrName } from '../../shared/application/users.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';
import { editComponentsAccess } from './catalogueAccess.ts';
import { productFields } from './productInput.ts';

export const handler = defineEndpoint({
  access: editComponentsAccess('edit products'),
  input: z.object({ id_or_name: text().optional(), ids: list(integer()).optional(), names: list(z.string(), { splitCommas: false }).optional(), ...productFields }),
  run: ({ input, caller }) => {
    const fromPath = splitIdOrName(input.id_or_name);
    return updateProducts(caller, { ids: [...fromPath.ids, ...(input.ids ?? [])], names: [...fromPath.names, ...(input.names ?? [])] }, input);
  },
});
