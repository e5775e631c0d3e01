import type * as z from 'zod';
import type { IdentityDirectory } from '../domain/identity/authentication.ts';
import { buildEndpoint, type EndpointDefinition, type LambdaHandler } from './endpointChain.ts';

/**
 * For handlers that read no table of their own (version, time, the 404 answer...): the stores,
 * and with them the DynamoDB client and the SDK's credential chain, are imported on first use,
 * so a call without credentials never evaluates them and the function's init is about a third
 * shorter. esbuild inlines the dynamic import into the one-file bundle (nothing is fetched at run
 * time; only evaluation is deferred), at the price of keeping more of the SDK in the bundle.
 */
const stores = () => import('../storage/identity/identityDirectory.ts');

const lazyDirectory: IdentityDirectory = {
  findApiKey: async (digest) => (await stores()).identityDirectory.findApiKey(digest),
  markApiKeyUsed: async (digest, at) => (await stores()).identityDirectory.markApiKeyUsed(digest, at),
  findLoginToken: async (digest) => (await stores()).identityDirectory.findLoginToken(digest),
  claimLoginAttempt: async (userId, source, now, maxAttempts) =>
    (await stores()).identityDirectory.claimLoginAttempt(userId, source, now, maxAttempts),
  decoyLoginAttempt: async (source) => (await stores()).identityDirectory.decoyLoginAttempt(source),
  clearLoginFailures: async (userId, source) => (await stores()).identityDirectory.clearLoginFailures(userId, source),
  maxLoginAttempts: async () => (await stores()).identityDirectory.maxLoginAttempts(),
  findUserIdByLogin: async (login) => (await stores()).identityDirectory.findUserIdByLogin(login),
  loadUserWithMembership: async (userId) => (await stores()).identityDirectory.loadUserWithMembership(userId),
  listGroups: async () => (await stores()).identityDirectory.listGroups(),
};

export function defineStorelessEndpoint<Schema extends z.ZodType>(
  definition: EndpointDefinition<Schema>,
): LambdaHandler {
  return buildEndpoint(definition, {
    directory: () => lazyDirectory,
    installationRequiresLogin: async () => (await stores()).installationRequiresLogin(),
  });
}
