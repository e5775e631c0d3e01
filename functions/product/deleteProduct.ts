import * as z from 'zod';
import { removeProduct } from '../../shared/application/catalog/productRemoval.ts';
import { EDITCOMPONENTS_GROUP } from '../../shared/domain/catalog/productRules.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * `DELETE /rest/product/{id_or_name}` (Tracker's addition): editcomponents only, as in
 * editproducts.cgi (a product's own editcomponents control does not let its holders delete it);
 * refused while the product has bugs. Answers `{products: [{id}]}`.
 */
export const handler = defineEndpoint({
  access: {
    group: EDITCOMPONENTS_GROUP,
    denied: () => errors.onlyGroupMembersMay('delete products', EDITCOMPONENTS_GROUP),
  },
  input: z.object({ id_or_name: text() }),
  run: ({ input, caller }) => removeProduct(caller, input.id_or_name),
});
