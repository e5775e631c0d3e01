import packageJson from '../../package.json' with { type: 'json' };
import { TRACKER_VERSION } from '../../shared/domain/instance/instanceInfo.ts';
import { type RouteDefinition, routes as routeTable } from '../../shared/routes.ts';
import { canonicalJson } from './canonicalJson.ts';
import { loadEndpointDefinitions } from './endpointDefinitions.ts';
import { ErrorResponses, errorSchema } from './errorResponses.ts';
import { FIELD_SELECTION_PARAMETERS, routeInput } from './inputParameters.ts';
import type { JsonSchema } from './jsonSchema.ts';
import { operationIds } from './operationIds.ts';
import { OPERATIONS } from './operations.ts';
import { errorCodesByModule } from './routeErrors.ts';
import { BUG_SCHEMAS } from './schemas/bugSchemas.ts';
import { CATALOG_SCHEMAS } from './schemas/catalogSchemas.ts';
import { COMMON_SCHEMAS } from './schemas/commonSchemas.ts';
import { IDENTITY_SCHEMAS } from './schemas/identitySchemas.ts';
import { ANY_CREDENTIAL, accessNote, SECURITY_SCHEMES, securityFor } from './securitySchemes.ts';

/** One tag per directory of functions/; the document lists them in this order (bugs first), then any other. */
const TAGS: Readonly<Record<string, { name: string; description: string }>> = {
  bug: { name: 'Bugs', description: 'Bugs: filing, reading, searching, changing, history.' },
  comment: { name: 'Comments', description: 'Comments and comment tags.' },
  attachment: { name: 'Attachments', description: 'Attachments.' },
  instance: { name: 'Instance', description: 'Version, extensions, time, parameters and this document.' },
  user: { name: 'Users', description: 'Users, logins and API keys.' },
  account: {
    name: 'Accounts by mail',
    description:
      "Tracker's REST forms of Bugzilla's createaccount.cgi and token.cgi: sign-up (User.offer_account_by_email), a forgotten password, a change of e-mail address, invitations after an import. Each mails a single-use token that lapses; the token is sent back as `mail_token` in a POST body.",
  },
  group: { name: 'Groups', description: 'Groups and their members.' },
  product: { name: 'Products', description: 'Products, their versions and milestones.' },
  classification: { name: 'Classifications', description: 'Classifications of products.' },
  component: { name: 'Components', description: 'Components of products.' },
  field: { name: 'Fields', description: 'Bug fields, their legal values and the status workflow.' },
  keyword: { name: 'Keywords', description: 'Keywords.' },
  flagType: { name: 'Flag types', description: 'Flag types.' },
  rpc: {
    name: 'XML-RPC and JSON-RPC',
    description:
      "Bugzilla's older WebService protocols at `/xmlrpc.cgi` and `/jsonrpc.cgi`: every method above by its RPC name.",
  },
};
/** The RPC endpoints answer faults with HTTP 200, in their own format: no REST error responses. */
const isRpc = (route: RouteDefinition) => route.handler.startsWith('rpc/');
const XML_RPC_BODY: JsonSchema = {
  type: 'string',
  description: "An XML-RPC `methodResponse` document: the method's answer, or a `fault` with Bugzilla's code.",
};
const tagOf = (handler: string) => {
  const directory = handler.split('/')[0];
  return TAGS[directory] ?? { name: directory, description: `functions/${directory}/` };
};

/**
 * The license package.json declares (an SPDX identifier; the text is in LICENSE), as OpenAPI 3.1
 * names one: its name and SPDX identifier.
 */
const LICENSE_NAMES: Readonly<Record<string, string>> = { 'Apache-2.0': 'Apache License 2.0' };
const LICENSE = { name: LICENSE_NAMES[packageJson.license] ?? packageJson.license, identifier: packageJson.license };

const INTRODUCTION = [
  'Tracker speaks the Bugzilla 5.2 REST API; this document is generated from its route table',
  '(`shared/routes.ts`), the zod input schema of each handler and the error registry',
  '(`shared/errors.ts`), and served at `GET /rest/openapi.json`.',
  '',
  'Parameters may come in the query string or, for POST and PUT, in a JSON body; list parameters',
  'take repeated keys (`ids=1&ids=2`) and most also comma-separated values. Any GET answers `304`',
  'to a matching `If-None-Match`; `HEAD` works wherever `GET` does; `OPTIONS` answers on every path;',
  'with `callback=name` and `Accept: application/javascript` a GET answers JSONP. An unknown path',
  'or method answers error 32614 (HTTP 404).',
  '',
  'Credentials: an API key (`X-BUGZILLA-API-KEY` or `X-TRACKER-API-KEY` header, `Authorization:',
  'Bearer`, or the `api_key`, `Bugzilla_api_key` or `Tracker_api_key` parameter), a login token',
  '(`token`, `Bugzilla_token`, `Tracker_token`, or the `X-BUGZILLA-TOKEN` header), or a login and',
  'password (`login`/`password`, `Bugzilla_login`/`Bugzilla_password`, or the `X-BUGZILLA-LOGIN` and',
  '`X-BUGZILLA-PASSWORD` headers). A credential that is present but wrong is an error, never an',
  'anonymous call.',
  '',
  "Every error is Bugzilla's envelope `{error: true, code, message}` (the `Error` schema); each",
  'operation lists the codes its code can raise, by HTTP status.',
].join('\n');

const UNDESCRIBED_RESPONSE: JsonSchema = { description: 'Not described yet (local/openapi/operations.ts).' };

/** The whole document, in canonical key order: the same code always gives the same text. */
export async function buildOpenApiDocument(routes: readonly RouteDefinition[] = routeTable): Promise<JsonSchema> {
  const modules = [...new Set(routes.map((route) => route.handler))];
  const [definitions, codes] = await Promise.all([loadEndpointDefinitions(modules), errorCodesByModule(modules)]);
  const ids = operationIds(routes);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const errorResponses = new ErrorResponses();
  for (const route of routes) {
    const definition = definitions.get(route.handler)!;
    const notes = OPERATIONS[route.handler];
    const input = routeInput(route, definition, {
      selectsFields: definition.responseFields !== undefined || notes?.selectsFields === true,
    });
    const security = securityFor(definition);
    const operation: JsonSchema = {
      operationId: ids.get(route),
      tags: [tagOf(route.handler).name],
      summary: notes?.summary ?? route.handler,
      description: [notes?.description, accessNote(definition), `Handler: \`functions/${route.handler}.ts\`.`]
        .filter(Boolean)
        .join('\n\n'),
      ...(security ? { security } : {}),
      ...(input.parameters.length > 0 ? { parameters: input.parameters } : {}),
      ...(input.requestBody ? { requestBody: input.requestBody } : {}),
      responses: {
        '200': {
          description: notes?.summary ?? 'Success',
          content:
            route.path.endsWith('/xmlrpc.cgi') || (isRpc(route) && route.path === '/')
              ? { 'text/xml': { schema: XML_RPC_BODY } }
              : { 'application/json': { schema: notes?.response ?? UNDESCRIBED_RESPONSE } },
        },
        ...(route.method === 'GET' ? { '304': { description: 'Not modified: the ETag matches If-None-Match.' } } : {}),
        ...(isRpc(route) ? {} : errorResponses.forCodes(codes.get(route.handler) ?? [])),
      },
    };
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  const order = Object.keys(TAGS);
  const rank = (module: string) => {
    const index = order.indexOf(module.split('/')[0]);
    return index < 0 ? order.length : index;
  };
  const tags = [
    ...new Map(
      [...modules].sort((a, b) => rank(a) - rank(b)).map((module) => [tagOf(module).name, tagOf(module)]),
    ).values(),
  ];
  return canonicalJson({
    openapi: '3.1.0',
    info: {
      title: 'Tracker REST API (Bugzilla 5.2 compatible)',
      version: TRACKER_VERSION,
      description: INTRODUCTION,
      license: LICENSE,
    },
    security: ANY_CREDENTIAL,
    servers: [
      {
        url: '/',
        description:
          'The API, at the origin this document was served from (paths start with /rest, but for /xmlrpc.cgi and /jsonrpc.cgi).',
      },
    ],
    tags,
    paths,
    components: {
      schemas: { ...COMMON_SCHEMAS, ...BUG_SCHEMAS, ...CATALOG_SCHEMAS, ...IDENTITY_SCHEMAS, Error: errorSchema() },
      parameters: FIELD_SELECTION_PARAMETERS,
      responses: errorResponses.components(),
      securitySchemes: SECURITY_SCHEMES,
    },
  });
}
