import { api, get, post, put, seg } from '../api/client.ts';
import type { GroupSummary } from './access.ts';

/** Calls of the users, groups, keywords and parameters pages (docs/api.md has their contracts). */

export interface GroupRef {
  id: number;
  name: string;
  description: string;
}

export interface AdminUser {
  id: number;
  name: string;
  real_name: string;
  email?: string;
  can_login?: boolean;
  email_enabled?: boolean;
  login_denied_text?: string;
  groups?: GroupRef[];
  bless_groups?: GroupRef[];
}

export interface AdminGroup extends GroupSummary {
  is_bug_group?: boolean;
  /** Tracker's extension (creategroups): the groups whose members are members of this one. */
  member_groups?: string[];
  membership?: AdminUser[];
}

/** An entry of a user's account history (`GET /rest/user/{id}/activity`). */
export interface AccountActivity {
  when: string;
  who: string | null;
  changes: { field_name: string; removed: string; added: string }[];
}

export interface UserApiKey {
  id: number;
  description: string;
  revoked: boolean;
  creation_time: string;
  last_used: string | null;
}

export interface Keyword {
  id: number;
  name: string;
  description: string;
  is_active?: boolean;
  bug_count?: number;
}

export async function findUsers(match: string, includeDisabled: boolean): Promise<AdminUser[]> {
  const r = await get<{ users: AdminUser[] }>('/user', {
    match: match || '@',
    include_disabled: includeDisabled ? 1 : 0,
    limit: 100,
  });
  return r.users;
}

export async function getAdminUser(id: string | number): Promise<AdminUser | undefined> {
  const r = await get<{ users: AdminUser[] }>(`/user/${seg(id)}`);
  return r.users[0];
}

export const createUser = (body: { email: string; full_name: string; password: string }) =>
  post<{ id: number }>('/user', body);

export const changeUser = (idOrLogin: number | string, changes: Record<string, unknown>) =>
  put<{ users: { id: number; changes: Record<string, unknown> }[] }>(`/user/${seg(idOrLogin)}`, changes);

export async function userApiKeys(id: number): Promise<UserApiKey[]> {
  const r = await get<{ api_keys: UserApiKey[] }>(`/user/${id}/api_key`);
  return r.api_keys;
}

export async function userActivity(id: number, page: { limit: number; offset: number }): Promise<AccountActivity[]> {
  const r = await get<{ activity: AccountActivity[] }>(`/user/${id}/activity`, page);
  return r.activity;
}

export const revokeUserApiKey = (id: number, keyId: number) =>
  put<unknown>(`/user/${id}/api_key/${keyId}`, { revoked: true });

export async function listGroups(membership = false): Promise<AdminGroup[]> {
  const r = await get<{ groups: AdminGroup[] }>('/group', membership ? { membership: 1 } : undefined);
  return r.groups;
}

export async function getGroup(idOrName: string | number): Promise<AdminGroup | undefined> {
  const r = await get<{ groups: AdminGroup[] }>(`/group/${seg(idOrName)}`, { membership: 1 });
  return r.groups[0];
}

export const createGroup = (body: { name: string; description: string; user_regexp?: string; is_active?: boolean }) =>
  post<{ id: number }>('/group', body);

export const changeGroup = (id: number, changes: Record<string, unknown>) => put<unknown>(`/group/${id}`, changes);

export async function listKeywords(): Promise<Keyword[]> {
  const r = await get<{ keywords: Keyword[] }>('/keyword');
  return r.keywords;
}

export const createKeyword = (body: { name: string; description: string }) => post<{ id: number }>('/keyword', body);

export const changeKeyword = (id: number, changes: Record<string, unknown>) => put<unknown>(`/keyword/${id}`, changes);

/** Refused (with the number of bugs) while any bug has the keyword. */
export const deleteKeyword = (id: number) => api<unknown>('DELETE', `/keyword/${id}`);

export async function getAllParameters(): Promise<Record<string, unknown>> {
  const r = await get<{ parameters: Record<string, unknown> }>('/parameters');
  return r.parameters;
}

export const changeParameters = (changes: Record<string, unknown>) =>
  put<{ parameters?: Record<string, unknown> }>('/parameters', changes);
