import type { IdentityDirectory } from '../domain/authentication.ts';
import * as identityStore from './identityStore.ts';

/** The DynamoDB-backed directory that authentication reads. */
export const identityDirectory: IdentityDirectory = identityStore;
