import type * as z from 'zod';
import { identityDirectory, installationRequiresLogin } from '../storage/identity/identityDirectory.ts';
import {
  buildEndpoint,
  type EndpointDefinition,
  type EndpointDependencies,
  type LambdaHandler,
} from './endpointChain.ts';

export type {
  Access,
  EndpointContext,
  EndpointDefinition,
  EndpointDependencies,
  LambdaHandler,
} from './endpointChain.ts';

const storeDependencies: EndpointDependencies = { directory: () => identityDirectory, installationRequiresLogin };

/**
 * An endpoint whose chain reads users, keys and parameters from DynamoDB, imported at module
 * load: nearly every handler reads the table anyway, Lambda's init phase runs with more CPU than
 * an invocation of a small function, and a static import lets esbuild drop the SDK code nobody
 * calls (a lazy import keeps about 40 KB more of it). Handlers that read no table of their own
 * use defineStorelessEndpoint (storelessEndpoint.ts). Tests may substitute in-memory versions.
 */
export function defineEndpoint<Schema extends z.ZodType>(
  definition: EndpointDefinition<Schema>,
  dependencies: Partial<EndpointDependencies> = {},
): LambdaHandler {
  return buildEndpoint(definition, { ...storeDependencies, ...dependencies });
}
