import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailMessage } from '../../domain/notification/bugMailMessage.ts';
import { renderMessage } from '../../domain/notification/mimeMessage.ts';
import { keepTestMail, sendRawMail } from './sesMailSender.ts';

/**
 * Account mail (sign-up, password, e-mail change, invitations) leaves from the request that asks
 * for it, not from the change stream: the mail holds the token, which the table never does (it
 * keeps only the digest). It goes out the way bug mail does: through SES for SMTP and Sendmail,
 * kept as an `.eml` object under `outbox/mail/` of the bucket for Test. Under `npm start` (and in
 * the tests) TRACKER_LOCAL_OUTBOX names the local outbox directory, and every account mail is kept
 * there as a file, beside the bug mail the local publisher writes.
 */
export const LOCAL_OUTBOX_ENV = 'TRACKER_LOCAL_OUTBOX';

export type AccountMailDelivery = 'test' | 'send';

/** A name that says what the mail is and to whom, and never holds the token. */
export function accountMailFileName(purpose: string, message: MailMessage, raw: string): string {
  const recipient = message.to.replace(/[^A-Za-z0-9@._+-]/g, '_').slice(0, 100);
  const digest = createHash('sha256').update(raw).digest('hex').slice(0, 10);
  return `account-${purpose}-${recipient}-${digest}.eml`;
}

export async function deliverAccountMail(
  purpose: string,
  message: MailMessage,
  delivery: AccountMailDelivery,
): Promise<void> {
  const raw = renderMessage(message);
  const name = accountMailFileName(purpose, message, raw);
  const outbox = process.env[LOCAL_OUTBOX_ENV];
  if (outbox) {
    const directory = join(outbox, 'mail');
    await mkdir(directory, { recursive: true });
    // Whole or not at all, as the local publisher writes its files.
    await writeFile(join(directory, `${name}.tmp`), raw);
    await rename(join(directory, `${name}.tmp`), join(directory, name));
    return;
  }
  if (delivery === 'test') await keepTestMail(name, raw);
  else await sendRawMail(message.from, message.to, raw);
}
