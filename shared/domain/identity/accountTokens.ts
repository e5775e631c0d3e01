import { randomBytes } from 'node:crypto';
import { errors } from '../../errors.ts';
import type { Parameters } from '../instance/parameters.ts';
import { regexpProblem, safeRegexpTest } from '../safeRegexp.ts';
import { secretDigest } from './credentials.ts';

/**
 * The tokens Bugzilla mails to prove that a person reads an address (Bugzilla::Token): a new
 * account (`account`), a forgotten password (`password`), an invitation to set the first password
 * of an account that has none (`invitation`, Tracker's, for imported accounts), and both halves of
 * a change of e-mail address (`emailnew` confirms at the new address, `emailold` lets the old
 * address cancel). Only the token's SHA-256 digest is stored; the token itself is only in the mail.
 */
export type AccountTokenKind = 'account' | 'password' | 'invitation' | 'emailnew' | 'emailold';

/** Bugzilla's MAX_TOKEN_AGE: a mailed token lapses after three days. */
export const TOKEN_LIFETIME_MS = 3 * 24 * 60 * 60 * 1000;
/** An invitation after an import may wait longer for its reader: fourteen days. */
export const INVITATION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;
/** Bugzilla's ACCOUNT_CHANGE_INTERVAL: one token of a kind per address every ten minutes. */
export const ACCOUNT_CHANGE_INTERVAL_MS = 10 * 60 * 1000;
/** Requests that mail a token, from one client address, per window (a burst from one client is refused). */
export const CLIENT_MAIL_REQUESTS = 10;
export const CLIENT_WINDOW_MS = 60 * 60 * 1000;

export interface AccountToken {
  kind: AccountTokenKind;
  /** The account the token is about; absent for a new account, which has no id yet. */
  userId?: number;
  /** The address it was mailed to: the new login for `account`, the new address for e-mail changes. */
  login: string;
  /** For e-mail changes, the login before the change (Bugzilla's `old:new` eventdata). */
  previousLogin?: string;
  createdAt: number;
  expiresAt: number;
}

/** A fresh token (43 characters of base64url, 256 random bits) and the digest it is stored under. */
export function newTokenSecret(): { token: string; digest: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, digest: secretDigest(token) };
}

/** Tokens are looked up by digest; text that cannot be a token is never looked up at all. */
export function tokenDigest(token: string): string | null {
  const trimmed = token.trim();
  return /^[A-Za-z0-9_-]{20,100}$/.test(trimmed) ? secretDigest(trimmed) : null;
}

export const isLive = (token: Pick<AccountToken, 'expiresAt'>, now: number): boolean => token.expiresAt > now;

/** Bugzilla's token_does_not_exist: one answer for a wrong, used, expired or cancelled token. */
export const tokenDoesNotExist = () =>
  errors.invalidParameter('The token you submitted does not exist, has expired, or has been canceled.');

/** Bugzilla's too_soon_for_new_token, for any address, whether or not it has an account. */
export type TokenRequest = 'a password' | 'an account' | 'an e-mail address change';

export const tooSoonForNewToken = (what: TokenRequest) =>
  errors.invalidParameter(
    `You have requested ${what} token too recently to request another. Please wait ${ACCOUNT_CHANGE_INTERVAL_MS / 60_000} minutes then try again.`,
  );

/** Tracker's limit on one client: it says nothing about any address. */
export const tooManyRequestsFromClient = () =>
  errors.invalidParameter(
    `Too many account mails were requested from your address. Please wait ${CLIENT_WINDOW_MS / 60_000} minutes then try again.`,
  );

/**
 * Bugzilla's check_account_creation_enabled and the createemailregexp test of
 * check_and_send_account_creation_confirmation: an empty createemailregexp switches sign-up off,
 * and an address it does not match (case-insensitively) is refused. Both are 501.
 */
export function checkAccountCreation(login: string, parameters: Parameters): void {
  const pattern = parameters.createemailregexp ?? '';
  const maintainer = parameters.maintainer ?? '';
  if (pattern === '') {
    throw errors.invalidEmail(
      `User account creation has been disabled. New accounts must be created by an administrator. The maintainer is ${maintainer}.`,
    );
  }
  if (regexpProblem(pattern) !== null || !safeRegexpTest(pattern, login, { caseInsensitive: true })) {
    throw errors.invalidEmail(
      `User account creation has been restricted. Contact your administrator or the maintainer (${maintainer}) for information about creating an account.`,
    );
  }
}

/** Bugzilla's allowemailchange: off, a person cannot change their own login. */
export function checkEmailChangeAllowed(parameters: Parameters): void {
  if ((parameters.allowemailchange ?? '1') !== '1') {
    throw errors.authorizationRequired(
      'Changing your e-mail address is not allowed on this installation (the allowemailchange parameter is off); ask an administrator.',
    );
  }
}
