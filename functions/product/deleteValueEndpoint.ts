import * as z from 'zod';
import { removeProductValue } from '../../shared/application/catalog/productValueRemoval.ts';
import type { ProductValueKind } from '../../shared/application/catalog/productValues.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/** `DELETE /rest/product/{product}/version|milestone/{value}`; answers `{versions|milestones: [{id}]}`. */
export const deleteValueEndpoint = (kind: ProductValueKind) =>
  defineEndpoint({
    // editcomponents, or editcomponents rights on the product: checked with the product in hand.
    access: 'login',
    input: z.object({ id_or_name: text(), value: text() }),
    run: ({ input, caller }) => removeProductValue(caller, kind, input.id_or_name, input.value),
  });
