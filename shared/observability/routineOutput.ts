/**
 * `TRACKER_REQUEST_LOG=off` silences what Tracker writes to stdout in the normal course of things:
 * the line per request, the search index's load lines and the metrics (EMF). Warnings and errors
 * are still written. The tests, the importer and the benchmarks set it, as they run the handlers
 * in their own process; it is read on every use because they set it after the handlers load.
 */
export const routineOutputOff = (): boolean => process.env.TRACKER_REQUEST_LOG === 'off';
