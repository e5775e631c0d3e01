/**
 * Why an import does not start, with a sentence for the operator: the probe's verdicts
 * (SourceProbeError), a key that is not an administrator's without `--allow-partial`, a target
 * that holds other bugs. Raised before anything is written.
 */
export type ImportRefusalReason =
  | 'source'
  | 'not-admin'
  | 'target-not-empty'
  | 'target-has-objects'
  | 'target-changed'
  | 'target-edited'
  | 'since-without-import'
  | 'other-source'
  | 'target-missing'
  | 'verify';

export class ImportRefusal extends Error {
  override readonly name = 'ImportRefusal';

  constructor(
    readonly reason: ImportRefusalReason,
    message: string,
  ) {
    super(message);
  }
}
