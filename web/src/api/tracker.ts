import type { OwnAccountChanges } from '../lib/rights.ts';
import { api, get, post, put, seg } from './client.ts';
import type {
  ApiKey,
  Attachment,
  Bug,
  Comment,
  FieldDefinition,
  HistoryEntry,
  Product,
  UpdateResult,
  User,
} from './types.ts';

/** Typed calls of the REST API the app uses (docs/api.md has their contracts). */

export const login = (loginName: string, password: string) =>
  post<{ id: number; token: string }>('/login', { login: loginName, password });

export const logout = () => get<unknown>('/logout');

/** Single sign-on through the installation's OpenID Connect issuer (Tracker's /rest/oidc routes). */
export const signInOptions = () => get<{ enabled: boolean; provider: string | null }>('/oidc');
export const startSignIn = (codeChallenge: string) =>
  post<{ authorization_url: string; state: string; nonce: string }>('/oidc/login', { code_challenge: codeChallenge });
export const finishSignIn = (callback: {
  state: string;
  code: string;
  iss?: string;
  code_verifier: string;
  nonce: string;
}) => post<{ id: number; token: string }>('/oidc/callback', callback);

export interface Whoami {
  id: number;
  name: string;
  real_name?: string;
  nick?: string;
  /** Tracker additions: the caller's rights, as the API enforces them. */
  email_enabled?: boolean;
  is_insider?: boolean;
  is_timetracker?: boolean;
  can_tag_comments?: boolean;
  groups?: string[];
  administered_products?: string[];
}

export const whoami = () => get<Whoami>('/whoami');

/** The caller's own account (Tracker's PUT /rest/preferences/account). */
export const updateOwnAccount = (changes: OwnAccountChanges) =>
  put<{
    id: number;
    changes: Record<string, { removed: string; added: string }>;
    token?: string;
    /** The new login waiting for its mailed link (allowemailchange). */
    email_change_pending?: string;
  }>('/preferences/account', changes);

export async function getUser(name: string): Promise<User | undefined> {
  const r = await get<{ users: User[] }>(`/user/${seg(name)}`);
  return r.users[0];
}

export async function matchUsers(text: string, signal?: AbortSignal): Promise<User[]> {
  const r = await get<{ users: User[] }>(
    '/user',
    { match: text, limit: 10, include_fields: 'id,name,real_name' },
    signal,
  );
  return r.users;
}

export const updateUser = (name: string, changes: Record<string, unknown>) =>
  put<{ users: { id: number; changes: Record<string, unknown> }[] }>(`/user/${seg(name)}`, changes);

export const listApiKeys = (name: string) =>
  get<{ api_keys?: ApiKey[]; keys?: ApiKey[] } | ApiKey[]>(`/user/${seg(name)}/api_key`);
export const createApiKey = (name: string, description: string) =>
  post<{ id: number; api_key: string }>(`/user/${seg(name)}/api_key`, { description });
export const updateApiKey = (name: string, keyId: number, changes: { revoked?: boolean; description?: string }) =>
  put<unknown>(`/user/${seg(name)}/api_key/${keyId}`, changes);

export async function getBug(idOrAlias: string, includeFields = '_default,tags'): Promise<Bug> {
  const r = await get<{ bugs: Bug[] }>(`/bug/${seg(idOrAlias)}`, { include_fields: includeFields });
  return r.bugs[0]!;
}

export async function searchBugs(query: URLSearchParams | Record<string, string | number | string[]>): Promise<Bug[]> {
  const r = await get<{ bugs: Bug[] }>('/bug', query);
  return r.bugs;
}

export async function countBugs(query: URLSearchParams): Promise<number> {
  const r = await get<{ bug_count: number }>('/bug', query);
  return r.bug_count;
}

export const createBug = (fields: Record<string, unknown>) => post<{ id: number }>('/bug', fields);

export async function updateBugs(
  ids: readonly (number | string)[],
  changes: Record<string, unknown>,
): Promise<UpdateResult[]> {
  const [first, ...rest] = ids;
  const r = await put<{ bugs: UpdateResult[] }>(
    `/bug/${seg(first!)}`,
    rest.length ? { ...changes, ids: rest } : changes,
  );
  return r.bugs;
}

export const updateTags = (id: number, change: { add?: string[]; remove?: string[] }) =>
  put<unknown>(`/bug/${id}/tags`, change);

export async function getComments(id: number | string, newSince?: string): Promise<Comment[]> {
  const r = await get<{ bugs: Record<string, { comments: Comment[] }> }>(
    `/bug/${seg(id)}/comment`,
    newSince ? { new_since: newSince } : undefined,
  );
  return Object.values(r.bugs)[0]?.comments ?? [];
}

export const addComment = (
  id: number,
  body: { comment: string; is_private?: boolean; is_markdown?: boolean; work_time?: number },
) => post<{ id: number }>(`/bug/${id}/comment`, body);

export const renderComment = (text: string, id: number) => post<{ html: string }>('/bug/comment/render', { text, id });

export const updateCommentTags = (commentId: number, change: { add?: string[]; remove?: string[] }) =>
  put<string[]>(`/bug/comment/${commentId}/tags`, { comment_id: commentId, ...change });

export async function getHistory(id: number | string, newSince?: string): Promise<HistoryEntry[]> {
  const r = await get<{ bugs: { history: HistoryEntry[] }[] }>(
    `/bug/${seg(id)}/history`,
    newSince ? { new_since: newSince } : undefined,
  );
  return r.bugs[0]?.history ?? [];
}

export async function getAttachments(bugId: number | string): Promise<Attachment[]> {
  const r = await get<{ bugs: Record<string, Attachment[]> }>(`/bug/${seg(bugId)}/attachment`, {
    exclude_fields: 'data',
  });
  return Object.values(r.bugs)[0] ?? [];
}

export async function getAttachment(id: string | number, withData: boolean): Promise<Attachment | undefined> {
  const r = await get<{ attachments: Record<string, Attachment> }>(
    `/bug/attachment/${seg(id)}`,
    withData ? undefined : { exclude_fields: 'data' },
  );
  return Object.values(r.attachments)[0];
}

export async function attachmentDownloadUrl(id: number): Promise<string | undefined> {
  const r = await get<{ attachments: Record<string, { url: string }> }>(`/bug/attachment/${id}/download`);
  return Object.values(r.attachments)[0]?.url;
}

export const createAttachment = (bugId: number, body: Record<string, unknown>) =>
  post<{ ids: number[] }>(`/bug/${bugId}/attachment`, body);

export const updateAttachment = (id: number, changes: Record<string, unknown>) =>
  put<{ attachments: { id: number; changes: Record<string, unknown> }[] }>(`/bug/attachment/${id}`, {
    ...changes,
    ids: [id],
  });

export async function possibleDuplicates(
  summary: string,
  product: string | undefined,
  signal?: AbortSignal,
): Promise<Bug[]> {
  const r = await get<{ bugs: Bug[] }>(
    '/bug/possible_duplicates',
    { summary, product, limit: 7, include_fields: 'id,summary,status,resolution' },
    signal,
  );
  return r.bugs;
}

export async function getFields(): Promise<FieldDefinition[]> {
  const r = await get<{ fields: FieldDefinition[] }>('/field/bug');
  return r.fields;
}

export async function getProducts(
  type: 'enterable' | 'selectable' | 'accessible',
  names?: string[],
): Promise<Product[]> {
  const r = await get<{ products: Product[] }>('/product', { type, names });
  return r.products;
}

export async function lastVisits(): Promise<{ id: number; last_visit_ts: string }[]> {
  return get<{ id: number; last_visit_ts: string }[]>('/bug_user_last_visit');
}

export const recordVisit = (id: number) => post<unknown>(`/bug_user_last_visit/${id}`, {});

export async function getParameters(): Promise<Record<string, string>> {
  const r = await get<{ parameters: Record<string, string> }>('/parameters');
  return r.parameters;
}

/** A saved search (Tracker's /rest/saved_search): the caller's own, or one shared with their group. */
export interface SavedSearch {
  id: number;
  name: string;
  query: string;
  owner: string;
  owner_id: number;
  is_own: boolean;
  shared_with_group: string | null;
}

export async function listSavedSearches(): Promise<SavedSearch[]> {
  return (await get<{ saved_searches: SavedSearch[] }>('/saved_search')).saved_searches;
}
export const saveSearch = (name: string, query: string) => post<SavedSearch>('/saved_search', { name, query });
export const shareSavedSearch = (id: number, group: string | null) =>
  put<SavedSearch>(`/saved_search/${id}`, { shared_with_group: group });
export const forgetSavedSearch = (id: number) => api<{ id: number; name: string }>('DELETE', `/saved_search/${id}`);
