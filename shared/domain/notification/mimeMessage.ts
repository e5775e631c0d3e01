import type { MailMessage } from './bugMailMessage.ts';

/**
 * A MailMessage as it goes on the wire (RFC 5322 with MIME): CRLF line ends, header fields
 * folded under 78 columns where they have room to break, any header with text beyond printable
 * ASCII as RFC 2047 encoded-words, and the body as UTF-8 quoted-printable (RFC 2045), as
 * Bugzilla::MIME sends its mail. Small and self-contained, so the rules are checked by tests
 * rather than trusted to a library.
 */
const CRLF = '\r\n';

/** The longest line RFC 2047 allows where encoded-words are. */
const ENCODED_LINE = 76;
/** Where RFC 5322 wants lines folded. */
const FOLDED_LINE = 78;
/** No line may be longer (RFC 5322 §2.1.1); a longer word is encoded instead, which can break anywhere. */
const LONGEST_WORD = 900;

const hasHugeWord = (value: string): boolean => value.split(/\s+/).some((word) => word.length > LONGEST_WORD);

const ENCODED_WORD_OVERHEAD = '=?UTF-8?B?'.length + '?='.length;

/**
 * Control characters end or corrupt a header line: a CR or LF in a summary must never start a
 * header of its own. Each run becomes one space.
 */
const withoutControls = (value: string): string => value.replace(/[\u0000-\u001F\u007F]+/g, ' ');

const isPlainAscii = (text: string): boolean => /^[\x20-\x7E]*$/.test(text);

/** Text a reader would decode as an encoded-word must itself be encoded (RFC 2047 §5). */
const looksEncoded = (text: string): boolean => /=\?[^?]*\?[bBqQ]\?[^?]*\?=/.test(text);

/**
 * RFC 2047 B encoding, split into words that each hold whole characters and fit their line:
 * the first after `Name: `, the others after one space of folding.
 */
export function encodedWords(text: string, firstLinePrefix: number): string[] {
  const budget = (prefix: number) => Math.max(Math.floor((ENCODED_LINE - prefix - ENCODED_WORD_OVERHEAD) / 4) * 3, 6);
  const words: string[] = [];
  let chunk: number[] = [];
  let limit = budget(firstLinePrefix);
  const flush = () => {
    words.push(`=?UTF-8?B?${Buffer.from(chunk).toString('base64')}?=`);
    chunk = [];
    limit = budget(1);
  };
  for (const character of text) {
    const bytes = [...Buffer.from(character, 'utf8')];
    if (chunk.length > 0 && chunk.length + bytes.length > limit) flush();
    chunk.push(...bytes);
  }
  if (chunk.length > 0 || words.length === 0) flush();
  return words;
}

/** Folds plain text at its blanks, keeping every blank: unfolding (dropping the CRLFs) gives the value back. */
function foldPlain(prefix: string, value: string): string {
  const words = value.match(/\s*\S+\s*$|\s*\S+/g) ?? [value];
  let line = prefix + words[0]!;
  const lines: string[] = [];
  for (const word of words.slice(1)) {
    if (line.length + word.length > FOLDED_LINE) {
      lines.push(line);
      line = word;
    } else line += word;
  }
  lines.push(line);
  return lines.join(CRLF);
}

/** Words joined by single spaces, a fold (CRLF and the space) wherever the next would pass the limit. */
function foldWords(prefix: string, words: readonly string[], limit: number): string {
  let line = prefix + (words[0] ?? '');
  const lines: string[] = [];
  for (const word of words.slice(1)) {
    if (line.length + 1 + word.length > limit) {
      lines.push(line);
      line = ` ${word}`;
    } else line += ` ${word}`;
  }
  lines.push(line);
  return lines.join(CRLF);
}

/** An unstructured header (Subject, X-Bugzilla-*): as it is if plain, else encoded. */
function unstructuredField(name: string, raw: string): string {
  const value = withoutControls(raw);
  const prefix = `${name}: `;
  const plain = isPlainAscii(value) && !looksEncoded(value) && !hasHugeWord(value);
  if (plain) return value.trim() === '' ? prefix.trimEnd() : foldPlain(prefix, value);
  return foldWords(prefix, encodedWords(value, prefix.length), ENCODED_LINE);
}

/** A display name as a phrase: plain names as they are (quoted when they hold specials), others encoded. */
function phrase(name: string, prefixLength: number): string[] {
  const bare = name.replace(/^"(.*)"$/, '$1').trim();
  if (bare === '') return [];
  if (!isPlainAscii(bare) || looksEncoded(bare)) return encodedWords(bare, prefixLength);
  if (/[()<>[\]:;@\\,."]/.test(bare)) return [`"${bare.replace(/(["\\])/g, '\\$1')}"`];
  return bare.split(/\s+/);
}

/**
 * From and To: `Name <address>` or a bare address. The name is encoded when it needs to be,
 * never the address (an address beyond ASCII needs SMTPUTF8, RFC 6532, and goes as UTF-8).
 */
function addressField(name: string, raw: string): string {
  const value = withoutControls(raw).trim();
  const prefix = `${name}: `;
  const named = /^(.*?)\s*<([^<>]*)>$/s.exec(value);
  if (!named) return `${prefix}${value}`;
  const address = named[2]!.trim();
  const words = phrase(named[1]!, prefix.length);
  if (words.length === 0) return `${prefix}${address}`;
  return foldWords(prefix, [...words, `<${address}>`], ENCODED_LINE);
}

const ADDRESS_FIELDS = new Set(['from', 'to', 'cc', 'reply-to', 'sender']);
/** Message ids: built from ASCII only, and never broken (threadHeaders makes them short). */
const IDENTIFIER_FIELDS = new Set(['message-id', 'in-reply-to', 'references']);

/** One header field, encoded and folded, without its line end. */
export function headerField(name: string, value: string): string {
  if (!/^[\x21-\x39\x3B-\x7E]+$/.test(name)) throw new RangeError(`Not a header field name: ${name}`);
  const key = name.toLowerCase();
  if (ADDRESS_FIELDS.has(key)) return addressField(name, value);
  if (IDENTIFIER_FIELDS.has(key)) return `${name}: ${withoutControls(value).trim()}`;
  return unstructuredField(name, value);
}

const hex = (byte: number) => `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** One line of text as quoted-printable, soft-broken (`=` at the end) to at most 76 characters. */
function quotedPrintableLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  const tokens: string[] = [];
  bytes.forEach((byte, index) => {
    const last = index === bytes.length - 1;
    const literal = (byte >= 33 && byte <= 126 && byte !== 61) || ((byte === 32 || byte === 9) && !last);
    tokens.push(literal ? String.fromCharCode(byte) : hex(byte));
  });
  // A line that starts "From " is mangled by mbox files (the Test method writes one), and a lone
  // "." ends an SMTP message: their first character goes encoded.
  if (line.startsWith('From ') || line.startsWith('.')) tokens[0] = hex(bytes[0]!);
  const lines: string[] = [];
  let current = '';
  tokens.forEach((token, index) => {
    const room = index === tokens.length - 1 ? 76 : 75;
    if (current.length + token.length > room) {
      lines.push(`${current}=`);
      current = '';
    }
    current += token;
  });
  lines.push(current);
  return lines.join(CRLF);
}

/** Text as quoted-printable (RFC 2045 §6.7): every line break a CRLF, every line at most 76 characters. */
export const quotedPrintable = (text: string): string =>
  text
    .split(/\r\n|\r|\n/)
    .map(quotedPrintableLine)
    .join(CRLF);

/** The message as RFC 5322 text: encoded, folded header fields, a blank line, the quoted-printable body. */
export function renderMessage(message: MailMessage): string {
  const headers = [
    ...message.headers,
    ['MIME-Version', '1.0'],
    ['Content-Type', 'text/plain; charset="UTF-8"'],
    ['Content-Transfer-Encoding', 'quoted-printable'],
  ].map(([name, value]) => headerField(name!, value!));
  const body = message.body.endsWith('\n') ? message.body : `${message.body}\n`;
  return `${headers.join(CRLF)}${CRLF}${CRLF}${quotedPrintable(body)}`;
}

/**
 * How the Test delivery method keeps a message: appended to a mailbox file with an mbox
 * separator (Bugzilla's data/mailer.testfile), so a test can read what would have been sent.
 */
export const testMailboxEntry = (rendered: string, date: string): string => `\n\nFrom - ${date}\n${rendered}`;
