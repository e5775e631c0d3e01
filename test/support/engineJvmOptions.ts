/**
 * The JVM options of the DynamoDB Local engines a test run starts (local/engines.ts reads
 * TRACKER_DYNAMODB_JVM_OPTIONS). Measured on ten integration files, two cores, back to back
 * (2026-11-29): the engines' JIT compiler and parallel collector cost more CPU than the tests
 * themselves; the client compiler only and the serial collector cut the run's CPU time from 173 s
 * to 112 s and its wall clock from 240 s to 188 s. The benchmarks keep Java's defaults, which
 * suit an engine that runs for hours.
 */
export const TEST_ENGINE_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';
