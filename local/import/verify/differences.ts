import type { AttachmentRecord, CommentRecord, FlagRecord, HistoryEntryRecord } from '../source/index.ts';

/**
 * What verification compares and what it finds. One bug is read from each side into a
 * `BugSnapshot` (readSnapshots.ts); the compare* functions turn two snapshots into a list of
 * `Difference`s. They are pure, so the unit tests feed them hand-made records.
 */

export type DifferenceKind = 'bug' | 'comment' | 'attachment' | 'flag' | 'history';

export interface Difference {
  kind: DifferenceKind;
  /**
   * The bug's id for bug fields and history; the comment's or attachment's id for those; for a
   * flag, the id of what carries it (bug or attachment: `field` says which).
   */
  id: number;
  /** The wire name of the field (`priority`, `is_private`, `sha256`, ...), or what is missing. */
  field: string;
  /** As each side sent it (before normalisation); null where the side has nothing. */
  source: unknown;
  target: unknown;
}

/** An attachment with its body reduced to a checksum, so a snapshot never holds bodies. */
export interface AttachmentSummary extends Omit<AttachmentRecord, 'data'> {
  /** SHA-256 (hex) of the decoded body; null when the side sent no body. */
  sha256: string | null;
  /** Why the body could not be read at all (e.g. too large for one answer): not compared then. */
  bodyUnreadable?: string;
}

/** One bug as one side answers for it. */
export interface BugSnapshot {
  id: number;
  /** The bug as sent (`include_fields=_all` without comments, history and attachments). */
  fields: Record<string, unknown>;
  /** The bug's flags, parsed (`fields.flags` as records). */
  flags: FlagRecord[];
  comments: CommentRecord[];
  history: HistoryEntryRecord[];
  attachments: AttachmentSummary[];
}

export interface CompareOptions {
  /**
   * Whether per-user fields (the reading account's personal `tags`) are compared: only when the
   * same login reads both sides, since each side answers for its own reader.
   */
  personalTags: boolean;
}
