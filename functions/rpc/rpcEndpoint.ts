import * as z from 'zod';
import type { EndpointDefinition } from '../../shared/http/endpointChain.ts';
import { rpcEndpoint } from '../../shared/http/rpc/rpcServer.ts';
import { restHandler } from './restHandlers.ts';

/**
 * `POST /xmlrpc.cgi`, `POST /jsonrpc.cgi` and `GET /jsonrpc.cgi`: Bugzilla's XML-RPC and JSON-RPC
 * WebService over the REST routes' own handlers (shared/http/rpc/).
 */
const served = rpcEndpoint(restHandler);

/**
 * What the generated API description (local/openapi/) reads from a handler: who may call it and
 * what it takes. The endpoint is public; each method's route decides for its call, from the
 * credentials among the call's parameters. Its input is JSON-RPC's (an XML-RPC call is a
 * `methodCall` document instead); the parameters of each method are those of its REST route.
 */
const description: EndpointDefinition<z.ZodType> = {
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  input: z.object({
    method: z.string().describe('The method, by its Bugzilla name: `Bug.get`, `User.login`, …'),
    params: z
      .unknown()
      .optional()
      .describe(
        'A list holding one object of named parameters (JSON-RPC 1.0; 1.1 takes the object too); by GET, that list as JSON text. Credentials go in it: `Bugzilla_api_key`, `Bugzilla_login` and `Bugzilla_password`, or `Bugzilla_token`.',
      ),
    id: z.unknown().optional().describe('Echoed in the answer; a JSON-RPC 1.0 call without one gets an empty answer.'),
    version: z.string().optional().describe('`1.1` for JSON-RPC 1.1 answers.'),
    callback: z.string().optional().describe('GET: answer as JSONP, calling this function.'),
  }),
  run: () => {
    throw new Error('The RPC endpoint is served by rpcEndpoint, not by the REST chain');
  },
};

export const handler = Object.assign(served, { definition: description });
