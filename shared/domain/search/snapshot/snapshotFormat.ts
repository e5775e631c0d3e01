/**
 * The binary form of the search snapshot (docs/data-model.md §8.7): named sections of typed
 * arrays, string lists and small JSON values, laid out so a cold instance copies its columns
 * instead of parsing them. JSON of a million bugs took seconds to parse and three times the
 * index's memory while it did; copying a typed array is a memcpy.
 *
 * Layout: the magic bytes, the header's length (uint32, little-endian), the header (JSON: the
 * snapshot's own fields and where each section lies), then the sections, each at an offset that
 * is a multiple of 8 so any typed array can view it in place.
 *
 * A string list is one UTF-8 text and the UTF-16 end offset of each string in it: the reader
 * decodes the text once and slices it, and V8 keeps a slice of a long string as a reference into
 * it, so a million summaries cost one allocation of their characters and a small header each.
 */

import { FramedBytes, framed, type SnapshotBytes } from './framedBytes.ts';

export const SNAPSHOT_MAGIC = 'TRKIDX03';
const MAGIC_BYTES = new TextEncoder().encode(SNAPSHOT_MAGIC);
const ALIGN = 8;

type TypedColumn = Int32Array | Uint32Array | Float64Array | Uint8Array | Uint16Array;
const TYPED = {
  i32: Int32Array,
  u32: Uint32Array,
  f64: Float64Array,
  u8: Uint8Array,
  u16: Uint16Array,
} as const;
type TypedKind = keyof typeof TYPED;

/**
 * An integer section stored as the differences between neighbours: ids, slot lists and the end
 * offsets of strings and lists grow steadily, and their differences compress to a fraction (a
 * million bugs' core, 44 MB gzip, lost 8 MB). The kind names the coding, so a reader that does not
 * know it refuses the section rather than misreads it.
 */
type DeltaKind = 'i32-delta' | 'u32-delta';
const DELTA_OF: Partial<Record<TypedKind, DeltaKind>> = { i32: 'i32-delta', u32: 'u32-delta' };

interface SectionEntry {
  kind: TypedKind | DeltaKind | 'json' | 'strings';
  offset: number;
  bytes: number;
  /**
   * Typed sections written with room to grow: the bytes they take, zeros after their own. A
   * reader that owns the snapshot's memory keeps such a column where it lies, and the bugs
   * written after the snapshot fill the room instead of copying the column.
   */
  room?: number;
  /** Strings: how many. */
  count?: number;
}

interface Header {
  fields: Record<string, unknown>;
  sections: Record<string, SectionEntry>;
}

const kindOf = (array: TypedColumn): TypedKind =>
  array instanceof Int32Array
    ? 'i32'
    : array instanceof Uint32Array
      ? 'u32'
      : array instanceof Float64Array
        ? 'f64'
        : array instanceof Uint16Array
          ? 'u16'
          : 'u8';

/** Whether these bytes are a binary snapshot (not the JSON of snapshots before it). */
export function isBinarySnapshot(bytes: SnapshotBytes): boolean {
  if (bytes.length < MAGIC_BYTES.length) return false;
  const head = bytes instanceof FramedBytes ? bytes.span(0, MAGIC_BYTES.length) : bytes;
  for (let i = 0; i < MAGIC_BYTES.length; i++) if (head[i] !== MAGIC_BYTES[i]) return false;
  return true;
}

export class SnapshotWriter {
  private readonly parts: Array<{
    name: string;
    kind: SectionEntry['kind'];
    data: Uint8Array;
    room?: number;
    count?: number;
  }> = [];

  constructor(private readonly fields: Record<string, unknown>) {}

  /**
   * A typed section; with `room`, that many elements long in all (zeros after the array's own).
   * With `delta` (32-bit integers that mostly grow), stored as differences (DeltaKind).
   */
  typed(name: string, array: TypedColumn, room = 0, options: { delta?: boolean } = {}): this {
    const kind = kindOf(array);
    const delta = options.delta ? DELTA_OF[kind] : undefined;
    const stored = delta ? differences(array as Int32Array | Uint32Array) : array;
    this.parts.push({
      name,
      kind: delta ?? kind,
      data: new Uint8Array(stored.buffer, stored.byteOffset, stored.byteLength),
      ...(room > array.length ? { room: room * array.BYTES_PER_ELEMENT } : {}),
    });
    return this;
  }

  json(name: string, value: unknown): this {
    this.parts.push({ name, kind: 'json', data: Buffer.from(JSON.stringify(value), 'utf8') });
    return this;
  }

  strings(name: string, values: readonly string[]): this {
    const ends = new Uint32Array(values.length);
    let at = 0;
    values.forEach((value, position) => {
      at += value.length;
      ends[position] = at;
    });
    const text = Buffer.from(values.join(''), 'utf8');
    this.typed(`${name}.ends`, ends, 0, { delta: true });
    this.parts.push({ name, kind: 'strings', data: text, count: values.length });
    return this;
  }

  finish(): Uint8Array {
    const sections: Record<string, SectionEntry> = {};
    let offset = 0;
    for (const part of this.parts) {
      sections[part.name] = {
        kind: part.kind,
        offset,
        bytes: part.data.byteLength,
        ...(part.room === undefined ? {} : { room: part.room }),
        ...(part.count === undefined ? {} : { count: part.count }),
      };
      offset += Math.ceil((part.room ?? part.data.byteLength) / ALIGN) * ALIGN;
    }
    const header = Buffer.from(JSON.stringify({ fields: this.fields, sections } satisfies Header), 'utf8');
    const start = Math.ceil((MAGIC_BYTES.length + 4 + header.byteLength) / ALIGN) * ALIGN;
    const out = new Uint8Array(start + offset);
    out.set(MAGIC_BYTES, 0);
    new DataView(out.buffer).setUint32(MAGIC_BYTES.length, header.byteLength, true);
    out.set(header, MAGIC_BYTES.length + 4);
    for (const part of this.parts) out.set(part.data, start + sections[part.name]!.offset);
    return out;
  }
}

/**
 * Where to cut a snapshot into frames of about `target` bytes: only between sections, so that
 * every section lies in one frame and can be viewed where it lies. A section longer than the
 * target is a frame of its own. The ends of the frames, the last one the snapshot's length.
 */
export function frameEnds(snapshot: Uint8Array, target: number): number[] {
  if (!isBinarySnapshot(snapshot)) return evenEnds(snapshot.length, target);
  const starts = new SnapshotReader(snapshot)
    .sectionStarts()
    .filter((offset) => offset > 0 && offset < snapshot.length);
  // Each section runs to the next one's start: a frame ends before the section that would take it past the target.
  const bounds = [...starts, snapshot.length];
  const ends: number[] = [];
  let frameStart = 0;
  for (let i = 0; i < starts.length; i++)
    if (starts[i]! > frameStart && bounds[i + 1]! - frameStart > target) {
      ends.push(starts[i]!);
      frameStart = starts[i]!;
    }
  ends.push(snapshot.length);
  return ends;
}

const evenEnds = (length: number, target: number): number[] => {
  const ends: number[] = [];
  for (let end = target; end < length; end += target) ends.push(end);
  ends.push(length);
  return ends;
};

export class SnapshotReader {
  readonly fields: Record<string, unknown>;
  private readonly entries: Record<string, SectionEntry>;
  private readonly start: number;

  private readonly bytes: FramedBytes;
  private readonly adopt: boolean;
  /** Delta-coded sections already summed where they lie (adopt). */
  private readonly summed = new Set<string>();

  /**
   * From one buffer, or from the frames a snapshot was read in (framedBytes.ts). With `adopt`
   * the reader owns the snapshot's memory: typed sections come back as views into it where they
   * can (each section must be read once, and nothing else may use the bytes after).
   */
  constructor(snapshot: SnapshotBytes, options: { adopt?: boolean } = {}) {
    if (!isBinarySnapshot(snapshot)) throw new Error('not a binary search snapshot');
    const bytes = framed(snapshot);
    this.bytes = bytes;
    this.adopt = options.adopt === true;
    const lengthBytes = bytes.span(MAGIC_BYTES.length, MAGIC_BYTES.length + 4);
    const length = new DataView(lengthBytes.buffer, lengthBytes.byteOffset, 4).getUint32(0, true);
    const at = MAGIC_BYTES.length + 4;
    const headerBytes = bytes.span(at, at + length);
    const header = JSON.parse(
      Buffer.from(headerBytes.buffer, headerBytes.byteOffset, headerBytes.byteLength).toString('utf8'),
    ) as Header;
    this.fields = header.fields;
    this.entries = header.sections;
    this.start = Math.ceil((at + length) / ALIGN) * ALIGN;
  }

  /**
   * Every section's name, kind (the array it reads as) and bytes as stored, differences for a
   * delta-coded one (for measuring the snapshot by part, or rewriting it).
   */
  sections(): Array<{ name: string; kind: TypedKind | 'json' | 'strings'; bytes: Uint8Array }> {
    return Object.entries(this.entries).map(([name, entry]) => ({
      name,
      kind: entry.kind === 'i32-delta' ? 'i32' : entry.kind === 'u32-delta' ? 'u32' : entry.kind,
      bytes: this.raw(entry),
    }));
  }

  /** Where each section starts in the snapshot's bytes, in order. */
  sectionStarts(): number[] {
    return Object.values(this.entries)
      .map((entry) => this.start + entry.offset)
      .sort((a, b) => a - b);
  }

  has(name: string): boolean {
    return name in this.entries;
  }

  private entry(name: string, kind?: SectionEntry['kind']): SectionEntry {
    const entry = this.entries[name];
    if (!entry) throw new Error(`search snapshot has no section ${name}`);
    const coded = kind === undefined ? undefined : DELTA_OF[kind as TypedKind];
    if (kind && entry.kind !== kind && entry.kind !== coded)
      throw new Error(`search snapshot section ${name} is ${entry.kind}, not ${kind}`);
    return entry;
  }

  private raw(entry: SectionEntry): Uint8Array {
    return this.bytes.span(this.start + entry.offset, this.start + entry.offset + entry.bytes);
  }

  /**
   * A typed section, `capacity` elements long (at least its own length): the index grows its
   * columns in place. Where the reader adopted the snapshot, the section lies in one frame,
   * aligned, with that much room, a view of it (copying a million bugs' columns into new memory
   * took a second of a cold start); otherwise a copy, which lets the snapshot be collected.
   */
  typed<K extends TypedKind>(name: string, kind: K, capacity = 0): InstanceType<(typeof TYPED)[K]> {
    const entry = this.entry(name, kind);
    const Type = TYPED[kind];
    const length = entry.bytes / Type.BYTES_PER_ELEMENT;
    const wanted = Math.max(capacity, length);
    if (this.adopt && wanted * Type.BYTES_PER_ELEMENT <= (entry.room ?? entry.bytes)) {
      const from = this.start + entry.offset;
      const place = this.bytes.within(from, from + wanted * Type.BYTES_PER_ELEMENT);
      if (place && place.byteOffset % Type.BYTES_PER_ELEMENT === 0) {
        const view = new Type(place.buffer as ArrayBuffer, place.byteOffset, wanted) as InstanceType<(typeof TYPED)[K]>;
        // The reader owns these bytes (adopt): summed where they lie, once however often read.
        if (entry.kind !== kind && !this.summed.has(name)) {
          sums(view as Int32Array | Uint32Array, length);
          this.summed.add(name);
        }
        return view;
      }
    }
    const copy = new Type(wanted) as InstanceType<(typeof TYPED)[K]>;
    // Straight from the frames, bytes rather than elements: a frame may end inside the section,
    // and the snapshot may sit at any offset of its buffer.
    const from = this.start + entry.offset;
    this.bytes.copyTo(from, from + entry.bytes, new Uint8Array(copy.buffer, 0, entry.bytes));
    if (entry.kind !== kind) sums(copy as Int32Array | Uint32Array, length);
    return copy;
  }

  json<T>(name: string): T {
    const raw = this.raw(this.entry(name, 'json'));
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as T;
  }

  /**
   * A string list; with `transform` (lower-casing), each string transformed: the whole text at
   * once when that keeps every length, one by one otherwise.
   */
  strings(name: string, transform?: (text: string) => string): string[] {
    return this.stringsOf(name, this.text(name), transform);
  }

  /**
   * A string list's text as stored and each string's end, when the reader adopted the snapshot
   * and the text is ASCII (its bytes are its characters): for a caller that cuts strings out of
   * it only as it needs them.
   */
  adoptedAscii(name: string): { bytes: Uint8Array; ends: Uint32Array } | undefined {
    if (!this.adopt) return undefined;
    const entry = this.entry(name, 'strings');
    const ends = this.typed(`${name}.ends`, 'u32');
    const characters = ends.length > 0 ? ends[ends.length - 1]! : 0;
    // UTF-8 takes more bytes than UTF-16 takes units for every character past ASCII.
    if (characters !== entry.bytes) return undefined;
    return { bytes: this.raw(entry), ends };
  }

  /** A string list's whole text, decoded once (stringsOf cuts it as often as needed). */
  text(name: string): string {
    const raw = this.raw(this.entry(name, 'strings'));
    return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  }

  /** The string list `name` cut from its decoded `text`, without decoding it again. */
  stringsOf(name: string, decoded: string, transform?: (text: string) => string): string[] {
    const entry = this.entry(name, 'strings');
    const ends = this.typed(`${name}.ends`, 'u32');
    let text = decoded;
    const values = new Array<string>(entry.count ?? 0);
    const whole = transform?.(text);
    // A transform that changes no length anywhere changes none in total (lower-casing only lengthens).
    const each = transform !== undefined && whole!.length !== text.length;
    if (whole !== undefined && !each) text = whole;
    let from = 0;
    for (let i = 0; i < values.length; i++) {
      values[i] = each ? transform(text.slice(from, ends[i])) : text.slice(from, ends[i]);
      from = ends[i]!;
    }
    return values;
  }
}

/** Each element minus the one before it (the first as it is), in a new array: wraps as 32-bit integers do. */
function differences(values: Int32Array | Uint32Array): Int32Array | Uint32Array {
  const out = values.slice();
  for (let i = out.length - 1; i > 0; i--) out[i] = out[i]! - out[i - 1]!;
  return out;
}

/** Undoes `differences` on the first `length` elements, in place. */
function sums(values: Int32Array | Uint32Array, length: number): void {
  for (let i = 1; i < length; i++) values[i] = values[i]! + values[i - 1]!;
}
