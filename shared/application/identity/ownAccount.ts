import { checkPassword } from '../../domain/identity/accounts.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { passwordDecoy, verifyPassword } from '../../domain/identity/credentials.ts';
import { failureSource } from '../../domain/identity/loginThrottle.ts';
import { errors } from '../../errors.ts';
import { identityDirectory } from '../../storage/identity/identityDirectory.ts';
import { loadUserWithMembership } from '../../storage/identity/userStore.ts';
import { requestEmailChange } from './accountsByMail.ts';
import { issueLoginToken } from './sessions.ts';
import { updateUsers } from './users.ts';

/**
 * The caller's own account (PUT /rest/preferences/account, a Tracker addition): what Bugzilla's
 * web preferences (userprefs.cgi, tab=account) let any logged-in person change, namely the real
 * name, the password (given the current one), whether bug mail is sent and (with allowemailchange
 * on, given the current password) the login, which only changes once the new address confirms it
 * from the mail it is sent.
 * The groups are never touched here: Update User (editusers) changes those.
 */
export interface OwnAccountChanges {
  full_name?: string;
  current_password?: string;
  new_password?: string;
  email_enabled?: boolean;
  /** A new login: mailed for confirmation (accountsByMail.ts), changed only when confirmed. */
  email?: string;
}

export interface OwnAccountResult {
  id: number;
  changes: Record<string, { removed: string; added: string }>;
  /** A fresh login token when the password changed and the request came with a token. */
  token?: string;
  /** The new address a confirmation was mailed to (the login is unchanged until it is confirmed). */
  email_change_pending?: string;
}

/**
 * Checks the current password as a login would, counted against the same per-account, per-address
 * budget (max_login_attempts in the lockout window): a stolen session cannot guess the password
 * faster than the login form could. A wrong password answers 300, Bugzilla's code for it.
 */
async function checkCurrentPassword(userId: number, password: string, sourceIp: string | undefined, now: Date) {
  const directory = identityDirectory;
  const source = failureSource(sourceIp);
  const record = await loadUserWithMembership(userId, { consistent: true });
  if (!record) throw errors.notFoundById('user', userId);
  const claimed = await directory.claimLoginAttempt(userId, source, now.getTime(), await directory.maxLoginAttempts());
  // The same scrypt work whether or not the attempt was granted, and for an account with no password.
  const valid = await verifyPassword(
    password,
    (claimed ? record.user.passwordHash : undefined) ?? (await passwordDecoy()),
  );
  if (!claimed || !valid || !record.user.passwordHash) throw errors.wrongCurrentPassword();
  await directory.clearLoginFailures(userId, source);
}

export async function updateOwnAccount(
  caller: Caller,
  changes: OwnAccountChanges,
  request: { sourceIp: string | undefined; usedLoginToken: boolean },
): Promise<OwnAccountResult> {
  const user = caller.user;
  if (!user) throw errors.loginRequired();
  const now = new Date();
  let newPassword: string | undefined;
  if (changes.new_password !== undefined) {
    // The new password's rules first: a refused new password costs no attempt.
    newPassword = checkPassword(changes.new_password);
    if (newPassword === undefined) throw errors.passwordTooShort('The new password must not be blank.');
  }
  // As userprefs.cgi: a new login, like a new password, takes the current password, so that a
  // session left open (or stolen) cannot move the account to another address.
  const newLogin = changes.email !== undefined && changes.email.trim().toLowerCase() !== user.login.toLowerCase();
  if (newPassword !== undefined || newLogin) {
    if (!changes.current_password) throw errors.argumentNotSet('current_password');
    await checkCurrentPassword(user.id, changes.current_password, request.sourceIp, now);
  }
  // Update User's own path (its checks, its audit entry, its answer), limited to these fields and
  // this one account. A new password ends every login token of the account (tokensNotBefore).
  const { users } = await updateUsers(
    caller,
    { ids: [user.id], names: [] },
    {
      full_name: changes.full_name,
      password: newPassword,
      email_enabled: changes.email_enabled,
    },
  );
  const result: OwnAccountResult = { id: user.id, changes: users[0]?.changes ?? {} };
  // As Bugzilla's userprefs.cgi: a new login is mailed to both addresses, after the other changes.
  if (changes.email !== undefined) {
    const pending = await requestEmailChange(caller, changes.email);
    if (pending) result.email_change_pending = pending.pending;
  }
  // Bugzilla keeps the session that changed the password and ends the others: the caller's token
  // died with the rest, so it gets a new one, issued after the cut-off.
  if (newPassword !== undefined && request.usedLoginToken) result.token = await issueLoginToken(user.id, new Date());
  return result;
}
