import { compareFlags } from './compareFlags.ts';
import type { AttachmentSummary, Difference } from './differences.ts';
import { sameValue } from './normalise.ts';

/**
 * A bug's attachments, matched by id (the importer keeps attachment ids): metadata, privacy,
 * obsolescence, flags (compareFlags) and the body, by the SHA-256 of what each side sends. The
 * readers already made 5.2's 0/1 attachment booleans booleans and Harmony's `description` and
 * `attacher` the `summary` and `creator` of the other answers. `size` is the size each side
 * reports, so a body cut short on the target differs in both size and checksum.
 */

type Compared = [field: string, value: (attachment: AttachmentSummary) => unknown];

const FIELDS: Compared[] = [
  ['bug_id', (attachment) => attachment.bugId],
  ['file_name', (attachment) => attachment.fileName],
  ['summary', (attachment) => attachment.summary],
  ['content_type', (attachment) => attachment.contentType],
  ['is_private', (attachment) => attachment.isPrivate],
  ['is_obsolete', (attachment) => attachment.isObsolete],
  ['is_patch', (attachment) => attachment.isPatch],
  ['creator', (attachment) => attachment.creator],
  // TIMES
  ['creation_time', (attachment) => attachment.creationTime],
  ['last_change_time', (attachment) => attachment.lastChangeTime],
  ['size', (attachment) => attachment.size],
];

const brief = (attachment: AttachmentSummary) => ({
  file_name: attachment.fileName,
  size: attachment.size,
  sha256: attachment.sha256,
});

export function compareAttachments(
  source: readonly AttachmentSummary[],
  target: readonly AttachmentSummary[],
): Difference[] {
  const targetById = new Map(target.map((attachment) => [attachment.id, attachment]));
  const sourceIds = new Set(source.map((attachment) => attachment.id));
  const differences: Difference[] = [];
  for (const attachment of source) {
    const other = targetById.get(attachment.id);
    if (!other) {
      differences.push({
        kind: 'attachment',
        id: attachment.id,
        field: 'attachment',
        source: brief(attachment),
        target: null,
      });
      continue;
    }
    for (const [field, value] of FIELDS)
      if (!sameValue(value(attachment), value(other)))
        differences.push({
          kind: 'attachment',
          id: attachment.id,
          field,
          source: value(attachment),
          target: value(other),
        });
    // A body one side could not send at all (verifyImport lists it as unreadable) cannot be compared.
    const readable = attachment.bodyUnreadable === undefined && other.bodyUnreadable === undefined;
    if (readable && attachment.sha256 !== other.sha256)
      differences.push({
        kind: 'attachment',
        id: attachment.id,
        field: 'sha256',
        source: attachment.sha256,
        target: other.sha256,
      });
    differences.push(...compareFlags({ kind: 'attachment', id: attachment.id }, attachment.flags, other.flags));
  }
  for (const attachment of target)
    if (!sourceIds.has(attachment.id))
      differences.push({
        kind: 'attachment',
        id: attachment.id,
        field: 'attachment',
        source: null,
        target: brief(attachment),
      });
  return differences;
}
