import { signal } from '@preact/signals';
import { getFields, getParameters, getProducts, getUser, whoami } from '../api/tracker.ts';
import type { FieldDefinition, FieldValue, Product } from '../api/types.ts';
import { rightsFrom } from '../lib/rights.ts';
import { rights, session, userGroups } from './session.ts';

/**
 * What the app reads once and keeps: field definitions (legal values, the workflow), products,
 * parameters, the logged-in user's groups. Dropped on login and logout.
 */

export const fields = signal<FieldDefinition[] | null>(null);
export const parameters = signal<Record<string, string>>({});

let fieldsPromise: Promise<FieldDefinition[]> | null = null;
const productPromises = new Map<string, Promise<Product[]>>();

export function loadFields(): Promise<FieldDefinition[]> {
  fieldsPromise ??= getFields().then(
    (list) => {
      fields.value = list;
      return list;
    },
    (error) => {
      fieldsPromise = null;
      throw error;
    },
  );
  return fieldsPromise;
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

export function loadProducts(type: 'enterable' | 'selectable' | 'accessible'): Promise<Product[]> {
  let p = productPromises.get(type);
  if (!p) {
    p = getProducts(type).catch((error) => {
      productPromises.delete(type);
      throw error;
    });
    productPromises.set(type, p);
  }
  return p;
}

/** After login (or on start with a stored session): the user's groups and the parameters. */
export async function loadUserContext(): Promise<void> {
  const current = session.value;
  if (!current) return;
  try {
    const [user, params, me] = await Promise.all([
      getUser(current.login),
      getParameters().catch(() => ({})),
      whoami().catch(() => null),
    ]);
    if (session.value?.login !== current.login) return;
    // whoami names every group (regexp, implied, through admin); an older server only GET /rest/user's.
    userGroups.value = me?.groups ?? user?.groups?.map((g) => g.name) ?? [];
    parameters.value = params;
    if (me) rights.value = rightsFrom(me);
  } catch {
    // The pages say what failed when they need these.
  }
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

export function resetCatalog(): void {
  fieldsPromise = null;
  fields.value = null;
  productPromises.clear();
  parameters.value = {};
}

/**
 * What the person may do, from GET /rest/whoami (read after login): private comments and
 * attachments, comment tags. False until it is read, and when logged out.
 */
export const isInsider = (): boolean => rights.value?.insider === true;
export const canTagComments = (): boolean => rights.value?.tagsComments === true;
