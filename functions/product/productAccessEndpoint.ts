import { productIds } from '../../shared/application/catalog/products.ts';
import type { ProductListType } from '../../shared/domain/catalog/productRules.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';

/** `GET /rest/product_<type>`: ids of the products the caller can search, enter bugs in, or either. */
export const productAccessEndpoint = (type: ProductListType) =>
  defineEndpoint({ access: 'public', input: noInput(), run: ({ caller }) => productIds(caller, type) });
