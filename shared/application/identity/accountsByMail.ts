import { createHash } from 'node:crypto';
import {
  type AccountMailContext,
  emailChangeNewMail,
  emailChangeOldMail,
  existingAccountMail,
  invitationMail,
  newAccountMail,
  passwordResetMail,
} from '../../domain/identity/accountMail.ts';
import { checkEmail, checkPassword } from '../../domain/identity/accounts.ts';
import {
  ACCOUNT_CHANGE_INTERVAL_MS,
  type AccountTokenKind,
  CLIENT_MAIL_REQUESTS,
  CLIENT_WINDOW_MS,
  checkAccountCreation,
  checkEmailChangeAllowed,
  INVITATION_LIFETIME_MS,
  isLive,
  newTokenSecret,
  TOKEN_LIFETIME_MS,
  type TokenRequest,
  tokenDigest,
  tokenDoesNotExist,
  tooManyRequestsFromClient,
  tooSoonForNewToken,
} from '../../domain/identity/accountTokens.ts';
import { ANONYMOUS, type Caller } from '../../domain/identity/caller.ts';
import { failureSource } from '../../domain/identity/loginThrottle.ts';
import type { Parameters } from '../../domain/instance/parameters.ts';
import type { MailMessage } from '../../domain/notification/bugMailMessage.ts';
import { mailAddress, mailDelivery } from '../../domain/notification/mailRecipients.ts';
import { errors } from '../../errors.ts';
import {
  claimAddressInterval,
  claimClientRequest,
  deleteAccountToken,
  findAccountToken,
  putAccountToken,
  type StoredAccountToken,
  spendAccountToken,
} from '../../storage/identity/accountTokenStore.ts';
import { findUserIdByLogin, getUsers, listAllUsers } from '../../storage/identity/userStore.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';
import { type AccountMailDelivery, deliverAccountMail } from '../../storage/notification/accountMailOutbox.ts';
import { createUser, updateUsers } from './users.ts';

/**
 * Accounts by mail, as Bugzilla 5.2 runs them (Bugzilla::Token, createaccount.cgi, token.cgi):
 * self-registration (User.offer_account_by_email), a forgotten password, a change of e-mail
 * address confirmed from the new address, and (Tracker's) invitations to set a first password.
 * Each mails a token; the table keeps its digest only; a token works once and lapses.
 *
 * No answer says whether an address has an account: a sign-up for a taken address and a reset
 * for an unknown one answer exactly as the others do, and the limits (one token per address and
 * kind every ten minutes, a budget per client address) count every address alike.
 */
export interface RequestSource {
  sourceIp: string | undefined;
}

interface MailSetting {
  parameters: Parameters;
  delivery: AccountMailDelivery | null;
  context: AccountMailContext;
}

async function mailSetting(now: Date): Promise<MailSetting> {
  const parameters = await loadParameters();
  const method = mailDelivery(parameters);
  const delivery = method === 'none' ? null : method;
  // Links are built from urlbase alone (never from the request's Host, which a caller chooses).
  if (delivery && (parameters.urlbase ?? '').trim() === '')
    throw errors.invalidParameter(
      'The urlbase parameter is not set, so Tracker cannot mail a link to its web pages. An administrator must set it.',
    );
  return { parameters, delivery, context: { parameters, now } };
}

const addressDigest = (login: string) => createHash('sha256').update(login.trim().toLowerCase()).digest('hex');

async function limitClient(request: RequestSource, now: number): Promise<void> {
  if (!(await claimClientRequest(failureSource(request.sourceIp), now, CLIENT_MAIL_REQUESTS, CLIENT_WINDOW_MS)))
    throw tooManyRequestsFromClient();
}

async function limitAddress(kind: string, login: string, now: number, what: TokenRequest): Promise<void> {
  if (!(await claimAddressInterval(kind, addressDigest(login), now, ACCOUNT_CHANGE_INTERVAL_MS)))
    throw tooSoonForNewToken(what);
}

async function send(setting: MailSetting, purpose: string, message: MailMessage): Promise<void> {
  if (setting.delivery) await deliverAccountMail(purpose, message, setting.delivery);
}

/** Stores a new token and gives back the secret for the mail. */
async function issueToken(
  kind: AccountTokenKind,
  fields: Omit<StoredAccountToken, 'digest' | 'kind' | 'createdAt' | 'expiresAt'>,
  now: number,
  lifetime = TOKEN_LIFETIME_MS,
): Promise<{ token: string; digest: string; expiresAt: number }> {
  const { token, digest } = newTokenSecret();
  const expiresAt = now + lifetime;
  await putAccountToken({ ...fields, digest, kind, createdAt: now, expiresAt });
  return { token, digest, expiresAt };
}

/** The live token a secret names, if it is one of `kinds`; Bugzilla's token_does_not_exist otherwise. */
async function liveToken(secret: string, kinds: readonly AccountTokenKind[], now: number): Promise<StoredAccountToken> {
  const digest = tokenDigest(secret);
  const token = digest ? await findAccountToken(digest) : null;
  if (!token || !kinds.includes(token.kind) || !isLive(token, now)) throw tokenDoesNotExist();
  return token;
}

/**
 * User.offer_account_by_email: mails a link that lets the person choose a password and a real
 * name and create the account. 501 when sign-up is off (createemailregexp empty) or the address
 * does not match it, as in 5.2. An address that has an account is mailed a notice instead.
 */
export async function offerAccountByEmail(email: string, request: RequestSource): Promise<Record<string, never>> {
  const now = new Date();
  const setting = await mailSetting(now);
  const login = checkEmail(email, setting.parameters);
  checkAccountCreation(login, setting.parameters);
  await limitClient(request, now.getTime());
  await limitAddress('account', login, now.getTime(), 'an account');
  const to = mailAddress(login, setting.parameters);
  if ((await findUserIdByLogin(login)) !== null) {
    await send(setting, 'exists', existingAccountMail(setting.context, to));
    return {};
  }
  if (!setting.delivery) return {};
  const issued = await issueToken('account', { login }, now.getTime());
  await send(setting, 'new', newAccountMail(setting.context, to, issued.token, issued.expiresAt));
  return {};
}

/** token.cgi's request_new_account, confirmed: the account is created and the token spent, at once. */
export async function createAccountFromToken(
  secret: string,
  input: { password: string; full_name?: string },
): Promise<{ id: number; login: string }> {
  const now = Date.now();
  const token = await liveToken(secret, ['account'], now);
  const parameters = await loadParameters();
  // Sign-up switched off since the mail left: the token no longer creates anything.
  checkAccountCreation(token.login, parameters);
  if (checkPassword(input.password) === undefined) throw errors.passwordTooShort('You must enter a password.');
  const { id } = await createUser(
    ANONYMOUS,
    { email: token.login, full_name: input.full_name, password: input.password },
    { within: (transaction) => spendAccountToken(transaction, token.digest, now, tokenDoesNotExist) },
  );
  return { id, login: token.login };
}

/**
 * token.cgi's reqpw: mails a password token to the account with that login, if there is one that
 * may log in; the answer is the same either way.
 */
export async function requestPasswordReset(login: string, request: RequestSource): Promise<Record<string, never>> {
  const now = new Date();
  const setting = await mailSetting(now);
  const trimmed = login.trim();
  if (trimmed === '') throw errors.argumentNotSet('email');
  await limitClient(request, now.getTime());
  await limitAddress('password', trimmed, now.getTime(), 'a password');
  const userId = await findUserIdByLogin(trimmed);
  const [user] = userId === null ? [] : await getUsers([userId]);
  if (user?.disabledText !== '' || !setting.delivery) return {};
  const issued = await issueToken('password', { login: user.login, userId: user.id }, now.getTime());
  const to = mailAddress(user.login, setting.parameters);
  const from = request.sourceIp ?? 'an unknown address';
  await send(setting, 'password', passwordResetMail(setting.context, to, issued.token, issued.expiresAt, from));
  return {};
}

/**
 * token.cgi's cfmpw (and an invitation's link): sets the password and spends the token in one
 * write; every login token of the account ends, as with any new password.
 */
export async function setPasswordFromToken(secret: string, password: string): Promise<{ id: number; login: string }> {
  const now = Date.now();
  const token = await liveToken(secret, ['password', 'invitation'], now);
  if (token.userId === undefined) throw tokenDoesNotExist();
  const [user] = await getUsers([token.userId]);
  // A token mailed to an address is void once the account moved to another one, or was disabled.
  if (!user || user.login.toLowerCase() !== token.login.toLowerCase() || user.disabledText !== '')
    throw tokenDoesNotExist();
  if (checkPassword(password) === undefined) throw errors.passwordTooShort('You must enter a password.');
  await updateUsers(
    ANONYMOUS,
    { ids: [user.id], names: [] },
    { password, password_change_required: false },
    { actorId: user.id, within: (transaction) => spendAccountToken(transaction, token.digest, now, tokenDoesNotExist) },
  );
  return { id: user.id, login: user.login };
}

/**
 * userprefs.cgi's new login, with allowemailchange on: nothing changes yet; the new address gets
 * a link to confirm (emailnew), the old one a link to cancel (emailold). Whether the new address
 * is taken is found out only when it is confirmed, so the answer does not say.
 */
export async function requestEmailChange(caller: Caller, newEmail: string): Promise<{ pending: string } | null> {
  const user = caller.user;
  if (!user) throw errors.loginRequired();
  const now = new Date();
  const setting = await mailSetting(now);
  checkEmailChangeAllowed(setting.parameters);
  const login = checkEmail(newEmail, setting.parameters);
  if (login.toLowerCase() === user.login.toLowerCase()) return null;
  if (!setting.delivery)
    throw errors.invalidParameter(
      'Mail is off on this installation (mail_delivery_method is None), so a new e-mail address cannot be confirmed.',
    );
  await limitAddress('email', user.login, now.getTime(), 'an e-mail address change');
  const fields = { userId: user.id, login, previousLogin: user.login };
  const newSecret = newTokenSecret();
  const oldSecret = newTokenSecret();
  const createdAt = now.getTime();
  const expiresAt = createdAt + TOKEN_LIFETIME_MS;
  await putAccountToken({
    ...fields,
    kind: 'emailnew',
    digest: newSecret.digest,
    pairDigest: oldSecret.digest,
    createdAt,
    expiresAt,
  });
  await putAccountToken({
    ...fields,
    kind: 'emailold',
    digest: oldSecret.digest,
    pairDigest: newSecret.digest,
    createdAt,
    expiresAt,
  });
  const newAddress = mailAddress(login, setting.parameters);
  const oldAddress = mailAddress(user.login, setting.parameters);
  await send(
    setting,
    'email-new',
    emailChangeNewMail(setting.context, newAddress, oldAddress, newSecret.token, expiresAt),
  );
  await send(
    setting,
    'email-old',
    emailChangeOldMail(setting.context, oldAddress, newAddress, oldSecret.token, expiresAt),
  );
  return { pending: login };
}

/**
 * token.cgi's cfmem: the login becomes the new address, and the token is spent in the same write.
 * The old address's cancel token stays, so the old address can still undo the change (cxlem).
 */
export async function confirmEmailChange(secret: string): Promise<{ id: number; login: string }> {
  const now = Date.now();
  const token = await liveToken(secret, ['emailnew'], now);
  const [user] = token.userId === undefined ? [] : await getUsers([token.userId]);
  if (!user || user.login.toLowerCase() !== (token.previousLogin ?? '').toLowerCase()) throw tokenDoesNotExist();
  await updateUsers(
    ANONYMOUS,
    { ids: [user.id], names: [] },
    { email: token.login },
    { actorId: user.id, within: (transaction) => spendAccountToken(transaction, token.digest, now, tokenDoesNotExist) },
  );
  return { id: user.id, login: token.login };
}

/**
 * token.cgi's cancel_new_account, cxlpw and cxlem: the request is forgotten. Cancelling an e-mail
 * change from the old address after the new one confirmed it puts the old login back, as
 * Bugzilla's cxlem does.
 */
export async function cancelToken(secret: string): Promise<{ kind: AccountTokenKind }> {
  const now = Date.now();
  const token = await liveToken(secret, ['account', 'password', 'invitation', 'emailnew', 'emailold'], now);
  if (token.kind === 'emailold' && token.userId !== undefined && token.previousLogin) {
    const [user] = await getUsers([token.userId]);
    if (user && user.login.toLowerCase() === token.login.toLowerCase()) {
      await updateUsers(
        ANONYMOUS,
        { ids: [user.id], names: [] },
        { email: token.previousLogin },
        {
          actorId: user.id,
          within: (transaction) => spendAccountToken(transaction, token.digest, now, tokenDoesNotExist),
        },
      );
      if (token.pairDigest) await deleteAccountToken(token.pairDigest);
      return { kind: token.kind };
    }
  }
  if (!(await deleteAccountToken(token.digest))) throw tokenDoesNotExist();
  if (token.pairDigest) await deleteAccountToken(token.pairDigest);
  return { kind: token.kind };
}

/** What a token is for, for the page that follows its link (never the token's secret). */
export async function describeToken(
  secret: string,
): Promise<{ kind: AccountTokenKind; login: string; expires: string }> {
  const token = await liveToken(secret, ['account', 'password', 'invitation', 'emailnew', 'emailold'], Date.now());
  return { kind: token.kind, login: token.login, expires: new Date(token.expiresAt).toISOString() };
}

export interface InvitationReport {
  /** Accounts without a password that may log in. */
  candidates: number;
  invited: number;
  /** Already invited by an earlier run whose link has not lapsed: not mailed again. */
  skipped: number;
  dry_run: boolean;
  /** Candidates this run did not reach (it stopped at `limit`): run it again for them. */
  remaining: number;
  logins: string[];
}

/** Invitations one request sends at most, so a request stays well inside the API's time limit. */
export const INVITATIONS_PER_RUN = 50;

/**
 * After an import: invites every enabled account that has no password (imported people), by mail,
 * with a set-password link valid fourteen days. A run again mails nobody whose invitation has not
 * lapsed, so an interrupted run can simply be started again.
 */
export async function inviteAccountsWithoutPassword(
  options: { dryRun?: boolean; limit?: number } = {},
): Promise<InvitationReport> {
  const limit = Math.max(1, Math.min(options.limit ?? INVITATIONS_PER_RUN, INVITATIONS_PER_RUN));
  const now = new Date();
  const setting = await mailSetting(now);
  const candidates = (await listAllUsers()).filter((account) => !account.passwordHash && account.disabledText === '');
  const report: InvitationReport = {
    candidates: candidates.length,
    invited: 0,
    skipped: 0,
    dry_run: options.dryRun === true,
    remaining: 0,
    logins: [],
  };
  if (!setting.delivery && !options.dryRun)
    throw errors.invalidParameter(
      'Mail is off on this installation (mail_delivery_method is None): set it to SMTP, Sendmail or Test first.',
    );
  let done = 0;
  for (const account of candidates) {
    if (report.invited >= limit) break;
    done++;
    if (options.dryRun) {
      report.logins.push(account.login);
    } else if (
      await claimAddressInterval('invitation', addressDigest(account.login), Date.now(), INVITATION_LIFETIME_MS)
    ) {
      const issued = await issueToken(
        'invitation',
        { login: account.login, userId: account.id },
        Date.now(),
        INVITATION_LIFETIME_MS,
      );
      const to = mailAddress(account.login, setting.parameters);
      await send(
        setting,
        'invitation',
        invitationMail(setting.context, to, account.realName, issued.token, issued.expiresAt),
      );
      report.invited++;
      report.logins.push(account.login);
    } else report.skipped++;
  }
  report.remaining = candidates.length - done;
  return report;
}
