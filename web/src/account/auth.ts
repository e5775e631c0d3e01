import { ApiError } from '../api/client.ts';
import { login as apiLogin, logout as apiLogout } from '../api/tracker.ts';
import { resetCatalog } from '../state/catalog.ts';
import { type Session, session, setSession } from '../state/session.ts';

/** Logging in and out: the session store's only writers besides a revoked credential. */

async function whoamiWith(credential: Pick<Session, 'token' | 'apiKey'>) {
  const headers: Record<string, string> = credential.apiKey
    ? { 'X-BUGZILLA-API-KEY': credential.apiKey }
    : { 'X-BUGZILLA-TOKEN': credential.token ?? '' };
  const response = await fetch('/rest/whoami', {
    headers: { Accept: 'application/json', ...headers },
    credentials: 'omit',
  });
  const data = (await response.json()) as {
    id: number;
    name: string;
    real_name?: string;
    error?: boolean;
    message?: string;
    code?: number;
  };
  if (!response.ok || data.error) {
    throw new ApiError(data.message ?? 'The credential was refused.', data.code, response.status);
  }
  return data;
}

export async function logInWithPassword(login: string, password: string): Promise<void> {
  const { token } = await apiLogin(login, password);
  await logInWithToken(token);
}

/** A login token from a password login or a single sign-on (signInFlow.ts). */
export async function logInWithToken(token: string): Promise<void> {
  const me = await whoamiWith({ token });
  start({ login: me.name, userId: Number(me.id), realName: me.real_name, token });
}

export async function logInWithApiKey(apiKey: string): Promise<void> {
  const me = await whoamiWith({ apiKey });
  start({ login: me.name, userId: Number(me.id), realName: me.real_name, apiKey });
}

/** main.tsx reads the catalogue again for whoever logs in. */
function start(value: Session): void {
  setSession(value);
}

export async function logOut(): Promise<void> {
  const current = session.value;
  try {
    // A token ends on the server; an API key stays valid (revoke it under Preferences).
    if (current?.token) await apiLogout();
  } catch {
    // Logged out here whatever the server says.
  }
  resetCatalog();
  setSession(null);
}
