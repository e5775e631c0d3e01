import { SYSTEM_GROUPS } from '../../../shared/domain/instance/installation.ts';
import { type IdKind, lastAllocatedId } from '../../../shared/storage/counterStore.ts';
import { type ImportState, loadImportState } from '../../../shared/storage/instance/importStateStore.ts';
import { ImportRefusal } from '../importErrors.ts';

/**
 * What a run does with the target, decided before anything is written:
 * - `fresh`: no import state and no bug ever created (a new or seeded-without-bugs installation);
 * - `resume`: the state of an unfinished first import from the same source: bugs after its checkpoint;
 * - `update`: an import from the same source that finished once: bugs changed since it began
 *   reading (or since `--since`), and the catalogue and accounts again.
 * A target with objects of its own (anything beyond what a new installation holds: bugs, products,
 * groups, users, ...), or the state of another source, is refused: an import keeps the source's
 * ids, so it would overwrite them. So is a target on which, since the import's last run, anybody
 * created bugs, comments, attachments or anything else with an id (the next ids both sides hand
 * out are the same: an update would overwrite them), and `--since` without a finished import
 * (it would leave an installation with only the bugs changed since then, for good).
 */
export type ImportMode = 'fresh' | 'resume' | 'update';

export interface ModeDecision {
  mode: ImportMode;
  state: GuardedImportState | null;
  /** Bugs changed at or after this source time are brought (update); null: by id range. */
  since: string | null;
}

/**
 * The same source, however its URL was typed: without case, trailing slashes and default ports,
 * and with the loopback names (localhost, 127.0.0.1, [::1]) taken as one.
 */
export const sameSource = (a: string, b: string) => canonicalSource(a) === canonicalSource(b);

function canonicalSource(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  try {
    const parsed = new URL(trimmed);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname.toLowerCase());
    const host = loopback ? 'loopback' : parsed.hostname.toLowerCase();
    return `${parsed.protocol}//${host}:${parsed.port}${parsed.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return trimmed.toLowerCase();
  }
}

/** Kinds whose ids an import keeps: an object the import did not write would be overwritten. */
export const GUARDED_KINDS: readonly IdKind[] = [
  'user',
  'group',
  'classification',
  'product',
  'component',
  'version',
  'milestone',
  'keyword',
  'flagtype',
  'field',
  'bug',
  'comment',
  'attachment',
  'flag',
];

/** What a new installation has taken of each kind (bootstrapInstallation): its administrator, the system groups and TestProduct. */
const NEW_INSTALLATION: Partial<Record<IdKind, number>> = {
  user: 1,
  group: SYSTEM_GROUPS.length,
  classification: 1,
  product: 1,
  component: 1,
  version: 1,
  milestone: 1,
};

/**
 * The import state, with the target's id counters as the import left them (absent before any
 * phase was done); `taggedBugs`, the bugs the import wrote with comment or personal tags (id
 * ranges), whose tags an update compares with the source's even when the source no longer finds
 * them tagged; and `marksEdits`, set when every bug the import wrote carries its import mark
 * (an import begun before the marks existed cannot tell an unmarked bug from an edited one).
 */
export type GuardedImportState = ImportState & {
  counters?: Partial<Record<IdKind, number>>;
  taggedBugs?: string[];
  marksEdits?: boolean;
};

export async function targetCounters(): Promise<Record<IdKind, number>> {
  const values = await Promise.all(GUARDED_KINDS.map((kind) => lastAllocatedId(kind)));
  return Object.fromEntries(GUARDED_KINDS.map((kind, index) => [kind, values[index]])) as Record<IdKind, number>;
}

const PLURAL: Partial<Record<IdKind, string>> = {
  classification: 'classifications',
  flagtype: 'flag types',
  field: 'custom fields',
};
const plural = (kind: IdKind) => PLURAL[kind] ?? `${kind}s`;

/** "bugs 420-421, comments 979" for every kind whose counter is above `limit`'s. */
function beyond(counters: Record<IdKind, number>, limit: (kind: IdKind) => number | undefined): string[] {
  return GUARDED_KINDS.flatMap((kind) => {
    const known = limit(kind);
    if (known === undefined || counters[kind] <= known) return [];
    const from = known + 1;
    return [`${plural(kind)} ${from === counters[kind] ? from : `${from}-${counters[kind]}`}`];
  });
}

export async function decideMode(
  sourceUrl: string,
  since: string | undefined,
  sameSourceAs?: string,
): Promise<ModeDecision> {
  const state = (await loadImportState()) as GuardedImportState | null;
  const moved = sameSourceAs !== undefined && state !== null && sameSource(state.sourceUrl, sameSourceAs);
  if (state && !moved && !sameSource(state.sourceUrl, sourceUrl))
    throw new ImportRefusal(
      'other-source',
      `The target holds an import from ${state.sourceUrl}, not ${sourceUrl}: import into a new installation instead (or, if that source now answers at ${sourceUrl}, say so with --same-source-as ${state.sourceUrl}).`,
    );
  const finished = state?.syncedThrough != null;
  if (since && !finished)
    throw new ImportRefusal(
      'since-without-import',
      `--since brings what changed on the source into a target that holds a finished import from it; this one holds ${state ? 'an unfinished import' : 'none'}. Run without --since first (a rerun resumes an unfinished import); later runs bring what changed by themselves.`,
    );
  const counters = await targetCounters();
  if (!state) {
    const own = beyond(counters, (kind) => NEW_INSTALLATION[kind] ?? 0);
    if (own.length > 0)
      throw new ImportRefusal(
        counters.bug > 0 ? 'target-not-empty' : 'target-has-objects',
        `The target already holds ${counters.bug > 0 ? `bugs of its own (ids up to ${counters.bug})` : 'objects of its own'}: ${own.join(', ')} beyond what a new installation has. An import keeps the source's ids and would overwrite them, so it needs a new installation.`,
      );
    return { mode: 'fresh', state, since: null };
  }
  if (state.counters) {
    const recorded = state.counters;
    const created = beyond(counters, (kind) => recorded[kind]);
    if (created.length > 0)
      throw new ImportRefusal(
        'target-changed',
        `Since the import's last run, objects the import did not write were created on the target: ${created.join(', ')}. The source hands out the same next ids, so this run would overwrite them. Keep the target read-only until the switch; import into a new installation to start over.`,
      );
  }
  if (since) return { mode: 'update', state, since };
  if (state.syncedThrough) return { mode: 'update', state, since: state.syncedThrough };
  return { mode: 'resume', state, since: null };
}
