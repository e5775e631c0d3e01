import { type Classification, DEFAULT_CLASSIFICATION, type ProductRecord } from '../../domain/catalog/catalog.ts';
import type { FieldValues } from '../../domain/catalog/fieldValues.ts';
import type { FlagType } from '../../domain/catalog/flagTypes.ts';
import {
  mayAdministerProduct,
  mayAdministerSomeProduct,
  mayEditCatalogue,
  type ProductListType,
  productIdsOfType,
  productView,
} from '../../domain/catalog/productRules.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import type { Parameters } from '../../domain/instance/parameters.ts';
import { errors } from '../../errors.ts';
import { loadFieldValues } from '../../storage/catalog/fieldValueStore.ts';
import { loadFlagTypes } from '../../storage/catalog/flagTypeStore.ts';
import { loadClassifications, loadProducts } from '../../storage/catalog/productStore.ts';
import { type GroupRecord, listGroups } from '../../storage/identity/groupStore.ts';
import { getUsers } from '../../storage/identity/userStore.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';

/**
 * One read of the catalogue for a request: products (with components, versions, milestones and
 * group controls), classifications, groups, flag types, parameters and the built-in fields' legal
 * values with the workflow, loaded in parallel.
 */
export interface CatalogSnapshot {
  products: ProductRecord[];
  classifications: Classification[];
  groups: GroupRecord[];
  flagTypes: FlagType[];
  parameters: Parameters;
  /** The installation's priorities, severities, statuses with their workflow, ... (catalog/fieldValues.ts). */
  fieldValues: FieldValues;
}

export async function loadCatalog(): Promise<CatalogSnapshot> {
  const [products, classifications, groups, flagTypes, parameters, fieldValues] = await Promise.all([
    loadProducts(),
    loadClassifications(),
    listGroups(),
    loadFlagTypes(),
    loadParameters(),
    loadFieldValues(),
  ]);
  return { products, classifications, groups, flagTypes, parameters, fieldValues };
}

/** Group names by id; made once and asked once per bug (a search page asks a thousand times). */
export const groupNameIn = (catalog: Pick<CatalogSnapshot, 'groups'>) => {
  const names = new Map(catalog.groups.map((group) => [group.id, group.name]));
  return (id: number) => names.get(id);
};

/** The name of a product's classification, by product id (Unclassified for none, as Bugzilla shows it). */
export const classificationNameIn = (catalog: Pick<CatalogSnapshot, 'products' | 'classifications'>) => {
  const classifications = new Map(catalog.classifications.map((entry) => [entry.id, entry.name]));
  const names = new Map(
    catalog.products.map((record) => [record.product.id, classifications.get(record.product.classificationId)]),
  );
  return (productId: number) => names.get(productId) ?? DEFAULT_CLASSIFICATION;
};

export function visibleProductIds(
  caller: Caller,
  catalog: CatalogSnapshot,
  types: readonly ProductListType[] = ['accessible'],
): number[] {
  return productIdsOfType(
    caller,
    catalog.products,
    types,
    groupNameIn(catalog),
    catalog.parameters.usetargetmilestone === '1',
  );
}

/** Finds a product by id or name (case-insensitive, as Bugzilla's lookups are). */
export function findProduct(
  catalog: Pick<CatalogSnapshot, 'products'>,
  reference: string | number,
): ProductRecord | undefined {
  const text = String(reference);
  return (
    (/^\d+$/.test(text) ? catalog.products.find((record) => record.product.id === Number(text)) : undefined) ??
    catalog.products.find((record) => record.product.name.toLowerCase() === text.toLowerCase())
  );
}

/** Product objects as the caller may see them; user logins are looked up in one batch. */
export async function productViews(caller: Caller, catalog: CatalogSnapshot, records: readonly ProductRecord[]) {
  const userIds = records.flatMap((record) =>
    record.components.flatMap((component) => [
      component.defaultAssigneeId,
      component.defaultQaContactId,
      component.triageOwnerId,
    ]),
  );
  const users = await getUsers(userIds.filter((id): id is number => typeof id === 'number'));
  const logins = new Map(users.map((user) => [user.id, user.login]));
  const context = {
    classifications: catalog.classifications,
    loginOf: (id: number | null) => (id === null ? '' : (logins.get(id) ?? '')),
    flagTypes: catalog.flagTypes,
    groupName: groupNameIn(catalog),
    showGroupControls: mayEditCatalogue(caller),
  };
  return records.map((record) => productView(record, context));
}

const notAuthorized = (what: string) =>
  errors.authorizationRequired(
    `Sorry, you are not authorized to ${what}: that needs the editcomponents group, or editcomponents rights on the product.`,
  );

/** Refuses, before any lookup, a caller who may administer no product at all. */
export function assertMayAdministerSomeProduct(caller: Caller, catalog: CatalogSnapshot, what: string): void {
  if (!mayAdministerSomeProduct(caller, catalog.products, groupNameIn(catalog))) throw notAuthorized(what);
}

export function assertMayAdministerProduct(
  caller: Caller,
  catalog: CatalogSnapshot,
  record: ProductRecord,
  what: string,
): void {
  if (!mayAdministerProduct(caller, record, groupNameIn(catalog)))
    throw notAuthorized(`${what} of ${record.product.name}`);
}
