import type { LegacyValueId } from '../../catalog/bugValues.ts';
import {
  CODE_COLUMNS,
  EMPTY,
  type IndexedChange,
  LIST_COLUMNS,
  NOT_READ_BACK_BIT,
  READS_BACK_BIT,
  UNKNOWN_COUNT,
} from '../index/columns.ts';
import type { SearchIndex } from '../index/searchIndex.ts';
import { SlotDirectory } from '../index/slotDirectory.ts';

/**
 * The JSON snapshots written before the binary form (snapshotFormat.ts): read, never written, so
 * an installation upgraded in place starts from the snapshot it has. The compactor's next run
 * replaces it with a binary one.
 */

/** A change in the snapshot: field, time (ms), who, removed, added, and the attachment id when it names one. */
type SnapshotChange = [string, number, number, string, string] | [string, number, number, string, string, number];

export interface SnapshotColumns {
  /** 2: versions and milestones by id among `numbers`; 1 held them by name among `codes`. */
  version: 1 | 2;
  highWater: number;
  size: number;
  numbers: Record<string, Array<number | null>>;
  codes: Record<string, { values: string[]; codes: Array<number | null> }>;
  summary: string[];
  whiteboard: string[];
  alias: Array<string | null>;
  url: string[];
  seeAlso: Array<string[] | 0>;
  lists: Record<string, Array<number[] | 0 | readonly number[]>>;
  flags: Array<Array<[number, string, number, number | null]> | 0>;
  tags: Array<Record<string, string[]> | 0>;
  custom: Array<Record<string, unknown> | 0>;
  changes: Array<SnapshotChange[] | 0>;
  /**
   * `[attachment id, creator id]` of each private attachment; 0 where the bug has no list (none
   * without attachments, unknown with them). Absent from snapshots older than the field.
   */
  privateAttachments?: Array<Array<[number, number]> | 0>;
  /** Per word, the bug ids of its postings as deltas of the sorted ids. */
  words?: Record<string, number[]>;
  privateWords?: Record<string, number[]>;
}

/** Fills an empty index from a JSON snapshot. */
export function readLegacySnapshot(index: SearchIndex, snapshot: SnapshotColumns, legacyValueId?: LegacyValueId): void {
  const n = snapshot.size;
  index.size = n;
  index.highWater = snapshot.highWater;
  index.ensureCapacity(n);
  for (const [name, values] of Object.entries(snapshot.numbers)) {
    const target = (index as unknown as Record<string, Int32Array | Float64Array>)[name];
    for (let slot = 0; slot < n; slot++) target[slot] = values[slot] === null ? Number.NaN : values[slot]!;
  }
  // Its flags have no ids or dates: whether a bug reads back is decided again (searchCompactor.ts).
  for (let slot = 0; slot < n; slot++) index.bits[slot]! &= ~(READS_BACK_BIT | NOT_READ_BACK_BIT);
  // A snapshot older than the column: outsiders' comment counts wait for the bugs' own (UNKNOWN_COUNT).
  if (!snapshot.numbers.privateCommentCount) index.privateCommentCount.fill(UNKNOWN_COUNT, 0, n);
  for (const column of CODE_COLUMNS) {
    const { values, codes } = snapshot.codes[column];
    const remap = values.map((value) => index.vocabularies[column].code(value));
    for (let slot = 0; slot < n; slot++) index.codes[column][slot] = remap[codes[slot]!]!;
  }
  if (!snapshot.numbers.versionId && legacyValueId) {
    const legacy = [
      ['version', 'version', index.versionId],
      ['targetMilestone', 'milestone', index.targetMilestoneId],
    ] as const;
    for (const [column, kind, ids] of legacy) {
      const { values, codes } = snapshot.codes[column] ?? { values: [], codes: [] };
      for (let slot = 0; slot < n; slot++)
        ids[slot] = legacyValueId(kind, index.productId[slot]!, values[codes[slot] ?? -1] ?? '');
    }
  }
  index.slots = SlotDirectory.of(index.id, n);
  for (let slot = 0; slot < n; slot++) {
    index.summary[slot] = snapshot.summary[slot]!;
    index.whiteboard.set(slot, snapshot.whiteboard[slot]);
    index.whiteboardCode[slot] = index.whiteboards.code(snapshot.whiteboard[slot] ?? '');
    index.aliasCode[slot] = index.aliases.code(snapshot.alias[slot] ?? '');
    index.alias.set(slot, snapshot.alias[slot]);
    index.url.set(slot, snapshot.url[slot]);
    index.seeAlso.set(slot, snapshot.seeAlso[slot] || undefined);
    for (const column of LIST_COLUMNS) index.lists[column].set(slot, snapshot.lists[column]![slot] || EMPTY);
    index.restricted[slot] = index.lists.groupIds.length(slot) > 0 ? 1 : 0;
    const flags = snapshot.flags[slot];
    index.flags.set(
      slot,
      flags
        ? flags.map(([typeId, status, setterId, requesteeId]) => ({ typeId, status, setterId, requesteeId }))
        : undefined,
    );
    index.tags.set(slot, snapshot.tags[slot] || null);
    index.custom.set(slot, snapshot.custom[slot] || null);
    const changes = snapshot.changes[slot];
    if (changes)
      index.history.append(
        slot,
        changes.map(
          ([field, at, who, removed, added, attachmentId]): IndexedChange =>
            attachmentId === undefined
              ? { field, at, who, removed, added }
              : { field, at, who, removed, added, attachmentId },
        ),
      );
    const marks = snapshot.privateAttachments?.[slot];
    if (marks)
      index.setPrivateAttachmentsAt(
        slot,
        marks.map(([id, creatorId]) => ({ id, creatorId })),
      );
  }
  index.history.compact();
  for (const [encoded, lists] of [
    [snapshot.words, index.words],
    [snapshot.privateWords, index.privateWords],
  ] as const) {
    for (const [word, deltas] of Object.entries(encoded ?? {})) {
      let id = 0;
      for (const delta of deltas) {
        id += delta;
        const slot = index.slotOf(id);
        if (slot !== undefined) lists.add(word, slot);
      }
    }
    lists.compact();
  }
}
