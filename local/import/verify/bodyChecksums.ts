import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { Semaphore } from '../source/concurrency.ts';
import { BugzillaApiError, type BugzillaClient, idSchema } from '../source/index.ts';
import { bodyGroups } from '../source/readers/attachments.ts';

/**
 * SHA-256 of attachment bodies, read through the REST API (`GET /rest/bug/attachment/<id>` with
 * more ids as `attachment_ids`), never holding more than a bounded number of them: ids are
 * grouped so a group's bodies stay within `budgetBytes` (one larger attachment goes alone), every
 * group is read while holding one of `slots`, hashed, and dropped before the slot is given back.
 * So at most `slots.size` groups' bodies are in memory, whatever the number of bugs in flight.
 * A group Tracker refuses as too large for one answer (600) is split until each body comes
 * alone; a body too large even alone is reported as unreadable, not compared.
 */

export interface BodyReading {
  budgetBytes: number;
  /** Shared by both sides and every batch: what bounds the bodies in memory. */
  slots: Semaphore;
}

export type BodyChecksum = { sha256: string | null } | { unreadable: string };

const TOO_LARGE = 600;
const answer = z.object({
  attachments: z.record(z.string(), z.object({ id: idSchema, data: z.string().nullish() })),
});

export async function checksumBodies(
  client: BugzillaClient,
  attachments: ReadonlyArray<{ id: number; size: number }>,
  reading: BodyReading,
): Promise<Map<number, BodyChecksum>> {
  const groups = bodyGroups(attachments, reading.budgetBytes);
  const checksums = new Map<number, BodyChecksum>();
  await Promise.all(groups.map((group) => reading.slots.run(() => readGroup(client, group, checksums))));
  return checksums;
}

async function readGroup(client: BugzillaClient, ids: number[], into: Map<number, BodyChecksum>): Promise<void> {
  const [first, ...rest] = ids;
  let read: z.output<typeof answer>;
  try {
    read = answer.parse(
      await client.get(`/bug/attachment/${first}`, {
        ...(rest.length > 0 ? { attachment_ids: rest } : {}),
        include_fields: 'id,data',
      }),
    );
  } catch (error) {
    if (!(error instanceof BugzillaApiError && error.code === TOO_LARGE)) throw error;
    if (ids.length === 1) {
      into.set(first, { unreadable: `too large for one answer (${error.message})` });
      return;
    }
    // Still within the caller's slot: the halves are read one after the other.
    const half = Math.ceil(ids.length / 2);
    await readGroup(client, ids.slice(0, half), into);
    await readGroup(client, ids.slice(half), into);
    return;
  }
  for (const id of ids) {
    const data = read.attachments[String(id)]?.data;
    into.set(id, {
      sha256: typeof data === 'string' ? createHash('sha256').update(Buffer.from(data, 'base64')).digest('hex') : null,
    });
  }
}
