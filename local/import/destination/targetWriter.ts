import { putBody } from '../../../shared/storage/bug/attachmentBodies.ts';
import { bulkWrite, moveCacheStamp } from '../../../shared/storage/bulkWrite.ts';
import { advanceCounter, type IdKind } from '../../../shared/storage/counterStore.ts';
import type { ItemKey } from '../../../shared/storage/keys.ts';
import { Semaphore } from '../source/concurrency.ts';

/**
 * Every write of an import goes through here, so `--dry-run` is one switch: it reads and
 * converts everything, and this writes nothing. Items go in parallel BatchWriteItem batches
 * (bulkWrite.ts), attachment bodies to S3 with a bounded number of uploads in flight.
 */
export class TargetWriter {
  private readonly uploads: Semaphore;
  items = 0;
  bodyBytes = 0;

  constructor(
    readonly dryRun: boolean,
    /** Batch writes in flight. */
    readonly concurrency = 12,
  ) {
    this.uploads = new Semaphore(Math.max(4, concurrency));
  }

  async write(
    items: ReadonlyArray<Record<string, unknown> & ItemKey>,
    deletes: readonly ItemKey[] = [],
  ): Promise<void> {
    if (this.dryRun || (items.length === 0 && deletes.length === 0)) return;
    this.items += await bulkWrite(items, deletes, { concurrency: this.concurrency });
  }

  async bodies(
    bodies: ReadonlyArray<{ key: string; data: Buffer; contentType: string; sha256: string }>,
  ): Promise<void> {
    if (this.dryRun) return;
    await Promise.all(
      bodies.map((body) =>
        this.uploads.run(async () => {
          await putBody(body.key, body.data, body.contentType, body.sha256);
          this.bodyBytes += body.data.length;
        }),
      ),
    );
  }

  /** After items with ids of their own: the kind's next id comes after them. */
  async advance(kind: IdKind, lastId: number): Promise<void> {
    if (!this.dryRun && lastId > 0) await advanceCounter(kind, lastId);
  }

  /** After catalogue, group, parameter or user items: every running instance reads them again. */
  async moveStamp(touches: { catalog: boolean; users: boolean }): Promise<void> {
    if (!this.dryRun) await moveCacheStamp(touches);
  }
}
