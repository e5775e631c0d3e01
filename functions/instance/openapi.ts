import openApiDocument from '../../docs/openapi.json' with { type: 'json' };
import { buildEndpoint, type EndpointDependencies } from '../../shared/http/endpointChain.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';

/**
 * The chain reads users and parameters only to authenticate a caller or to apply `requirelogin`;
 * this route does neither (credentials are skipped, and it is login-exempt), so it gets no store
 * at all: unlike defineStorelessEndpoint's lazy stores, nothing of the AWS SDK is bundled, which
 * keeps the function at the chain plus the document.
 */
const noStore = (): never => {
  throw new Error('GET /rest/openapi.json reads no store');
};
const dependencies: EndpointDependencies = { directory: noStore, installationRequiresLogin: noStore };

/**
 * GET /rest/openapi.json (Tracker's OpenAPI extension): the API's OpenAPI 3.1 description,
 * generated ahead of time from the route table and the handlers by local/openapi/ and bundled as
 * data, so no generator and no zod-to-JSON-Schema work runs here. The same for every caller.
 */
export const handler = buildEndpoint(
  { access: 'public', loginExempt: true, authentication: 'skip', input: noInput(), run: () => openApiDocument },
  dependencies,
);
