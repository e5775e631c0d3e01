import { get, put } from './client.ts';

/** The caller's mail preferences (Tracker's GET/PUT /rest/preferences/mail; docs/api.md). */
export interface MailPreferences {
  email_enabled: boolean;
  flag_requested_of_me: boolean;
  flag_i_requested: boolean;
  /** By relationship (`assignee`, `reporter`, `qa_contact`, `cc`): each event's box and the two overrides. */
  relationships: Record<string, Record<string, boolean>>;
  ignored_bugs: number[];
  watched_users: string[];
  watchers: string[];
}

export interface MailPreferencesChange {
  email_enabled?: boolean;
  flag_requested_of_me?: boolean;
  flag_i_requested?: boolean;
  relationships?: Record<string, Record<string, boolean>>;
  ignored_bugs?: { add?: Array<string | number>; remove?: number[] };
  watched_users?: { add?: string[]; remove?: string[] };
}

export const getMailPreferences = () => get<MailPreferences>('/preferences/mail');

export const updateMailPreferences = (change: MailPreferencesChange) =>
  put<MailPreferences>('/preferences/mail', change);
