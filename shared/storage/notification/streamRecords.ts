import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { HistoryEntry } from '../../domain/bug/bug.ts';
import { attachmentKeys, bugKeys, searchKeys } from '../keys.ts';

/**
 * One record of the table's change stream, in the shape both readers give it: Lambda's
 * DynamoDBStreamEvent (times as epoch seconds) and the streams API's GetRecords (times as Dates).
 * Images are DynamoDB JSON.
 */
export interface TableStreamRecord {
  eventName?: string;
  dynamodb?: {
    Keys?: Record<string, unknown>;
    NewImage?: Record<string, unknown>;
    OldImage?: Record<string, unknown>;
    SequenceNumber?: string;
    ApproximateCreationDateTime?: number | Date;
  };
}

/** The items of a bug's collection that a bug change writes; every other item is no bug change. */
export type BugItemKind = 'bug' | 'comment' | 'history' | 'attachment';

/** A stream record of a bug's item, its images read. */
export interface BugItemRecord {
  /** Its position in the batch: where a retry of this record starts. */
  index: number;
  bugId: number;
  kind: BugItemKind;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage: Record<string, unknown> | undefined;
  oldImage: Record<string, unknown> | undefined;
  /** When the stream took the record (ms), when the reader says. */
  recordedAt: number | undefined;
}

const imageOf = (image: Record<string, unknown> | undefined) =>
  image ? (unmarshall(image as Record<string, AttributeValue>) as Record<string, unknown>) : undefined;

function kindOf(sk: string): BugItemKind | null {
  if (sk === bugKeys.bug(0).sk) return 'bug';
  if (sk.startsWith(bugKeys.commentPrefix)) return 'comment';
  if (sk.startsWith(bugKeys.historyPrefix)) return 'history';
  if (sk.startsWith(attachmentKeys.attachmentPrefix)) return 'attachment';
  return null;
}

function timeOf(value: number | Date | undefined): number | undefined {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'number' ? value * 1000 : undefined;
}

const EVENT_NAMES = new Set(['INSERT', 'MODIFY', 'REMOVE']);

/**
 * The records of a batch that concern a bug's items, in stream order. Everything else the table
 * holds (users, the catalogue, counters, the search log, sessions, last visits, delivery
 * markers) is left out, as are the bug partition's other items.
 */
export function bugItemRecords(records: readonly TableStreamRecord[]): BugItemRecord[] {
  const found: BugItemRecord[] = [];
  records.forEach((record, index) => {
    const keys = imageOf(record.dynamodb?.Keys);
    if (!keys || !EVENT_NAMES.has(String(record.eventName))) return;
    const bugId = bugKeys.bugIdOfPartition(String(keys.pk));
    const kind = kindOf(String(keys.sk));
    if (bugId === null || kind === null) return;
    found.push({
      index,
      bugId,
      kind,
      eventName: record.eventName as BugItemRecord['eventName'],
      newImage: imageOf(record.dynamodb?.NewImage),
      oldImage: imageOf(record.dynamodb?.OldImage),
      recordedAt: timeOf(record.dynamodb?.ApproximateCreationDateTime),
    });
  });
  return found;
}

/**
 * The search change log's entries in the batch (searchIndexStore.ts writes one per bug and
 * revision, with that write's history, in the write's transaction), by `<bugId>#<rev>`: when one
 * is there, it says for certain what history a bug's change has, even none.
 */
export function changeLogHistories(records: readonly TableStreamRecord[]): Map<string, HistoryEntry[]> {
  const prefix = searchKeys.logPartition('');
  const histories = new Map<string, HistoryEntry[]>();
  for (const record of records) {
    if (record.eventName !== 'INSERT') continue;
    const keys = imageOf(record.dynamodb?.Keys);
    if (!keys || !String(keys.pk).startsWith(prefix)) continue;
    const entry = imageOf(record.dynamodb?.NewImage);
    const bug = entry?.bug as { id?: unknown } | undefined;
    if (entry?.type !== 'searchLog' || bug?.id === undefined || !Array.isArray(entry.history)) continue;
    histories.set(`${Number(bug.id)}#${Number(entry.rev)}`, entry.history as HistoryEntry[]);
  }
  return histories;
}
