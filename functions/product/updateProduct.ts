import { z } from 'zod';
import { updateProducts } from '../../shared/application/products.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';
import { editComponentsAccess } from './catalogueAccess.ts';
import { productFields } from './productInput.ts';

export const handler = defineEndpoint({
  access: editComponentsAccess('edit products'),
  input: z.object({ id_or_name: text().optional(), ids: list(integer()).optional(), names: list(z.string(), { splitCommas: false }).optional(), ...productFields }),
  run: ({ input, caller }) => {
    return updateProducts(caller, targetsOf(input), input);
  },
});
