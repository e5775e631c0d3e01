import {
  authenticate,
  type Credentials,
  extractCredentials,
  verifyLogin,
} from '../../domain/identity/authentication.ts';
import { generateLoginToken, secretDigest } from '../../domain/identity/credentials.ts';
import { identityDirectory } from '../../storage/identity/identityDirectory.ts';
import { deleteLoginToken, putLoginToken } from '../../storage/identity/loginTokenStore.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';

/**
 * Login sessions (spec, "Session states"): Login issues a token valid until Logout (or its
 * lifetime, `login_token_lifetime_days`), Logout kills it, Valid Login checks it against a login.
 * Tokens are stored only as hashes.
 */

/** `sourceIp`: the client address from the API Gateway event, for the per-address lockout. */
export async function logIn(
  login: string,
  password: string,
  sourceIp: string | undefined,
  now = new Date(),
): Promise<{ id: number; token: string }> {
  const { user } = await verifyLogin(login, password, identityDirectory, now, sourceIp);
  return { id: user.id, token: await issueLoginToken(user.id, now) };
}

/** A new login token for the user, valid for `login_token_lifetime_days`; stored only as a hash. */
export async function issueLoginToken(userId: number, now = new Date()): Promise<string> {
  const token = generateLoginToken(userId);
  const lifetimeDays = Number((await loadParameters()).login_token_lifetime_days) || 30;
  await putLoginToken(secretDigest(token), {
    userId,
    createdAt: now.getTime(),
    expiresAt: Math.floor(now.getTime() / 1000) + lifetimeDays * 24 * 3600,
  });
  return token;
}

/** A dead or unknown token is a no-op, as the session table says. */
export async function logOut(token: string | undefined): Promise<void> {
  if (token) await deleteLoginToken(secretDigest(token));
}

/** True when the credentials given (token, API key, ...) are valid and belong to `login`. */
export async function isValidLogin(
  login: string,
  headers: Record<string, string | undefined>,
  params: Record<string, unknown>,
  sourceIp: string | undefined,
): Promise<boolean> {
  const credentials: Credentials | null = extractCredentials(headers, {
    ...params,
    login: undefined,
    password: undefined,
  });
  if (!credentials) return false;
  try {
    const caller = await authenticate(credentials, identityDirectory, new Date(), sourceIp);
    return caller.user !== null && caller.user.login.toLowerCase() === login.toLowerCase();
  } catch {
    return false;
  }
}
