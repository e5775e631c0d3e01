import { signal } from '@preact/signals';
import { finishSignIn, signInOptions, startSignIn } from '../api/tracker.ts';
import { safeReturnPath } from '../lib/routes.ts';
import { logInWithToken } from './auth.ts';

/**
 * Single sign-on through the installation's OpenID Connect issuer (docs/web-security.md,
 * "Single sign-on"). This tab makes the PKCE code verifier and keeps it, with the nonce and
 * state, in its sessionStorage while the issuer has the browser; only this tab can then finish
 * the sign-in. The API exchanges the code and answers a login token, kept as a password login's.
 */

const FLOW_KEY = 'tracker.singleSignOn';

interface StartedFlow {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

/** The issuer's name for the login form's button; null when single sign-on is off, undefined until known. */
export const signInProvider = signal<string | null | undefined>(undefined);

let asked = false;
export function loadSignInProvider(): void {
  if (asked) return;
  asked = true;
  signInOptions()
    .then((options) => {
      signInProvider.value = options.enabled ? (options.provider ?? 'single sign-on') : null;
    })
    .catch(() => {
      // Asked again the next time a login form shows.
      asked = false;
      signInProvider.value = null;
    });
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Sends the browser to the issuer; it comes back to /oidc/callback. */
export async function beginSignIn(returnTo: string): Promise<void> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
  );
  const started = await startSignIn(challenge);
  const flow: StartedFlow = { state: started.state, nonce: started.nonce, verifier, returnTo };
  sessionStorage.setItem(FLOW_KEY, JSON.stringify(flow));
  window.location.assign(started.authorization_url);
}

/** Finishes the sign-in the issuer sent the browser back with; answers where to go next. */
export async function completeSignIn(params: URLSearchParams): Promise<string> {
  const stored = sessionStorage.getItem(FLOW_KEY);
  // One try per start, whatever its outcome.
  sessionStorage.removeItem(FLOW_KEY);
  const refused = params.get('error');
  if (refused)
    throw new Error(`The identity provider did not sign you in (${params.get('error_description') || refused}).`);
  const flow = stored ? (JSON.parse(stored) as StartedFlow) : null;
  const state = params.get('state');
  const code = params.get('code');
  if (!flow || !state || flow.state !== state || !code)
    throw new Error(
      'This sign-in was not started in this tab, or it is finished already. Start it again from the login form.',
    );
  const { token } = await finishSignIn({
    state,
    code,
    iss: params.get('iss') ?? undefined,
    code_verifier: flow.verifier,
    nonce: flow.nonce,
  });
  await logInWithToken(token);
  return safeReturnPath(flow.returnTo);
}
