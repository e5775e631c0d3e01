/**
 * What browsers may send and read across origins: one list for API Gateway's CORS configuration
 * (lib/apiEndpoint.ts) and for the preflights the API answers itself (functions/platform/options.ts),
 * so the two cannot drift apart.
 */
export const CORS_ALLOWED_HEADERS: readonly string[] = [
  'Content-Type',
  'Authorization',
  'X-Tracker-Api-Key',
  'X-Bugzilla-Api-Key',
  'X-Tracker-Token',
  'X-Bugzilla-Token',
  'X-Tracker-Login',
  'X-Tracker-Password',
  'X-Bugzilla-Login',
  'X-Bugzilla-Password',
  'If-None-Match',
];

/** Response headers a browser script may read besides the simple ones. */
export const CORS_EXPOSED_HEADERS: readonly string[] = ['ETag'];
