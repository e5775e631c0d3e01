import * as z from 'zod';
import { type BugzillaClient, segment } from '../bugzillaClient.ts';
import { type FlagTypeRecord, flagTypeSchema, type ProductRecord } from '../sourceRecords.ts';

/**
 * Flag types, once each, with the components they apply to. Bugzilla exposes no list of flag
 * types nor their inclusions: each product's route (`GET /rest/flag_type/<product>`) gives the
 * types that apply somewhere in the product, and the product listing gives, per component, the
 * types that apply there with their sort key, CC list and grant and request groups. Both are
 * merged here; a type that applies nowhere the account can see is not found.
 */
export async function readFlagTypes(
  client: BugzillaClient,
  products: readonly ProductRecord[],
): Promise<FlagTypeRecord[]> {
  const found = new Map<number, FlagTypeRecord>();
  const add = (type: FlagTypeRecord) => {
    const known = found.get(type.id);
    if (!known) {
      found.set(type.id, { ...type, appliesTo: [...type.appliesTo] });
      return;
    }
    for (const [key, value] of Object.entries(type) as Array<[keyof FlagTypeRecord, unknown]>)
      if (known[key] === null && value !== null) (known as unknown as Record<string, unknown>)[key] = value;
    for (const place of type.appliesTo)
      if (!known.appliesTo.some((seen) => seen.product === place.product && seen.component === place.component))
        known.appliesTo.push(place);
  };
  for (const product of products)
    for (const component of product.components)
      [...component.flagTypes.bug, ...component.flagTypes.attachment].forEach(add);
  const answer = z.object({
    bug: z.array(flagTypeSchema('bug')).nullish(),
    attachment: z.array(flagTypeSchema('attachment')).nullish(),
  });
  const perProduct = await Promise.all(
    products.map(async (product) => answer.parse(await client.get(`/flag_type/${segment(product.name)}`))),
  );
  for (const types of perProduct) [...(types.bug ?? []), ...(types.attachment ?? [])].forEach(add);
  return [...found.values()].sort((a, b) => a.id - b.id);
}
