import { describe, expect, it } from 'vitest';
import { TrigramIndex } from '../../shared/domain/search/index/trigramIndex.ts';

const NEEDLES = [
  'crash',
  'toolbar',
  'ab ',
  'wayland flickers',
  'xyz',
  'tab',
  'menu',
  'new crash',
  'ünï',
  'ça p',
  '日本語',
];

/** What reading every text would find. */
const expected = (texts: readonly string[], needle: string) => texts.map((text) => (text.includes(needle) ? 1 : 0));

const answers = (trigrams: TrigramIndex, texts: readonly string[]) =>
  Object.fromEntries(NEEDLES.map((needle) => [needle, Array.from(trigrams.matching(needle, texts.length)!)]));

const readingEach = (texts: readonly string[]) =>
  Object.fromEntries(NEEDLES.map((needle) => [needle, expected(texts, needle)]));

describe('trigram index', () => {
  it('finds the same summaries before and after a snapshot, and after changes', () => {
    const texts = [
      'the toolbar crashes',
      'wayland flickers',
      'crash on tab close',
      'ab',
      '',
      'ünïcode ça plante',
      '日本語 crash',
    ];
    const built = TrigramIndex.build(texts, texts.length);
    expect(answers(built, texts)).toEqual(readingEach(texts));
    expect(built.matching('ab', texts.length)).toBeNull();

    const encoded = built.toEncoded();
    expect(encoded.latin1.keys).toBeInstanceOf(Int32Array);
    expect(encoded.other.keys).toEqual(['日本語', '本語 ', '語 c']);
    const loaded = TrigramIndex.fromEncoded(texts, encoded);
    expect(answers(loaded, texts)).toEqual(readingEach(texts));

    // A changed text keeps its old trigrams, which are checked against the text as it now is.
    texts[0] = 'the menu hangs';
    loaded.add(0);
    texts.push('a new crash');
    loaded.add(7);
    texts[6] = '日本語 menu';
    loaded.add(6);
    expect(answers(loaded, texts)).toEqual(readingEach(texts));
    // Slots beyond `size` are not reported.
    expect(Array.from(loaded.matching('crash', 7)!)).toEqual([0, 0, 1, 0, 0, 0, 0]);

    const reloaded = TrigramIndex.fromEncoded(texts, loaded.toEncoded());
    expect(answers(reloaded, texts)).toEqual(readingEach(texts));
    expect(reloaded.toEncoded()).toEqual(loaded.toEncoded());
  });

  it('posts a trigram repeated in one text once', () => {
    const texts = ['aaaaaa', 'aaa'];
    const encoded = TrigramIndex.build(texts, texts.length).toEncoded();
    expect(Array.from(encoded.latin1.keys)).toEqual([(97 << 16) | (97 << 8) | 97]);
    expect(Array.from(encoded.latin1.counts)).toEqual([2]);
    expect(encoded.other.keys).toEqual([]);
  });
});
