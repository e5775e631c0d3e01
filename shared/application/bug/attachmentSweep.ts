/**
 * The orphan sweep (`npm run sweep:attachments`): attachment bodies whose metadata never landed,
 * because the process died between the S3 put and the DynamoDB transaction.
 */
import { deleteBody, listBodies } from '../../storage/bug/attachmentBodies.ts';
import { existingAttachmentIds } from '../../storage/bug/attachmentStore.ts';

/**
 * Removes bodies that no metadata refers to: left behind only when a process died between the
 * S3 put and the DynamoDB transaction (a failed transaction removes its own). Bodies younger
 * than `minimumAgeMs` are left alone, since their transaction may still be under way.
 */
export async function sweepOrphanBodies(
  options: { minimumAgeMs?: number; now?: Date } = {},
): Promise<{ checked: number; deleted: string[] }> {
  const minimumAge = options.minimumAgeMs ?? 60 * 60 * 1000;
  const now = (options.now ?? new Date()).getTime();
  const deleted: string[] = [];
  let checked = 0;
  let batch: Array<{ key: string; id: number }> = [];
  const flush = async () => {
    const existing = await existingAttachmentIds(batch.map(({ id }) => id));
    for (const { key, id } of batch) {
      if (existing.has(id)) continue;
      await deleteBody(key);
      deleted.push(key);
    }
    batch = [];
  };
  for await (const { key, lastModified } of listBodies()) {
    checked++;
    if (now - lastModified.getTime() < minimumAge) continue;
    const id = Number(key.split('/').pop());
    if (!Number.isSafeInteger(id) || id <= 0) continue;
    batch.push({ key, id });
    if (batch.length === 100) await flush();
  }
  if (batch.length > 0) await flush();
  return { checked, deleted };
}
