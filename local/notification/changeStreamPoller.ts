import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type PublishLog,
  type PublishReport,
  publishChanges,
} from '../../shared/application/notification/changePublisher.ts';
import type { NotificationOutlets } from '../../shared/application/notification/notificationOutlets.ts';
import { type ShardStart, TableStreamReader } from '../../shared/storage/notification/tableStream.ts';

/**
 * What Lambda's event source mapping does on AWS, for the local engines: reads the table's
 * change stream shard by shard, hands each page of records to the same publisher the deployed
 * function runs, and goes on after the page only when it all went out. When the publisher
 * stops at a record, the next round starts at that record again (Lambda's partial batch
 * response), so nothing is lost and the delivery markers keep anything from going out twice.
 * Where it got to is kept in a file beside the outbox, so a restart goes on from there.
 */
export interface PollerOptions {
  tableName: string;
  outlets: NotificationOutlets;
  log?: PublishLog;
  /** Records per page (GetRecords' Limit): Lambda's batch size. */
  pageSize?: number;
  /** Where the position is kept across restarts; none: from the start of the stream. */
  positionFile?: string;
}

/** A shard's position: the record to read again, or the last one done; neither: its start. */
interface ShardPosition {
  at?: string;
  after?: string;
}

interface SavedPositions {
  streamArn: string;
  shards: Record<string, ShardPosition>;
}

export interface DrainReport {
  /** Stream records handed to the publisher (a page handed over again counts again). */
  records: number;
  reports: PublishReport[];
  /** The report of a page the publisher stopped in; the next round starts there. */
  failed?: PublishReport;
}

export interface PollerHooks {
  /** After every round, with what it published. */
  drained?(report: DrainReport): void;
  /** The first failed round after a good one. */
  failed?(error: unknown): void;
}

const startOf = (position: ShardPosition | undefined): ShardStart =>
  position?.at
    ? { type: 'AT_SEQUENCE_NUMBER', sequenceNumber: position.at }
    : position?.after
      ? { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: position.after }
      : { type: 'TRIM_HORIZON' };

export class ChangeStreamPoller {
  private readonly reader: TableStreamReader;
  private streamArn: string | undefined;
  private positions = new Map<string, ShardPosition>();
  private readonly finished = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(private readonly options: PollerOptions) {
    this.reader = new TableStreamReader(options.tableName);
  }

  /** Publishes everything the stream holds now, up to the first page that does not all go out. */
  async drain(): Promise<DrainReport> {
    const drained: DrainReport = { records: 0, reports: [] };
    const streamArn = await this.reader.streamArn();
    if (!streamArn) return drained;
    if (streamArn !== this.streamArn) this.follow(streamArn);
    for (const { shardId } of await this.reader.shards(streamArn)) {
      if (this.finished.has(shardId)) continue;
      let iterator = await this.iteratorOf(streamArn, shardId);
      while (iterator) {
        const page = await this.reader.read(iterator, this.options.pageSize);
        if (page.records.length > 0) {
          drained.records += page.records.length;
          const report = await publishChanges(page.records, this.options.outlets, this.options.log);
          drained.reports.push(report);
          const sequenceOf = (index: number) => page.records[index]!.dynamodb!.SequenceNumber!;
          if (report.retryFrom !== undefined) {
            this.positions.set(shardId, { at: sequenceOf(report.retryFrom) });
            this.save();
            return { ...drained, failed: report };
          }
          this.positions.set(shardId, { after: sequenceOf(page.records.length - 1) });
          this.save();
        }
        if (!page.next) this.finished.add(shardId);
        if (!page.next || page.records.length === 0) break;
        iterator = page.next;
      }
    }
    return drained;
  }

  /**
   * Drains now and then every `intervalMs`; after a failed round it waits longer (up to a
   * minute) and says why once, until a round succeeds.
   */
  start(intervalMs = 1_000, hooks: PollerHooks = {}): void {
    let delay = intervalMs;
    let reported = false;
    const round = async () => {
      try {
        const drained = await this.drain();
        hooks.drained?.(drained);
        if (drained.failed) throw drained.failed.error;
        delay = intervalMs;
        reported = false;
      } catch (error) {
        if (!reported) hooks.failed?.(error);
        reported = true;
        delay = Math.min(delay * 2, 60_000);
      }
    };
    const next = () => {
      if (this.stopped) return;
      this.running = round().finally(() => {
        if (!this.stopped) this.timer = setTimeout(next, delay);
      });
    };
    next();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    this.reader.close();
  }

  /** Where the shard goes on; from its start when the records after the position are gone (older than 24 hours). */
  private async iteratorOf(streamArn: string, shardId: string): Promise<string | undefined> {
    try {
      return await this.reader.iterator(streamArn, shardId, startOf(this.positions.get(shardId)));
    } catch (error) {
      if ((error as { name?: string }).name !== 'TrimmedDataAccessException') throw error;
      this.positions.delete(shardId);
      return this.reader.iterator(streamArn, shardId, { type: 'TRIM_HORIZON' });
    }
  }

  /** A stream seen for the first time: its saved positions if it is the one of the file, else its start. */
  private follow(streamArn: string): void {
    this.streamArn = streamArn;
    this.finished.clear();
    const saved = this.load();
    this.positions = new Map(saved?.streamArn === streamArn ? Object.entries(saved.shards) : []);
  }

  private load(): SavedPositions | undefined {
    if (!this.options.positionFile) return undefined;
    try {
      return JSON.parse(readFileSync(this.options.positionFile, 'utf8')) as SavedPositions;
    } catch {
      return undefined;
    }
  }

  private save(): void {
    const file = this.options.positionFile;
    if (!file || !this.streamArn) return;
    mkdirSync(dirname(file), { recursive: true });
    const saved: SavedPositions = { streamArn: this.streamArn, shards: Object.fromEntries(this.positions) };
    writeFileSync(`${file}.tmp`, `${JSON.stringify(saved, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  }
}
