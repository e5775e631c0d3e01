import { z } from 'zod';
import { removeComponent } from '../../shared/application/components.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { editComponentsAccess } from '../product/catalogueAccess.ts';
import { componentTarget } from './componentInput.ts';

export const handler = defineEndpoint({
  access: editComponentsAccess('delete components'),
  input: z.object(componentTarget),
  run: ({ input, caller }) => removeComponent(caller, { id: input.id, product: input.product_name, component: input.component }),
});
