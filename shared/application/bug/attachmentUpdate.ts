/**
 * Changing attachments: their fields, flags and privacy, with an optional comment, each attachment
 * and its bug in one transaction. The "Created attachment" comment follows the attachment's privacy.
 */
import {
  type Attachment,
  checkContentType,
  checkFileName,
  checkSummary,
  HISTORY_FIELD,
  mayEditAttachment,
  maySeeAttachment,
  PATCH_CONTENT_TYPE,
} from '../../domain/bug/attachment.ts';
import type { Bug, HistoryChange } from '../../domain/bug/bug.ts';
import { isInsider } from '../../domain/bug/bugAccess.ts';
import { applyFlagInputs, type FlagInput } from '../../domain/bug/bugFlags.ts';
import { withAttachmentPrivacy } from '../../domain/bug/privateActivity.ts';
import { flagText } from '../../domain/changeReport.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { asList, truthy } from '../../domain/inputValues.ts';
import { toBugzillaDateTime } from '../../domain/time.ts';
import { errors } from '../../errors.ts';
import { loadAttachmentsById, putChangedAttachment, setCommentPrivacy } from '../../storage/bug/attachmentStore.ts';
import { commitBugWrite, loadBugs, loadComments, type StoredComment } from '../../storage/bug/bugStore.ts';
import { allocateIds } from '../../storage/counterStore.ts';
import type { NewAttachmentInput } from './attachmentCreation.ts';
import {
  assertMayEditBug,
  commentTextInput,
  editsAnyField,
  flagChange,
  flagRules,
  loginLookup,
} from './attachmentEditing.ts';
import { loadBugCatalog, resolveRequestees } from './bugContext.ts';
import { visibleBug } from './bugVisibility.ts';
import { withFreshReads } from './bugWriting.ts';
import { parseObjectId, withComment } from './comments.ts';

export interface AttachmentChangeInput extends Omit<NewAttachmentInput, 'data' | 'obsoletes'> {
  is_obsolete?: unknown;
}

type Changes = Record<string, { removed: string; added: string }>;

/** PUT /rest/bug/attachment/{attachment_id} (and `ids`): each attachment with its bug, in one transaction per attachment. */
export async function updateAttachments(caller: Caller, idValues: readonly unknown[], input: AttachmentChangeInput) {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  const ids = [...new Set(idValues.map((id) => parseObjectId(id, 'attachment id')))];
  if (ids.length === 0) throw errors.missingParameter('You must give the id of at least one attachment to change.');
  const bugCatalog = await loadBugCatalog();
  const { catalog } = bugCatalog;
  const { parameters } = catalog;
  const present = (key: keyof AttachmentChangeInput) => input[key] !== undefined && input[key] !== null;
  const wanted = {
    fileName: present('file_name') ? checkFileName(input.file_name) : undefined,
    summary: present('summary') ? checkSummary(input.summary) : undefined,
    isPatch: present('is_patch') ? truthy(input.is_patch) : undefined,
    contentType: present('content_type') ? checkContentType(input.content_type) : undefined,
    isPrivate: present('is_private') ? truthy(input.is_private) : undefined,
    isObsolete: present('is_obsolete') ? truthy(input.is_obsolete) : undefined,
  };
  const commentText = commentTextInput(input.comment);
  const isMarkdown = truthy(input.is_markdown);
  if (isMarkdown && parameters.markdown_enabled !== '1') throw errors.markdownDisabled();
  const flagInputs = asList(input.flags) as FlagInput[];
  const bugFlagInputs = asList(input.bug_flags) as FlagInput[];
  // Requestees with their groups: each must be able to see the bug (and a private attachment).
  const requestees = await resolveRequestees(catalog.groups, input.flags, input.bug_flags);
  const { userIds } = requestees;
  const perAttachmentFlags = flagInputs.length + bugFlagInputs.length;
  const [flagIds, commentIds] = await Promise.all([
    perAttachmentFlags > 0 ? allocateIds('flag', perAttachmentFlags * ids.length) : Promise.resolve([] as number[]),
    commentText.trim() !== '' ? allocateIds('comment', ids.length) : Promise.resolve([] as number[]),
  ]);
  const typeName = (id: number) => catalog.flagTypes.find((type) => type.id === id)?.name ?? '';

  const found = await loadAttachmentsById(ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw errors.attachmentNotFound(missing);

  const results: Array<{ id: number; last_change_time: string; changes: Changes }> = [];
  for (const [index, id] of ids.entries()) {
    results.push(
      await withFreshReads(async () => {
        const attachment = (await loadAttachmentsById([id])).get(id)!;
        const { bug, rev } = visibleBug(
          caller,
          (await loadBugs([attachment.bugId])).get(attachment.bugId),
          attachment.bugId,
          bugCatalog,
        );
        if (!maySeeAttachment(caller, parameters, attachment)) throw errors.privateAttachment(id);
        assertMayEditBug(caller, catalog, bug);
        if (!mayEditAttachment(caller, attachment, editsAnyField(caller, catalog, bug))) {
          throw errors.bugEditDenied(
            `You are not allowed to change attachment ${id}: only the person who attached it and users with editbugs rights may.`,
          );
        }
        if (
          wanted.isPrivate !== undefined &&
          wanted.isPrivate !== attachment.isPrivate &&
          !isInsider(caller, parameters)
        ) {
          throw errors.notInsider('You are not allowed to make attachments private or public.');
        }
        const now = toBugzillaDateTime(new Date());
        let nextFlag = index * perAttachmentFlags;
        const nextFlagId = () => flagIds[nextFlag++];
        const next: Attachment = { ...attachment };
        if (wanted.fileName !== undefined) next.fileName = wanted.fileName;
        if (wanted.summary !== undefined) next.summary = wanted.summary;
        if (wanted.isPatch !== undefined) next.isPatch = wanted.isPatch;
        if (wanted.contentType !== undefined) next.contentType = wanted.contentType;
        if (next.isPatch) next.contentType = PATCH_CONTENT_TYPE;
        if (wanted.isPrivate !== undefined) next.isPrivate = wanted.isPrivate;
        if (wanted.isObsolete !== undefined) next.isObsolete = wanted.isObsolete;
        if (flagInputs.length > 0) {
          // The attachment as this change leaves it: made private, its requestees must be insiders.
          const { rules, allTypes } = flagRules(caller, catalog, bug, next, requestees, now, nextFlagId);
          next.flags = applyFlagInputs(attachment.flags, flagInputs, rules, allTypes);
        }
        let nextBug: Bug = bug;
        if (bugFlagInputs.length > 0) {
          const { rules, allTypes } = flagRules(caller, catalog, bug, 'bug', requestees, now, nextFlagId);
          nextBug = { ...bug, flags: applyFlagInputs(bug.flags, bugFlagInputs, rules, allTypes) };
        }

        const changes: Changes = {};
        const history: HistoryChange[] = [];
        const note = (field: string, removed: string, added: string) => {
          if (removed === added) return;
          changes[field] = { removed, added };
          history.push({ field_name: HISTORY_FIELD[field], removed, added, attachment_id: id });
        };
        note('summary', attachment.summary, next.summary);
        note('file_name', attachment.fileName, next.fileName);
        note('content_type', attachment.contentType, next.contentType);
        note('is_patch', flagText(attachment.isPatch), flagText(next.isPatch));
        note('is_private', flagText(attachment.isPrivate), flagText(next.isPrivate));
        note('is_obsolete', flagText(attachment.isObsolete), flagText(next.isObsolete));
        const login = await loginLookup([...attachment.flags, ...next.flags, ...bug.flags, ...nextBug.flags], userIds);
        const attachmentFlags = flagChange(attachment.flags, next.flags, typeName, login);
        if (attachmentFlags) note('flagtypes.name', attachmentFlags.removed, attachmentFlags.added);
        const bugFlags = flagChange(bug.flags, nextBug.flags, typeName, login);
        if (bugFlags) history.push({ field_name: 'flagtypes.name', ...bugFlags });

        const comments: StoredComment[] = [];
        let privateDelta = 0;
        if (commentText.trim() !== '') {
          // A comment on a private attachment names its summary, so it is as private as the attachment.
          comments.push({
            id: commentIds[index],
            bugId: bug.id,
            count: bug.commentCount,
            creatorId: caller.user.id,
            rawText: commentText,
            isPrivate: next.isPrivate,
            isMarkdown,
            workTime: 0,
            creationTime: now,
            attachmentId: id,
            tags: [],
            commentType: 'attachment_updated',
            extraData: id,
          });
        }
        const privacyChanged = next.isPrivate !== attachment.isPrivate;
        if (privacyChanged) privateDelta = next.isPrivate ? 1 : -1;
        if (history.length === 0 && comments.length === 0)
          return { id, last_change_time: attachment.lastChangeTime, changes };

        next.lastChangeTime = now;
        let after: Bug = withAttachmentPrivacy(
          {
            ...nextBug,
            lastChangeTime: now,
            privateCommentCount: Math.max(0, (bug.privateCommentCount ?? 0) + privateDelta),
          },
          next,
        );
        if (comments.length > 0) after = { ...withComment(after, comments[0].isPrivate, 0, now).bug };
        // The search index replaces the bug's comment words when the creation comment changes privacy.
        const allComments = privacyChanged
          ? new Map([
              [
                bug.id,
                [
                  ...(await loadComments(bug.id)).map((comment) => ({
                    rawText: comment.rawText,
                    isPrivate: comment.count === attachment.creationCommentCount ? next.isPrivate : comment.isPrivate,
                  })),
                  ...comments,
                ],
              ],
            ])
          : undefined;
        await commitBugWrite({
          allComments,
          created: [],
          updated: [{ bug: after, rev, previousAlias: bug.alias }],
          comments,
          history: history.length > 0 ? [{ bugId: bug.id, when: now, whoId: caller.user.id, changes: history }] : [],
          extend: (transaction) => {
            putChangedAttachment(transaction, next);
            // The "Created attachment" comment shows the summary: it follows the attachment's privacy.
            if (privacyChanged) setCommentPrivacy(transaction, bug.id, attachment.creationCommentCount, next.isPrivate);
          },
        });
        return { id, last_change_time: now, changes };
      }),
    );
  }
  return { attachments: results };
}
