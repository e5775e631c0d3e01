/** The app's pages, read from the path and query as Bugzilla names them. */

export type Route =
  | { page: 'home' }
  | { page: 'buglist'; params: URLSearchParams }
  | { page: 'query'; params: URLSearchParams }
  | { page: 'bug'; id: string }
  | { page: 'enter'; product: string; component: string }
  | { page: 'attachment'; id: string; edit: boolean }
  | { page: 'prefs'; tab: 'account' | 'apikey' }
  | { page: 'auth'; callback: string; description: string }
  | { page: 'login'; returnTo: string }
  | { page: 'notfound'; path: string };

export function parseRoute(pathname: string, search: string): Route {
  const params = new URLSearchParams(search);
  const path = pathname.replace(/\/+$/, '') || '/';
  switch (path) {
    case '/':
    case '/index.cgi':
      return { page: 'home' };
    case '/buglist.cgi':
      return { page: 'buglist', params };
    case '/query.cgi':
      return { page: 'query', params };
    case '/show_bug.cgi':
      return params.get('id') ? { page: 'bug', id: params.get('id')!.trim() } : { page: 'query', params };
    case '/enter_bug.cgi':
      return { page: 'enter', product: params.get('product') ?? '', component: params.get('component') ?? '' };
    case '/attachment.cgi':
      return { page: 'attachment', id: params.get('id') ?? '', edit: params.get('action') === 'edit' };
    case '/userprefs.cgi':
      return { page: 'prefs', tab: params.get('tab') === 'apikey' ? 'apikey' : 'account' };
    case '/auth.cgi':
      return { page: 'auth', callback: params.get('callback') ?? '', description: params.get('description') ?? '' };
    case '/login':
      return { page: 'login', returnTo: safeReturnPath(params.get('return')) };
    default:
      return { page: 'notfound', path: pathname };
  }
}

/** Paths the app itself serves (links to them navigate without reloading). */
export function isAppPath(pathname: string): boolean {
  return parseRoute(pathname, '').page !== 'notfound';
}

/** Only a same-origin app path may be a place to return to after logging in. */
export function safeReturnPath(value: string | null): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  try {
    const url = new URL(value, 'http://app.invalid');
    if (url.origin !== 'http://app.invalid' || !isAppPath(url.pathname)) return '/';
    return url.pathname + url.search;
  } catch {
    return '/';
  }
}

export function bugHref(id: number | string): string {
  return `/show_bug.cgi?id=${encodeURIComponent(String(id))}`;
}

export function attachmentHref(id: number, edit = false): string {
  return `/attachment.cgi?id=${id}${edit ? '&action=edit' : ''}`;
}
