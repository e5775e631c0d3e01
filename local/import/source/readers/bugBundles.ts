import type { BugzillaClient } from '../bugzillaClient.ts';
import { type IdRange, idChunks, orderedMap } from '../concurrency.ts';
import type { AttachmentRecord, CommentRecord, HistoryEntryRecord } from '../sourceRecords.ts';
import { type ReadAttachmentsOptions, readAttachments } from './attachments.ts';
import { type BugBatch, readBugIds } from './bugs.ts';
import { readComments } from './comments.ts';
import { readHistory } from './history.ts';

/**
 * Everything about a range of bugs, batch by batch, in id order: what a writer consumes. Each
 * batch's bugs are read first (to learn which ids exist and are visible), then their comments,
 * history and attachments at once; several batches are in flight while the writer works on the
 * current one, and the client's connection limit bounds the requests underneath.
 */

export interface BugBundle extends BugBatch {
  /** By bug id, for every bug of `bugs` (empty lists included). */
  comments: Map<number, CommentRecord[]>;
  history: Map<number, HistoryEntryRecord[]>;
  attachments: Map<number, AttachmentRecord[]>;
}

export interface ReadBugBundlesOptions extends ReadAttachmentsOptions {
  /** Bugs per batch (default 100). */
  batchSize?: number;
  /** Batches in flight (default half the client's connections, at least 2). */
  ahead?: number;
}

export function readBugBundles(
  client: BugzillaClient,
  range: IdRange,
  options: ReadBugBundlesOptions = {},
): AsyncGenerator<BugBundle> {
  const ahead = options.ahead ?? Math.max(2, Math.floor(client.connections / 2));
  return orderedMap(idChunks(range, options.batchSize ?? 100), ahead, (ids) => readBundle(client, ids, options));
}

export async function readBundle(
  client: BugzillaClient,
  ids: number[],
  options: ReadAttachmentsOptions = {},
): Promise<BugBundle> {
  const batch = await readBugIds(client, ids);
  const found = batch.bugs.map((bug) => bug.id);
  const [comments, history, attachments] = await Promise.all([
    readComments(client, found),
    readHistory(client, found),
    readAttachments(client, found, options),
  ]);
  return { ...batch, comments, history, attachments };
}
