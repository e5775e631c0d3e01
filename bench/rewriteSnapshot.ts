/**
 * Writes the search snapshot afresh from the one stored (and the change log after it), as the
 * compactor function does: bench/search.ts runs it in a process of its own when it reuses an
 * installation, so that the compaction's garbage (gigabytes at a million bugs) is not collected
 * beside the local S3 engine while the benchmark measures a new instance's reads from it. Prints
 * the pointer's chunk count as JSON on its last line. Reads the table and bucket from the
 * environment (TRACKER_TABLE, TRACKER_BUCKET, the engines' endpoints).
 */
import { relaxSdkTimeoutsForBulkTool } from '../local/bulkToolTimeouts.ts';

if (process.argv.includes('--help')) {
  process.stdout.write(
    'Usage: tsx bench/rewriteSnapshot.ts\nRewrites the search snapshot of the table the environment names (used by bench:search).\n',
  );
  process.exit(0);
}
relaxSdkTimeoutsForBulkTool();
const { compactSearchIndex } = await import('../shared/application/search/searchCompactor.ts');
const pointer = await compactSearchIndex();
process.stdout.write(`${JSON.stringify({ chunks: pointer?.chunks ?? null })}\n`);
