import { errors } from '../../errors.ts';
import { flagText } from '../changeReport.ts';
import { characterCount, checkNameCharacters } from '../inputLimits.ts';

/**
 * Flag types: what can be requested, granted or denied on bugs or attachments, and in which
 * products and components (inclusions minus exclusions; 0 stands for "any").
 */
export interface FlagScope {
  productId: number;
  componentId: number;
}

export interface FlagType {
  /** Revision when read (see catalog.ts Revised). */
  rev?: number;
  id: number;
  name: string;
  description: string;
  ccList: string;
  sortKey: number;
  isActive: boolean;
  isRequestable: boolean;
  isRequesteeble: boolean;
  isMultiplicable: boolean;
  grantGroupId: number | null;
  requestGroupId: number | null;
  targetType: 'bug' | 'attachment';
  inclusions: FlagScope[];
  exclusions: FlagScope[];
}

const covers = (scope: FlagScope, productId: number, componentId: number) =>
  (scope.productId === 0 || scope.productId === productId) &&
  (scope.componentId === 0 || scope.componentId === componentId);

export function appliesTo(type: FlagType, productId: number, componentId: number): boolean {
  return (
    type.inclusions.some((scope) => covers(scope, productId, componentId)) &&
    !type.exclusions.some((scope) => covers(scope, productId, componentId))
  );
}

/** The spec's Flagtype object. */
export function flagTypeView(type: FlagType) {
  return {
    id: type.id,
    name: type.name,
    description: type.description,
    cc_list: type.ccList,
    sort_key: type.sortKey,
    is_active: type.isActive,
    is_requestable: type.isRequestable,
    is_requesteeble: type.isRequesteeble,
    is_multiplicable: type.isMultiplicable,
    grant_group: type.grantGroupId,
    request_group: type.requestGroupId,
  };
}

/** A component's `flag_types`: `{bug: [...], attachment: [...]}`, in sort-key then name order. */
export function flagTypesOfComponent(types: readonly FlagType[], productId: number, componentId: number) {
  const applicable = types
    .filter((type) => appliesTo(type, productId, componentId))
    .sort((a, b) => a.sortKey - b.sortKey || a.name.localeCompare(b.name));
  return {
    bug: applicable.filter((type) => type.targetType === 'bug').map(flagTypeView),
    attachment: applicable.filter((type) => type.targetType === 'attachment').map(flagTypeView),
  };
}

/** Bugzilla's limits: names of at most 50 characters without spaces or commas; a smallint sort key. */
const MAX_FLAG_TYPE_NAME_LENGTH = 50;
const MAX_CC_LIST_LENGTH = 200;
const MAX_SORT_KEY = 32767;
/** Bugzilla's name for "every product" / "every component" in inclusions and exclusions (id 0). */
export const ANY = '__Any__';
const TARGET_TYPES = ['bug', 'attachment'] as const;
type TargetType = (typeof TARGET_TYPES)[number];

/**
 * Error codes (Bugzilla 5's FlagType API): 50 a missing name or description, 1101 an invalid
 * name, 1102 a blank description, 1103 a CC list over 200 characters, 1104 an invalid sort key,
 * 501 an invalid address in the CC list, 106 an unknown or inaccessible product in an inclusion,
 * 51 an unknown component or group, 32000 anything else that is malformed.
 */
export function checkFlagTypeName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  checkNameCharacters(trimmed, 'flag type name', errors.invalidFlagTypeName);
  if (trimmed === '' || /[\s,]/.test(trimmed) || characterCount(trimmed) > MAX_FLAG_TYPE_NAME_LENGTH) {
    throw errors.invalidFlagTypeName(
      `The name '${trimmed}' is invalid: a flag type name must be non-blank, contain no spaces or commas and be at most ${MAX_FLAG_TYPE_NAME_LENGTH} characters long.`,
    );
  }
  return trimmed;
}

export function checkFlagTypeDescription(description: string | undefined): string {
  const trimmed = (description ?? '').trim();
  if (trimmed === '') throw errors.flagTypeDescriptionRequired('You must enter a description for the flag type.');
  return trimmed;
}

const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/**
 * The CC list: addresses separated by commas or spaces, at most 200 characters in all, stored
 * joined with ", ". The addresses need not belong to users (Bugzilla's rule), but must be valid.
 */
export function checkCcList(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value) ? !value.every((item) => typeof item === 'string') : typeof value !== 'string') {
    throw errors.invalidParameter('cc_list must be a string of comma-separated e-mail addresses.');
  }
  const text = Array.isArray(value) ? value.join(', ') : (value as string);
  if (characterCount(text) > MAX_CC_LIST_LENGTH)
    throw errors.flagTypeCcListTooLong(
      `The CC list of a flag type can be at most ${MAX_CC_LIST_LENGTH} characters long.`,
    );
  const addresses = text.split(/[,\s]+/).filter(Boolean);
  for (const address of addresses) {
    if (!ADDRESS.test(address))
      throw errors.invalidEmail(`The e-mail address '${address}' in the CC list is not a legal e-mail address.`);
  }
  return addresses.join(', ');
}

/** A whole number from 0 to 32767, as a JSON number or decimal text. */
export function checkSortKey(value: unknown): number {
  const single = Array.isArray(value) ? value[value.length - 1] : value;
  const number =
    typeof single === 'number'
      ? single
      : typeof single === 'string' && /^\s*\d+\s*$/.test(single)
        ? Number(single)
        : NaN;
  if (!Number.isInteger(number) || number < 0 || number > MAX_SORT_KEY) {
    throw errors.invalidSortKey(
      `The sort key '${String(single)}' is invalid: it must be a whole number from 0 to ${MAX_SORT_KEY}.`,
    );
  }
  return number;
}

export function checkTargetType(value: string | undefined): TargetType {
  const lowered = (value ?? 'bug').trim().toLowerCase();
  if (!(TARGET_TYPES as readonly string[]).includes(lowered))
    throw errors.invalidParameter(`The target type must be 'bug' or 'attachment', not '${value}'.`);
  return lowered as TargetType;
}

/** What parsing a scope needs to know of a product: its id, name and components. */
export interface ScopeProduct {
  id: number;
  name: string;
  components: ReadonlyArray<{ id: number; name: string }>;
}

const malformedScope = (item: unknown) =>
  errors.invalidParameter(
    `Invalid inclusion or exclusion ${JSON.stringify(item)}: give "Product", "Product:Component", {"product": ..., "component": ...} or {"Product": ["Component", ...]}.`,
  );

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function scopeOf(
  products: readonly ScopeProduct[],
  productName: string,
  componentName: string | undefined,
  item: unknown,
): FlagScope {
  const component =
    componentName === undefined || componentName === '' || componentName === ANY ? undefined : componentName;
  if (productName === ANY) {
    if (component !== undefined) throw malformedScope(item);
    return { productId: 0, componentId: 0 };
  }
  const product = products.find((candidate) => sameName(candidate.name, productName));
  if (!product) throw errors.productAccessDenied(productName);
  if (component === undefined) return { productId: product.id, componentId: 0 };
  const found = product.components.find((candidate) => sameName(candidate.name, component));
  if (!found) throw errors.notFoundInProduct('component', component, product.name);
  return { productId: product.id, componentId: found.id };
}

/**
 * "Product", "Product:Component", "__Any__". Names may contain ':': a whole-string product name
 * wins, then the first split at a ':' naming a product and one of its components, then the
 * first split naming a product (its unknown component is 51).
 */
function scopeOfText(products: readonly ScopeProduct[], text: string): FlagScope {
  const trimmed = text.trim();
  if (trimmed === ANY || trimmed === `${ANY}:${ANY}`) return { productId: 0, componentId: 0 };
  if (products.some((product) => sameName(product.name, trimmed))) return scopeOf(products, trimmed, undefined, text);
  const splits: Array<[string, string]> = [];
  for (let index = trimmed.indexOf(':'); index >= 0; index = trimmed.indexOf(':', index + 1)) {
    const productName = trimmed.slice(0, index);
    if (productName === ANY || products.some((product) => sameName(product.name, productName)))
      splits.push([productName, trimmed.slice(index + 1)]);
  }
  const resolves = ([productName, componentName]: [string, string]) =>
    componentName === ANY ||
    products.some(
      (product) =>
        sameName(product.name, productName) &&
        product.components.some((component) => sameName(component.name, componentName)),
    );
  const chosen = splits.find(resolves) ?? splits[0];
  if (!chosen)
    throw errors.productAccessDenied(trimmed.includes(':') ? trimmed.slice(0, trimmed.indexOf(':')) : trimmed);
  return scopeOf(products, chosen[0], chosen[1], text);
}

function scopesOfItem(products: readonly ScopeProduct[], item: unknown): FlagScope[] {
  if (typeof item === 'string') return [scopeOfText(products, item)];
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw malformedScope(item);
  const record = item as Record<string, unknown>;
  // {"product": "P", "component": "C"}: the pair form (a product named "product" needs the map form's list).
  if (
    typeof record.product === 'string' &&
    Object.keys(record).every((key) => key === 'product' || key === 'component')
  ) {
    if (record.component !== undefined && record.component !== null && typeof record.component !== 'string')
      throw malformedScope(item);
    return [scopeOf(products, record.product, (record.component as string | null | undefined) ?? undefined, item)];
  }
  // {"P": ["C1", "C2"]} (Bugzilla's form); a bare string or an empty list means the whole product.
  return Object.entries(record).flatMap(([productName, components]) => {
    const names = typeof components === 'string' ? [components] : components;
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) throw malformedScope(item);
    if (names.length === 0) return [scopeOf(products, productName, undefined, item)];
    return names.map((name) => scopeOf(products, productName, name, item));
  });
}

const scopeKey = (scope: FlagScope) => `${scope.productId}:${scope.componentId}`;

/** Scopes without duplicates, ordered by product then component id. */
function normalizeScopes(scopes: readonly FlagScope[]): FlagScope[] {
  const unique = new Map(
    scopes.map((scope) => [scopeKey(scope), { productId: scope.productId, componentId: scope.componentId }]),
  );
  return [...unique.values()].sort((a, b) => a.productId - b.productId || a.componentId - b.componentId);
}

/**
 * Parses a list of inclusions or exclusions into scopes. Items may be "Product",
 * "Product:Component", "__Any__" (every product), {"product": "P", "component": "C"}, or
 * Bugzilla's {"P": ["C1", "C2"]}; component "__Any__" means every component of the product.
 * Unknown products (or ones not in `products`, the caller's accessible products) are 106,
 * unknown components 51.
 */
export function parseScopes(value: unknown, products: readonly ScopeProduct[]): FlagScope[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return normalizeScopes(items.flatMap((item) => scopesOfItem(products, item)));
}

/** An update's inclusions or exclusions: a list replaces; `{add, remove}` (or `{set}`) edits. */
type ScopeChange = { kind: 'replace'; scopes: FlagScope[] } | { kind: 'edit'; add: FlagScope[]; remove: FlagScope[] };

const CHANGE_KEYS = ['add', 'remove', 'set'];

export function parseScopeChange(value: unknown, products: readonly ScopeProduct[]): ScopeChange | undefined {
  if (value === undefined || value === null) return undefined;
  const isChange =
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value as object).every((key) => CHANGE_KEYS.includes(key));
  if (!isChange) return { kind: 'replace', scopes: parseScopes(value, products) };
  const change = value as { add?: unknown; remove?: unknown; set?: unknown };
  if (change.set !== undefined && change.set !== null)
    return { kind: 'replace', scopes: parseScopes(change.set, products) };
  return { kind: 'edit', add: parseScopes(change.add, products), remove: parseScopes(change.remove, products) };
}

/** Applies a change; a scope both added and removed ends up added. */
export function applyScopeChange(current: readonly FlagScope[], change: ScopeChange | undefined): FlagScope[] {
  if (!change) return normalizeScopes(current);
  if (change.kind === 'replace') return normalizeScopes(change.scopes);
  const removed = new Set(change.remove.map(scopeKey));
  return normalizeScopes([...current.filter((scope) => !removed.has(scopeKey(scope))), ...change.add]);
}

/** Names for a scope's ids; products that no longer exist keep their id. */
export interface ScopeNames {
  productName(id: number): string | undefined;
  componentName(productId: number, componentId: number): string | undefined;
}

/** "Product:Component", with "__Any__" for 0, as Bugzilla's flag type pages show scopes. */
export function scopeLabel(scope: FlagScope, names: ScopeNames): string {
  const product = scope.productId === 0 ? ANY : (names.productName(scope.productId) ?? `#${scope.productId}`);
  const component =
    scope.componentId === 0
      ? ANY
      : (names.componentName(scope.productId, scope.componentId) ?? `#${scope.componentId}`);
  return `${product}:${component}`;
}

/**
 * Scopes as `{"Product": ["Component", ...]}` with "__Any__" for "every": the same shape the
 * create and update calls accept. `visible` leaves out products the caller may not see.
 */
export function scopeMap(
  scopes: readonly FlagScope[],
  names: ScopeNames,
  visible: (productId: number) => boolean = () => true,
): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const scope of normalizeScopes(scopes)) {
    if (scope.productId !== 0 && !visible(scope.productId)) continue;
    const product = scope.productId === 0 ? ANY : names.productName(scope.productId);
    const component = scope.componentId === 0 ? ANY : names.componentName(scope.productId, scope.componentId);
    if (product === undefined || component === undefined) continue;
    map[product] ??= [];
    map[product].push(component);
  }
  for (const components of Object.values(map))
    components.sort((a, b) => (a === ANY ? -1 : b === ANY ? 1 : a.localeCompare(b)));
  return map;
}

/** Whether the type applies to some component of the product (Get Flag Type by product alone). */
export function appliesToProduct(type: FlagType, productId: number, componentIds: readonly number[]): boolean {
  return componentIds.some((componentId) => appliesTo(type, productId, componentId));
}

/**
 * Bugzilla's `values`: "X" (clear) always; "?" when the type is requestable and the caller may
 * request (in the request group or the grant group, or the type has no request group); "+" and
 * "-" when the caller may grant (in the grant group, or the type has none).
 */
export function flagValues(type: FlagType, inGroupId: (groupId: number) => boolean): string[] {
  const maySet = type.grantGroupId === null || inGroupId(type.grantGroupId);
  const mayRequest = maySet || type.requestGroupId === null || inGroupId(type.requestGroupId);
  return ['X', ...(type.isRequestable && mayRequest ? ['?'] : []), ...(maySet ? ['+', '-'] : [])];
}

/**
 * Flag types as listed by product (and component): sort key, then name; `values` per caller, and
 * `type` (`bug` or `attachment`), which Bugzilla 5.2's FlagType.get includes although the list
 * already says it.
 */
export function flagTypesByTarget(types: readonly FlagType[], inGroupId: (groupId: number) => boolean) {
  const sorted = [...types].sort((a, b) => a.sortKey - b.sortKey || a.name.localeCompare(b.name));
  const view = (type: FlagType) => ({
    ...flagTypeView(type),
    type: type.targetType,
    values: flagValues(type, inGroupId),
  });
  return {
    bug: sorted.filter((type) => type.targetType === 'bug').map(view),
    attachment: sorted.filter((type) => type.targetType === 'attachment').map(view),
  };
}

export type Changes = Record<string, { removed: string; added: string }>;

/**
 * An update's changes as `{field: {removed, added}}` strings: booleans "1"/"0", groups by name
 * ("" for none), inclusions and exclusions as the "Product:Component" labels removed and added.
 */
export function flagTypeChanges(
  previous: FlagType,
  next: FlagType,
  names: ScopeNames & { groupName(id: number | null): string },
): Changes {
  const changes: Changes = {};
  const text = (field: string, before: string, after: string) => {
    if (before !== after) changes[field] = { removed: before, added: after };
  };
  text('name', previous.name, next.name);
  text('description', previous.description, next.description);
  text('cc_list', previous.ccList, next.ccList);
  text('sort_key', String(previous.sortKey), String(next.sortKey));
  text('is_active', flagText(previous.isActive), flagText(next.isActive));
  text('is_requestable', flagText(previous.isRequestable), flagText(next.isRequestable));
  text('is_requesteeble', flagText(previous.isRequesteeble), flagText(next.isRequesteeble));
  text('is_multiplicable', flagText(previous.isMultiplicable), flagText(next.isMultiplicable));
  text('grant_group', names.groupName(previous.grantGroupId), names.groupName(next.grantGroupId));
  text('request_group', names.groupName(previous.requestGroupId), names.groupName(next.requestGroupId));
  for (const field of ['inclusions', 'exclusions'] as const) {
    const before = new Set(previous[field].map(scopeKey));
    const after = new Set(next[field].map(scopeKey));
    const removed = previous[field]
      .filter((scope) => !after.has(scopeKey(scope)))
      .map((scope) => scopeLabel(scope, names))
      .sort();
    const added = next[field]
      .filter((scope) => !before.has(scopeKey(scope)))
      .map((scope) => scopeLabel(scope, names))
      .sort();
    if (removed.length > 0 || added.length > 0)
      changes[field] = { removed: removed.join(', '), added: added.join(', ') };
  }
  return changes;
}
