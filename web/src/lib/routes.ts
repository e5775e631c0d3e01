/** The app's pages, read from the path and query as Bugzilla names them. */

export type Route =
  | { page: 'home' }
  | { page: 'buglist'; params: URLSearchParams }
  | { page: 'query'; params: URLSearchParams }
  | { page: 'bug'; id: string }
  | { page: 'enter'; product: string; component: string }
  | { page: 'attachment'; id: string; edit: boolean }
  | { page: 'prefs'; tab: 'account' | 'email' | 'apikey' }
  | { page: 'auth'; callback: string; description: string }
  | { page: 'login'; returnTo: string }
  /** An administration page or a report (web/src/admin/, loaded on demand): `page` is the cgi name. */
  | { page: 'admin'; cgi: AdminCgi; params: URLSearchParams }
  | { page: 'signup' }
  | { page: 'forgotPassword' }
  | { page: 'mailToken'; token: string; action: string }
  | { page: 'signInCallback'; params: URLSearchParams }
  | { page: 'notfound'; path: string };

/**
 * Bugzilla's addresses of its administration pages and reports, which the app answers under the
 * same names (web/src/admin/sections.ts says who may use each).
 */
export const ADMIN_CGIS = [
  'admin',
  'editusers',
  'editgroups',
  'editkeywords',
  'editparams',
  'editproducts',
  'editcomponents',
  'editversions',
  'editmilestones',
  'editclassifications',
  'editgroupcontrols',
  'editflagtypes',
  'editvalues',
  'editworkflow',
  'editfields',
  'report',
  'chart',
  'showdependencytree',
] as const;
export type AdminCgi = (typeof ADMIN_CGIS)[number];

export function adminHref(cgi: AdminCgi, query?: Record<string, string | number>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) params.set(k, String(v));
  const search = params.toString();
  return `/${cgi}.cgi${search ? `?${search}` : ''}`;
}

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
    case '/userprefs.cgi': {
      const tab = params.get('tab');
      return { page: 'prefs', tab: tab === 'apikey' || tab === 'email' ? tab : 'account' };
    }
    case '/auth.cgi':
      return { page: 'auth', callback: params.get('callback') ?? '', description: params.get('description') ?? '' };
    case '/login':
      return { page: 'login', returnTo: safeReturnPath(params.get('return')) };
    case '/createaccount.cgi':
      return { page: 'signup' };
    case '/token.cgi':
      // Bugzilla's links from account mail (t=<token>&a=<action>); without a token, "forgot my password".
      return params.get('t')
        ? { page: 'mailToken', token: params.get('t') ?? '', action: params.get('a') ?? '' }
        : { page: 'forgotPassword' };
    case '/oidc/callback':
      return { page: 'signInCallback', params };
    default: {
      const cgi = /^\/([a-z]+)\.cgi$/.exec(path)?.[1];
      if (cgi && (ADMIN_CGIS as readonly string[]).includes(cgi))
        return { page: 'admin', cgi: cgi as AdminCgi, params };
      return { page: 'notfound', path: pathname };
    }
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
