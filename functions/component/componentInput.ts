import * as z from 'zod';
import type { ComponentTarget } from '../../shared/application/catalog/components.ts';
import { errors } from '../../shared/errors.ts';
import { flag, integer, list, text } from '../../shared/http/inputSchemas.ts';

export const componentFields = {
  product: text().optional(),
  name: text().optional(),
  description: text().optional(),
  default_assignee: text().optional(),
  default_qa_contact: text().optional(),
  default_cc: list(z.string()).optional(),
  triage_owner: text().optional(),
  default_bug_type: text().optional(),
  is_open: flag().optional(),
  is_active: flag().optional(),
  sort_key: integer().optional(),
};

/** `/rest/component/{id}` or `/rest/component/{product}/{component}` (one variable name per level: `id_or_product`). */
export const componentTarget = { id_or_product: text().optional(), component: text().optional() };

export function componentFromPath(input: { id_or_product?: string; component?: string }): ComponentTarget | undefined {
  if (input.id_or_product === undefined) return undefined;
  if (input.component !== undefined) return { product: input.id_or_product, component: input.component };
  if (!/^\d+$/.test(input.id_or_product))
    throw errors.invalidParameter(
      `Name a component by its id, or as /rest/component/<product>/<component>: '${input.id_or_product}' is neither.`,
    );
  return { id: Number(input.id_or_product) };
}
