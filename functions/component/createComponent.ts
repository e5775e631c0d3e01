import * as z from 'zod';
import { createComponent } from '../../shared/application/catalog/components.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { componentFields } from './componentInput.ts';

export const handler = defineEndpoint({
  // editcomponents, or editcomponents rights on the product: checked with the product in hand.
  access: 'login',
  // python-bugzilla's addcomponent() names the component `component`.
  input: z.object({ ...componentFields, component: text().optional() }),
  run: ({ input, caller }) => createComponent(caller, { ...input, name: input.name ?? input.component }),
});
