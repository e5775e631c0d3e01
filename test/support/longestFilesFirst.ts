import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Starts the files that take longest first. vitest orders files by the durations it recorded in
 * its cache, and by size without one (a fresh clone, CI): the search oracle, a small file whose
 * work is in its support code, then starts late and runs alone for minutes at the end while the
 * other worker idles. Measured on a two-core machine, in a fresh clone: the oracle takes about
 * seven minutes and the browser files one to three; everything else under one.
 */
const LONGEST_FIRST = [
  'test/integration/searchOracle.test.ts',
  'test/browser/workOnBugs.test.ts',
  'test/browser/accountAndPrivacy.test.ts',
  'test/browser/findBugs.test.ts',
  'test/integration/rpcMethods.test.ts',
  'test/integration/importTargetGuards.test.ts',
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
