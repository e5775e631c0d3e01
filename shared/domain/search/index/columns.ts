/**
 * What the search index is made of, named apart from the index itself so that the index, its
 * parts, the snapshot codec and the criteria read the same names without importing one another:
 * the per-slot columns, the bits of `bits`, the documents the change log and snapshots carry, and
 * the parts a cold instance reads after the core.
 */
import type { Bug, HistoryEntry } from '../../bug/bug.ts';

/** A field change as the index keeps it, for changedbefore/after/from/to/by and chfield. */
export interface IndexedChange {
  field: string;
  at: number;
  who: number;
  removed: string;
  added: string;
  /** The attachment the change is about: hidden from outsiders while it is private (privateActivity.ts). */
  attachmentId?: number;
}

export interface IndexedFlag {
  typeId: number;
  status: string;
  setterId: number;
  requesteeId: number | null;
  /** Absent in snapshots written before the index rendered pages itself (indexedBugs.ts). */
  id?: number;
  creationDate?: string;
  modificationDate?: string;
}

/** One bug as the change log and the snapshot carry it. */
export interface IndexDocument {
  bug: Bug;
  rev: number;
  /** History entries written with this revision (appended to the bug's indexed changes). */
  history?: HistoryEntry[];
  /** Words of the comments added with this revision (commentWords), public and private apart. */
  words?: string[];
  privateWords?: string[];
  /**
   * The words are all of the bug's comments, not just new ones: a comment's privacy changed, so
   * the bug's postings are replaced (its public words must stop matching for outsiders).
   */
  allWords?: boolean;
}

/**
 * The words of comment text as Bugzilla's full-text search sees them: letters, digits and `_`,
 * lowercased, two characters or more (and at most 40: longer runs are not words people search).
 */
export function commentWords(texts: readonly string[]): string[] {
  const words = new Set<string>();
  for (const text of texts) {
    for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_]{2,40}/gu)) words.add(match[0]);
  }
  return [...words];
}

export const CODE_COLUMNS = [
  'status',
  'resolution',
  'priority',
  'severity',
  'platform',
  'opSys',
  'bugType',
  'filedVia',
] as const;
export type CodeColumn = (typeof CODE_COLUMNS)[number];

export const LIST_COLUMNS = [
  'ccIds',
  'keywordIds',
  'groupIds',
  'dependsOn',
  'blocks',
  'regressedBy',
  'regressions',
  'duplicates',
] as const;
export type ListColumn = (typeof LIST_COLUMNS)[number];

/** The typed-array columns, one number per bug: grown together, and each a list of numbers in the snapshot. */
export const NUMBER_COLUMNS = [
  'id',
  'rev',
  'productId',
  'componentId',
  'versionId',
  'targetMilestoneId',
  'assigneeId',
  'reporterId',
  'qaContactId',
  'dupeOf',
  'commentCount',
  'privateCommentCount',
  'attachmentCount',
  'creationTime',
  'lastChangeTime',
  'deadline',
  'estimatedTime',
  'remainingTime',
  'actualTime',
  'bits',
] as const;
export type NumberColumn = (typeof NUMBER_COLUMNS)[number];

/**
 * Per-slot columns derived from the others when a snapshot is read, so the snapshot does not
 * store them: each grows with the index like the stored ones (SLOT_COLUMNS).
 */
export const DERIVED_COLUMNS = ['restricted', 'whiteboardCode', 'aliasCode'] as const;

/**
 * Every typed-array column with one entry per slot besides `codes`: the one list ensureCapacity
 * grows and setColumn checks. A column missing here would keep its first 1,024 entries while the
 * index grows past them, and a typed array drops writes past its end without a word.
 */
export const SLOT_COLUMNS = [...NUMBER_COLUMNS, ...DERIVED_COLUMNS] as const;
export type SlotColumn = (typeof SLOT_COLUMNS)[number];
export type TypedColumn = Int32Array | Float64Array | Uint8Array;

/** The bits of the `bits` column: a bug's yes/no fields, one bit each. */
export const CONFIRMED_BIT = 1;
export const CC_ACCESSIBLE_BIT = 2;
export const CREATOR_ACCESSIBLE_BIT = 4;
/** The columns give the bug back exactly (indexedBugs.ts): a search page need not read its item. */
export const READS_BACK_BIT = 8;
/**
 * They were found not to: the page reads the bug's item. A slot with neither bit came from a
 * snapshot written before either existed, until the compactor reads its bug again (takeFromTable).
 */
export const NOT_READ_BACK_BIT = 16;

export const EMPTY: readonly number[] = Object.freeze([]);
/** A private comment count not known yet (privateCommentCount). */
export const UNKNOWN_COUNT = -1;

export const timeOf = (text: string | null | undefined): number =>
  text ? Date.parse(text.includes('T') ? text : `${text.replace(' ', 'T')}Z`) : Number.NaN;

/** The parts of the index a snapshot may store apart from its core, in the order they are read back. */
export const DEFERRED_PARTS = ['trigrams', 'words', 'history'] as const;
export type DeferredPart = (typeof DEFERRED_PARTS)[number];
