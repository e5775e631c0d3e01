import { api } from '../api/client.ts';

/** The REST calls behind the sign-up, forgotten-password and mailed-link pages (docs/api.md "Accounts by mail"). */

export type MailTokenKind = 'account' | 'password' | 'invitation' | 'emailnew' | 'emailold';

const post = <T>(path: string, body: unknown) => api<T>('POST', path, { body, anonymous: true });

export const offerAccount = (email: string) =>
  post<Record<string, never>>('/account/offer_account_by_email', { email });

export const requestPasswordReset = (email: string) =>
  post<Record<string, never>>('/account/password_reset', { email });

export const describeMailToken = (token: string) =>
  post<{ kind: MailTokenKind; login: string; expires: string }>('/account/token', { mail_token: token });

export const createAccount = (token: string, password: string, fullName: string) =>
  post<{ id: number; login: string }>('/account/create', { mail_token: token, password, full_name: fullName });

export const setPasswordWithToken = (token: string, password: string) =>
  post<{ id: number; login: string }>('/account/password', { mail_token: token, password });

export const confirmEmailChange = (token: string) =>
  post<{ id: number; login: string }>('/account/email', { mail_token: token });

export const cancelMailToken = (token: string) =>
  post<{ kind: MailTokenKind }>('/account/token/cancel', { mail_token: token });
