import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changeRow,
  fieldRow,
  mailDate,
  wrapComment,
  wrapHard,
  wrapLine,
} from '../../shared/domain/notification/mailText.ts';

/** Bugzilla's plain-text layout: Text::Wrap's breaking, wrap_comment, the change table's columns. */
describe("Text::Wrap's line breaking", () => {
  it('keeps lines one column short of the width and breaks at a blank, which the break consumes', () => {
    expect(wrapLine('aaa bbb ccc', 8, 'overflow')).toBe('aaa bbb\nccc');
    expect(wrapLine('aaa bbb', 4, 'overflow')).toBe('aaa\nbbb');
    // Several blanks: the break takes one, the others stay with the line before.
    expect(wrapLine('aaa   bbb', 6, 'overflow')).toBe('aaa  \nbbb');
  });

  it('cuts a word longer than the line when wrapping hard, and leaves it whole otherwise', () => {
    expect(wrapLine('abcdefghij', 5, 'wrap')).toBe('abcd\nefgh\nij');
    expect(wrapLine('x abcdefghij y', 5, 'overflow')).toBe('x\nabcdefghij\ny');
  });

  it('expands tabs to eight columns and counts an accented letter as one character', () => {
    expect(wrapLine('a\tb', 80, 'overflow')).toBe('a       b');
    expect(wrapLine('cafe\u0301 cafe\u0301', 6, 'overflow')).toBe('cafe\u0301\ncafe\u0301');
  });

  it('keeps every word, in order, and no line longer than the width unless one word is', () => {
    const word = fc.stringMatching(/^[a-z0-9.,@]{1,15}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 2, max: 90 }),
        (words, columns) => {
          const text = words.join(' ');
          const lines = wrapLine(text, columns, 'overflow').split('\n');
          expect(lines.join(' ')).toBe(text);
          for (const line of lines) if (line.includes(' ')) expect(line.length).toBeLessThanOrEqual(columns - 1);
          const hard = wrapLine(text, columns, 'wrap').split('\n');
          for (const line of hard) expect(line.length).toBeLessThanOrEqual(Math.max(columns - 1, 1));
          expect(hard.join('').replaceAll(' ', '')).toBe(words.join(''));
        },
      ),
    );
  });
});

describe("Bugzilla's comment wrapping", () => {
  it('wraps at 80 columns, leaves quoted lines alone and drops trailing empty lines', () => {
    const long = `${'word '.repeat(20).trim()}`;
    expect(wrapComment(long)).toBe(`${'word '.repeat(15).trim()} word\n${'word '.repeat(4).trim()}`);
    const quote = `> ${'quoted '.repeat(20)}`;
    expect(wrapComment(`${quote}\n\nreply\n\n\n`)).toBe(`${quote}\n\nreply`);
  });

  it('keeps line breaks of every kind as line breaks', () => {
    expect(wrapComment('one\r\ntwo\rthree\nfour')).toBe('one\ntwo\nthree\nfour');
  });
});

describe('the change table and field list columns', () => {
  it('sets label, removed and added side by side, wrapping each in its column', () => {
    expect(changeRow('Status', 'NEW', 'RESOLVED')).toBe('             Status|NEW                         |RESOLVED\n');
    expect(changeRow('Whiteboard', 'a'.repeat(30), '')).toBe(
      `         Whiteboard|${'a'.repeat(27)} |\n                   |aaa${' '.repeat(25)}|\n`,
    );
    expect(fieldRow('Summary:', 'It crashes')).toBe('           Summary: It crashes\n');
    expect(wrapHard('', 10)).toBe('');
  });
});

describe('the Date header', () => {
  it('writes RFC 5322 dates in UTC', () => {
    expect(mailDate('2025-03-04T05:06:07Z')).toBe('Tue, 04 Mar 2025 05:06:07 +0000');
    expect(mailDate('1999-12-31T23:59:59Z')).toBe('Fri, 31 Dec 1999 23:59:59 +0000');
    expect(() => mailDate('yesterday')).toThrow(RangeError);
  });
});
