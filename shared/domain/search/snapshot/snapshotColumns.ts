import type { PrivateAttachmentMark } from '../../bug/bug.ts';
import { ChangeHistory } from '../index/changeHistory.ts';
import { CODE_COLUMNS, DEFERRED_PARTS, type DeferredPart, LIST_COLUMNS, NUMBER_COLUMNS } from '../index/columns.ts';
import { IdLists } from '../index/idLists.ts';
import { type EncodedPostingLists, PostingLists } from '../index/postingLists.ts';
import type { SearchIndex } from '../index/searchIndex.ts';
import { SlotDirectory } from '../index/slotDirectory.ts';
import type { SparseColumn, StoredEntries } from '../index/sparseColumn.ts';
import { TrigramIndex } from '../index/trigramIndex.ts';
import type { SnapshotBytes } from './framedBytes.ts';
import { SnapshotReader, SnapshotWriter } from './snapshotFormat.ts';

/**
 * Which column of the search index goes where in its binary snapshot (snapshotFormat.ts), and
 * back. Rows keep their slots, so posting lists and history are stored by slot and loaded as
 * they are. Columns that most bugs leave empty (url, alias, flags, tags, ...) are stored for the
 * bugs that have a value only.
 *
 * A snapshot is written whole (one blob), or as a core and one blob per deferred part: field
 * history, comment words and summary trigrams, which only some searches need and which make up a
 * third of the bytes. A cold instance answers from the core and reads the parts after it
 * (indexSnapshot.ts `attachIndexPart`).
 */

/**
 * 5: flags, private attachment lists, see also, tags and custom fields as one JSON text per bug,
 * decoded when read, and ids, slot lists and end offsets as differences (snapshotFormat.ts);
 * 4: parts may be stored apart from the core; 3: the binary form, whole; 1 and 2 were JSON
 * (legacySnapshot.ts). Each reads every earlier binary form.
 */
export const SNAPSHOT_VERSION = 5;

export interface SnapshotParts {
  /** Every column but the deferred parts; its header names them (`deferred`). */
  core: Uint8Array;
  parts: Record<DeferredPart, Uint8Array>;
}

/** A flag in the snapshot: type, status, setter, requestee, then (since 2026-11-28) id and dates. */
type FlagTuple = [number, string, number, number | null, number?, string?, string?];

function writeSparseStrings(
  writer: SnapshotWriter,
  name: string,
  values: Pick<SparseColumn<string | null>, 'entries'>,
  size: number,
) {
  const entries = values.entries(size);
  writer.typed(
    `${name}.slots`,
    Int32Array.from(entries, ([slot]) => slot),
    0,
    { delta: true },
  );
  writer.strings(
    name,
    entries.map(([, value]) => value as string),
  );
}

function readSparseStrings(reader: SnapshotReader, name: string, visit: (slot: number, value: string) => void) {
  const slots = reader.typed(`${name}.slots`, 'i32');
  const values = reader.strings(name);
  for (let i = 0; i < slots.length; i++) visit(slots[i]!, values[i]!);
}

/** The texts of a string list, read one at a time: slices of the stored bytes when they are ASCII and adopted. */
function storedTexts(reader: SnapshotReader, name: string): (position: number) => string {
  const ascii = reader.adoptedAscii(name);
  if (!ascii) {
    const values = reader.strings(name);
    return (position) => values[position]!;
  }
  const bytes = Buffer.from(ascii.bytes.buffer, ascii.bytes.byteOffset, ascii.bytes.byteLength);
  const { ends } = ascii;
  return (position) => bytes.toString('latin1', position === 0 ? 0 : ends[position - 1]!, ends[position]!);
}

/** A sparse column whose values are read one at a time (sparseColumn.ts): its slots, and one text per value. */
function readStoredStrings(reader: SnapshotReader, name: string, column: SparseColumn<string>): void {
  column.adoptStored({ slots: reader.typed(`${name}.slots`, 'i32'), valueAt: storedTexts(reader, name) });
}

/**
 * A sparse column of structured values as its slots and one JSON text per value (`.slots`,
 * `.values`), so that a cold instance decodes a bug's flags when a page shows them, not 10 MB of
 * them before its first answer.
 */
function writeStoredJson<T>(
  writer: SnapshotWriter,
  name: string,
  entries: Array<[number, T]>,
  encode: (value: T) => unknown = (value) => value,
): void {
  writer.typed(
    `${name}.slots`,
    Int32Array.from(entries, ([slot]) => slot),
    0,
    { delta: true },
  );
  writer.strings(
    `${name}.values`,
    entries.map(([, value]) => JSON.stringify(encode(value))),
  );
}

/**
 * Reads a column writeStoredJson wrote, or the whole JSON list `[[slot, value], ...]` of the
 * snapshots before it (version 4).
 */
function readStoredJson<T, S>(
  reader: SnapshotReader,
  name: string,
  column: SparseColumn<T>,
  decode: (stored: S) => T = (stored) => stored as unknown as T,
): void {
  if (reader.has(`${name}.slots`)) {
    const text = storedTexts(reader, `${name}.values`);
    const stored: StoredEntries<T> = {
      slots: reader.typed(`${name}.slots`, 'i32'),
      valueAt: (position) => decode(JSON.parse(text(position)) as S),
    };
    column.adoptStored(stored);
  } else if (reader.has(name)) {
    for (const [slot, value] of reader.json<Array<[number, S]>>(name)) column.set(slot, decode(value));
  }
}

/** The lists of a posting store (postingLists.ts) without their keys, which the caller stores as their type needs. */
function writeLists(writer: SnapshotWriter, name: string, encoded: Omit<EncodedPostingLists<unknown>, 'keys'>) {
  writer.typed(`${name}.bytes`, encoded.bytes);
  writer.typed(`${name}.offsets`, encoded.offsets, 0, { delta: true });
  writer.typed(`${name}.counts`, encoded.counts);
}

function readLists(reader: SnapshotReader, name: string): Omit<EncodedPostingLists<unknown>, 'keys'> {
  return {
    bytes: reader.typed(`${name}.bytes`, 'u8'),
    offsets: reader.typed(`${name}.offsets`, 'u32'),
    counts: reader.typed(`${name}.counts`, 'u32'),
  };
}

function writePostings(writer: SnapshotWriter, name: string, lists: PostingLists<string>) {
  const encoded = lists.encode();
  writer.strings(`${name}.keys`, encoded.keys);
  writeLists(writer, name, encoded);
}

function readPostings(reader: SnapshotReader, name: string): PostingLists<string> {
  return PostingLists.decode({ keys: reader.strings(`${name}.keys`), ...readLists(reader, name) });
}

/** The whole snapshot in one blob: the core and every part. */
export function writeSnapshotBytes(index: SearchIndex): Uint8Array {
  const writer = new SnapshotWriter({ version: SNAPSHOT_VERSION, highWater: index.highWater, size: index.size });
  writeCore(writer, index);
  for (const part of DEFERRED_PARTS) PART_WRITERS[part](writer, index);
  return writer.finish();
}

/** The core and each deferred part in a blob of its own. */
export function writeSnapshotParts(index: SearchIndex): SnapshotParts {
  const fields = { version: SNAPSHOT_VERSION, highWater: index.highWater, size: index.size };
  const core = new SnapshotWriter({ ...fields, deferred: DEFERRED_PARTS });
  writeCore(core, index);
  const parts = Object.fromEntries(
    DEFERRED_PARTS.map((part) => {
      const writer = new SnapshotWriter({ ...fields, part });
      PART_WRITERS[part](writer, index);
      return [part, writer.finish()];
    }),
  ) as Record<DeferredPart, Uint8Array>;
  return { core: core.finish(), parts };
}

/**
 * Room for the bugs written after a snapshot of `size` bugs, so the first of them does not copy
 * every column: the snapshot stores the columns this long (zeros compress to nearly nothing).
 */
const columnCapacity = (size: number): number => size + (size >> 3) + 1024;

function writeCore(writer: SnapshotWriter, index: SearchIndex): void {
  const n = index.size;
  const room = columnCapacity(n);
  // Bug ids mostly follow their slots: stored as differences, a million of them gzip to nothing.
  for (const name of NUMBER_COLUMNS)
    writer.typed(`numbers.${name}`, index[name].subarray(0, n), room, { delta: name === 'id' });
  for (const column of CODE_COLUMNS) {
    writer.typed(`codes.${column}`, index.codes[column].subarray(0, n), room);
    writer.json(`vocabulary.${column}`, index.vocabularies[column].values);
  }
  writer.strings('summary', index.summary.slice(0, n));
  writeSparseStrings(writer, 'whiteboard', index.whiteboard, n);
  writeSparseStrings(writer, 'alias', index.alias, n);
  writeSparseStrings(writer, 'url', index.url, n);
  writeStoredJson(writer, 'seeAlso', index.seeAlso.entries(n));
  for (const column of LIST_COLUMNS) {
    const { ends, values } = index.lists[column].encode(n);
    writer.typed(`lists.${column}.ends`, ends, 0, { delta: true });
    writer.typed(`lists.${column}.values`, values);
  }
  writeStoredJson(writer, 'flags', index.flags.entries(n), (flags) =>
    flags.map(
      (flag): FlagTuple =>
        flag.id === undefined
          ? [flag.typeId, flag.status, flag.setterId, flag.requesteeId]
          : [
              flag.typeId,
              flag.status,
              flag.setterId,
              flag.requesteeId,
              flag.id,
              flag.creationDate,
              flag.modificationDate,
            ],
    ),
  );
  writeStoredJson(writer, 'tags', index.tags.entries(n));
  writeStoredJson(writer, 'custom', index.custom.entries(n));
  // Only the lists the attachment count does not tell (SearchIndex.setPrivateAttachmentsAt).
  writeStoredJson(writer, 'privateAttachments', index.attachmentMarks.entries(n), (marks) =>
    marks!.map((mark) => [mark.id, mark.creatorId]),
  );
}

const PART_WRITERS: Record<DeferredPart, (writer: SnapshotWriter, index: SearchIndex) => void> = {
  history(writer, index) {
    const history = index.history.encode(index.size);
    for (const [name, value] of Object.entries(history))
      if (Array.isArray(value)) writer.strings(`history.${name}`, value as string[]);
      else writer.typed(`history.${name}`, value, 0, { delta: name === 'offsets' });
  },
  words(writer, index) {
    writePostings(writer, 'words', index.words);
    writePostings(writer, 'privateWords', index.privateWords);
  },
  trigrams(writer, index) {
    // Built here rather than on a cold instance's first substring search: seconds at a million bugs.
    const trigrams = index.summaryTrigrams().toEncoded();
    writer.typed('trigrams.latin1.keys', trigrams.latin1.keys);
    writeLists(writer, 'trigrams.latin1', trigrams.latin1);
    writer.strings('trigrams.other.keys', trigrams.other.keys);
    writeLists(writer, 'trigrams.other', trigrams.other);
  },
};

const PART_READERS: Record<DeferredPart, (reader: SnapshotReader, index: SearchIndex) => void> = {
  history(reader, index) {
    index.history = ChangeHistory.decode({
      offsets: reader.typed('history.offsets', 'u32'),
      field: reader.typed('history.field', 'u16'),
      at: reader.typed('history.at', 'f64'),
      who: reader.typed('history.who', 'i32'),
      removed: reader.typed('history.removed', 'u32'),
      added: reader.typed('history.added', 'u32'),
      attachment: reader.typed('history.attachment', 'i32'),
      fieldNames: reader.strings('history.fieldNames'),
      values: reader.strings('history.values'),
    });
  },
  words(reader, index) {
    index.words = readPostings(reader, 'words');
    index.privateWords = readPostings(reader, 'privateWords');
  },
  trigrams(reader, index) {
    index.trigrams = TrigramIndex.fromEncoded(index.summaryLower, {
      latin1: { keys: reader.typed('trigrams.latin1.keys', 'i32'), ...readLists(reader, 'trigrams.latin1') },
      other: { keys: reader.strings('trigrams.other.keys'), ...readLists(reader, 'trigrams.other') },
    });
  },
};

/** The section each part always writes: a blob that holds it holds the part. */
const PART_MARKERS: Record<DeferredPart, string> = {
  history: 'history.offsets',
  words: 'words.bytes',
  trigrams: 'trigrams.latin1.keys',
};

/**
 * Reads a whole snapshot, or a core: answers the parts the core's header says are stored apart,
 * which the index does not have until they are attached (readSnapshotPart).
 */
export function readSnapshot(
  index: SearchIndex,
  bytes: SnapshotBytes,
  options: { adopt?: boolean } = {},
): DeferredPart[] {
  const reader = new SnapshotReader(bytes, options);
  const n = Number(reader.fields.size);
  const capacity = columnCapacity(n);
  index.size = n;
  index.highWater = Number(reader.fields.highWater);
  for (const name of NUMBER_COLUMNS) {
    const current = index.column(name);
    const kind = current instanceof Float64Array ? 'f64' : current instanceof Uint8Array ? 'u8' : 'i32';
    index.setColumn(name, reader.typed(`numbers.${name}`, kind, capacity));
  }
  for (const column of CODE_COLUMNS) {
    // A fresh vocabulary gives each value the code of its position, as the snapshot's codes are.
    for (const value of reader.json<string[]>(`vocabulary.${column}`)) index.vocabularies[column].code(value);
    index.setColumn(`codes.${column}`, reader.typed(`codes.${column}`, 'i32', capacity));
  }
  // The derived columns (DERIVED_COLUMNS) are still the new index's: this grows them to the rest.
  index.ensureCapacity(capacity);
  index.slots = SlotDirectory.of(index.id, n);

  // Their lower-cased copies are made when a search first needs them (index.summaryLower).
  const stored = reader.adoptedAscii('summary');
  if (stored) index.keepStoredSummaries(stored.bytes, stored.ends);
  else {
    const summaries = reader.strings('summary');
    const strings = index.summary;
    strings.length = n;
    for (let slot = 0; slot < n; slot++) strings[slot] = summaries[slot]!;
  }
  const noneText = index.whiteboards.code('');
  index.aliases.code('');
  index.whiteboardCode.fill(noneText, 0, n);
  readSparseStrings(reader, 'whiteboard', (slot, value) => {
    index.whiteboard.set(slot, value);
    index.whiteboardCode[slot] = index.whiteboards.code(value);
  });
  readSparseStrings(reader, 'alias', (slot, value) => {
    index.alias.set(slot, value);
    index.aliasCode[slot] = index.aliases.code(value);
  });
  readStoredStrings(reader, 'url', index.url);
  readStoredJson(reader, 'seeAlso', index.seeAlso);

  for (const column of LIST_COLUMNS)
    index.lists[column] = new IdLists(
      reader.typed(`lists.${column}.ends`, 'u32'),
      reader.typed(`lists.${column}.values`, 'i32'),
    );
  const groups = index.lists.groupIds;
  for (let slot = 0; slot < n; slot++) index.restricted[slot] = groups.length(slot) > 0 ? 1 : 0;

  // A flag written before the index rendered pages has no id and dates: its bug is not READS_BACK.
  readStoredJson(reader, 'flags', index.flags, (flags: FlagTuple[]) =>
    flags.map(([typeId, status, setterId, requesteeId, id, creationDate, modificationDate]) =>
      id === undefined
        ? { typeId, status, setterId, requesteeId }
        : { typeId, status, setterId, requesteeId, id, creationDate, modificationDate },
    ),
  );
  readStoredJson(reader, 'tags', index.tags);
  readStoredJson(reader, 'custom', index.custom);
  readStoredJson(reader, 'privateAttachments', index.attachmentMarks, (list: Array<[number, number]>) =>
    list.map(([id, creatorId]): PrivateAttachmentMark => ({ id, creatorId })),
  );

  const apart = (reader.fields.deferred as DeferredPart[] | undefined) ?? [];
  for (const part of DEFERRED_PARTS) if (reader.has(PART_MARKERS[part])) PART_READERS[part](reader, index);
  return DEFERRED_PARTS.filter((part) => apart.includes(part) && !reader.has(PART_MARKERS[part]));
}

/** Reads a part written apart (writeSnapshotParts) into the index its core was read into. */
export function readSnapshotPart(index: SearchIndex, part: DeferredPart, bytes: SnapshotBytes): void {
  const reader = new SnapshotReader(bytes);
  if (reader.fields.part !== part)
    throw new Error(`search snapshot part is ${String(reader.fields.part)}, not ${part}`);
  if (Number(reader.fields.size) > index.size)
    throw new Error(`search snapshot part ${part} holds ${String(reader.fields.size)} bugs, its index ${index.size}`);
  PART_READERS[part](reader, index);
}
