import {
  appliesTo,
  appliesToProduct,
  applyScopeChange,
  checkCcList,
  checkFlagTypeDescription,
  checkFlagTypeName,
  checkSortKey,
  checkTargetType,
  type FlagType,
  flagTypeChanges,
  flagTypesByTarget,
  flagTypeView,
  flagValues,
  parseScopeChange,
  parseScopes,
  type ScopeNames,
  type ScopeProduct,
  scopeMap,
} from '../../domain/catalog/flagTypes.ts';
import { EDITCOMPONENTS_GROUP } from '../../domain/catalog/productRules.ts';
import { type Caller, inGroup } from '../../domain/identity/caller.ts';
import { resolveGroup } from '../../domain/identity/groupMembership.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { putFlagType, createFlagType as storeFlagType } from '../../storage/catalog/flagTypeStore.ts';
import { allocateId } from '../../storage/counterStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import { type CatalogSnapshot, loadCatalog, visibleProductIds } from './catalogContext.ts';

/**
 * Flag types (Bugzilla 5's FlagType API): creation and updates by editcomponents, and the
 * public listing of the types that apply to a product or component. Tracker adds the lookup of
 * one type by id (`GET /rest/flag_type/<id>`), with its inclusions and exclusions.
 */
export const FLAG_TYPE_ADMIN_GROUP = EDITCOMPONENTS_GROUP;

interface FlagTypeInput {
  name?: string;
  description?: string;
  target_type?: string;
  inclusions?: unknown;
  exclusions?: unknown;
  cc_list?: unknown;
  sort_key?: unknown;
  is_active?: boolean;
  is_requestable?: boolean;
  is_requesteeble?: boolean;
  is_multiplicable?: boolean;
  grant_group?: unknown;
  request_group?: unknown;
}

const given = (value: unknown) => value !== undefined && value !== null;

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The products a caller may name in inclusions and exclusions: those they can access. */
function scopeProducts(caller: Caller, catalog: CatalogSnapshot): ScopeProduct[] {
  const visible = new Set(visibleProductIds(caller, catalog));
  return catalog.products
    .filter((record) => visible.has(record.product.id))
    .map((record) => ({ id: record.product.id, name: record.product.name, components: record.components }));
}

function namesIn(catalog: CatalogSnapshot): ScopeNames & { groupName(id: number | null): string } {
  const product = (id: number) => catalog.products.find((record) => record.product.id === id);
  return {
    productName: (id) => product(id)?.product.name,
    componentName: (productId, componentId) =>
      product(productId)?.components.find((component) => component.id === componentId)?.name,
    groupName: (id) => (id === null ? '' : (catalog.groups.find((group) => group.id === id)?.name ?? String(id))),
  };
}

/** A grant or request group by name (Bugzilla) or id; null or "" means none. Unknown: 51. */
function groupIdOf(reference: unknown, catalog: CatalogSnapshot): number | null {
  const single = Array.isArray(reference) ? reference[reference.length - 1] : reference;
  if (single === null || single === '') return null;
  if (typeof single !== 'string' && typeof single !== 'number')
    throw errors.invalidParameter('A grant or request group must be a group name.');
  return resolveGroup(typeof single === 'string' ? single.trim() : single, catalog.groups).id;
}

const inGroupIdOf = (caller: Caller, catalog: CatalogSnapshot) => (groupId: number) => {
  const name = catalog.groups.find((group) => group.id === groupId)?.name;
  return name !== undefined && inGroup(caller, name);
};

const required = (value: string | undefined, parameter: string) => {
  if (value === undefined || value === '') throw errors.argumentNotSet(parameter);
  return value;
};

export async function createFlagType(caller: Caller, input: FlagTypeInput): Promise<{ id: number }> {
  const name = checkFlagTypeName(required(input.name, 'name'));
  const description = checkFlagTypeDescription(required(input.description, 'description'));
  const catalog = await loadCatalog();
  const products = scopeProducts(caller, catalog);
  const draft: Omit<FlagType, 'id'> = {
    name,
    description,
    ccList: checkCcList(input.cc_list),
    sortKey: given(input.sort_key) ? checkSortKey(input.sort_key) : 1,
    isActive: input.is_active ?? true,
    isRequestable: input.is_requestable ?? true,
    isRequesteeble: input.is_requesteeble ?? true,
    isMultiplicable: input.is_multiplicable ?? true,
    grantGroupId: input.grant_group === undefined ? null : groupIdOf(input.grant_group, catalog),
    requestGroupId: input.request_group === undefined ? null : groupIdOf(input.request_group, catalog),
    targetType: checkTargetType(input.target_type),
    // Bugzilla's default inclusion is __Any__:__Any__; an explicit empty list means "nowhere".
    inclusions: given(input.inclusions) ? parseScopes(input.inclusions, products) : [{ productId: 0, componentId: 0 }],
    exclusions: parseScopes(input.exclusions, products),
  };
  const id = await allocateId('flagtype');
  await storeFlagType(
    { id, ...draft },
    {
      auditClass: AUDIT_CLASS.flagType,
      objectId: id,
      userId: caller.user!.id,
      changes: { __create__: { removed: '', added: name } },
      at: new Date(),
    },
  );
  return { id };
}

/**
 * `GET /rest/flag_type/<product>[/<component>]`: `{bug, attachment}`, the types that apply to
 * the component, or to some component of the product. A segment of digits that names no
 * accessible product but a flag type's id answers `{flag_types: [...]}` with that type.
 */
export async function getFlagTypes(caller: Caller, query: { product: string; component?: string }) {
  const catalog = await loadCatalog();
  const visible = new Set(visibleProductIds(caller, catalog));
  const inGroupId = inGroupIdOf(caller, catalog);
  const record = catalog.products.find(
    (candidate) => visible.has(candidate.product.id) && sameName(candidate.product.name, query.product),
  );
  if (record) {
    const productId = record.product.id;
    if (query.component === undefined) {
      const componentIds = record.components.map((component) => component.id);
      return flagTypesByTarget(
        catalog.flagTypes.filter((type) => appliesToProduct(type, productId, componentIds)),
        inGroupId,
      );
    }
    const component = record.components.find((candidate) => sameName(candidate.name, query.component!));
    if (!component) throw errors.notFoundInProduct('component', query.component, record.product.name);
    return flagTypesByTarget(
      catalog.flagTypes.filter((type) => appliesTo(type, productId, component.id)),
      inGroupId,
    );
  }
  if (query.component === undefined && /^\d+$/.test(query.product)) {
    const type = catalog.flagTypes.find((candidate) => candidate.id === Number(query.product));
    if (type) return { flag_types: [flagTypeDetail(caller, catalog, type, visible)] };
  }
  throw errors.productAccessDenied(query.product);
}

/**
 * `GET /rest/flag_type` (Tracker addition; Bugzilla's editflagtypes.cgi list): every flag type in
 * full, inactive ones too, bug types first, then by sort key and name, for editcomponents; the
 * grant and request groups by name too (`grant_group_name`, "" for none), since an editcomponents
 * member may not be allowed to list groups.
 */
export async function listFlagTypes(caller: Caller) {
  const catalog = await loadCatalog();
  const visible = new Set(visibleProductIds(caller, catalog));
  const order = (type: FlagType) => (type.targetType === 'bug' ? 0 : 1);
  const types = [...catalog.flagTypes].sort(
    (a, b) => order(a) - order(b) || a.sortKey - b.sortKey || a.name.localeCompare(b.name) || a.id - b.id,
  );
  const { groupName } = namesIn(catalog);
  return {
    flag_types: types.map((type) => ({
      ...flagTypeDetail(caller, catalog, type, visible),
      grant_group_name: groupName(type.grantGroupId),
      request_group_name: groupName(type.requestGroupId),
    })),
  };
}

/** One flag type in full: the spec's object plus target_type, values and the scopes it may show. */
function flagTypeDetail(caller: Caller, catalog: CatalogSnapshot, type: FlagType, visible: ReadonlySet<number>) {
  const names = namesIn(catalog);
  const mayShow = inGroup(caller, FLAG_TYPE_ADMIN_GROUP) ? () => true : (productId: number) => visible.has(productId);
  return {
    ...flagTypeView(type),
    target_type: type.targetType,
    values: flagValues(type, inGroupIdOf(caller, catalog)),
    inclusions: scopeMap(type.inclusions, names, mayShow),
    exclusions: scopeMap(type.exclusions, names, mayShow),
  };
}

export function targetFlagTypes(catalog: CatalogSnapshot, targets: { ids: number[]; names: string[] }): FlagType[] {
  const selected: FlagType[] = [];
  const add = (type: FlagType) => {
    if (!selected.includes(type)) selected.push(type);
  };
  for (const id of targets.ids) {
    const type = catalog.flagTypes.find((candidate) => candidate.id === id);
    if (!type) throw errors.notFoundById('flag type', id);
    add(type);
  }
  for (const name of targets.names) {
    // Names are not unique: a name updates every type that has it.
    const matches = catalog.flagTypes.filter((candidate) => sameName(candidate.name, name)).sort((a, b) => a.id - b.id);
    if (matches.length === 0) throw errors.notFoundByName('flag type', name);
    matches.forEach(add);
  }
  return selected;
}

/** Re-read and re-applied when another request changed the same items meanwhile (retryOnConflict). */
export function updateFlagTypes(caller: Caller, targets: { ids: number[]; names: string[] }, input: FlagTypeInput) {
  return retryOnConflict(() => updateFlagTypesOnce(caller, targets, input));
}

async function updateFlagTypesOnce(caller: Caller, targets: { ids: number[]; names: string[] }, input: FlagTypeInput) {
  const catalog = await loadCatalog();
  const selected = targetFlagTypes(catalog, targets);
  if (selected.length === 0) throw errors.idsOrNamesRequired();
  if (input.target_type !== undefined) {
    const targetType = checkTargetType(input.target_type);
    const other = selected.find((type) => type.targetType !== targetType);
    if (other)
      throw errors.invalidParameter(
        `The flag type ${other.name} is for ${other.targetType}s: the target type of a flag type cannot be changed.`,
      );
  }
  const products = scopeProducts(caller, catalog);
  const inclusions = parseScopeChange(input.inclusions, products);
  const exclusions = parseScopeChange(input.exclusions, products);
  const set = {
    name: input.name !== undefined ? checkFlagTypeName(input.name) : undefined,
    description: input.description !== undefined ? checkFlagTypeDescription(input.description) : undefined,
    ccList: input.cc_list !== undefined ? checkCcList(input.cc_list) : undefined,
    sortKey: given(input.sort_key) ? checkSortKey(input.sort_key) : undefined,
    grantGroupId: input.grant_group !== undefined ? groupIdOf(input.grant_group, catalog) : undefined,
    requestGroupId: input.request_group !== undefined ? groupIdOf(input.request_group, catalog) : undefined,
  };

  const names = namesIn(catalog);
  const now = new Date();
  const transaction = new WriteTransaction();
  const results = selected.map((previous) => {
    const next: FlagType = {
      ...previous,
      name: set.name ?? previous.name,
      description: set.description ?? previous.description,
      ccList: set.ccList ?? previous.ccList,
      sortKey: set.sortKey ?? previous.sortKey,
      isActive: input.is_active ?? previous.isActive,
      isRequestable: input.is_requestable ?? previous.isRequestable,
      isRequesteeble: input.is_requesteeble ?? previous.isRequesteeble,
      isMultiplicable: input.is_multiplicable ?? previous.isMultiplicable,
      grantGroupId: set.grantGroupId !== undefined ? set.grantGroupId : previous.grantGroupId,
      requestGroupId: set.requestGroupId !== undefined ? set.requestGroupId : previous.requestGroupId,
      inclusions: applyScopeChange(previous.inclusions, inclusions),
      exclusions: applyScopeChange(previous.exclusions, exclusions),
    };
    const changes = flagTypeChanges(previous, next, names);
    if (Object.keys(changes).length > 0) {
      putFlagType(transaction, previous, next);
      recordAudit(transaction, {
        auditClass: AUDIT_CLASS.flagType,
        objectId: previous.id,
        userId: caller.user!.id,
        changes,
        at: now,
      });
    }
    return { id: previous.id, name: next.name, changes };
  });
  await transaction.commit();
  return { flagtypes: results };
}
