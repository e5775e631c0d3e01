/**
 * How much memory the functions that hold the whole search index need for an installation of a
 * given size (the `expectedBugs` setting, lib/stackSettings.ts): a fixed base for the process and
 * a figure per bug, rounded up, never below today's default and never above Lambda's limit. An
 * explicit `searchMemoryMb` / `compactorMemoryMb` setting replaces the computed value.
 * docs/data-model.md §8.7 says what the index holds and where in-memory search stops.
 */

/** Lambda's "MB" of memory is a mebibyte. */
const BYTES_PER_MB = 1024 * 1024;

/** The Node.js process with its bundle and SDK clients, and a request's own work, however many bugs. */
export const BASE_PROCESS_MEMORY_MB = 256;

/**
 * Per bug, in a search function: the loaded index with its summary trigrams, the pages and
 * criterion results kept between requests, and the peak of a cold start's snapshot load. The
 * 1,000,000-bug `npm run bench:search` (2026-11-28) peaked at 1,841 MiB with 101 MiB before the
 * index: 1,824 B a bug, so 2,000 leaves about a tenth spare (docs/benchmarks.md).
 */
export const SEARCH_BYTES_PER_BUG = 2_000;

/**
 * Per bug, in the compactor: it loads the whole index (every part) and writes a snapshot of it,
 * but keeps nothing between runs. At 1,000,000 bugs it peaked at 1,226 MiB with 113 MiB before
 * (2026-11-28): 1,167 B a bug.
 */
export const COMPACTOR_BYTES_PER_BUG = 1_400;

/**
 * V8's young generation for the functions that hold the index. A page builds and drops thousands
 * of objects per request; with the default 16 MB semi-space they outlived too many scavenges.
 * 32 MB (2026-11-28, `npm run bench:search`, 100,000 bugs, nothing kept): quicksearch 139 → 158
 * req/s, a 1,000-bug page 19.6 → 26.3 req/s, product + status 202 → 228 req/s. It costs at most
 * 48 MB more of the function's memory. bench/search.ts runs its API process with the same setting.
 */
export const SEARCH_NODE_OPTIONS = '--max-semi-space-size=32';

/** Computed sizes are rounded up to a multiple of this. */
export const MEMORY_STEP_MB = 64;

/** The least memory a search function or the compactor gets: the default before sizing by bugs. */
export const MIN_SEARCH_MEMORY_MB = 1_536;

/** Lambda's most. */
export const MAX_LAMBDA_MEMORY_MB = 10_240;

/** An installation whose index does not fit one function's memory. */
export class SearchTooLargeError extends Error {
  readonly neededMb: number;
  constructor(bugs: number, neededMb: number) {
    super(
      `${bugs} bugs need about ${neededMb} MB, more than Lambda's ${MAX_LAMBDA_MEMORY_MB} MB: the installation is ` +
        'too large for in-memory search in one function (docs/data-model.md §8.7 describes moving search to a ' +
        'managed engine)',
    );
    this.neededMb = neededMb;
  }
}

/**
 * The memory (MB) of a function holding the index of `bugs` bugs at `bytesPerBug` each: the base,
 * plus the bugs, rounded up to a multiple of MEMORY_STEP_MB, at least MIN_SEARCH_MEMORY_MB.
 * Throws SearchTooLargeError above MAX_LAMBDA_MEMORY_MB.
 */
export function memoryMbForBugs(bugs: number, bytesPerBug: number): number {
  const exact = BASE_PROCESS_MEMORY_MB + (bugs * bytesPerBug) / BYTES_PER_MB;
  const rounded = Math.max(MIN_SEARCH_MEMORY_MB, Math.ceil(exact / MEMORY_STEP_MB) * MEMORY_STEP_MB);
  if (rounded > MAX_LAMBDA_MEMORY_MB) throw new SearchTooLargeError(bugs, rounded);
  return rounded;
}

/** The memory (MB) of the search functions for an installation of `bugs` bugs. */
export const searchMemoryForBugs = (bugs: number): number => memoryMbForBugs(bugs, SEARCH_BYTES_PER_BUG);

/** The memory (MB) of the search compactor for an installation of `bugs` bugs. */
export const compactorMemoryForBugs = (bugs: number): number => memoryMbForBugs(bugs, COMPACTOR_BYTES_PER_BUG);
