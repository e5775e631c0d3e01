import type { ProductRecord } from '../../catalog/catalog.ts';
import type { Bug } from '../bug.ts';
import type { BugNames } from '../bugChanges.ts';
import type { BugEnvironment } from '../bugEnvironment.ts';
import type { UpdateOutcome, WorkingSet } from '../bugWorkingSet.ts';

/**
 * One bug's change while a PUT /rest/bug request is applied: each rule (a file of this folder)
 * reads the request and the bug as it was, and writes to `next`, the bug as it will be.
 */
export interface BugUpdateContext {
  readonly env: BugEnvironment;
  readonly working: WorkingSet;
  readonly input: Record<string, unknown>;
  readonly names: BugNames;
  readonly bugId: number;
  /** The bug before this request's change to it (other bugs of the request may have changed it). */
  readonly current: Bug;
  readonly next: Bug;
  /** The product the bug was in. */
  readonly oldRecord: ProductRecord;
  /** The product the bug is moving to, or oldRecord. */
  record: ProductRecord;
  readonly outcome: UpdateOutcome;
}

export const present = (value: unknown) => value !== undefined && value !== null;
