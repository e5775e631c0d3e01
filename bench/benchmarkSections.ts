/**
 * docs/benchmarks.md is written by two scripts: `npm run bench` (the whole document) and
 * `npm run bench:search` (its own section between these markers). Each keeps the other's part.
 */
export const SEARCH_SECTION_START = '<!-- search-bench:start -->';
export const SEARCH_SECTION_END = '<!-- search-bench:end -->';

/** The search section of a document, or '' when it has none. */
export function searchSectionOf(document: string): string {
  const start = document.indexOf(SEARCH_SECTION_START);
  const end = document.indexOf(SEARCH_SECTION_END);
  return start >= 0 && end > start ? document.slice(start, end + SEARCH_SECTION_END.length) : '';
}

/** Replaces (or appends) the search section of a document. */
export function mergeSearchSection(document: string, section: string): string {
  const current = searchSectionOf(document);
  if (!section) return document;
  if (current) return document.replace(current, section);
  return `${document.trimEnd()}\n\n${section}\n`;
}

/** `npm run bench:import` writes its own section too, between these markers; the others keep it. */
export const IMPORT_SECTION_START = '<!-- import-bench:start -->';
export const IMPORT_SECTION_END = '<!-- import-bench:end -->';

/** The import section of a document, or '' when it has none. */
export function importSectionOf(document: string): string {
  const start = document.indexOf(IMPORT_SECTION_START);
  const end = document.indexOf(IMPORT_SECTION_END);
  return start >= 0 && end > start ? document.slice(start, end + IMPORT_SECTION_END.length) : '';
}

/** Replaces (or appends) the import section of a document. */
export function mergeImportSection(document: string, section: string): string {
  const current = importSectionOf(document);
  if (!section) return document;
  if (current) return document.replace(current, section);
  return `${document.trimEnd()}\n\n${section}\n`;
}

/**
 * Sections measured by hand-run tools (bench/bundleComposition.ts, bench/indexMemory.ts) sit
 * between `<!-- kept:<name>:start -->` and `<!-- kept:<name>:end -->`: `npm run bench` keeps every
 * one of them where it was, as it keeps the search and import sections.
 */
const KEPT_SECTION = /<!-- kept:([a-z0-9-]+):start -->[\s\S]*?<!-- kept:\1:end -->/g;

/** Every kept section of a document, in order. */
export function keptSectionsOf(document: string): string[] {
  return [...document.matchAll(KEPT_SECTION)].map((match) => match[0]);
}

/** Appends each kept section the document does not hold yet (by name). */
export function mergeKeptSections(document: string, sections: readonly string[]): string {
  let merged = document;
  for (const section of sections) {
    const name = /<!-- kept:([a-z0-9-]+):start -->/.exec(section)?.[1];
    if (!name) throw new Error(`not a kept section: ${section.slice(0, 80)}`);
    if (merged.includes(`<!-- kept:${name}:start -->`)) continue;
    merged = `${merged.trimEnd()}\n\n${section}\n`;
  }
  return merged;
}
