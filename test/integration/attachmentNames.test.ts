import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, fileTestBug, ok } from '../support/testAccounts.ts';
import { type ApiResponse, call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * File names, content types and free text from every script and with control characters, end to
 * end over HTTP: what validation accepts is stored and downloads from S3 (s3rver) under exactly
 * that name, decoded back from the RFC 6266 Content-Disposition; what it refuses is refused with
 * Bugzilla's code, never a 500. Comments refuse NUL and lone surrogates like every other text, and
 * length limits count characters, not UTF-16 units.
 */
let app: TestApp;
let admin: string;
let bug: number;

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  bug = await fileTestBug(app, admin, { summary: 'Attachment names' });
});
afterAll(async () => {
  await app?.close();
});

const BODY = Buffer.from('the same bytes, whatever the name\n');

const attach = (body: Record<string, unknown>) =>
  call(app, 'POST', `/rest/bug/${bug}/attachment`, {
    apiKey: admin,
    body: {
      file_name: 'notes.txt',
      summary: 'Notes',
      content_type: 'text/plain',
      data: BODY.toString('base64'),
      ...body,
    },
  });
const update = (id: number, body: Record<string, unknown>) =>
  call(app, 'PUT', `/rest/bug/attachment/${id}`, { apiKey: admin, body });
const metadata = async (id: number) =>
  (await ok(call(app, 'GET', `/rest/bug/attachment/${id}`, { apiKey: admin }))).attachments[id];

/** RFC 8187 attr-char, or a percent-encoded octet: all `filename*` may hold. */
const EXT_VALUE = /^(?:[A-Za-z0-9!#$&+.^_`|~-]|%[0-9A-F]{2})*$/;

/**
 * The file name a client reads from a Content-Disposition: `filename*` (UTF-8, percent-encoded)
 * where present, as RFC 6266 has it; the header must be ASCII and the fallback quoted ASCII.
 */
function dispositionNames(header: string | null): { name: string; fallback: string } {
  expect(header).not.toBeNull();
  const value = header as string;
  expect(value, 'the header is printable ASCII').toMatch(/^[\x20-\x7E]*$/);
  const parts = /^attachment; filename="((?:[^"\\]|\\.)*)"; filename\*=UTF-8''([^;\s]*)$/.exec(value);
  expect(parts, value).not.toBeNull();
  const [, fallback, encoded] = parts as RegExpExecArray;
  expect(encoded).toMatch(EXT_VALUE);
  return { name: new TextDecoder('utf-8', { fatal: true }).decode(percentDecode(encoded)), fallback };
}

const percentDecode = (encoded: string): Uint8Array =>
  Uint8Array.from(encoded.match(/%[0-9A-F]{2}|[^%]/g) ?? [], (token) =>
    token.length === 3 ? Number.parseInt(token.slice(1), 16) : token.charCodeAt(0),
  );

/** Downloads through the presigned address and checks bytes, type and the name the header gives. */
async function expectDownloadAs(id: number, fileName: string, contentType = 'text/plain'): Promise<void> {
  const response = await call(app, 'GET', `/rest/bug/attachment/${id}/download`, { apiKey: admin });
  expect(response.status, response.text).toBe(200);
  const link = response.body.attachments[id];
  expect(link.file_name).toBe(fileName);
  const file = await fetch(link.url);
  expect(file.status, `${JSON.stringify(fileName)}: ${await file.clone().text()}`).toBe(200);
  expect(Buffer.from(await file.arrayBuffer()).equals(BODY)).toBe(true);
  expect(file.headers.get('content-type')).toBe(contentType);
  expect(dispositionNames(file.headers.get('content-disposition')).name).toBe(fileName);
}

const created = async (response: Promise<ApiResponse>): Promise<number> => (await ok(response)).ids[0];

/** Names from many scripts, and the ASCII characters that matter in a header. */
const NAMES = [
  '报告.txt',
  'Ελληνικά.txt',
  '😀.txt',
  'résumé.pdf',
  'Отчёт за 2024.pdf',
  'تقرير.txt',
  'דוח.txt',
  'रिपोर्ट.txt',
  '報告書 ファイル.txt',
  '보고서.txt',
  'รายงาน.txt',
  'ქართული.txt',
  'Ստեփան.txt',
  'ᠮᠣᠩᠭᠣᠯ.txt',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢.txt',
  '👩‍👩‍👧 family.txt',
  'e\u0301.txt',
  'ﬁle.txt',
  'fullwidth／slash.txt',
  'say "hi".txt',
  "it's (1) *final*!.txt",
  'semi;colon; filename="evil.exe".txt',
  'comma, equals=sign & more.txt',
  '100%25 done %.txt',
  'tab\there.txt',
  'line\r\nbreak.txt',
  'bell\u0007 del\u007f.txt',
  'c1\u0085\u009b.txt',
  'bidi\u202Etxt.exe',
  'zero\u200Bwidth\uFEFF.txt',
  `${'x'.repeat(200)}${'😀'.repeat(55)}`,
];

describe('downloading under any name validation accepts', () => {
  it.each(NAMES)('%j: stored as sent, downloaded under that name', async (name) => {
    const id = await created(attach({ file_name: name }));
    expect((await metadata(id)).file_name).toBe(name);
    await expectDownloadAs(id, name);
  });

  it('keeps only the last path segment, also across line breaks, and still downloads', async () => {
    for (const [sent, stored] of [
      ['C:\\Users\\me\\back\\slash.txt', 'slash.txt'],
      ['line\n/etc/passwd', 'passwd'],
      ['  spaced.txt  ', 'spaced.txt'],
    ]) {
      const id = await created(attach({ file_name: sent }));
      expect((await metadata(id)).file_name).toBe(stored);
      await expectDownloadAs(id, stored);
    }
  });

  it('downloads under the new name after the file name is changed', async () => {
    const id = await created(attach({ file_name: 'plain.txt' }));
    for (const name of ['报告.txt', 'say "hi";\r\n.txt', '😀'.repeat(255)]) {
      await ok(update(id, { file_name: name }));
      await expectDownloadAs(id, name);
    }
  });

  it('gives an ASCII fallback that keeps what it can', async () => {
    const id = await created(attach({ file_name: 'résumé "final".pdf' }));
    const response = await ok(call(app, 'GET', `/rest/bug/attachment/${id}/download`, { apiKey: admin }));
    const file = await fetch(response.attachments[id].url);
    expect(dispositionNames(file.headers.get('content-disposition')).fallback).toBe('resume _final_.pdf');
  });

  it('fuzzed names in every script and with control characters: stored and downloaded, or refused', async () => {
    const control = fc.constantFrom('\t', '\n', '\r', '\u0001', '\u001b', '\u007f', '\u0085', '\u202e', '\u2028');
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.constantFrom('"', '\\', ';', '%', "'", '*', '/', '=', ' ', ','),
      control,
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 8 }), async (pieces) => {
        const name = pieces.join('');
        const response = await attach({ file_name: name });
        expect(response.status, response.text).toBeLessThan(500);
        if (response.status !== 200) {
          // Nothing left once the path is stripped (603), or NUL and lone surrogates (32000).
          expect([603, 32000]).toContain(response.body.code);
          return;
        }
        const id = response.body.ids[0];
        const stored = (await metadata(id)).file_name;
        await expectDownloadAs(id, stored);
      }),
      { numRuns: 40 },
    );
  });
});

describe('content types', () => {
  /** Control characters, anywhere; non-ASCII; too long for a header. */
  const REFUSED = [
    'text/plain; a="\r\nX: y"',
    'text/plain\r\nX-Injected: 1',
    'text/plain; a="\n"',
    'text/plain; a="\t"',
    'text/plain;\ta=b',
    'text/plain; a="\u0085"',
    'text/plain; a=\u0001',
    'text/plain\u007f',
    'text/plain; a="é"',
    'text/plain; a=报告',
    'text/plain;\u00a0a=b',
    'text/plain;\u3000a=b',
    'text/plain\r\n',
    `text/plain; a="${'x'.repeat(300)}"`,
  ];
  const ACCEPTED = [
    'text/plain; charset=utf-8',
    'text/plain; charset="utf-8"',
    'text/plain; name="a b;c.txt"',
    'multipart/related; type=application/xop+xml',
    'application/octet-stream',
  ];

  it('NUL is refused with 32000, as in any parameter, before the attachment rules see it', async () => {
    expectError(await attach({ content_type: 'text/plain; a="\u0000"' }), 32000, 400);
  });

  it.each(REFUSED)('%j is refused with 601 when attaching, and nothing is stored', async (type) => {
    const before = (await ok(call(app, 'GET', `/rest/bug/${bug}/attachment`, { apiKey: admin }))).bugs[bug].length;
    expectError(await attach({ content_type: type }), 601, 400);
    expect((await ok(call(app, 'GET', `/rest/bug/${bug}/attachment`, { apiKey: admin }))).bugs[bug]).toHaveLength(
      before,
    );
  });

  it('refuses the same on update, keeps the old type, and the download still works', async () => {
    const id = await created(attach({ file_name: 'typed.txt' }));
    for (const type of REFUSED) {
      expectError(await update(id, { content_type: type }), 601, 400);
      expect((await metadata(id)).content_type).toBe('text/plain');
    }
    await expectDownloadAs(id, 'typed.txt');
  });

  it('serves accepted types, parameters included, as stored', async () => {
    const id = await created(attach({ file_name: 'typed.bin' }));
    for (const type of ACCEPTED) {
      await expectDownloadAs(await created(attach({ file_name: 'typed.bin', content_type: type })), 'typed.bin', type);
      await ok(update(id, { content_type: type }));
      await expectDownloadAs(id, 'typed.bin', type);
    }
  });

  it('fuzzed parameter values: stored and served, or refused with 601', async () => {
    const value = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.string({ unit: 'binary-ascii', maxLength: 8 }),
      fc.constantFrom('\r\n', '\u0000', '"', ';', '\\', '\u0085'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(value, { maxLength: 4 }), fc.boolean(), async (pieces, quoted) => {
        const inner = pieces.join('');
        const type = `text/plain; p=${quoted ? `"${inner}"` : inner}`;
        const response = await attach({ content_type: type });
        expect(response.status, response.text).toBeLessThan(500);
        if (response.status !== 200) {
          expect([601, 32000]).toContain(response.body.code);
          return;
        }
        const id = response.body.ids[0];
        await expectDownloadAs(id, 'notes.txt', (await metadata(id)).content_type);
      }),
      { numRuns: 40 },
    );
  });
});

describe('NUL and lone surrogates in free text', () => {
  const BAD = ['a\u0000b', 'broken \ud800 text', 'reversed \udc00\ud800'];

  it('are refused in comments, descriptions and attachment comments as in any other text', async () => {
    const target = await fileTestBug(app, admin);
    const id = await created(
      call(app, 'POST', `/rest/bug/${target}/attachment`, {
        apiKey: admin,
        body: { file_name: 'a.txt', summary: 'A', content_type: 'text/plain', data: BODY.toString('base64') },
      }),
    );
    const comments = async () =>
      (await ok(call(app, 'GET', `/rest/bug/${target}/comment`, { apiKey: admin }))).bugs[target].comments.length;
    const before = await comments();
    for (const text of BAD) {
      // The reference: a summary with the same text, refused by the generic input check.
      const reference = await call(app, 'PUT', `/rest/bug/${target}`, { apiKey: admin, body: { summary: text } });
      expectError(reference, 32000, 400);
      const refusals = [
        call(app, 'POST', `/rest/bug/${target}/comment`, { apiKey: admin, body: { comment: text } }),
        call(app, 'PUT', `/rest/bug/${target}`, { apiKey: admin, body: { comment: { body: text } } }),
        call(app, 'POST', '/rest/bug', {
          apiKey: admin,
          body: {
            product: 'TestProduct',
            component: 'TestComponent',
            version: 'unspecified',
            summary: 'NUL description',
            description: text,
            op_sys: 'Linux',
            platform: 'PC',
          },
        }),
        call(app, 'POST', `/rest/bug/${target}/attachment`, {
          apiKey: admin,
          body: {
            file_name: 'b.txt',
            summary: 'B',
            content_type: 'text/plain',
            data: BODY.toString('base64'),
            comment: text,
          },
        }),
        call(app, 'PUT', `/rest/bug/attachment/${id}`, { apiKey: admin, body: { comment: text } }),
      ];
      for (const response of await Promise.all(refusals)) {
        expectError(response, 32000, 400);
        expect(response.body.message).toMatch(/^The value of '(comment|comment\.body|description)' contains a NUL/);
        expect(response.body.message.replace(/'[^']+'/, "'summary'")).toBe(reference.body.message);
      }
    }
    expect(await comments()).toBe(before);
  });
});

describe('length limits count characters', () => {
  const emoji = (count: number) => '😀'.repeat(count);

  it('a summary of 255 emoji is accepted, 256 refused', async () => {
    const id = await fileTestBug(app, admin, { summary: emoji(128) });
    expect((await ok(call(app, 'GET', `/rest/bug/${id}`, { apiKey: admin }))).bugs[0].summary).toBe(emoji(128));
    await ok(call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body: { summary: emoji(255) } }));
    expectError(await call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body: { summary: emoji(256) } }), 104, 400);
  });

  it('attachment file names and summaries: 255 characters', async () => {
    const id = await created(attach({ file_name: emoji(255), summary: emoji(255) }));
    expect(await metadata(id)).toMatchObject({ file_name: emoji(255), summary: emoji(255) });
    expectError(await attach({ file_name: emoji(256) }), 32000, 400);
    expectError(await attach({ summary: emoji(256) }), 32000, 400);
  });

  it('comments: 65,535 characters, whatever their UTF-16 length', async () => {
    const target = await fileTestBug(app, admin);
    const long = `${emoji(65_534)}!`;
    await ok(call(app, 'POST', `/rest/bug/${target}/comment`, { apiKey: admin, body: { comment: long } }));
    const comments = (await ok(call(app, 'GET', `/rest/bug/${target}/comment`, { apiKey: admin }))).bugs[target]
      .comments;
    expect(comments.at(-1).text).toBe(long);
    expectError(
      await call(app, 'POST', `/rest/bug/${target}/comment`, { apiKey: admin, body: { comment: `${long}!` } }),
      114,
      400,
    );
  });

  it('names: a keyword of 64 astral letters', async () => {
    const name = '𝔘'.repeat(64);
    await ok(call(app, 'POST', '/rest/keyword', { apiKey: admin, body: { name, description: 'Astral' } }));
    expectError(
      await call(app, 'POST', '/rest/keyword', { apiKey: admin, body: { name: `${name}𝔘`, description: 'x' } }),
      32000,
      400,
    );
  });
});
