import { computed, signal } from '@preact/signals';
import type { Rights } from '../lib/rights.ts';

export type { Rights } from '../lib/rights.ts';

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

/** What the API lets the logged-in person do (GET /rest/whoami): null until read, and when logged out. */
export const rights = signal<Rights | null>(null);

export function setSession(value: Session | null): void {
  // The same person with a new credential (a new token after a password change) or a new real
  // name keeps what was read about them.
  if (value?.login !== session.value?.login) {
    userGroups.value = [];
    rights.value = null;
  }
  session.value = value;
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

/**
 * Tabs of the app share the login: sessionStorage belongs to one tab, so a bug opened in a new tab
 * asks the open tabs (BroadcastChannel, same origin only) for their session and gets it; logging
 * out in one tab logs out all. When the last tab closes, the credential is gone.
 */
export function shareSessionAcrossTabs(waitMs = 150): Promise<void> {
  if (typeof BroadcastChannel === 'undefined') return Promise.resolve();
  const channel = new BroadcastChannel('tracker.session');
  type Message =
    | { type: 'ask' }
    | { type: 'answer'; session: Session }
    | { type: 'logout' }
    | { type: 'login'; session: Session };
  let announcing = false;
  channel.onmessage = (event: MessageEvent<Message>) => {
    const message = event.data;
    if (message.type === 'ask' && session.value) channel.postMessage({ type: 'answer', session: session.value });
    else if ((message.type === 'answer' && !session.value) || message.type === 'login') {
      announcing = true;
      setSession(message.session);
      announcing = false;
    } else if (message.type === 'logout' && session.value) {
      announcing = true;
      setSession(null);
      announcing = false;
    }
  };
  let previous = session.value;
  session.subscribe((value) => {
    if (value === previous) return;
    const wasLoggedIn = previous !== null;
    previous = value;
    if (announcing) return;
    if (value) channel.postMessage({ type: 'login', session: value });
    else if (wasLoggedIn) channel.postMessage({ type: 'logout' });
  });
  if (session.value) return Promise.resolve();
  channel.postMessage({ type: 'ask' });
  return new Promise((resolve) => {
    const done = () => {
      stop();
      resolve();
    };
    const stop = session.subscribe((value) => {
      if (value) queueMicrotask(done);
    });
    setTimeout(done, waitMs);
  });
}
