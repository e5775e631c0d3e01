import type { Parameters } from '../instance/parameters.ts';
import { closingHeaders, type MailMessage, mailFrom } from '../notification/bugMailMessage.ts';
import { mailDate } from '../notification/mailText.ts';
import { TOKEN_LIFETIME_MS } from './accountTokens.ts';

/**
 * The account mails Bugzilla 5.2 sends (account/email/request-new.txt.tmpl,
 * account/password/forgotten-password.txt.tmpl, account/email/change-new.txt.tmpl and
 * change-old.txt.tmpl), with Tracker's two additions: the notice to an address that already has an
 * account (so that a sign-up answer never says which addresses have one) and the invitation to
 * set a first password after an import. Links are Bugzilla's (`token.cgi?t=...&a=...`) under
 * urlbase: the web front end answers them.
 */
export interface AccountMailContext {
  parameters: Parameters;
  now: Date;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Bugzilla's `%B %e, %Y at %H:%M %Z`, in UTC. */
export function expiryText(at: number): string {
  const date = new Date(at);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()} at ${two(date.getUTCHours())}:${two(date.getUTCMinutes())} UTC`;
}

/** The address of the web front end every link starts with (urlbase, ending in `/`). */
export const siteBase = (parameters: Parameters): string => {
  const base = (parameters.urlbase ?? '').trim();
  return base === '' || base.endsWith('/') ? base : `${base}/`;
};

export const tokenLink = (parameters: Parameters, token: string, action: string): string =>
  `${siteBase(parameters)}token.cgi?t=${encodeURIComponent(token)}&a=${action}`;

function message(
  context: AccountMailContext,
  to: string,
  subject: string,
  body: string[],
  extraHeaders: Array<[string, string]> = [],
): MailMessage {
  const from = mailFrom(context.parameters);
  return {
    from,
    to,
    headers: [
      ['From', from],
      ['To', to],
      ['Subject', subject],
      ['Date', mailDate(context.now.toISOString())],
      ...extraHeaders,
      ['X-Bugzilla-Type', 'admin'],
      ...closingHeaders(siteBase(context.parameters)),
    ],
    body: `${body.join('\n')}\n`,
  };
}

const maintainerLine = (parameters: Parameters) =>
  `If the above links do not work, or you have any other issues regarding\nyour account, please contact administration at ${parameters.maintainer ?? ''}.`;

/** request-new.txt.tmpl: the link that lets a person choose a password and create the account. */
export function newAccountMail(context: AccountMailContext, to: string, token: string, expiresAt: number): MailMessage {
  const { parameters } = context;
  const until = expiryText(expiresAt);
  const privacy =
    parameters.createemailregexp === '.*' && (parameters.emailsuffix ?? '') === ''
      ? [
          'PRIVACY NOTICE: Tracker is an open bug tracking system. Activity on most',
          'bugs, including email addresses, will be visible to the public. We recommend',
          'using a secondary account or free web email service to avoid receiving spam',
          'at your primary email address.',
          '',
        ]
      : [];
  return message(context, to, 'Tracker: confirm account creation', [
    `Tracker has received a request to create a user account`,
    `using your email address (${to}).`,
    '',
    'To continue creating an account using this email address, visit the',
    `following link by ${until}:`,
    '',
    tokenLink(parameters, token, 'request_new_account'),
    '',
    `If you did not receive this email before ${until} or`,
    'you wish to create an account using a different email address you can begin',
    'again by going to:',
    '',
    `${siteBase(parameters)}createaccount.cgi`,
    '',
    ...privacy,
    'If you do not wish to create an account, or if this request was made in',
    'error you can do nothing or visit the following link:',
    '',
    tokenLink(parameters, token, 'cancel_new_account'),
    '',
    maintainerLine(parameters),
  ]);
}

/**
 * Tracker's addition: a sign-up for an address that already has an account is answered as any
 * other, and the address is told instead (with the way to a new password), so the answer never
 * says which addresses have an account.
 */
export function existingAccountMail(context: AccountMailContext, to: string): MailMessage {
  const { parameters } = context;
  return message(context, to, 'Tracker: you already have an account', [
    'Tracker has received a request to create a user account',
    `using your email address (${to}), but there already is an account with it.`,
    '',
    'If you forgot its password, you can have a new one mailed to you from:',
    '',
    `${siteBase(parameters)}token.cgi?a=reqpw`,
    '',
    'If you did not make this request, you can ignore this mail: nothing was changed.',
    '',
    maintainerLine(parameters),
  ]);
}

/** Bugzilla's closing lines of a mail that confirms a change: the link, the cancel link, the lapse. */
function confirmOrCancel(
  parameters: AccountMailContext['parameters'],
  token: string,
  confirm: string,
  cancel: string,
  expiresAt: number,
  orWhen = '',
): string[] {
  return [
    '',
    tokenLink(parameters, token, confirm),
    '',
    'If you are not the person who made this request, or you wish to cancel',
    'this request, visit the following link:',
    '',
    tokenLink(parameters, token, cancel),
    '',
    `If you do nothing, the request will lapse after ${TOKEN_LIFETIME_MS / 86_400_000} days`,
    `(on ${expiryText(expiresAt)})${orWhen}.`,
  ];
}

/** forgotten-password.txt.tmpl. */
export function passwordResetMail(
  context: AccountMailContext,
  to: string,
  token: string,
  expiresAt: number,
  requestedFrom: string,
): MailMessage {
  const { parameters } = context;
  return message(context, to, 'Tracker Change Password Request', [
    'You have (or someone impersonating you has) requested to change your',
    `Tracker password. The request originated from ${requestedFrom}.`,
    '',
    'To complete the change, visit the following link:',
    ...confirmOrCancel(parameters, token, 'cfmpw', 'cxlpw', expiresAt, ' or when you set a new password'),
    '',
    'If you think someone tried to compromise your account, please inform',
    `${parameters.maintainer ?? ''} with the IP address reported above`,
    'and the exact time when you got this email.',
  ]);
}

/** Tracker's: the first password of an account that has none (an imported one). */
export function invitationMail(
  context: AccountMailContext,
  to: string,
  realName: string,
  token: string,
  expiresAt: number,
): MailMessage {
  const { parameters } = context;
  return message(context, to, 'Tracker: set your password', [
    `Hello${realName ? ` ${realName}` : ''},`,
    '',
    `Your bug tracker has moved to Tracker, and your account (${to}) came with it:`,
    'your bugs, comments and settings are there. It has no password yet.',
    '',
    'To choose your password, visit the following link:',
    '',
    tokenLink(parameters, token, 'cfmpw'),
    '',
    `The link works once, until ${expiryText(expiresAt)}. Later you can have`,
    `a new one mailed to you from ${siteBase(parameters)}token.cgi?a=reqpw`,
    '',
    maintainerLine(parameters),
  ]);
}

/** change-new.txt.tmpl: the new address confirms (or cancels) the change. */
export function emailChangeNewMail(
  context: AccountMailContext,
  to: string,
  oldAddress: string,
  token: string,
  expiresAt: number,
): MailMessage {
  const { parameters } = context;
  return message(context, to, 'Tracker Change Email Address Request', [
    'Tracker has received a request to change the email address',
    `for the account ${oldAddress} to your address.`,
    '',
    'To confirm the change, visit the following link:',
    ...confirmOrCancel(parameters, token, 'cfmem', 'cxlem', expiresAt),
  ]);
}

/** change-old.txt.tmpl: the old address is told, and may cancel (even after the confirmation). */
export function emailChangeOldMail(
  context: AccountMailContext,
  to: string,
  newAddress: string,
  token: string,
  expiresAt: number,
): MailMessage {
  const { parameters } = context;
  return message(
    context,
    to,
    'Tracker Change Email Address Request',
    [
      'Tracker has received a request to change the email address',
      `for your account to ${newAddress}.`,
      '',
      'If you are not the person who made this request, or you wish to cancel',
      'this request, visit the following link:',
      '',
      tokenLink(parameters, token, 'cxlem'),
      '',
      `If you do nothing, and ${newAddress} confirms this request,`,
      `the change will be made permanent after ${TOKEN_LIFETIME_MS / 86_400_000} days`,
      `(on ${expiryText(expiresAt)}).`,
    ],
    [
      ['Importance', 'High'],
      ['X-MSMail-Priority', 'High'],
      ['X-Priority', '1'],
    ],
  );
}
