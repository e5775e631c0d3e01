import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../dynamoClient.ts';
import { keys } from '../keys.ts';

/**
 * What an import from a Bugzilla (local/import) has brought into this installation, in one item
 * (`INSTANCE` / `IMPORT`): which source, which phases are done, the highest bug id whose batch
 * was committed (the checkpoint a rerun resumes after) and the source's clock when the import
 * began reading, from which a later run brings what changed since. Without it, an installation
 * that holds bugs cannot tell an interrupted import from bugs of its own, and refuses a second one.
 */
export interface ImportState {
  /** The source's REST root, as given (`https://bugzilla.example.org/rest`). */
  sourceUrl: string;
  /** probeSource's kind: `bugzilla-5.2`, `harmony`, `tracker`, ... */
  sourceKind: string;
  /** Phases finished by the latest run (`accounts`, `catalogue`, `bugs`, `finish`). */
  phasesDone: string[];
  /** Every bug up to this id is written (0: none yet). */
  checkpoint: number;
  /**
   * Every bug up to this id is in the search snapshot (a run writes one when it ends, however it
   * ends); bugs after it and up to the checkpoint are read back from the table by the next run.
   */
  indexedThrough: number;
  /** The highest bug id the run set out to import. */
  lastBugId: number;
  /** When the first run of this import started, and when the latest one finished (null: not yet). */
  startedAt: string;
  finishedAt: string | null;
  /**
   * The source's time when the unfinished import began reading (kept across resumes), or when
   * the latest finished run began: a later update asks for bugs changed at or after it.
   */
  sourceTime: string;
  /** The source time of the last finished run, from which the next update reads (null: never finished). */
  syncedThrough: string | null;
}

export async function loadImportState(): Promise<ImportState | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.importState(), ConsistentRead: true }),
  );
  if (!result.Item) return null;
  const { pk, sk, type, ...state } = result.Item;
  return state as ImportState;
}

export async function saveImportState(state: ImportState): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.importState(), type: 'importState', ...state } }),
  );
}
