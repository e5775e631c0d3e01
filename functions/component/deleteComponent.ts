import { z } from 'zod';
import { removeComponent } from '../../shared/application/components.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { editComponentsAccess } from '../product/catalogueAccess.ts';
import { componentFromPath, componentTarget } from './componentInput.ts';

export const handler = defineEndpoint({
  access: editComponentsAccess('delete components'),
  input: z.object({ ...componentTarget, id_or_product: z.string() }),
  run: ({ input, caller }) => removeComponent(caller, componentFromPath(input)!),
});
