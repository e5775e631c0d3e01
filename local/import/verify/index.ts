import { type RenderOptions, renderVerification } from './renderVerification.ts';
import { type VerifyOptions, type VerifyResult, verifyImport } from './verifyImport.ts';

/**
 * Verification of an import (issue 17, `--verify` and `--verify-sample N`): both sides read
 * through the REST API, every difference listed. The comparisons are pure functions of records
 * (compare*.ts, normalise.ts names every normalisation); verifyImport.ts reads and orchestrates.
 */
export { compareAttachments } from './compareAttachments.ts';
export { compareBugFields, NOT_COMPARED } from './compareBug.ts';
export { compareComments } from './compareComments.ts';
export { compareFlags, type FlagView } from './compareFlags.ts';
export { compareHistory } from './compareHistory.ts';
export { compareSnapshots } from './compareSnapshots.ts';
export type { AttachmentSummary, BugSnapshot, CompareOptions, Difference, DifferenceKind } from './differences.ts';
export { canonical, sameValue } from './normalise.ts';
export { type RenderOptions, renderVerification } from './renderVerification.ts';
export {
  type BugDifferences,
  sampleIds,
  type Unreadable,
  type VerifyOptions,
  type VerifyProgress,
  type VerifyResult,
  verifyImport,
} from './verifyImport.ts';

/**
 * What the CLI calls after an import (or alone): the result for `--report` JSON and the text
 * for the terminal and the report. `equal` decides the exit status.
 */
export async function runVerification(
  options: VerifyOptions & { render?: RenderOptions },
): Promise<{ result: VerifyResult; text: string; equal: boolean }> {
  const result = await verifyImport(options);
  return { result, text: renderVerification(result, options.render), equal: result.equal };
}
