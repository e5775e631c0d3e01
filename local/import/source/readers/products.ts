import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { type ProductRecord, productSchema } from '../sourceRecords.ts';

/**
 * Every product the account can reach, with components (and the flag types each lists),
 * versions and milestones, in one request. `_all` also brings Tracker's group controls (to
 * editcomponents) and Harmony's extra product fields. Products in a mandatory group the account
 * is not in are invisible here, as their bugs are.
 */
export async function readProducts(client: BugzillaClient): Promise<ProductRecord[]> {
  const answer = await client.get('/product', { type: 'accessible', include_fields: '_all' });
  return z.object({ products: z.array(productSchema) }).parse(answer).products;
}
