import { errors } from '../../errors.ts';
import type { TrackerError } from '../../trackerError.ts';
import { ANONYMOUS, type Caller, callerFor, type GroupSummary, type Membership, type UserAccount } from './caller.ts';
import { passwordDecoy, secretDigest, verifyPassword } from './credentials.ts';
import { failureSource } from './loginThrottle.ts';

/**
 * Turns whatever credentials a request carries into a Caller. Every form Bugzilla and the spec
 * accept is read, in the precedence of clarifications.md; a credential that is present but wrong
 * is an error, never a silent anonymous call.
 */
export type Credentials =
  | { kind: 'apiKey'; key: string }
  | { kind: 'token'; token: string }
  | { kind: 'password'; login: string; password: string };

type Headers = Record<string, string | undefined>;
type Params = Record<string, unknown>;

const API_KEY_HEADERS = ['x-tracker-api-key', 'x-bugzilla-api-key'];
const API_KEY_PARAMS = ['Tracker_api_key', 'api_key', 'Bugzilla_api_key'];
const TOKEN_PARAMS = ['token', 'Tracker_token', 'Bugzilla_token'];
const TOKEN_HEADERS = ['x-tracker-token', 'x-bugzilla-token'];
const LOGIN_PARAM_PAIRS: Array<[string, string]> = [
  ['Tracker_login', 'Tracker_password'],
  ['login', 'password'],
  ['Bugzilla_login', 'Bugzilla_password'],
];
const LOGIN_HEADER_PAIRS: Array<[string, string]> = [
  ['x-tracker-login', 'x-tracker-password'],
  ['x-bugzilla-login', 'x-bugzilla-password'],
];

/** Every parameter that carries a credential; the input seen by endpoints never holds them. */
export const CREDENTIAL_PARAMS: readonly string[] = [...API_KEY_PARAMS, ...TOKEN_PARAMS, ...LOGIN_PARAM_PAIRS.flat()];

/**
 * The credential parameters to take out of an endpoint's input. `password` alone is the new
 * password of Create User or Update User; it is a credential only next to `login`.
 */
export function credentialParamsIn(params: Params): string[] {
  const names: string[] = [...API_KEY_PARAMS, ...TOKEN_PARAMS];
  for (const [loginName, passwordName] of LOGIN_PARAM_PAIRS) {
    if (params[loginName] !== undefined) names.push(loginName, passwordName);
  }
  return names.filter((name) => name in params);
}

const text = (value: unknown): string | undefined => {
  const single = Array.isArray(value) ? value[0] : value;
  return typeof single === 'string' && single !== '' ? single : undefined;
};

export function extractCredentials(headers: Headers, params: Params): Credentials | null {
  for (const name of API_KEY_HEADERS) {
    const key = text(headers[name]);
    if (key) return { kind: 'apiKey', key };
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  if (bearer) return { kind: 'apiKey', key: bearer[1] };
  for (const name of API_KEY_PARAMS) {
    const key = text(params[name]);
    if (key) return { kind: 'apiKey', key };
  }
  for (const name of TOKEN_PARAMS) {
    const token = text(params[name]);
    if (token) return { kind: 'token', token };
  }
  for (const name of TOKEN_HEADERS) {
    const token = text(headers[name]);
    if (token) return { kind: 'token', token };
  }
  for (const [loginName, passwordName] of LOGIN_PARAM_PAIRS) {
    const login = text(params[loginName]);
    if (login) return { kind: 'password', login, password: text(params[passwordName]) ?? '' };
    // An empty login next to a password is a login that fails (300), as in Bugzilla 5.2 (whose
    // Auth/Login/CGI.pm reads a defined login and password), not an anonymous call.
    const password = text(params[passwordName]);
    if (params[loginName] === '' && password !== undefined) return { kind: 'password', login: '', password };
  }
  for (const [loginName, passwordName] of LOGIN_HEADER_PAIRS) {
    const login = text(headers[loginName]);
    if (login) return { kind: 'password', login, password: text(headers[passwordName]) ?? '' };
  }
  return null;
}

export type UserRecord = { user: UserAccount; membership: Membership };

/** What authentication needs to read; the DynamoDB identity store provides it. */
export interface IdentityDirectory {
  findApiKey(digest: string): Promise<{ userId: number; revoked: boolean; lastUsedAt: string | null } | null>;
  markApiKeyUsed(digest: string, at: string): Promise<void>;
  findLoginToken(digest: string): Promise<{ userId: number; expiresAt: number; createdAt: number } | null>;
  /**
   * Atomically takes one of the max_login_attempts password checks that the account has from
   * this source (loginThrottle.ts `failureSource`) for the lockout window (counted as a failure
   * until the login succeeds); false when none is left.
   */
  claimLoginAttempt(userId: number, source: string, now: number, maxAttempts: number): Promise<boolean>;
  /** Costs what a claim costs, for an unknown login, and records nothing. */
  decoyLoginAttempt(source: string): Promise<void>;
  /** Forgets the account's failures from this source only, as Bugzilla does. */
  clearLoginFailures(userId: number, source: string): Promise<void>;
  /** max_login_attempts, from the parameters. */
  maxLoginAttempts(): Promise<number>;
  findUserIdByLogin(login: string): Promise<number | null>;
  loadUserWithMembership(userId: number): Promise<UserRecord | null>;
  listGroups(): Promise<GroupSummary[]>;
}

/** A stamp of last use at most this often, so a busy key costs no write per request. */
const LAST_USED_GRANULARITY_MS = 60_000;

function activeCaller(record: UserRecord, groups: readonly GroupSummary[]): Caller {
  if (record.user.disabledText) throw errors.accountDisabled(record.user.disabledText);
  return callerFor(record.user, record.membership, groups);
}

/**
 * Every logged-in caller needs the groups (their inheritance and product rights). Asking for them
 * beside the key or token lets the store fetch both in one round trip; the store remembers the
 * answer for the request, and a failure surfaces where the groups are awaited.
 */
function startGroupsRead(directory: IdentityDirectory): void {
  directory.listGroups().catch(() => undefined);
}

async function callerForUserId(
  directory: IdentityDirectory,
  userId: number,
  onMissing: () => TrackerError,
): Promise<Caller> {
  const [record, groups] = await Promise.all([directory.loadUserWithMembership(userId), directory.listGroups()]);
  if (!record) throw onMissing();
  return activeCaller(record, groups);
}

/**
 * `sourceIp` is the client address API Gateway saw (`requestContext.http.sourceIp`), never a
 * header the client wrote: password failures are counted per account and address.
 */
export async function authenticate(
  credentials: Credentials | null,
  directory: IdentityDirectory,
  now: Date,
  sourceIp: string | undefined,
): Promise<Caller> {
  if (!credentials) return ANONYMOUS;
  switch (credentials.kind) {
    case 'apiKey': {
      const digest = secretDigest(credentials.key);
      startGroupsRead(directory);
      const key = await directory.findApiKey(digest);
      if (!key || key.revoked) throw errors.invalidApiKey();
      const caller = await callerForUserId(directory, key.userId, errors.invalidApiKey);
      if (!key.lastUsedAt || now.getTime() - Date.parse(key.lastUsedAt) > LAST_USED_GRANULARITY_MS) {
        await directory.markApiKeyUsed(digest, now.toISOString()).catch(() => undefined);
      }
      return caller;
    }
    case 'token': {
      startGroupsRead(directory);
      const token = await directory.findLoginToken(secretDigest(credentials.token));
      // DynamoDB's TTL deletes expired items lazily, so expiry is checked here too.
      if (!token || token.expiresAt * 1000 <= now.getTime()) throw errors.invalidToken();
      const [record, groups] = await Promise.all([
        directory.loadUserWithMembership(token.userId),
        directory.listGroups(),
      ]);
      if (!record || token.createdAt < (record.user.tokensNotBefore ?? 0)) throw errors.invalidToken();
      return activeCaller(record, groups);
    }
    case 'password':
      return activeCaller(
        await verifyLogin(credentials.login, credentials.password, directory, now, sourceIp),
        await directory.listGroups(),
      );
  }
}

/**
 * Checks a login and password, with Bugzilla's lockout after max_login_attempts failures from
 * one client address (`sourceIp`, see `authenticate`). The answer for an unknown login is the
 * same, and takes as long, as for a wrong password.
 */
export async function verifyLogin(
  login: string,
  password: string,
  directory: IdentityDirectory,
  now: Date,
  sourceIp: string | undefined,
): Promise<UserRecord> {
  const source = failureSource(sourceIp);
  // An unknown login goes through the same reads and writes (user id 0 never exists, the decoy
  // claim writes nothing) and the same scrypt work, then gets the same answer: neither the answer
  // nor its timing tells which logins exist.
  const userId = await directory.findUserIdByLogin(login);
  const record = await directory.loadUserWithMembership(userId ?? 0);
  const maxAttempts = await directory.maxLoginAttempts();
  // The attempt is counted before the password is checked: parallel guesses cannot outrun it.
  let claimed = false;
  if (record) claimed = await directory.claimLoginAttempt(record.user.id, source, now.getTime(), maxAttempts);
  else await directory.decoyLoginAttempt(source);
  const valid = await verifyPassword(
    password,
    (claimed ? record?.user.passwordHash : undefined) ?? (await passwordDecoy()),
  );
  if (!record || !claimed || !valid) throw errors.invalidLogin();
  await directory.clearLoginFailures(record.user.id, source);
  if (record.user.disabledText) throw errors.accountDisabled(record.user.disabledText);
  if (record.user.passwordChangeRequired) throw errors.passwordChangeRequired();
  return record;
}
