/**
 * Authentication delegation as Bugzilla's auth.cgi does it (read in Bugzilla's source): a site
 * sends the person to `auth.cgi?callback=URL&description=TEXT`; after they agree, Tracker makes an
 * API key, POSTs `{client_api_key, client_api_login}` as JSON to the callback, and, when the
 * callback answers 200 with JSON, sends the browser to the callback with `client_api_login` and
 * `callback_result` (the JSON's `result`) added to its query.
 */

export type DelegationCheck = { ok: true; callback: URL; callbackBase: string } | { ok: false; message: string };

export function checkDelegation(callback: string, description: string): DelegationCheck {
  if (!callback) return { ok: false, message: 'The authentication delegation request has no callback address.' };
  if (!description) return { ok: false, message: 'The authentication delegation request has no description.' };
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    return { ok: false, message: `The callback address "${callback}" is not a valid URL.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      ok: false,
      message: `The callback uses the protocol "${url.protocol.replace(/:$/, '')}", only http and https are allowed.`,
    };
  }
  if (url.username || url.password) {
    return { ok: false, message: 'The callback address must not carry a user name or password.' };
  }
  return { ok: true, callback: url, callbackBase: `${url.origin}${url.pathname}` };
}

/** The address the browser goes to once the callback has the key. */
export function delegationRedirect(callback: URL, login: string, result: unknown): string {
  const url = new URL(callback.href);
  url.searchParams.set('client_api_login', login);
  if (result !== undefined && result !== null) url.searchParams.set('callback_result', String(result));
  return url.href;
}
