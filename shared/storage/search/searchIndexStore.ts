import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { BatchWriteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { Bug, HistoryEntry } from '../../domain/bug/bug.ts';
import {
  commentWords,
  DEFERRED_PARTS,
  type DeferredPart,
  type IndexDocument,
} from '../../domain/search/index/columns.ts';
import { FramedBytes, type SnapshotBytes } from '../../domain/search/snapshot/framedBytes.ts';
import type { SnapshotColumns } from '../../domain/search/snapshot/legacySnapshot.ts';
import type { SnapshotParts } from '../../domain/search/snapshot/snapshotColumns.ts';
import { frameEnds, isBinarySnapshot, SnapshotReader } from '../../domain/search/snapshot/snapshotFormat.ts';
import { withValueIds } from '../bug/legacyBugValues.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { parseItem, type ShapeOf } from '../itemParsing.ts';
import { searchKeys } from '../keys.ts';
import { batchGetAll, queryAll, queryPartition } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';
import { deleteSnapshotObjects, putSnapshotFrames, readSnapshotFrame } from './snapshotObjects.ts';

/**
 * Storage of the search index (docs/data-model.md §8.7): the change log that every bug write
 * appends to in its own transaction, and the snapshot a new function instance starts from.
 */

/**
 * How far back a catch-up re-reads before its high-water mark. A writer stamps its entry just
 * before it commits, so an entry may become visible after a later-stamped one; re-reading this
 * window catches it. Entries are applied once (by revision), so the overlap costs reads only.
 */
export const LOG_OVERLAP_MS = 10_000;
/** The change log outlives any snapshot by far (the compactor writes one every few minutes). */
const LOG_RETENTION_DAYS = 3;
/**
 * Snapshot bytes compressed together: each frame is a gzip stream of its own, so a cold instance
 * inflates a part's frames at once on the thread pool instead of one stream on one thread (a
 * second or more at a million bugs).
 */
const FRAME_BYTES = 4 * 1024 * 1024;
/**
 * Cheap compression: the compactor writes a snapshot every few minutes, and at a million bugs
 * gzip's default level costs it seconds for a few percent of size (docs/benchmarks.md).
 */
export const SNAPSHOT_GZIP_LEVEL = 3;

const HOUR_MS = 3_600_000;

/** The change-log entries of one bug write, added to the write's own transaction. */
export function addChangeLogEntries(
  transaction: WriteTransaction,
  bugs: ReadonlyArray<{ bug: Bug; rev: number }>,
  history: readonly HistoryEntry[],
  comments: ReadonlyArray<{ bugId: number; rawText: string; isPrivate: boolean }> = [],
  /** Bugs whose comments' privacy changed, with every comment they now have: their words are replaced. */
  allComments: ReadonlyMap<number, ReadonlyArray<{ rawText: string; isPrivate: boolean }>> = new Map(),
): void {
  const at = new Date().toISOString();
  const expiresAt = Math.floor(Date.now() / 1000) + LOG_RETENTION_DAYS * 86_400;
  for (const { bug, rev } of bugs) {
    const own = history.filter((entry) => entry.bugId === bug.id);
    const whole = allComments.get(bug.id);
    const source = whole ?? comments.filter((comment) => comment.bugId === bug.id);
    const texts = (isPrivate: boolean) =>
      source.filter((comment) => comment.isPrivate === isPrivate).map((comment) => comment.rawText);
    const words = commentWords(texts(false));
    const privateWords = commentWords(texts(true));
    transaction.put({
      ...searchKeys.logEntry(at, bug.id, rev),
      type: 'searchLog',
      bug,
      rev,
      history: own,
      words,
      privateWords,
      ...(whole ? { allWords: true } : {}),
      expiresAt,
    });
  }
}

export interface ChangeLogPage {
  documents: IndexDocument[];
  /** Snapshots announced in this stretch of the log (`announceSnapshot`), by sequence number. */
  newSnapshots: number[];
  /** The newest stamp seen (ms), or the given start when nothing was there. */
  newest: number;
  reads: number;
}

const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/**
 * Every change-log entry stamped at or after `sinceMs`, read strongly consistent: one Query per
 * hour partition from then until now.
 */
export async function readChangeLog(sinceMs: number): Promise<ChangeLogPage> {
  // Nothing older than the retention period is left to read (TTL removes it).
  const start = Math.max(sinceMs, Date.now() - (LOG_RETENTION_DAYS * 24 + 1) * HOUR_MS);
  const since = new Date(start).toISOString();
  const hours: string[] = [];
  // Writers' clocks may run slightly ahead of this one; five minutes covers NTP-synchronised hosts.
  const last = hourOf(Date.now() + 300_000);
  for (let at = start; hourOf(at) <= last; at += HOUR_MS) hours.push(hourOf(at));
  if (hourOf(start + (hours.length - 1) * HOUR_MS) !== last && !hours.includes(last)) hours.push(last);
  const pages = await Promise.all(
    hours.map((hour) =>
      queryAll({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk >= :since',
        ExpressionAttributeValues: { ':pk': searchKeys.logPartition(hour), ':since': since },
        ConsistentRead: true,
      }),
    ),
  );
  let newest = sinceMs;
  const documents: IndexDocument[] = [];
  const newSnapshots: number[] = [];
  for (const item of pages.flat()) {
    const stamp = Date.parse(String(item.sk).slice(0, 24));
    if (stamp > newest) newest = stamp;
    if (item.type === SNAPSHOT_NOTICE) {
      newSnapshots.push(Number(item.sequence));
      continue;
    }
    documents.push({
      bug: item.bug as Bug,
      rev: Number(item.rev),
      history: (item.history as HistoryEntry[] | undefined) ?? [],
      words: (item.words as string[] | undefined) ?? [],
      privateWords: (item.privateWords as string[] | undefined) ?? [],
      allWords: item.allWords === true,
    });
  }
  return { documents: await withValueIds(documents), newSnapshots, newest, reads: hours.length };
}

export interface SnapshotPointer {
  generation: string;
  /**
   * Counts the snapshots written (1 + the one it replaced; 0 on pointers older than the count), so
   * "is this snapshot newer than mine" needs no clock: writers' clocks may disagree.
   */
  sequence: number;
  /** Stored pieces: frames in the bucket, or (before it) chunks in table items. */
  chunks: number;
  highWater: number;
  bugCount: number;
  writtenAt: string;
  /**
   * The stored parts (the core first); absent on snapshots written as one gzip stream in table
   * items, whose `chunks` are that stream.
   */
  parts?: StoredPart[];
  /** The generation this one replaced (null: none), deleted when the next snapshot is written. */
  previous?: string | null;
}

type StoredPart =
  /** Frames as bucket objects (snapshotObjects.ts): how many. */
  | { name: 'core' | DeferredPart; objects: number }
  /** Frames in table items, before the bucket: the chunks of each frame, in chunk order. */
  | { name: 'core' | DeferredPart; frames: number[] };

const partName = z.enum(['core', ...DEFERRED_PARTS]);
const snapshotPointerSchema = z.object({
  generation: z.string(),
  sequence: z.number().default(0),
  chunks: z.number(),
  highWater: z.number(),
  bugCount: z.number(),
  writtenAt: z.string(),
  parts: z
    .array(
      z.union([
        z.object({ name: partName, objects: z.number() }),
        z.object({ name: partName, frames: z.array(z.number()) }),
      ]),
    )
    .optional(),
  previous: z.string().nullable().optional(),
} satisfies ShapeOf<SnapshotPointer>);

/** The pointer item as read (pointers older than the count of snapshots have no `sequence`: 0). */
export const toSnapshotPointer = (item: Record<string, unknown>): SnapshotPointer =>
  parseItem(snapshotPointerSchema, 'search snapshot pointer', item);

/** A snapshot as read: the core (or the whole, or the JSON of old ones) and readers of the parts stored apart. */
export interface LoadedSnapshot {
  pointer: SnapshotPointer;
  snapshot: SnapshotBytes | SnapshotColumns;
  parts: Partial<Record<DeferredPart, () => Promise<SnapshotBytes>>>;
  /** Where the core's load went (ms): the pointer and chunk reads, inflating them. */
  timings: { readMs: number; inflateMs: number };
}

export async function loadSnapshotPointer(): Promise<SnapshotPointer | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: searchKeys.snapshotPointer(), ConsistentRead: true }),
  );
  return result.Item ? toSnapshotPointer(result.Item) : null;
}

/**
 * The current snapshot, or null on an installation that has none yet (its log holds every bug):
 * its bytes (snapshotFormat.ts), or the JSON columns of a snapshot written before that form.
 */
export async function loadSnapshot(): Promise<LoadedSnapshot | null> {
  const started = performance.now();
  const timings = { readMs: 0, inflateMs: 0 };
  const pointer = await loadSnapshotPointer();
  if (!pointer) return null;
  if (!pointer.parts) {
    const compressed = await readChunks(pointer.generation, 0, pointer.chunks);
    timings.readMs = performance.now() - started;
    const bytes = await inflate(Buffer.concat(compressed));
    timings.inflateMs = performance.now() - started - timings.readMs;
    const snapshot = isBinarySnapshot(bytes) ? bytes : (JSON.parse(bytes.toString('utf8')) as SnapshotColumns);
    return { pointer, snapshot, parts: {}, timings };
  }
  const parts: LoadedSnapshot['parts'] = {};
  let core: Promise<SnapshotBytes> | undefined;
  let first = 0;
  for (const part of pointer.parts) {
    const frames = framesOf(pointer.generation, part, first);
    if (part.name === 'core') core = readPart(frames, timings, started);
    else parts[part.name] = () => readPart(frames);
    if ('frames' in part) first += part.frames.reduce((sum, count) => sum + count, 0);
  }
  if (!core) throw new Error(`search snapshot ${pointer.generation} has no core`);
  return { pointer, snapshot: await core, parts, timings };
}

/** Chunks `first` to `first + count - 1` of a generation, in order. */
async function readChunks(generation: string, first: number, count: number): Promise<Buffer[]> {
  const keys = Array.from({ length: count }, (_, chunk) => searchKeys.snapshotChunk(generation, first + chunk));
  // A BatchGetItem answers at most 16 MB: 100 chunks of up to 350 KB would come back a third at a
  // time, the rest as unprocessed keys retried after a pause. Calls of 16 (5.6 MB) fit, 8 at a time.
  const items = await batchGetAll(keys, { consistent: true, keysPerCall: 16, parallel: 8 });
  // A generation deleted under a slow reader (two newer snapshots came meanwhile) reads short.
  if (items.length !== count)
    throw new Error(`search snapshot ${generation} has ${items.length} of chunks ${first}–${first + count - 1}`);
  items.sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
  return items.map((item) => {
    const data = item.data as Uint8Array;
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  });
}

/** A stored part's compressed frames: how many, and a reader of each. */
interface StoredFrames {
  count: number;
  read(frame: number): Promise<Uint8Array>;
}

/** Where a part's frames are: bucket objects, or (before the bucket) table chunks from `first` on. */
function framesOf(generation: string, part: StoredPart, first: number): StoredFrames {
  if ('objects' in part)
    return { count: part.objects, read: (frame) => readSnapshotFrame(generation, part.name, frame) };
  const firsts: number[] = [];
  part.frames.reduce((at, count) => {
    firsts.push(at);
    return at + count;
  }, first);
  return {
    count: part.frames.length,
    read: async (frame) => {
      const chunks = await readChunks(generation, firsts[frame]!, part.frames[frame]!);
      return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    },
  };
}

/** Frames read at once (about 1 MB each), each inflated as soon as it arrives. */
const FRAMES_IN_FLIGHT = 8;

/**
 * A part's bytes: each frame read and inflated on its own, frames in flight together, so the
 * thread pool inflates the first frames while the later ones are still being read.
 */
async function readPart(
  frames: StoredFrames,
  timings?: LoadedSnapshot['timings'],
  started = performance.now(),
): Promise<SnapshotBytes> {
  let lastRead = started;
  const inflated = new Array<Buffer>(frames.count);
  let next = 0;
  const worker = async () => {
    while (next < frames.count) {
      const frame = next++;
      const compressed = await frames.read(frame);
      lastRead = Math.max(lastRead, performance.now());
      inflated[frame] = await inflate(compressed);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FRAMES_IN_FLIGHT, frames.count) }, worker));
  // The frames as they are: the reader copies each column out of them (framedBytes.ts).
  const bytes = inflated.length === 1 ? inflated[0]! : new FramedBytes(inflated);
  // Reading and inflating overlap: reading is until the last chunk came, inflating what followed.
  if (timings) {
    timings.readMs = lastRead - started;
    timings.inflateMs = performance.now() - lastRead;
  }
  return bytes;
}

const gunzipAsync = promisify(gunzip);
/** A frame is about FRAME_BYTES, or one section: a column of a few million bugs is tens of MB. */
const MAX_FRAME_BYTES = 1024 * 1024 * 1024;
/**
 * One output buffer as large as the frame inflates to (gzip's trailer says how large) lets the
 * thread pool inflate it in one go, into one buffer the index can keep its columns in. With
 * zlib's 16 KiB default, each frame went back and forth between the pool and the main thread
 * 256 times, and parallel inflating was slower than inflating in turn (3.4 s for a million
 * bugs' core on two cores, against 1.4 s in turn). The slack keeps the end of the stream from
 * asking for a second buffer.
 */
const inflate = (bytes: Uint8Array) => {
  const trailer = bytes.length >= 18 ? new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4) : undefined;
  const inflated = trailer ? trailer.getUint32(0, true) : 0;
  return gunzipAsync(bytes, { chunkSize: Math.min(inflated, MAX_FRAME_BYTES) + 64 * 1024 });
};
const deflate = (bytes: Uint8Array) => promisify(gzip)(bytes, { level: SNAPSHOT_GZIP_LEVEL });

/**
 * A part's compressed frames, about FRAME_BYTES each and cut between sections (frameEnds), so a
 * reader can keep each column where its frame was inflated; compressed at once.
 */
async function compressPart(bytes: Uint8Array): Promise<Buffer[]> {
  const ends = frameEnds(bytes, FRAME_BYTES);
  return Promise.all(ends.map((end, frame) => deflate(bytes.subarray(frame === 0 ? 0 : ends[frame - 1], end))));
}

async function batchWrite(requests: Array<Record<string, unknown>>): Promise<void> {
  for (let start = 0; start < requests.length; start += 25) {
    let pending: Record<string, unknown[]> | undefined = { [tableName()]: requests.slice(start, start + 25) };
    while (pending && Object.keys(pending).length > 0) {
      const result = await documentClient().send(new BatchWriteCommand({ RequestItems: pending as never }));
      pending = result.UnprocessedItems as Record<string, unknown[]> | undefined;
    }
  }
}

/** The change-log item that tells running search instances to reload (docs/data-model.md §8.7). */
const SNAPSHOT_NOTICE = 'searchSnapshotNotice';

export interface SnapshotOptions {
  /**
   * The generation the columns were built on (`null`: none): the pointer moves only if it still
   * names that one, so a snapshot another writer made meanwhile (an import's) is never replaced
   * by columns that lack its bugs. Without it the pointer moves unconditionally.
   */
  basis?: string | null;
  /**
   * Appends a notice to the change log after pointing to the snapshot: for writers whose bugs
   * bypassed the log (the importer), so that instances already running reload from it.
   */
  announce?: boolean;
}

/**
 * Writes a new snapshot generation, then points to it, then deletes generations older than the
 * previous one (an instance may still be reading the previous one). Null when `basis` is no
 * longer current: nothing is pointed to then, and the generation just written is deleted.
 */
export async function writeSnapshot(
  snapshot: Uint8Array | SnapshotParts,
  options: SnapshotOptions & { basis: string | null },
): Promise<SnapshotPointer | null>;
export async function writeSnapshot(
  snapshot: Uint8Array | SnapshotParts,
  options?: { announce?: boolean },
): Promise<SnapshotPointer>;
export async function writeSnapshot(
  snapshot: Uint8Array | SnapshotParts,
  options: SnapshotOptions = {},
): Promise<SnapshotPointer | null> {
  const blobs: Array<{ name: StoredPart['name']; bytes: Uint8Array }> =
    snapshot instanceof Uint8Array
      ? [{ name: 'core', bytes: snapshot }]
      : [
          { name: 'core', bytes: snapshot.core },
          ...Object.entries(snapshot.parts).map(([name, bytes]) => ({ name: name as DeferredPart, bytes })),
        ];
  const { highWater, size } = new SnapshotReader(blobs[0]!.bytes).fields as { highWater: number; size: number };
  const generation = `${new Date().toISOString()}-${randomUUID().slice(0, 8)}`;
  const parts: StoredPart[] = [];
  for (const blob of blobs) {
    const frames = await compressPart(blob.bytes);
    await putSnapshotFrames(generation, blob.name, frames);
    parts.push({ name: blob.name, objects: frames.length });
  }
  const previous = await loadSnapshotPointer();
  const pointer: SnapshotPointer = {
    generation,
    sequence: (previous?.sequence ?? 0) + 1,
    chunks: parts.reduce((sum, part) => sum + ('objects' in part ? part.objects : 0), 0),
    highWater,
    bugCount: size,
    writtenAt: new Date().toISOString(),
    parts,
  };
  const basis = options.basis;
  const current = previous?.generation ?? null;
  const superseded = async () => {
    await deleteSnapshotObjects(generation);
    return null;
  };
  if (basis !== undefined && basis !== current) return superseded();
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...searchKeys.snapshotPointer(),
          type: 'searchSnapshotPointer',
          ...pointer,
          previous: current,
        },
        // The pointer read above is still the current one: no other writer came in between.
        ...(basis === undefined
          ? {}
          : current === null
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'generation = :current', ExpressionAttributeValues: { ':current': current } }),
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    return superseded();
  }
  if (options.announce) {
    const at = new Date().toISOString();
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...searchKeys.snapshotNotice(at, generation),
          type: SNAPSHOT_NOTICE,
          generation,
          sequence: pointer.sequence,
          expiresAt: Math.floor(Date.now() / 1000) + LOG_RETENTION_DAYS * 86_400,
        },
      }),
    );
  }
  const older = previous?.previous;
  if (older) {
    // Written in the bucket, or (before it) in table items.
    await deleteSnapshotObjects(older);
    const stale = await queryPartition(searchKeys.snapshotPartition(older));
    await batchWrite(stale.map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })));
  }
  return pointer;
}
