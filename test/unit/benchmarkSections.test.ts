import { describe, expect, it } from 'vitest';
import {
  keptSectionsOf,
  mergeKeptSections,
  mergeSearchSection,
  SEARCH_SECTION_END,
  SEARCH_SECTION_START,
  searchSectionOf,
} from '../../bench/benchmarkSections.ts';

/** docs/benchmarks.md is written by several tools; a full `npm run bench` keeps what the others wrote. */
const kept = (name: string, text: string) => `<!-- kept:${name}:start -->\n${text}\n<!-- kept:${name}:end -->`;

describe('sections of docs/benchmarks.md', () => {
  it('keeps the hand-run sections a new report does not have, in their order, and only once', () => {
    const previous = `# old report\n\n${kept('bundle-sizes', '| a | 1 |')}\n\nprose\n\n${kept('index-memory', '| b | 2 |')}\n`;
    const sections = keptSectionsOf(previous);
    expect(sections).toEqual([kept('bundle-sizes', '| a | 1 |'), kept('index-memory', '| b | 2 |')]);
    const merged = mergeKeptSections('# new report\n', sections);
    expect(merged).toBe(`# new report\n\n${sections[0]}\n\n${sections[1]}\n`);
    expect(mergeKeptSections(merged, sections)).toBe(merged);
  });

  it("keeps a size's section whose name has digits (search-bench-1000000), and refuses text that is none", () => {
    const million = kept('search-bench-1000000', '| 1M | 42 |');
    expect(keptSectionsOf(`# r\n\n${million}\n`)).toEqual([million]);
    expect(mergeKeptSections('# r\n', [million])).toBe(`# r\n\n${million}\n`);
    expect(() => mergeKeptSections('# r\n', ['| lost table |'])).toThrow(/not a kept section/);
  });

  it('replaces the search section in place and leaves a document without one alone when there is none', () => {
    const search = (text: string) => `${SEARCH_SECTION_START}\n${text}\n${SEARCH_SECTION_END}`;
    const document = `# report\n\n${search('old')}\n\ntail\n`;
    expect(mergeSearchSection(document, search('new'))).toBe(`# report\n\n${search('new')}\n\ntail\n`);
    expect(searchSectionOf('# report\n')).toBe('');
    expect(mergeSearchSection('# report\n', '')).toBe('# report\n');
  });
});
