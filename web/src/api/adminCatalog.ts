import type { GroupControl } from '../lib/groupControls.ts';
import { api, get, post, put, seg } from './client.ts';

/**
 * The catalogue administration calls of the REST API (docs/api.md sections 4 and 6): products
 * with components, versions, milestones, classifications and group controls; flag types; the
 * built-in fields' values, the status workflow and custom fields. Each refusal reaches the page
 * as an ApiError with the API's own message.
 */

export type { ControlValue, GroupControl } from '../lib/groupControls.ts';

export interface AdminComponent {
  id: number;
  name: string;
  description: string;
  default_assigned_to: string;
  default_qa_contact: string;
  triage_owner: string;
  sort_key: number;
  is_active: boolean;
}

export interface ProductValue {
  id: number;
  name: string;
  sort_key: number;
  is_active: boolean;
}

export interface AdminProduct {
  id: number;
  name: string;
  description: string;
  is_active: boolean;
  default_milestone: string;
  has_unconfirmed: boolean;
  classification: string;
  components: AdminComponent[];
  versions: ProductValue[];
  milestones: ProductValue[];
  /** Shown to members of editcomponents only. */
  group_controls?: GroupControl[];
}

type Changes = Record<string, { removed: string; added: string }>;

export async function listAdminProducts(): Promise<AdminProduct[]> {
  const ids = (await get<{ ids: number[] }>('/product_accessible')).ids;
  if (ids.length === 0) return [];
  const r = await get<{ products: AdminProduct[] }>('/product', { ids, include_fields: '_all' });
  return r.products;
}

export async function getAdminProduct(name: string): Promise<AdminProduct | undefined> {
  const r = await get<{ products: AdminProduct[] }>('/product', { names: [name], include_fields: '_all' });
  return r.products[0];
}

export const createProduct = (body: {
  name: string;
  description: string;
  version: string;
  classification?: string;
  default_milestone?: string;
  has_unconfirmed?: boolean;
}) => post<{ id: number }>('/product', body);

export const updateProduct = (name: string, changes: Record<string, unknown>) =>
  put<{ products: { id: number; changes: Changes }[] }>(`/product/${seg(name)}`, changes);

export const createComponent = (body: Record<string, unknown>) => post<{ id: number }>('/component', body);

export const updateComponent = (product: string, component: string, changes: Record<string, unknown>) =>
  put<{ components: { id: number; changes: Changes }[] }>(`/component/${seg(product)}/${seg(component)}`, changes);

export const deleteComponent = (product: string, component: string) =>
  api<unknown>('DELETE', `/component/${seg(product)}/${seg(component)}`);

export type ValueKind = 'version' | 'milestone';

export const createProductValue = (
  product: string,
  kind: ValueKind,
  body: { name: string; sort_key?: number; is_active?: boolean },
) => post<{ id: number }>(`/product/${seg(product)}/${kind}`, body);

export const updateProductValue = (
  product: string,
  kind: ValueKind,
  name: string,
  changes: { name?: string; sort_key?: number; is_active?: boolean },
) => put<unknown>(`/product/${seg(product)}/${kind}/${seg(name)}`, changes);

/** Refused for the last version, the default milestone, and while bugs have the value. */
export const deleteProductValue = (product: string, kind: ValueKind, name: string) =>
  api<unknown>('DELETE', `/product/${seg(product)}/${kind}/${seg(name)}`);

/** editcomponents only; refused while the product has bugs. */
export const deleteProduct = (name: string) => api<unknown>('DELETE', `/product/${seg(name)}`);

/** Refused while flags of the type are set on bugs or attachments. */
export const deleteFlagType = (id: number) => api<unknown>('DELETE', `/flag_type/${id}`);

export const createClassification = (body: { name: string; description: string; sort_key?: number }) =>
  post<{ id: number }>('/classification', body);

/** Group names for the group-controls matrix: every group for those who may list them, else none. */
export async function listGroupNames(): Promise<{ name: string; is_bug_group: boolean; is_active: boolean }[]> {
  try {
    const r = await get<{ groups: { name: string; is_bug_group: boolean; is_active: boolean }[] }>('/group');
    return r.groups;
  } catch {
    return [];
  }
}

export interface AdminFlagType {
  id: number;
  name: string;
  description: string;
  cc_list: string;
  sort_key: number;
  is_active: boolean;
  is_requestable: boolean;
  is_requesteeble: boolean;
  is_multiplicable: boolean;
  grant_group: number | null;
  request_group: number | null;
  grant_group_name: string;
  request_group_name: string;
  target_type: 'bug' | 'attachment';
  inclusions: Record<string, string[]>;
  exclusions: Record<string, string[]>;
}

export async function listFlagTypes(): Promise<AdminFlagType[]> {
  return (await get<{ flag_types: AdminFlagType[] }>('/flag_type')).flag_types;
}

export const createFlagType = (body: Record<string, unknown>) => post<{ id: number }>('/flag_type', body);
export const updateFlagType = (id: number, changes: Record<string, unknown>) =>
  put<{ flagtypes: { id: number; changes: Changes }[] }>(`/flag_type/${id}`, changes);

export const createFieldValue = (
  field: string,
  body: { name: string; sort_key?: number; is_active?: boolean; is_open?: boolean },
) => post<{ field: string; name: string }>(`/field/bug/${seg(field)}/values`, body);

export const updateFieldValue = (
  field: string,
  value: string,
  changes: { name?: string; sort_key?: number; is_active?: boolean },
) => put<unknown>(`/field/bug/${seg(field)}/values/${seg(value)}`, changes);

export interface Transition {
  from: string | null;
  to: string;
  comment_required: boolean;
}

export const setWorkflow = (transitions: Transition[]) =>
  put<{ transitions: Transition[]; changes: { added: Transition[]; removed: Transition[] } }>(
    '/field/bug/bug_status/workflow',
    { transitions },
  );

export interface CustomField {
  id: number;
  name: string;
  display_name: string;
  type: number;
  is_custom: boolean;
  is_mandatory: boolean;
  is_on_bug_entry: boolean;
  is_obsolete?: boolean;
  sort_key?: number;
  values?: { name: string | null; sort_key?: number }[];
}

export async function listCustomFields(): Promise<CustomField[]> {
  const r = await get<{ fields: CustomField[] }>('/field/bug', { include_fields: '_default,_extra' });
  return r.fields.filter((field) => field.is_custom);
}

export const createCustomField = (body: Record<string, unknown>) => post<{ id: number }>('/field/bug', body);
export const updateCustomField = (name: string, changes: Record<string, unknown>) =>
  put<unknown>(`/field/bug/${seg(name)}`, changes);

/** How many bugs a search matches, for the caller (count_only): what a destructive change affects. */
export async function countMatching(query: Record<string, string | string[]>): Promise<number> {
  return (await get<{ bug_count: number }>('/bug', { ...query, count_only: 1 })).bug_count;
}

export interface Classification {
  id: number;
  name: string;
  description: string;
  sort_key: number;
  products: { name: string }[];
}

export async function getClassifications(names: readonly string[]): Promise<Classification[]> {
  if (names.length === 0) return [];
  const [first, ...rest] = names;
  const r = await get<{ classifications: Classification[] }>(`/classification/${seg(first!)}`, { names: rest });
  return r.classifications;
}

export const updateClassification = (
  name: string,
  changes: { name?: string; description?: string; sort_key?: number },
) => put<unknown>(`/classification/${seg(name)}`, changes);
