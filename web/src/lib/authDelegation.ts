/**
 * Authentication delegation as Bugzilla's auth.cgi does it (read in Bugzilla's source, 5.1
 * branch): a site sends the person to `auth.cgi?callback=URL&description=TEXT`; the person must
 * be logged in and agree; then an API key described by TEXT is made and the browser is sent to the
 * callback with `client_api_key` and `client_api_login` added to its query.
 *
 * Later Bugzilla (BMO/Harmony) instead POSTs the key from the server to the callback. A page
 * cannot do that: the app's Content-Security-Policy (connect-src and form-action 'self') forbids
 * requests to other origins, rightly, so Tracker uses the redirect form. Like Bugzilla, only https
 * callbacks are accepted (the key travels in the address), except http to this machine
 * (localhost), Tracker's counterpart of Bugzilla's BUGZILLA_UNSAFE_AUTH_DELEGATION for development.
 */

export type DelegationCheck = { ok: true; callback: URL; callbackBase: string } | { ok: false; message: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function checkDelegation(callback: string, description: string): DelegationCheck {
  if (!callback) return { ok: false, message: 'The authentication delegation request has no callback address.' };
  if (!description.trim()) return { ok: false, message: 'The authentication delegation request has no description.' };
  if (description.length > 255) return { ok: false, message: 'The description of the requesting site is too long.' };
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    return { ok: false, message: `The callback address "${callback}" is not a valid URL.` };
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  if (!secure) {
    return {
      ok: false,
      message: `The callback uses the protocol "${url.protocol.replace(/:$/, '')}": only https is allowed for authentication delegation.`,
    };
  }
  if (url.username || url.password) {
    return { ok: false, message: 'The callback address must not carry a user name or password.' };
  }
  return { ok: true, callback: url, callbackBase: `${url.origin}${url.pathname}` };
}

/** The callback with the new key and the person's login added, where the browser goes next. */
export function delegationRedirect(callback: URL, login: string, apiKey: string): string {
  const url = new URL(callback.href);
  url.searchParams.set('client_api_key', apiKey);
  url.searchParams.set('client_api_login', login);
  return url.href;
}
