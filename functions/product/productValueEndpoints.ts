import * as z from 'zod';
import type { ProductValueKind } from '../../shared/application/catalog/productValues.ts';
import { addProductValue, updateProductValue } from '../../shared/application/catalog/productValues.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, integer, text } from '../../shared/http/inputSchemas.ts';

/** Tracker's version and milestone administration, one shape for both kinds. */

/** `id_or_name` is the product, from the path. */
const valueFields = {
  id_or_name: text(),
  name: text().optional(),
  sort_key: integer().optional(),
  is_active: flag().optional(),
};

export const createValueEndpoint = (kind: ProductValueKind) =>
  defineEndpoint({
    // editcomponents, or editcomponents rights on the product: checked with the product in hand.
    access: 'login',
    input: z.object(valueFields),
    run: ({ input, caller }) => addProductValue(caller, kind, input.id_or_name, input),
  });

export const updateValueEndpoint = (kind: ProductValueKind) =>
  defineEndpoint({
    // editcomponents, or editcomponents rights on the product: checked with the product in hand.
    access: 'login',
    input: z.object({ ...valueFields, value: text() }),
    run: ({ input, caller }) => updateProductValue(caller, kind, input.id_or_name, input.value, input),
  });
