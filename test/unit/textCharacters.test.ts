import { describe, expect, it } from 'vitest';
import {
  checkContentType,
  checkFileName,
  contentDisposition,
  downloadContentType,
} from '../../shared/domain/bug/attachment.ts';
import { checkSummary } from '../../shared/domain/bug/bugFieldRules.ts';
import { checkCommentTag } from '../../shared/domain/bug/commentTags.ts';
import { checkKeywordName } from '../../shared/domain/catalog/keywords.ts';
import { checkProductName } from '../../shared/domain/catalog/productRules.ts';
import { checkPassword, checkRealName } from '../../shared/domain/identity/accounts.ts';
import { characterCount, checkInputLimits, checkTextLength } from '../../shared/domain/inputLimits.ts';
import { TrackerError } from '../../shared/trackerError.ts';

/**
 * Text as characters: limits count code points (as Bugzilla does), NUL and lone surrogates are
 * refused in every parameter, long ones included, content types hold no control characters, and
 * a download's Content-Disposition is ASCII and decodes back to the stored name.
 */
const failure = (work: () => unknown): { code: number; message: string } | undefined => {
  try {
    work();
    return undefined;
  } catch (error) {
    if (error instanceof TrackerError) return { code: error.code, message: error.message };
    throw error;
  }
};
const codeOf = (work: () => unknown) => failure(work)?.code;
const emoji = (count: number) => '😀'.repeat(count);

describe('characterCount', () => {
  it('counts code points: a surrogate pair is one character, a lone surrogate one too', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('报告')).toBe(2);
    expect(characterCount(emoji(128))).toBe(128);
    expect(characterCount('e\u0301')).toBe(2);
    expect(characterCount('\ud800')).toBe(1);
    expect(characterCount('\udc00\ud800')).toBe(2);
    expect(characterCount('\ud800😀\udc00')).toBe(3);
  });
});

describe('length limits in characters', () => {
  it('the generic limit and short attributes', () => {
    expect(() => checkInputLimits({ summary: emoji(65_535) })).not.toThrow();
    expect(failure(() => checkInputLimits({ summary: emoji(65_536) }))?.message).toContain('it has 65536');
    expect(checkTextLength(emoji(255), 'description', 255)).toBe(emoji(255));
    expect(codeOf(() => checkTextLength(emoji(256), 'description', 255))).toBe(32000);
  });

  it('field rules: summary, names, tags, passwords', () => {
    expect(checkSummary(emoji(255))).toBe(emoji(255));
    expect(codeOf(() => checkSummary(emoji(256)))).toBe(104);
    expect(checkProductName('𝔘'.repeat(64))).toBe('𝔘'.repeat(64));
    expect(codeOf(() => checkProductName('𝔘'.repeat(65)))).toBe(701);
    expect(checkKeywordName('𝔘'.repeat(64))).toBe('𝔘'.repeat(64));
    expect(checkRealName(emoji(255))).toBe(emoji(255));
    expect(checkCommentTag('𝔘'.repeat(24))).toBe('𝔘'.repeat(24));
    expect(codeOf(() => checkCommentTag('𝔘'.repeat(25)))).toBe(128);
    // Two astral letters are two characters: too short for a tag (3), as for a password.
    expect(codeOf(() => checkCommentTag('𝔘𝔘'))).toBe(127);
    expect(codeOf(() => checkPassword('😀😀'))).not.toBeUndefined();
    expect(checkPassword('😀😀😀')).toBe('😀😀😀');
  });

  it('attachment file names and summaries: 255 characters', () => {
    expect(checkFileName(emoji(255))).toBe(emoji(255));
    expect(codeOf(() => checkFileName(emoji(256)))).toBe(32000);
  });
});

describe('NUL and lone surrogates', () => {
  it('are refused in long text too, which is exempt only from the length limit', () => {
    const long = { longText: ['comment', 'description', 'data'] };
    expect(() => checkInputLimits({ comment: 'x'.repeat(100_000) }, long)).not.toThrow();
    for (const bad of ['a\u0000b', 'x\ud800', '\udc00y']) {
      for (const params of [{ comment: bad }, { description: bad }, { comment: { body: bad } }, { data: bad }]) {
        const refused = failure(() => checkInputLimits(params, long));
        expect(refused?.code).toBe(32000);
        expect(refused?.message).toMatch(/^The value of '(comment|description|comment\.body|data)' contains a NUL/);
      }
    }
  });
});

describe('content types', () => {
  it('refuses control characters anywhere, non-ASCII parameters and overlong types with 601', () => {
    for (const type of [
      'text/plain; a="\r\nX: y"',
      'text/plain; a="\n"',
      'text/plain; a="\t"',
      'text/plain; a=\u0001',
      'text/plain; a="\u0085"',
      'text/plain\u007f',
      'text/plain\r\n',
      '\ttext/plain',
      'text/plain; a="é"',
      'text/plain; a=报告',
      'text/plain;\u00a0a=b',
      `text/plain; a="${'x'.repeat(300)}"`,
    ])
      expect({ type, code: codeOf(() => checkContentType(type)) }).toEqual({ type, code: 601 });
  });

  it('accepts parameters in printable ASCII, quoted or not', () => {
    for (const type of [
      'text/plain; charset=utf-8',
      'text/plain; charset="utf-8"',
      'text/plain; name="a b;c.txt"',
      'multipart/related; type=application/xop+xml',
      ' text/html ',
    ])
      expect(checkContentType(type)).toBe(type.trim());
  });
});

describe('downloadContentType', () => {
  it('serves a type stored before the rules were strict as plain bytes', () => {
    expect(downloadContentType('text/plain; charset=utf-8')).toBe('text/plain; charset=utf-8');
    expect(downloadContentType('text/plain; a="\r\nX: y"')).toBe('application/octet-stream');
    expect(downloadContentType('text/plain; a="é"')).toBe('application/octet-stream');
  });
});

describe('contentDisposition', () => {
  const decode = (header: string) => {
    const parts =
      /^attachment; filename="([\x20\x21\x23-\x5B\x5D-\x7E]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]*)$/.exec(
        header,
      );
    expect(parts, header).not.toBeNull();
    return { fallback: parts![1], name: decodeURIComponent(parts![2]) };
  };

  it('is ASCII, and its filename* decodes back to the name', () => {
    for (const name of [
      '报告.txt',
      'Ελληνικά.txt',
      '😀.txt',
      'résumé.pdf',
      'say "hi"; filename=evil.exe',
      "it's (1) *final*!.txt",
      '100% done.txt',
      'line\r\nbreak\t.txt',
      'bidi\u202Etxt.exe',
      'back\\slash.txt',
    ])
      expect(decode(contentDisposition(name)).name).toBe(name);
  });

  it('gives an ASCII fallback: accents dropped, the rest replaced', () => {
    expect(contentDisposition('résumé.pdf')).toBe(
      `attachment; filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
    );
    expect(decode(contentDisposition('报告 "1" \\ 100%.txt')).fallback).toBe('__ _1_ _ 100_.txt');
    expect(decode(contentDisposition('😀.txt')).fallback).toBe('_.txt');
    expect(decode(contentDisposition('ﬁle／x.txt')).fallback).toBe('file_x.txt');
    expect(contentDisposition("a'(b)*")).toContain("filename*=UTF-8''a%27%28b%29%2A");
  });

  it('survives a lone surrogate in a stored name', () => {
    expect(decode(contentDisposition('x\ud800.txt')).name).toBe('x\ufffd.txt');
  });

  it('keeps only the last path segment, across line breaks', () => {
    expect(checkFileName('line\n/etc/passwd')).toBe('passwd');
  });
});
