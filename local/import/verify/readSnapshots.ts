import * as z from 'zod';
import {
  type BugFault,
  type BugzillaClient,
  bugSchema,
  readAttachments,
  readComments,
  readHistory,
} from '../source/index.ts';
import { readBugsSplitting } from '../source/readers/bugs.ts';
import { type BodyReading, checksumBodies } from './bodyChecksums.ts';
import type { AttachmentSummary, BugSnapshot } from './differences.ts';

/**
 * A batch of bug ids as one side answers for them, through the REST API with the importer's own
 * readers (comments, history, attachment metadata), so verification sees what a client sees.
 * Bugs are read as the source reader reads them (`_all` without the parts read on their own) but
 * kept as sent: every field the side returns is compared, not only those the importer's records
 * name. Bodies become checksums as they arrive (bodyChecksums.ts).
 */

export interface SideBatch {
  snapshots: Map<number, BugSnapshot>;
  /** Ids that name no bug on this side (101). */
  missing: number[];
  /** Bugs this side has but would not show (102: in a group the account is not in). */
  faults: BugFault[];
  /** Attachments whose body this side could not send. */
  unreadableBodies: Array<{ id: number; reason: string }>;
}

const NOT_A_BUG = 101;
/** The bugs as the wire has them; readBugsSplitting has already read the faults. */
const bugsAnswer = z.object({ bugs: z.array(z.looseObject({ id: z.unknown() })) });

export async function readSnapshots(
  client: BugzillaClient,
  ids: readonly number[],
  bodies: BodyReading,
): Promise<SideBatch> {
  const read = await readBugsSplitting(client, ids, {
    include_fields: '_all',
    exclude_fields: 'comments,history,attachments,description',
  });
  const answer = { ...bugsAnswer.parse(read), faults: read.faults };
  const bugs = answer.bugs.map((fields) => ({
    fields: fields as Record<string, unknown>,
    record: bugSchema.parse(fields),
  }));
  const found = bugs.map((bug) => bug.record.id);
  const [comments, history, attachments] = await Promise.all([
    readComments(client, found),
    readHistory(client, found),
    readAttachments(client, found, { bodies: false }),
  ]);
  const listed = [...attachments.values()].flat();
  const checksums = await checksumBodies(client, listed, bodies);
  const unreadableBodies: SideBatch['unreadableBodies'] = [];
  const summaries = new Map<number, AttachmentSummary[]>();
  for (const [bugId, list] of attachments)
    summaries.set(
      bugId,
      list.map(({ data: _data, ...attachment }) => {
        const checksum = checksums.get(attachment.id) ?? { sha256: null };
        if ('unreadable' in checksum) {
          unreadableBodies.push({ id: attachment.id, reason: checksum.unreadable });
          return { ...attachment, sha256: null, bodyUnreadable: checksum.unreadable };
        }
        return { ...attachment, sha256: checksum.sha256 };
      }),
    );
  const snapshots = new Map<number, BugSnapshot>();
  for (const { fields, record } of bugs)
    snapshots.set(record.id, {
      id: record.id,
      fields,
      flags: record.flags,
      comments: comments.get(record.id) ?? [],
      history: history.get(record.id) ?? [],
      attachments: summaries.get(record.id) ?? [],
    });
  const faults = answer.faults ?? [];
  return {
    snapshots,
    missing: faults.filter((fault) => fault.code === NOT_A_BUG).map((fault) => fault.id),
    faults: faults.filter((fault) => fault.code !== NOT_A_BUG),
    unreadableBodies,
  };
}
