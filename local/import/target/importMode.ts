import { lastAllocatedId } from '../../../shared/storage/counterStore.ts';
import { type ImportState, loadImportState } from '../../../shared/storage/instance/importStateStore.ts';
import { ImportRefusal } from '../importErrors.ts';

/**
 * What a run does with the target, decided before anything is written:
 * - `fresh`: no import state and no bug ever created (a new or seeded-without-bugs installation);
 * - `resume`: the state of an unfinished first import from the same source: bugs after its checkpoint;
 * - `update`: an import from the same source that finished once: bugs changed since it began
 *   reading (or since `--since`), and the catalogue and accounts again.
 * A target with bugs of its own, or the state of another source, is refused.
 */
export type ImportMode = 'fresh' | 'resume' | 'update';

export interface ModeDecision {
  mode: ImportMode;
  state: ImportState | null;
  /** Bugs changed at or after this source time are brought (update); null: by id range. */
  since: string | null;
}

/** The same source, however its URL was typed. */
export const sameSource = (a: string, b: string) =>
  a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();

export async function decideMode(sourceUrl: string, since: string | undefined): Promise<ModeDecision> {
  const state = await loadImportState();
  if (state && !sameSource(state.sourceUrl, sourceUrl))
    throw new ImportRefusal(
      'other-source',
      `The target holds an import from ${state.sourceUrl}, not ${sourceUrl}: import into a new installation instead.`,
    );
  if (!state) {
    const bugs = await lastAllocatedId('bug');
    if (bugs > 0)
      throw new ImportRefusal(
        'target-not-empty',
        `The target already holds bugs of its own (ids up to ${bugs}): an import keeps the source's ids, so it needs an installation without bugs.`,
      );
    return { mode: since ? 'update' : 'fresh', state, since: since ?? null };
  }
  if (since) return { mode: 'update', state, since };
  if (state.syncedThrough) return { mode: 'update', state, since: state.syncedThrough };
  return { mode: 'resume', state, since: null };
}
