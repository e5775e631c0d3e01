/**
 * Issue 11's "before" figures, kept as constants beside the live ones so that every report can show
 * what the lean functions and the catalogue cache changed (the numbers are not measured again).
 */

/**
 * Issue 11's "before", measured on this machine before its changes and kept here as constants
 * (like Bugzilla's reference numbers in bench/markdownReport.ts): DynamoDB calls per request at commit acd5d5e, the
 * last one before the catalogue cache (`BENCH_COLD=0 BENCH_DURATION=3 npm run bench`,
 * 2026-11-23); bundles and module load at 0ee6dc4, the last one before the lean bundles
 * (docs/benchmarks.md of 2026-11-22, 5 processes per handler, load average about 3); the load's
 * CPU time at 0ee6dc4 was measured later (2026-11-23, 9 processes per handler, interleaved with
 * the new bundles), since wall-clock loads on a busy machine are not comparable.
 */
export const BASELINE = {
  callsPerRequest: {
    version: 0,
    whoami: 3.1,
    parameters: 4.1,
    product: 6.2,
    'user match': 5.2,
    fields: 7.4,
    login: 7.2,
    'get bug': 11.5,
    'bug history': 13.2,
    'create bug': 15.5,
    'update bug': 13,
  } as Record<string, number>,
  /** index.mjs and source map in KiB, module load median in ms. */
  bundles: {
    'instance/version': { code: 815.8, map: 2.98 * 1024, loadMs: 116, loadCpuMs: 110 },
    'user/whoami': { code: 815.1, map: 2.98 * 1024, loadMs: 115, loadCpuMs: 107 },
    'product/getProducts': { code: 822.0, map: 3.05 * 1024, loadMs: 123, loadCpuMs: 113 },
    'field/getFields': { code: 827.1, map: 3.07 * 1024, loadMs: 92, loadCpuMs: 115 },
    'user/login': { code: 815.5, map: 2.98 * 1024, loadMs: 107, loadCpuMs: 115 },
  } as Record<string, { code: number; map: number; loadMs: number; loadCpuMs: number }>,
};
