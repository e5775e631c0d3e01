import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Starts the files that take longest first. vitest orders files by the durations it recorded in
 * its cache, and by size without one (a fresh clone, CI): the search oracle, a small file whose
 * work is in its support code, then starts late and runs alone for minutes at the end while the
 * other worker idles. Ordered by what each took on a two-core machine on 2026-11-29 (the oracle
 * about two minutes, the admin pages' browser files one to two); everything else under 30 s.
 */
const LONGEST_FIRST = [
  'test/integration/searchOracle.test.ts',
  'test/browser/adminCatalog.test.ts',
  'test/browser/administerPeople.test.ts',
  'test/browser/workOnBugs.test.ts',
  'test/browser/accountsByMail.test.ts',
  'test/browser/accountAndPrivacy.test.ts',
  'test/browser/bugPageDetails.test.ts',
  'test/unit/bundleSize.test.ts',
  'test/browser/findBugs.test.ts',
  'test/integration/importTargetGuards.test.ts',
  'test/integration/importHostileSource.test.ts',
  'test/browser/reports.test.ts',
  'test/browser/savedSearches.test.ts',
  'test/unit/stack.test.ts',
];

const rank = (spec: TestSpecification) => {
  const at = LONGEST_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
  return at < 0 ? LONGEST_FIRST.length : at;
};

export default class LongestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
