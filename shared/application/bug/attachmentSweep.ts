/**
 * The orphan sweep (a scheduled function in the stack, `npm run sweep:attachments` by hand):
 * attachment bodies whose metadata never landed, because the process died between the S3 put and
 * the DynamoDB transaction.
 */
import { deleteBody, listBodies } from '../../storage/bug/attachmentBodies.ts';
import { claimOrphanBody, existingAttachmentIds } from '../../storage/bug/attachmentStore.ts';

/** Bodies younger than this are left alone: their upload may still be under way. */
export const SWEEP_MINIMUM_AGE_MS = 60 * 60 * 1000;

/**
 * Removes bodies that no metadata refers to: left behind only when a process died between the
 * S3 put and the DynamoDB transaction (a failed transaction removes its own).
 *
 * Safe while uploads are in flight. Bodies younger than `minimumAgeMs` are skipped, so an upload
 * in progress is normally never touched. For an older one the sweep does not trust its own read
 * of the metadata (an upload whose put came before that read may commit after it): it first
 * claims the attachment id with a conditional write on the key the upload's transaction must
 * create (claimOrphanBody), and deletes the body only when the claim landed. Then the upload's
 * transaction cannot commit; if the upload committed first, the claim fails and the body stays.
 * So no metadata ever names a deleted body, whatever the timing or the age limit.
 */
export async function sweepOrphanBodies(
  options: { minimumAgeMs?: number; now?: Date } = {},
): Promise<{ checked: number; deleted: string[] }> {
  const minimumAge = options.minimumAgeMs ?? SWEEP_MINIMUM_AGE_MS;
  const now = options.now ?? new Date();
  const deleted: string[] = [];
  let checked = 0;
  let batch: Array<{ key: string; id: number }> = [];
  const flush = async () => {
    const existing = await existingAttachmentIds(batch.map(({ id }) => id));
    for (const { key, id } of batch) {
      if (existing.has(id)) continue;
      if (!(await claimOrphanBody(id, key, now))) continue;
      await deleteBody(key);
      deleted.push(key);
    }
    batch = [];
  };
  for await (const { key, lastModified } of listBodies()) {
    checked++;
    if (now.getTime() - lastModified.getTime() < minimumAge) continue;
    const id = Number(key.split('/').pop());
    if (!Number.isSafeInteger(id) || id <= 0) continue;
    batch.push({ key, id });
    if (batch.length === 100) await flush();
  }
  if (batch.length > 0) await flush();
  return { checked, deleted };
}
