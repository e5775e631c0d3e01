/**
 * What SES says about mail it could not deliver, and what Tracker does about it. A permanent
 * bounce (the address does not exist, or refuses all mail) or a complaint (the reader marked the
 * mail as spam) means more mail to that address only harms the sender's reputation, and SES
 * suspends accounts whose bounce or complaint rates stay high. So, as bmo does for bouncing
 * addresses, Tracker turns that account's mail off (`email_enabled` false, Bugzilla's
 * disable_mail), which the user or an administrator can turn on again. A transient bounce (a
 * full mailbox, a greylisting server) changes nothing: SES retried it already.
 *
 * SES sends two shapes: event publishing through a configuration set (`eventType`) and identity
 * notifications (`notificationType`); both carry the same `bounce` and `complaint` objects.
 */
export type FeedbackKind = 'bounce' | 'complaint';

export interface MailFeedback {
  kind: FeedbackKind;
  /** The recipients SES names, lower-cased, as it saw them. */
  addresses: string[];
  /** SES's words, kept in the log: `Permanent/NoEmail`, `abuse`, ... */
  detail: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

function addressesOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) =>
    isObject(entry) && typeof entry.emailAddress === 'string' ? [bareAddress(entry.emailAddress)] : [],
  );
}

/** `"Jane Doe" <jane@example.com>` -> `jane@example.com`. SES sends bare addresses, but a name may slip in. */
function bareAddress(address: string): string {
  const angled = /<([^<>]+)>\s*$/.exec(address);
  return (angled ? angled[1]! : address).trim().toLowerCase();
}

/**
 * The mail to stop from one SES message (the SNS message's text); undefined for anything that
 * asks for no action: a delivery, a transient bounce, a test message, text that is not SES's.
 */
export function mailFeedbackOf(message: string): MailFeedback | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  const type = String(parsed.eventType ?? parsed.notificationType ?? '');
  if (type === 'Bounce' && isObject(parsed.bounce)) {
    const bounce = parsed.bounce;
    if (bounce.bounceType !== 'Permanent') return undefined;
    const addresses = addressesOf(bounce.bouncedRecipients);
    const detail = `Permanent/${String(bounce.bounceSubType ?? 'General')}`;
    return addresses.length > 0 ? { kind: 'bounce', addresses, detail } : undefined;
  }
  if (type === 'Complaint' && isObject(parsed.complaint)) {
    const complaint = parsed.complaint;
    // SES's own "not-spam" feedback says the reader wants the mail after all.
    if (complaint.complaintFeedbackType === 'not-spam') return undefined;
    const addresses = addressesOf(complaint.complainedRecipients);
    const detail = String(complaint.complaintFeedbackType ?? 'complaint');
    return addresses.length > 0 ? { kind: 'complaint', addresses, detail } : undefined;
  }
  return undefined;
}

/**
 * The login an address was sent to: mail goes to the login with the `emailsuffix` parameter
 * appended (mailRecipients.ts), so the suffix comes off again. An address without it is no
 * account's under a suffix, and gives undefined.
 */
export function loginOfAddress(address: string, emailSuffix: string): string | undefined {
  const suffix = emailSuffix.toLowerCase();
  if (suffix === '') return address;
  return address.endsWith(suffix) && address.length > suffix.length ? address.slice(0, -suffix.length) : undefined;
}
