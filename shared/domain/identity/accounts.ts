import { errors } from '../../errors.ts';
import { characterCount, checkNameCharacters } from '../inputLimits.ts';
import type { Parameters } from '../instance/parameters.ts';
import { regexpProblem, safeRegexpTest } from '../safeRegexp.ts';

/**
 * Rules for account data: e-mail addresses (the installation's `emailregexp`), passwords and
 * real names. Every check answers with Bugzilla's code for the failure.
 */
export const MIN_PASSWORD_LENGTH = 3;
export const MAX_PASSWORD_LENGTH = 4096;
/** Bugzilla 5.2's validate_email_syntax: at most 127 characters, the emailsuffix included. */
export const MAX_LOGIN_LENGTH = 127;

export function checkEmail(email: string, parameters: Parameters): string {
  const trimmed = email.trim();
  if (trimmed === '') throw errors.missingParameter('You must enter an e-mail address for the new account.');
  checkNameCharacters(trimmed, 'e-mail address', errors.invalidEmail);
  // The administrator's pattern runs in linear time (safeRegexp.ts); a broken one falls back to a plain shape check.
  const matches =
    regexpProblem(parameters.emailregexp) === null
      ? safeRegexpTest(parameters.emailregexp, trimmed)
      : /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(trimmed);
  const tooLong = characterCount(trimmed) + characterCount(parameters.emailsuffix ?? '') > MAX_LOGIN_LENGTH;
  if (tooLong || /[\s,]/.test(trimmed) || !matches) {
    throw errors.invalidEmail(
      `The e-mail address you entered (${trimmed}) didn't pass our syntax checking for a legal email address. ${parameters.emailregexpdesc ?? ''}`.trim(),
    );
  }
  return trimmed;
}

/** Blank means "no password": the account cannot log in with one until it is set. */
export function checkPassword(password: string | undefined): string | undefined {
  const trimmed = password?.trim() ?? '';
  if (trimmed === '') return undefined;
  if (characterCount(trimmed) < MIN_PASSWORD_LENGTH) {
    throw errors.passwordTooShort(`The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
  if (characterCount(trimmed) > MAX_PASSWORD_LENGTH)
    throw errors.passwordTooLong(`The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`);
  return trimmed;
}

export function checkRealName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  checkNameCharacters(trimmed, 'real name');
  if (characterCount(trimmed) > 255)
    throw errors.invalidParameter('The real name must be at most 255 characters long.');
  return trimmed;
}
