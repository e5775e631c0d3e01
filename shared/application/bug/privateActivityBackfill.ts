import type { PrivateAttachmentMark } from '../../domain/bug/bug.ts';
import { logger } from '../../observability/logger.ts';
import { routineOutputOff } from '../../observability/routineOutput.ts';
import { loadBug } from '../../storage/bug/bugStore.ts';
import {
  loadBackfillState,
  saveBackfillState,
  scanBugsWithoutPrivateAttachments,
  storePrivateAttachments,
} from '../../storage/bug/privateAttachmentsBackfillStore.ts';

/**
 * The one-time backfill of `privateAttachments` (docs/data-model.md §3, "What an outsider learns"):
 * bug items stored before bugs listed their private attachments get the list their attachment
 * items give. Until then nothing leaks: storage derives the list whenever such a bug is read
 * (legacyPrivateAttachments.ts), and the search index hides every attachment change of such a bug
 * from outsiders. The backfill makes both cheap and exact again.
 *
 * - **Where it runs:** at the start of each run of the search compactor (searchCompactor.ts: every
 *   10 minutes in the stack, every 5 under `npm start`), not in the deploy's bootstrap: the
 *   compactor already holds the search index whose snapshot must take the lists, has the table
 *   role, and runs again soon, so the work is cut into bounded slices instead of racing the
 *   custom resource's timeout. A deploy never waits for it.
 * - **Idempotent and resumable:** one Scan over the table, page by page, finds bug items with
 *   attachments and no list; the position is saved on the installation item after each page, and
 *   `done` when the scan ends (a new installation is marked done by its bootstrap). Bugs without
 *   attachments need nothing: without attachments a bug has no private ones.
 * - **Never overwrites a user's write:** each bug is read again (consistently, with its revision),
 *   its list derived from its attachment items, and stored only if the item is still at that
 *   revision and still without a list (privateAttachmentsBackfillStore.ts). Attachment items are
 *   only ever written together with their bug, raising its revision, so an unchanged revision
 *   means unchanged attachments.
 */

/** How long one run may spend on the backfill, leaving the compaction well inside its 5-minute limit. */
export const BACKFILL_BUDGET_MS = 120_000;
/** Bugs handled at once: each costs a consistent read, a Query of its attachments and a conditional write. */
const PARALLEL_BUGS = 8;

export interface BackfilledBug {
  bugId: number;
  /** The revision the list was derived at, which the item still has. */
  rev: number;
  marks: readonly PrivateAttachmentMark[];
}

export interface BackfillRun {
  /** The whole table has been through: no bug item lacks its list any more. */
  done: boolean;
  /** The lists this run stored, for the search index that the compactor is about to write. */
  stored: BackfilledBug[];
}

/** One bounded slice of the backfill: scan pages until the table ends or `budgetMs` has passed. */
export async function backfillPrivateAttachments(budgetMs = BACKFILL_BUDGET_MS): Promise<BackfillRun> {
  const state = await loadBackfillState();
  if (state.done) return { done: true, stored: [] };
  const deadline = Date.now() + budgetMs;
  const stored: BackfilledBug[] = [];
  let cursor = state.cursor;
  do {
    const page = await scanBugsWithoutPrivateAttachments(cursor);
    for (let start = 0; start < page.bugIds.length; start += PARALLEL_BUGS) {
      const done = await Promise.all(page.bugIds.slice(start, start + PARALLEL_BUGS).map(backfillBug));
      stored.push(...done.filter((bug) => bug !== null));
    }
    cursor = page.next;
    await saveBackfillState(cursor ? { done: false, cursor } : { done: true });
  } while (cursor && Date.now() < deadline);
  // Progress for the operator (CloudWatch on AWS), once per run that did any work.
  if (!routineOutputOff())
    logger.info('private attachments backfill', { stored: stored.length, done: cursor === undefined });
  return { done: cursor === undefined, stored };
}

/** One bug: its list as storage derives it on read, stored at the revision read (null if a write came first). */
async function backfillBug(bugId: number): Promise<BackfilledBug | null> {
  const found = await loadBug(bugId);
  const marks = found?.bug.privateAttachments;
  if (!found || !marks) return null;
  return (await storePrivateAttachments(bugId, found.rev, marks)) ? { bugId, rev: found.rev, marks } : null;
}
