import { z } from 'zod';
import { createComponent } from '../../shared/application/components.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { editComponentsAccess } from '../product/catalogueAccess.ts';
import { componentFields } from './componentInput.ts';

export const handler = defineEndpoint({
  access: editComponentsAccess('create components'),
  input: z.object(componentFields),
  run: ({ input, caller }) => createComponent(caller, input),
});
