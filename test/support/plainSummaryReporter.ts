import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with the plain line `N passed, N failed` (`, N skipped` when any), which CI reads
 * in any language, after vitest's own report.
 */
export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed with no failed test failed outside them (an import, a beforeAll whose
      // error skipped every test): one failure, or the line would read "0 failed" for a red run.
      failed += module.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
  }
}
