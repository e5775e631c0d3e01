import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_OUTBOX_ENV } from '../../shared/storage/notification/accountMailOutbox.ts';

/**
 * The local outbox account mail lands in (TRACKER_LOCAL_OUTBOX, as under `npm start`), read the
 * way a person reads their mail: the message decoded, the link followed.
 */
export interface AccountMailbox {
  directory: string;
  /** Every account mail so far, oldest first by file time, decoded. */
  all(): AccountMail[];
  /** The mails to one address whose file name says `purpose` (new, exists, password, invitation, email-new, email-old). */
  to(address: string, purpose?: string): AccountMail[];
  close(): void;
}

export interface AccountMail {
  file: string;
  headers: Record<string, string>;
  body: string;
  /** Every `token.cgi?t=...&a=...` link: its token and action. */
  links: Array<{ url: string; token: string; action: string }>;
}

/** RFC 2045 quoted-printable, back to text. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export function parseAccountMail(file: string, raw: string): AccountMail {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = decodeQuotedPrintable(rest.join('\r\n\r\n')).replace(/\r\n/g, '\n');
  const links = [...body.matchAll(/(\S*token\.cgi\?t=([A-Za-z0-9_%-]+)&a=(\w+))/g)].map((match) => ({
    url: match[1]!,
    token: decodeURIComponent(match[2]!),
    action: match[3]!,
  }));
  return { file, headers, body, links };
}

export function accountMailbox(): AccountMailbox {
  const directory = mkdtempSync(join(tmpdir(), 'tracker-account-mail-'));
  const previous = process.env[LOCAL_OUTBOX_ENV];
  process.env[LOCAL_OUTBOX_ENV] = directory;
  const all = (): AccountMail[] => {
    const mailDirectory = join(directory, 'mail');
    let names: string[];
    try {
      names = readdirSync(mailDirectory).filter((name) => name.endsWith('.eml'));
    } catch {
      return [];
    }
    return names.map((name) => parseAccountMail(name, readFileSync(join(mailDirectory, name), 'utf8')));
  };
  return {
    directory,
    all,
    to: (address, purpose) =>
      all().filter(
        (mail) =>
          mail.headers.to?.toLowerCase() === address.toLowerCase() &&
          (purpose === undefined || mail.file.startsWith(`account-${purpose}-`)),
      ),
    close() {
      if (previous === undefined) delete process.env[LOCAL_OUTBOX_ENV];
      else process.env[LOCAL_OUTBOX_ENV] = previous;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
