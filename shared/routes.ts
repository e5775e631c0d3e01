/**
 * The route table: the single source of truth for the CDK stack (one Lambda per handler module,
 * one API Gateway route per row), the local server and the tests.
 * Adding an endpoint = one handler module under functions/ + one row here.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway HTTP API syntax: `/rest/bug/{id_or_alias}`. */
  path: string;
  /** Module under functions/, without extension; it exports `handler`. */
  handler: string;
  /** Read-only routes get read-only grants on the table and bucket. */
  readOnly: boolean;
}

const route = (method: HttpMethod, path: string, handler: string, readOnly = method === 'GET'): RouteDefinition => ({
  method,
  path,
  handler,
  readOnly,
});

export const routes: readonly RouteDefinition[] = [
  // Instance information
  route('GET', '/rest/version', 'instance/version'),
  route('GET', '/rest/extensions', 'instance/extensions'),
  route('GET', '/rest/timezone', 'instance/timezone'),
  route('GET', '/rest/time', 'instance/time'),
  route('GET', '/rest/parameters', 'instance/getParameters'),
  route('PUT', '/rest/parameters', 'instance/updateParameters'),
  route('GET', '/rest/last_audit_time', 'instance/lastAuditTime'),
  route('GET', '/rest/jobqueue_status', 'instance/jobqueueStatus'),
];

/**
 * Handlers that serve what no row names: CORS/`OPTIONS` on any path and the catch-all that
 * answers Bugzilla's 32614 for an unknown route or method.
 */
export const platformHandlers = {
  options: 'platform/options',
  notFound: 'platform/notFound',
} as const;
