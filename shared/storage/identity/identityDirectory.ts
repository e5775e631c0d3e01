import type { IdentityDirectory } from '../../domain/identity/authentication.ts';
import { loadParameters } from '../instance/parameterStore.ts';
import { findApiKey, markApiKeyUsed } from './apiKeyStore.ts';
import { listGroups } from './groupStore.ts';
import { claimLoginAttempt, clearLoginFailures, decoyLoginAttempt, maxLoginAttempts } from './loginFailureStore.ts';
import { findLoginToken } from './loginTokenStore.ts';
import { findUserIdByLogin, loadUserWithMembership } from './userStore.ts';

/**
 * The DynamoDB-backed directory that authentication reads. Named imports, not the stores'
 * namespaces: the endpoint chain imports this module lazily (shared/http/endpoint.ts), and esbuild
 * keeps every export of a lazily imported namespace, so the namespace would drag in every store
 * function and every DynamoDB command.
 */
export const identityDirectory: IdentityDirectory = {
  findApiKey,
  markApiKeyUsed,
  findLoginToken,
  claimLoginAttempt,
  decoyLoginAttempt,
  clearLoginFailures,
  maxLoginAttempts,
  findUserIdByLogin,
  loadUserWithMembership,
  listGroups,
};

/** Bugzilla's `requirelogin` parameter. */
export const installationRequiresLogin = async (): Promise<boolean> => (await loadParameters()).requirelogin === '1';
