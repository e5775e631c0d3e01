import type { FlagType } from '../../domain/catalog/flagTypes.ts';
import { bugsUsing, bugsWithAttachments, type ValueInUse } from '../../domain/search/index/valueUsage.ts';
import { errors } from '../../errors.ts';
import { loadAttachmentsOfBug } from '../../storage/bug/attachmentStore.ts';
import { requestSearch } from './bugSearch.ts';

export type { ValueInUse };

/**
 * How many bugs use a catalogue value, counted on the search index caught up with the change
 * log (so a bug written by any request that has returned counts): every bug, private or not, as
 * Bugzilla counts them before it refuses to delete a value.
 */
export async function bugsUsingValue(value: ValueInUse): Promise<number> {
  const { index } = await requestSearch();
  return bugsUsing(index, value);
}

/** Bugs whose attachments are read at most to find an attachment flag type's flags. */
export const MAX_ATTACHMENT_BUGS_READ = 5_000;
const READS_IN_FLIGHT = 8;

/**
 * The flags of a flag type: on bugs from the index; on attachments (not in the index) by reading
 * the attachments of every bug that has some, at most MAX_ATTACHMENT_BUGS_READ bugs (beyond that
 * the count is not made: the caller is told to deactivate the type instead).
 */
export async function flagsOfType(type: FlagType): Promise<{ bugs: number; attachments: number }> {
  const { index } = await requestSearch();
  const bugs = bugsUsing(index, { kind: 'flagType', flagTypeId: type.id });
  if (type.targetType !== 'attachment') return { bugs, attachments: 0 };
  const candidates = bugsWithAttachments(index);
  if (candidates.length > MAX_ATTACHMENT_BUGS_READ) {
    throw errors.invalidParameter(
      `Tracker cannot tell whether attachments carry ${type.name} flags: ${candidates.length} bugs have attachments, more than the ${MAX_ATTACHMENT_BUGS_READ} it reads for this. Deactivate the flag type instead.`,
    );
  }
  let attachments = 0;
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const bugId = candidates[next++]!;
      for (const attachment of await loadAttachmentsOfBug(bugId))
        if (attachment.flags.some((flag) => flag.typeId === type.id)) attachments++;
    }
  };
  await Promise.all(Array.from({ length: READS_IN_FLIGHT }, worker));
  return { bugs, attachments };
}
