/**
 * Reading attachments: their metadata (with the data inline while it fits in one Lambda
 * response) and, for a file of any size, a presigned S3 download address. Both check the bug's
 * visibility and the attachment's privacy before anything is shown.
 */
import {
  type Attachment,
  attachmentView,
  contentDisposition,
  downloadContentType,
  MAX_RESPONSE_BASE64_BYTES,
  maySeeAttachment,
} from '../../domain/bug/attachment.ts';
import type { FieldSelection } from '../../domain/fieldSelection.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { errors } from '../../errors.ts';
import { getBody, presignBody } from '../../storage/bug/attachmentBodies.ts';
import {
  loadAttachmentsById,
  loadAttachmentWithBug,
  loadBugWithAttachments,
} from '../../storage/bug/attachmentStore.ts';
import { loadBugs } from '../../storage/bug/bugStore.ts';
import { loadFlagTypes } from '../../storage/catalog/flagTypeStore.ts';
import { usersById } from './bugContext.ts';
import { resolveBugReferences, visibleBug } from './bugVisibility.ts';
import { parseObjectId, visibilityContext } from './comments.ts';

export interface AttachmentRequest {
  bugs: ReadonlyArray<string | number>;
  attachmentIds: readonly unknown[];
}

/** GET /rest/bug/{id}/attachment and GET /rest/bug/attachment/{attachment_id}. */
export async function getAttachments(caller: Caller, request: AttachmentRequest, fields: FieldSelection) {
  const attachmentIds = request.attachmentIds.map((id) => parseObjectId(id, 'attachment id'));
  const context = await visibilityContext();
  const { parameters } = context;
  // Each bug is read with its attachments in one Query; visibility is checked before anything is shown.
  const asNamed = await resolveBugReferences(request.bugs);
  const bugIds = [...asNamed.keys()];
  // One attachment alone (what clients ask most) comes with its bug in two round trips.
  const [withAttachments, single, several] = await Promise.all([
    Promise.all(bugIds.map(loadBugWithAttachments)),
    attachmentIds.length === 1 ? loadAttachmentWithBug(attachmentIds[0]) : Promise.resolve(undefined),
    attachmentIds.length > 1 ? loadAttachmentsById(attachmentIds) : Promise.resolve(new Map<number, Attachment>()),
  ]);
  const byId = single ? new Map([[single.attachment.id, single.attachment]]) : several;
  const bugs = bugIds.map((id, index) => ({
    ...visibleBug(caller, withAttachments[index].stored, id, context, asNamed.get(id)),
    attachments: withAttachments[index].attachments,
  }));
  // Unknown attachment ids are left out, as in Bugzilla; a known one must be on a visible bug and
  // readable by the caller (304 for someone else's private attachment).
  const named = attachmentIds
    .map((id) => byId.get(id))
    .filter((attachment): attachment is Attachment => attachment !== undefined);
  const namedBugs = single?.stored
    ? new Map([[single.attachment.bugId, single.stored]])
    : await loadBugs([...new Set(named.map((attachment) => attachment.bugId))]);
  for (const attachment of named) {
    visibleBug(caller, namedBugs.get(attachment.bugId), attachment.bugId, context);
    if (!maySeeAttachment(caller, parameters, attachment)) throw errors.privateAttachment(attachment.id);
  }
  const perBug = bugs.map(({ bug, attachments }) => ({
    bugId: bug.id,
    attachments: attachments.filter((attachment) => maySeeAttachment(caller, parameters, attachment)),
  }));

  const all = [...named, ...perBug.flatMap(({ attachments }) => attachments)];
  const wantsData = fields.wants('data');
  const bodies = new Map<number, string>();
  if (wantsData) {
    const total = [...new Map(all.map((attachment) => [attachment.id, attachment.size])).values()].reduce(
      (sum, size) => sum + size,
      0,
    );
    if (Math.ceil(total / 3) * 4 > MAX_RESPONSE_BASE64_BYTES) {
      throw errors.attachmentTooLarge(
        `These attachments hold ${Math.ceil(total / 1024)} KB, more than one response can carry (Lambda answers at most 6 MB, and data is base64). Ask with exclude_fields=data and fetch each file with GET /rest/bug/attachment/{id}/download.`,
      );
    }
    await Promise.all(
      [...new Map(all.map((attachment) => [attachment.id, attachment])).values()].map(async (attachment) => {
        bodies.set(attachment.id, (await getBody(attachment.bodyKey)).toString('base64'));
      }),
    );
  }
  const users = await usersById([
    ...new Set(
      all
        .flatMap((attachment) => [
          attachment.creatorId,
          ...attachment.flags.flatMap((flag) => [flag.setterId, flag.requesteeId]),
        ])
        .filter((id): id is number => id !== null),
    ),
  ]);
  // Flag type names are read only when some attachment has flags.
  const flagTypes = all.some((attachment) => attachment.flags.length > 0) ? await loadFlagTypes() : [];
  const typeName = (id: number) => flagTypes.find((type) => type.id === id)?.name ?? '';
  const view = (attachment: Attachment) =>
    attachmentView(caller, attachment, users, typeName, bodies.get(attachment.id));
  return {
    bugs: Object.fromEntries(perBug.map(({ bugId, attachments }) => [String(bugId), attachments.map(view)])),
    attachments: Object.fromEntries(named.map((attachment) => [String(attachment.id), view(attachment)])),
  };
}

/** How long a download address works. */
export const DOWNLOAD_URL_SECONDS = 300;

/**
 * GET /rest/bug/attachment/{attachment_id}/download (Tracker's addition): the same checks as
 * reading the attachment, then a presigned S3 address valid for five minutes, so a file of any
 * size downloads straight from S3 without passing through Lambda.
 */
export async function downloadAttachment(caller: Caller, idValue: unknown) {
  const id = parseObjectId(idValue, 'attachment id');
  const [context, found] = await Promise.all([visibilityContext(), loadAttachmentWithBug(id)]);
  if (!found) throw errors.attachmentNotFound(id);
  const { attachment, stored } = found;
  visibleBug(caller, stored, attachment.bugId, context);
  if (!maySeeAttachment(caller, context.parameters, attachment)) throw errors.privateAttachment(id);
  const url = await presignBody(
    attachment.bodyKey,
    contentDisposition(attachment.fileName),
    downloadContentType(attachment.contentType),
    DOWNLOAD_URL_SECONDS,
  );
  return {
    attachments: {
      [String(id)]: {
        id,
        url,
        expires_in: DOWNLOAD_URL_SECONDS,
        file_name: attachment.fileName,
        content_type: attachment.contentType,
        size: attachment.size,
        sha256: attachment.sha256,
      },
    },
  };
}
