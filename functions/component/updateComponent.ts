import * as z from 'zod';
import { updateComponents } from '../../shared/application/catalog/components.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list } from '../../shared/http/inputSchemas.ts';
import { componentFields, componentFromPath, componentTarget } from './componentInput.ts';

const componentName = z.object({ product: z.string(), component: z.string() });

/**
 * `PUT /rest/component/{id}` and `/rest/component/{product}/{component}`; `ids` and `names`
 * ([{product, component}]) add more. Fields come at the top level (Bugzilla) or inside
 * `updates` (what python-bugzilla's editcomponent() sends).
 */
export const handler = defineEndpoint({
  // editcomponents, or editcomponents rights on the product: checked with the product in hand.
  access: 'login',
  input: z.object({
    ...componentFields,
    ...componentTarget,
    ids: list(integer()).optional(),
    names: list(componentName, { splitCommas: false }).optional(),
    updates: z.object(componentFields).optional(),
  }),
  run: ({ input, caller }) => {
    const fromPath = componentFromPath(input);
    const targets = [
      ...(fromPath ? [fromPath] : []),
      ...(input.ids ?? []).map((id) => ({ id })),
      ...(input.names ?? []).map((name) => ({ product: name.product, component: name.component })),
    ];
    const { ids: _ids, names: _names, updates, ...fields } = input;
    return updateComponents(caller, targets, { ...fields, ...updates });
  },
});
