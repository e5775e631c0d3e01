import { computed, signal } from '@preact/signals';

/**
 * Who is logged in. The credential (a login token or an API key) lives in sessionStorage: it
 * survives a reload of the tab but not the tab itself, and is never sent anywhere but the
 * same-origin API (docs/web-security.md explains the choice).
 */
export interface Session {
  login: string;
  userId: number;
  realName?: string;
  token?: string;
  apiKey?: string;
}

const KEY = 'tracker.session';

function readStored(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Session;
    return value && typeof value.login === 'string' && (value.token || value.apiKey) ? value : null;
  } catch {
    return null;
  }
}

export const session = signal<Session | null>(typeof sessionStorage === 'undefined' ? null : readStored());

export const isLoggedIn = computed(() => session.value !== null);

/** The logged-in user's group names (filled after login from GET /rest/user). */
export const userGroups = signal<string[]>([]);

export function setSession(value: Session | null): void {
  session.value = value;
  userGroups.value = [];
  try {
    if (value) sessionStorage.setItem(KEY, JSON.stringify(value));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode): the session lasts as long as the page.
  }
}

export function inGroup(name: string): boolean {
  return userGroups.value.includes(name) || userGroups.value.includes('admin');
}
