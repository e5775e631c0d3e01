import { z } from 'zod';
import { updateComponent } from '../../shared/application/components.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { editComponentsAccess } from '../product/catalogueAccess.ts';
import { componentFields, componentTarget } from './componentInput.ts';

export const handler = defineEndpoint({
  access: editComponentsAccess('edit components'),
  input: z.object({ ...componentFields, ...componentTarget }),
  run: ({ input, caller }) => updateComponent(caller, { id: input.id, product: input.product_name, component: input.component }, input),
});
