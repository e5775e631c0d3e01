import { signal } from '@preact/signals';
import { getFields, getParameters, getProducts, getUser, type Whoami, whoami } from '../api/tracker.ts';
import type { FieldDefinition, FieldValue, Product } from '../api/types.ts';
import { rightsFrom } from '../lib/rights.ts';
import { dropKeptCatalog, type KeptPart, keepPart, keptPart, ownerOf } from './keptCatalog.ts';
import { rights, session, userGroups } from './session.ts';

/**
 * What the app reads once and keeps: field definitions (legal values, the workflow), products,
 * parameters, the logged-in user's groups and rights. Dropped on login and logout. A page load
 * starts from the copy the tab kept of them for the same person (keptCatalog.ts) and reads them
 * again once its own data has come (`revalidateCatalog`).
 */

export type ProductList = 'enterable' | 'selectable' | 'accessible';

export const fields = signal<FieldDefinition[] | null>(null);
export const parameters = signal<Record<string, string>>({});
/** The product lists read so far, by type (GET /rest/product?type=...). */
export const productLists = signal<Partial<Record<ProductList, Product[]>>>({});

let fieldsPromise: Promise<FieldDefinition[]> | null = null;
const productPromises = new Map<ProductList, Promise<Product[]>>();

/** Parts the store shows as the tab's copy had them, not read again yet in this page load. */
const fromCopy = new Set<KeptPart>();
/** Parts taken from the copy and still to read again. */
const toRevalidate = new Set<KeptPart>();
let revalidated = false;

const owner = () => ownerOf(session.value);

/** The tab's copy of `part` for the person now logged in, if it has one: marked to be read again. */
function takeCopy<T>(part: KeptPart): T | undefined {
  const value = keptPart<T>(owner(), part);
  if (value === undefined) return undefined;
  fromCopy.add(part);
  toRevalidate.add(part);
  // Taken after the page's revalidation ran (a later page wanted it first): read again now.
  if (revalidated) queueMicrotask(() => void revalidateCatalog());
  return value;
}

/**
 * Keeps what `reader` just read as `part`, and says whether the store should show it: not when
 * the store shows the copy and the read found it unchanged (nothing to render again).
 */
function keepRead(reader: string, part: KeptPart, value: unknown): boolean {
  const changed = keepPart(reader, part, value);
  const show = changed || !fromCopy.has(part);
  fromCopy.delete(part);
  return show;
}

export function loadFields(): Promise<FieldDefinition[]> {
  if (!fieldsPromise) {
    const copy = takeCopy<FieldDefinition[]>('fields');
    if (copy) {
      fields.value = copy;
      fieldsPromise = Promise.resolve(copy);
    }
  }
  fieldsPromise ??= readFields().catch((error) => {
    fieldsPromise = null;
    throw error;
  });
  return fieldsPromise;
}

/** Reads the field definitions now, into the store and the tab's copy. */
async function readFields(): Promise<FieldDefinition[]> {
  const reader = owner();
  const list = await getFields();
  if (owner() === reader && keepRead(reader, 'fields', list)) {
    fields.value = list;
    fieldsPromise = Promise.resolve(list);
  }
  return list;
}

export function field(name: string): FieldDefinition | undefined {
  return fields.value?.find((f) => f.name === name);
}

/** Active legal values of a field, in display order. */
export function legalValues(name: string, product?: string): string[] {
  const def = field(name);
  if (!def) return [];
  return def.values
    .filter((v: FieldValue) => v.name !== null && v.is_active !== false)
    .filter((v) => !product || !v.visibility_values?.length || v.visibility_values.includes(product))
    .map((v) => v.name!);
}

export function loadProducts(type: ProductList): Promise<Product[]> {
  let p = productPromises.get(type);
  if (!p) {
    const copy = takeCopy<Product[]>(`products.${type}`);
    if (copy) {
      productLists.value = { ...productLists.value, [type]: copy };
      p = Promise.resolve(copy);
    } else
      p = readProducts(type).catch((error) => {
        productPromises.delete(type);
        throw error;
      });
    productPromises.set(type, p);
  }
  return p;
}

async function readProducts(type: ProductList): Promise<Product[]> {
  const reader = owner();
  const list = await getProducts(type);
  if (owner() === reader && keepRead(reader, `products.${type}`, list)) {
    productLists.value = { ...productLists.value, [type]: list };
    productPromises.set(type, Promise.resolve(list));
  }
  return list;
}

function applyWhoami(me: Whoami | null, groups?: readonly string[]): void {
  userGroups.value = [...(me?.groups ?? groups ?? [])];
  if (me) rights.value = rightsFrom(me);
}

/**
 * After login (or on start with a stored session): the user's groups and rights (GET /rest/whoami)
 * and the parameters, from the tab's copy when it has both for this person, else read now.
 */
export async function loadUserContext(): Promise<void> {
  if (!session.value) return;
  if (keptPart(owner(), 'whoami') && keptPart(owner(), 'parameters')) {
    applyWhoami(takeCopy<Whoami>('whoami')!);
    parameters.value = takeCopy<Record<string, string>>('parameters')!;
    return;
  }
  await readUserContext();
}

async function readUserContext(): Promise<void> {
  const current = session.value;
  if (!current) return;
  const reader = owner();
  try {
    const [params, me] = await Promise.all([getParameters().catch(() => null), whoami().catch(() => null)]);
    if (owner() !== reader) return;
    // whoami names every group (regexp, implied, through admin); an older server without them
    // in whoami: GET /rest/user's.
    const user = me?.groups ? undefined : await getUser(current.login).catch(() => undefined);
    if (owner() !== reader) return;
    // A failed read is not kept (the next page load tries again) and leaves a copy shown as it is.
    if (me ? keepRead(reader, 'whoami', me) : !fromCopy.has('whoami'))
      applyWhoami(
        me,
        user?.groups?.map((g) => g.name),
      );
    if (params && keepRead(reader, 'parameters', params)) parameters.value = params;
  } catch {
    // The pages say what failed when they need these.
  }
}

/**
 * Reads again what this page load took from the tab's copy, and shows any change: called once
 * the page's own data has come, so the page does not wait for it nor share the server with it.
 */
export async function revalidateCatalog(): Promise<void> {
  revalidated = true;
  const stale = [...toRevalidate];
  toRevalidate.clear();
  const reads: Promise<unknown>[] = [];
  if (stale.includes('whoami') || stale.includes('parameters')) reads.push(readUserContext());
  if (stale.includes('fields')) reads.push(readFields());
  for (const type of ['enterable', 'selectable', 'accessible'] as const)
    if (stale.includes(`products.${type}`)) reads.push(readProducts(type));
  await Promise.allSettled(reads);
}

/**
 * The parameters, read now if the login's context has not brought them yet: a form that takes
 * its defaults from them (File a bug) must not start from the first legal value instead.
 */
export async function ensureParameters(): Promise<Record<string, string>> {
  if (Object.keys(parameters.value).length > 0) return parameters.value;
  const params = await getParameters().catch(() => ({}) as Record<string, string>);
  if (Object.keys(parameters.value).length === 0) parameters.value = params;
  return parameters.value;
}

/** Forgets the catalogue, here and in the tab's copy: someone logged in or out, or an administrator changed it. */
export function resetCatalog(): void {
  fieldsPromise = null;
  fields.value = null;
  productPromises.clear();
  productLists.value = {};
  parameters.value = {};
  fromCopy.clear();
  toRevalidate.clear();
  dropKeptCatalog();
}

/**
 * What the person may do, from GET /rest/whoami (read after login): private comments and
 * attachments, comment tags. False until it is read, and when logged out.
 */
export const isInsider = (): boolean => rights.value?.insider === true;
export const canTagComments = (): boolean => rights.value?.tagsComments === true;
