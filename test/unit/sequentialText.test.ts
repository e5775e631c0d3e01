import { describe, expect, it } from 'vitest';
import { sequentialText } from '../../shared/http/sequentialText.ts';

/** Pieces of about a search page's bugs, `count` of them, with `odd` in every hundredth. */
const pieces = (count: number, odd = '') =>
  Array.from(
    { length: count },
    (_, index) => `{"id":${index},"summary":"Crash ${index % 100 === 0 ? odd : ''} on resize"},`,
  );

describe('sequentialText', () => {
  it.each([
    ['short text', 100, ''],
    ['ASCII text over a megabyte', 40_000, ''],
    ['text with Latin-1 letters', 40_000, 'café'],
    ['text with characters outside Latin-1 and outside the BMP', 40_000, '— 😀'],
    ['text with a lone surrogate', 40_000, '\ud800'],
  ])('gives %s back exactly', (_, count, odd) => {
    const parts = pieces(count, odd);
    const text = sequentialText(parts);
    expect(text.length).toBe(parts.reduce((sum, part) => sum + part.length, 0));
    expect(text === parts.join('')).toBe(true);
  });

  it('gives an empty text for no pieces', () => {
    expect(sequentialText([])).toBe('');
  });
});
