import type { AnyEndpointDefinition } from './endpointDefinitions.ts';
import type { JsonSchema } from './jsonSchema.ts';

/**
 * The credential forms shared/domain/identity/authentication.ts reads, as OpenAPI security
 * schemes. Any one of them identifies the caller; `X-TRACKER-API-KEY`, `Tracker_api_key`,
 * `Tracker_token`, `Bugzilla_token` and a login with password (`login`/`password`,
 * `Bugzilla_login`/`Bugzilla_password`, `X-BUGZILLA-LOGIN`/`X-BUGZILLA-PASSWORD`) work too and are
 * described in the document's introduction.
 */
export const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  ApiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-BUGZILLA-API-KEY',
    description: 'An API key (POST /rest/user/{id_or_name}/api_key makes one). The preferred form.',
  },
  ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'An API key as a parameter.' },
  BugzillaApiKeyQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'Bugzilla_api_key',
    description: "An API key under Bugzilla's older parameter name (also accepted in a JSON body).",
  },
  BearerApiKey: { type: 'http', scheme: 'bearer', description: 'An API key as `Authorization: Bearer <key>`.' },
  LoginToken: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'A login token from GET or POST /rest/login (`Bugzilla_token` is accepted too).',
  },
  LoginTokenHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-BUGZILLA-TOKEN',
    description: 'A login token as a header.',
  },
};

/** The document's default: any one credential (the group a route needs, if any, is in its description). */
export const ANY_CREDENTIAL: JsonSchema[] = Object.keys(SECURITY_SCHEMES).map((name) => ({ [name]: [] }));

/**
 * Where a route differs from the default: a public route works without credentials (`{}`) or
 * with any; login, logout, valid_login and this document read no credentials (the first three
 * take them as their own input), so no scheme applies.
 */
export function securityFor(definition: AnyEndpointDefinition): JsonSchema[] | undefined {
  if (definition.authentication === 'skip') return [{}];
  return definition.access === 'public' ? [{}, ...ANY_CREDENTIAL] : undefined;
}

export function accessNote(definition: AnyEndpointDefinition): string {
  if (definition.authentication === 'skip') return 'No credentials: the parameters carry them.';
  if (definition.access === 'public')
    return definition.loginExempt
      ? 'Public, even when the installation requires a login (`requirelogin`).'
      : 'Public, unless the installation requires a login (`requirelogin`, then error 410 without credentials).';
  if (definition.access === 'login') return 'Needs a logged-in caller (error 410 without credentials).';
  return `Needs membership of the group \`${definition.access.group}\`.`;
}
