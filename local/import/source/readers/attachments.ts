import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { type AttachmentRecord, attachmentSchema } from '../sourceRecords.ts';
import { batchRequest } from './batchRequest.ts';
import { isTooLarge } from './splitting.ts';

/**
 * The attachments of a batch of bugs, by bug id, with their bodies. First the metadata of the
 * whole batch (`exclude_fields=data`: cheap, and Tracker answers it without reading S3), then
 * the bodies by attachment id in groups of at most `bodyBudgetBytes`, so no answer holds more
 * than that much base64 and one large attachment does not make a batch's answer huge. Tracker
 * refuses a read too big for one Lambda response with 600: such a group is split in two until
 * each attachment comes alone. Private attachments come only to insiders (and their creators).
 */

export interface ReadAttachmentsOptions {
  /** Read the bodies (default true); false leaves `data` null. */
  bodies?: boolean;
  /** Bytes of attachment bodies asked for in one request at most (default 3 MB). */
  bodyBudgetBytes?: number;
}

const byBug = z.object({ bugs: z.record(z.string(), z.array(attachmentSchema)) });
const byId = z.object({ attachments: z.record(z.string(), attachmentSchema) });

export async function readAttachments(
  client: BugzillaClient,
  bugIds: readonly number[],
  options: ReadAttachmentsOptions = {},
): Promise<Map<number, AttachmentRecord[]>> {
  const attachments = new Map<number, AttachmentRecord[]>(bugIds.map((id) => [id, []]));
  if (bugIds.length === 0) return attachments;
  const { path, query } = batchRequest(bugIds, '/attachment');
  const listed = byBug.parse(await client.get(path, { ...query, exclude_fields: 'data' })).bugs;
  const all = Object.values(listed).flat();
  const bodies =
    options.bodies === false ? new Map<number, AttachmentRecord>() : await readBodies(client, all, options);
  for (const [bugId, list] of Object.entries(listed))
    attachments.set(
      Number(bugId),
      list.map((attachment) => bodies.get(attachment.id) ?? attachment).sort((a, b) => a.id - b.id),
    );
  return attachments;
}

async function readBodies(
  client: BugzillaClient,
  attachments: readonly AttachmentRecord[],
  options: ReadAttachmentsOptions,
): Promise<Map<number, AttachmentRecord>> {
  const groups = bodyGroups(attachments, options.bodyBudgetBytes ?? 3_000_000);
  const read = new Map<number, AttachmentRecord>();
  await Promise.all(groups.map((group) => readGroup(client, group, read)));
  return read;
}

/**
 * Attachment ids, in the order given, in groups whose bodies add up to at most `budgetBytes`
 * (by the listed size): one request's worth each. An attachment larger than the budget goes alone.
 */
export function bodyGroups(attachments: ReadonlyArray<{ id: number; size: number }>, budgetBytes: number): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const attachment of attachments) {
    if (current.length > 0 && bytes + attachment.size > budgetBytes) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(attachment.id);
    bytes += attachment.size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

async function readGroup(client: BugzillaClient, ids: number[], into: Map<number, AttachmentRecord>): Promise<void> {
  const [first, ...rest] = ids;
  try {
    const answer = await client.get(`/bug/attachment/${first}`, rest.length > 0 ? { attachment_ids: rest } : {});
    for (const attachment of Object.values(byId.parse(answer).attachments)) into.set(attachment.id, attachment);
  } catch (error) {
    if (!(isTooLarge(error) && ids.length > 1)) throw error;
    const half = Math.ceil(ids.length / 2);
    await Promise.all([readGroup(client, ids.slice(0, half), into), readGroup(client, ids.slice(half), into)]);
  }
}
