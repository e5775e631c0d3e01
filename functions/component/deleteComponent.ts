import * as z from 'zod';
import { removeComponent } from '../../shared/application/catalog/components.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { componentFromPath, componentTarget } from './componentInput.ts';

export const handler = defineEndpoint({
  // editcomponents, or editcomponents rights on the product: checked with the product in hand.
  access: 'login',
  input: z.object({ ...componentTarget, id_or_product: z.string() }),
  run: ({ input, caller }) => removeComponent(caller, componentFromPath(input)!),
});
