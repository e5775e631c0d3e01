import type { Bug, BugFlag, FlagStatus, PrivateAttachmentMark } from '../../bug/bug.ts';
import { knownPrivateAttachments } from '../../bug/privateActivity.ts';
import { toBugzillaDateTime } from '../../time.ts';
import {
  CC_ACCESSIBLE_BIT,
  CODE_COLUMNS,
  CONFIRMED_BIT,
  type CodeColumn,
  CREATOR_ACCESSIBLE_BIT,
  type IndexedFlag,
  type ListColumn,
  UNKNOWN_COUNT,
} from './columns.ts';
import type { IdLists } from './idLists.ts';
import type { SparseColumn } from './sparseColumn.ts';
import type { Vocabulary } from './vocabulary.ts';

/**
 * A bug read back from the index's columns, so a search page is rendered without reading the
 * page's bug items from the table (application/search/searchPage.ts). The index holds every field
 * a bug has, because Bugzilla can search on every one; what it holds is exactly as fresh as the
 * search that picked the bug, since both come from the same catch-up with the change log.
 *
 * The columns normalise a little (times as milliseconds, no qa contact as 0), so the index marks a
 * slot as read back exactly (READS_BACK_BIT) only when the bug it rebuilds equals the bug it was given
 * (readsBack, at apply). Anything the columns cannot carry exactly keeps being read from the table:
 * an item written before versions were ids, a time not in wire form, a flag from a snapshot
 * written before flags kept their ids and dates.
 */

/**
 * The columns a bug is rebuilt from: the search index (searchIndex.ts) as this file reads it, named
 * here so that the index, which marks what reads back when a bug is applied, is not imported back.
 */
export interface BugColumns {
  readonly id: Int32Array;
  readonly productId: Int32Array;
  readonly componentId: Int32Array;
  readonly versionId: Int32Array;
  readonly targetMilestoneId: Int32Array;
  readonly assigneeId: Int32Array;
  readonly reporterId: Int32Array;
  readonly qaContactId: Int32Array;
  readonly dupeOf: Int32Array;
  readonly commentCount: Int32Array;
  readonly privateCommentCount: Int32Array;
  readonly attachmentCount: Int32Array;
  readonly creationTime: Float64Array;
  readonly lastChangeTime: Float64Array;
  readonly deadline: Float64Array;
  readonly estimatedTime: Float64Array;
  readonly remainingTime: Float64Array;
  readonly actualTime: Float64Array;
  readonly bits: Uint8Array;
  readonly vocabularies: Readonly<Record<CodeColumn, Vocabulary>>;
  readonly codes: Readonly<Record<CodeColumn, Int32Array>>;
  readonly lists: Readonly<Record<ListColumn, IdLists>>;
  readonly whiteboard: SparseColumn<string>;
  readonly alias: SparseColumn<string | null>;
  readonly url: SparseColumn<string>;
  readonly seeAlso: SparseColumn<readonly string[]>;
  readonly flags: SparseColumn<readonly IndexedFlag[]>;
  readonly tags: SparseColumn<Record<string, string[]> | null>;
  readonly custom: SparseColumn<Record<string, unknown> | null>;
  summaryAt(slot: number): string;
  privateAttachmentsAt(slot: number): readonly PrivateAttachmentMark[] | undefined;
}

const wireTime = (ms: number): string => toBugzillaDateTime(new Date(ms));

/** The bug at a slot as the index holds it (whether that is exact: READS_BACK_BIT). */
export function rebuildBug(index: BugColumns, slot: number): Bug {
  const bits = index.bits[slot]!;
  const deadline = index.deadline[slot]!;
  const privateCount = index.privateCommentCount[slot]!;
  // Loops rather than Object.fromEntries: a 1,000-bug page rebuilds a thousand bugs.
  const codes = {} as Record<(typeof CODE_COLUMNS)[number], string>;
  for (const column of CODE_COLUMNS) codes[column] = index.vocabularies[column].values[index.codes[column][slot]!]!;
  const { lists } = index;
  const marks = index.privateAttachmentsAt(slot);
  const tags = index.tags.get(slot);
  // One object literal with every property, in one order, and no spreads: V8 gives every rebuilt
  // bug the same shape, which the rendering after it reads fastest.
  const bug: Bug = {
    id: index.id[slot]!,
    alias: index.alias.get(slot),
    summary: index.summaryAt(slot),
    status: codes.status,
    resolution: codes.resolution,
    isConfirmed: (bits & CONFIRMED_BIT) !== 0,
    productId: index.productId[slot]!,
    componentId: index.componentId[slot]!,
    versionId: index.versionId[slot]!,
    targetMilestoneId: index.targetMilestoneId[slot]!,
    bugType: codes.bugType,
    priority: codes.priority,
    severity: codes.severity,
    platform: codes.platform,
    opSys: codes.opSys,
    assigneeId: index.assigneeId[slot]!,
    reporterId: index.reporterId[slot]!,
    qaContactId: index.qaContactId[slot] || null,
    url: index.url.get(slot),
    whiteboard: index.whiteboard.get(slot),
    deadline: Number.isNaN(deadline) ? null : wireTime(deadline).slice(0, 10),
    creationTime: wireTime(index.creationTime[slot]!),
    lastChangeTime: wireTime(index.lastChangeTime[slot]!),
    filedVia: codes.filedVia,
    isCcAccessible: (bits & CC_ACCESSIBLE_BIT) !== 0,
    isCreatorAccessible: (bits & CREATOR_ACCESSIBLE_BIT) !== 0,
    estimatedTime: index.estimatedTime[slot]!,
    remainingTime: index.remainingTime[slot]!,
    actualTime: index.actualTime[slot]!,
    ccIds: lists.ccIds.copyOf(slot),
    keywordIds: lists.keywordIds.copyOf(slot),
    groupIds: lists.groupIds.copyOf(slot),
    dependsOn: lists.dependsOn.copyOf(slot),
    blocks: lists.blocks.copyOf(slot),
    regressedBy: lists.regressedBy.copyOf(slot),
    regressions: lists.regressions.copyOf(slot),
    duplicates: lists.duplicates.copyOf(slot),
    dupeOf: index.dupeOf[slot] || null,
    seeAlso: [...index.seeAlso.get(slot)],
    flags: index.flags.get(slot).map((flag) => ({
      id: flag.id!,
      typeId: flag.typeId,
      status: flag.status as FlagStatus,
      setterId: flag.setterId,
      requesteeId: flag.requesteeId,
      creationDate: flag.creationDate!,
      modificationDate: flag.modificationDate!,
    })),
    commentCount: index.commentCount[slot]!,
    attachmentCount: index.attachmentCount[slot]!,
    custom: { ...(index.custom.get(slot) ?? {}) },
    tags: {},
  };
  if (privateCount !== UNKNOWN_COUNT) bug.privateCommentCount = privateCount;
  if (marks !== undefined) bug.privateAttachments = marks.map((mark) => ({ ...mark }));
  if (tags !== undefined) for (const user in tags) bug.tags[user] = [...tags[user]!];
  return bug;
}

/**
 * The bug as a reader of the table gets it, with the defaults every reader applies (no private
 * comment count is 0; a bug without attachments has no private ones): what rebuildBug must equal.
 */
function asRead(bug: Bug): Bug {
  const marks = knownPrivateAttachments(bug);
  return {
    ...bug,
    privateCommentCount: bug.privateCommentCount ?? 0,
    attachmentCount: bug.attachmentCount ?? 0,
    ...(marks === undefined ? {} : { privateAttachments: [...marks] }),
    custom: bug.custom ?? {},
    tags: bug.tags ?? {},
  };
}

/** Whether the bug just applied at `slot` comes back exactly from the columns. */
export function readsBack(index: BugColumns, slot: number, bug: Bug): boolean {
  return sameValue(rebuildBug(index, slot), asRead(bug));
}

/**
 * Deep equality of JSON-like values where a property set to undefined equals a missing one
 * (the table drops undefined attributes).
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, position) => sameValue(value, other[position]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameValue(left[key], right[key])) return false;
  return true;
}

/** The flag fields the index keeps: all of them, so a page can show the flag (flagView). */
export const indexedFlag = (flag: BugFlag) => ({
  id: flag.id,
  typeId: flag.typeId,
  status: flag.status,
  setterId: flag.setterId,
  requesteeId: flag.requesteeId,
  creationDate: flag.creationDate,
  modificationDate: flag.modificationDate,
});
