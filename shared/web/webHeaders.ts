/**
 * The headers the web front end (web/dist) is served with, locally by local/webFiles.ts and on AWS
 * by CloudFront's response headers policy: one list, so that the two cannot drift apart.
 *
 * The app is static files that load their scripts from the same origin and talk to /rest on the
 * same origin: the policy allows nothing else. No inline script (script-src 'self' without
 * 'unsafe-inline'), no framing by other sites, no plugins, forms post only to the same origin.
 * Styles set through the DOM (Preact's `style` props) are not style attributes in markup, so
 * style-src 'self' holds for them too. Images may be data: and blob: URLs (attachment previews).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The security headers of every web response. The Referrer-Policy is same-origin: a bug tracker's
 * addresses say what is searched for and which bugs are looked at (buglist.cgi?quicksearch=...),
 * which no other site needs to learn from a link followed out of a comment.
 */
export const WEB_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** HTTPS only, for a year: CloudFront adds it; a local server on plain HTTP has no use for it. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** index.html: always asked again (it names the current assets), and cheap to ask with its ETag. */
export const HTML_CACHE_CONTROL = 'no-cache';

/** A file whose name carries a hash of its content never changes under that name. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * The paths that belong to the API and never to the web app: REST, XML-RPC and JSON-RPC. (A POST
 * to / is XML-RPC too, for clients that use the installation's urlbase: the web app is only GET.)
 */
export function isApiPath(path: string): boolean {
  return path === '/rest' || path.startsWith('/rest/') || path === '/xmlrpc.cgi' || path === '/jsonrpc.cgi';
}
