import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../../shared/domain/notification/bugMailMessage.ts';
import {
  encodedWords,
  headerField,
  quotedPrintable,
  renderMessage,
  testMailboxEntry,
} from '../../shared/domain/notification/mimeMessage.ts';

/**
 * The wire form of mail: RFC 5322 header fields (folded, RFC 2047 where needed), a
 * quoted-printable UTF-8 body. Checked against a decoder written here from the RFCs, not the
 * encoder's own idea of them.
 */

/** RFC 2045 §6.7 decoding: soft breaks removed, =XX as bytes, the bytes as UTF-8. */
function decodeQuotedPrintable(encoded: string): string {
  const joined = encoded.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index += 1) {
    if (joined[index] === '=') {
      bytes.push(Number.parseInt(joined.slice(index + 1, index + 3), 16));
      index += 2;
    } else bytes.push(joined.charCodeAt(index));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 decoding of B-encoded words; the blanks between adjacent encoded-words vanish. */
const decodeWords = (value: string): string => {
  const bytes: Buffer[] = [];
  let text = '';
  const parts = value.split(/(=\?UTF-8\?B\?[A-Za-z0-9+/=]*\?=)/);
  parts.forEach((part, index) => {
    const word = /^=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=$/.exec(part);
    if (word) bytes.push(Buffer.from(word[1]!, 'base64'));
    else if (!(/^\s*$/.test(part) && index > 0 && index < parts.length - 1)) {
      text += Buffer.concat(bytes).toString('utf8') + part;
      bytes.length = 0;
    }
  });
  return text + Buffer.concat(bytes).toString('utf8');
};

/** The header fields of a rendered message, unfolded, in order. */
function parseHeaders(rendered: string): Array<[string, string]> {
  const head = rendered.slice(0, rendered.indexOf('\r\n\r\n'));
  return head
    .replace(/\r\n(?=[ \t])/g, '')
    .split('\r\n')
    .map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, '')];
    });
}

const message = (headers: Array<[string, string]>, body = 'Hello.\n'): MailMessage => ({
  from: 'daemon@example.com',
  to: 'someone@example.com',
  headers,
  body,
});

describe('quoted-printable bodies', () => {
  it('encodes = and bytes beyond ASCII, keeps lines at 76 characters with soft breaks', () => {
    expect(quotedPrintable('a=b café\n')).toBe('a=3Db caf=C3=A9\r\n');
    const long = quotedPrintable(`${'x'.repeat(100)}\n`);
    expect(long.split('\r\n').every((line) => line.length <= 76)).toBe(true);
    expect(long).toBe(`${'x'.repeat(75)}=\r\n${'x'.repeat(25)}\r\n`);
  });

  it('encodes a blank at the end of a line, a leading "From " and a leading dot', () => {
    expect(quotedPrintable('-- \nok')).toBe('--=20\r\nok');
    expect(quotedPrintable('From here\n.\n')).toBe('=46rom here\r\n=2E\r\n');
  });

  it('decodes back to the text, with CRLF line ends, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const wellFormed = text.replace(
          /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
          '\uFFFD',
        );
        const encoded = quotedPrintable(wellFormed);
        expect(decodeQuotedPrintable(encoded)).toBe(wellFormed.replace(/\r\n|\r|\n/g, '\r\n'));
        for (const line of encoded.split('\r\n')) {
          expect(line.length).toBeLessThanOrEqual(76);
          expect(line).toMatch(/^[\x21-\x7E \t]*$/);
          expect(line).not.toMatch(/[ \t]$/);
        }
      }),
    );
  });
});

describe('header fields', () => {
  it('leaves plain ASCII as it is and folds long values at blanks', () => {
    expect(headerField('Subject', '[Bug 1] Crash')).toBe('Subject: [Bug 1] Crash');
    const folded = headerField('X-Bugzilla-Changed-Fields', 'bug_status '.repeat(12).trim());
    expect(folded.split('\r\n').every((line) => line.length <= 78)).toBe(true);
    expect(
      folded
        .split('\r\n')
        .slice(1)
        .every((line) => line.startsWith(' ')),
    ).toBe(true);
    expect(folded.replace(/\r\n/g, '')).toBe(`X-Bugzilla-Changed-Fields: ${'bug_status '.repeat(12).trim()}`);
  });

  it('encodes text beyond ASCII as RFC 2047 words of at most 75 characters, on lines of at most 76', () => {
    const field = headerField('Subject', `[Bug 7] ${'Überschrift mit Umlauten — '.repeat(4)}`);
    expect(field.startsWith('Subject: =?UTF-8?B?')).toBe(true);
    for (const line of field.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
    for (const word of field.match(/=\?[^?]+\?B\?[^?]*\?=/g)!) expect(word.length).toBeLessThanOrEqual(75);
    expect(decodeWords(field.slice('Subject: '.length).replace(/\r\n/g, ''))).toBe(
      `[Bug 7] ${'Überschrift mit Umlauten — '.repeat(4)}`,
    );
  });

  it('never splits a character between two encoded-words', () => {
    const words = encodedWords('😀'.repeat(40), 9);
    for (const word of words) {
      const bytes = Buffer.from(word.slice(10, -2), 'base64');
      expect(bytes.toString('utf8')).toMatch(/^(😀)+$/u);
    }
  });

  it('encodes only the name of an address, quoting a plain name that holds specials', () => {
    expect(headerField('To', 'jane@example.com')).toBe('To: jane@example.com');
    expect(headerField('From', 'Tracker <tracker@example.com>')).toBe('From: Tracker <tracker@example.com>');
    expect(headerField('From', 'Bugs, Inc. <b@example.com>')).toBe('From: "Bugs, Inc." <b@example.com>');
    const encoded = headerField('From', 'Zoë Tracker <z@example.com>');
    expect(encoded).toMatch(/^From: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <z@example\.com>$/);
    expect(decodeWords(encoded.slice(6))).toBe('Zoë Tracker <z@example.com>');
  });

  it('encodes plain text that a reader would take for an encoded-word', () => {
    const field = headerField('Subject', 'see =?UTF-8?B?aGk=?= here');
    expect(decodeWords(field.slice('Subject: '.length).replace(/\r\n/g, ''))).toBe('see =?UTF-8?B?aGk=?= here');
  });

  it('refuses a name that is not a header field name', () => {
    expect(() => headerField('Bad Name', 'x')).toThrow(RangeError);
    expect(() => headerField('X-Evil:', 'x')).toThrow(RangeError);
  });
});

/** Text with line breaks, controls, colons, encoded-word markers and characters of every plane. */
const hostileText = (maxLength: number) =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom('\r', '\n', '\r\n', '\t', '\u0000', ': ', '=?', '?=', 'To: evil@example.com', ' '),
        fc.string({ unit: 'grapheme', maxLength: 4 }),
      ),
      { maxLength },
    )
    .map((parts) => parts.join(''));

describe('a rendered message', () => {
  it('is the header fields, MIME headers, a blank line and the quoted-printable body, with CRLF', () => {
    const rendered = renderMessage(message([['Subject', 'Hi']], 'Line one\nLine two\n'));
    expect(rendered).toBe(
      'Subject: Hi\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset="UTF-8"\r\n' +
        'Content-Transfer-Encoding: quoted-printable\r\n\r\nLine one\r\nLine two\r\n',
    );
    expect(testMailboxEntry(rendered, 'Tue, 04 Mar 2025 05:06:07 +0000').startsWith('\n\nFrom - Tue, 04 Mar')).toBe(
      true,
    );
  });

  it('lets no value start a header field of its own, whatever it holds', () => {
    fc.assert(
      fc.property(hostileText(200), hostileText(60), (summary, name) => {
        const rendered = renderMessage(
          message([
            ['From', `${name} <daemon@example.com>`],
            ['To', 'someone@example.com'],
            ['Subject', `[Bug 1] ${summary}`],
            ['X-Bugzilla-Keywords', summary],
          ]),
        );
        const headers = parseHeaders(rendered);
        expect(headers.map(([field]) => field)).toEqual([
          'From',
          'To',
          'Subject',
          'X-Bugzilla-Keywords',
          'MIME-Version',
          'Content-Type',
          'Content-Transfer-Encoding',
        ]);
        const subject = decodeWords(headers[2]![1]);
        expect(subject).toBe(`[Bug 1] ${summary.replace(/[\u0000-\u001F\u007F]+/g, ' ')}`);
        // Everything on the wire is ASCII (addresses here are), and no line passes 998 characters.
        expect(rendered).toMatch(/^[\x00-\x7F]*$/);
        for (const line of rendered.split('\r\n')) expect(line.length).toBeLessThanOrEqual(998);
      }),
    );
  });
});
