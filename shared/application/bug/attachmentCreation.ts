/**
 * Creating attachments (docs/data-model.md §3 and §7.2). Order of writes: the body goes to S3
 * first, then one DynamoDB transaction writes the metadata, the comment and the bug. If the
 * transaction fails, the bodies just written are deleted; if the process dies in between, the body
 * is an orphan that `sweepOrphanBodies` removes. Metadata is never written for a body that is not there.
 */
import { createHash } from 'node:crypto';
import {
  type Attachment,
  checkContentType,
  checkFileName,
  checkSummary,
  decodeData,
  HISTORY_FIELD,
  mayEditAttachment,
  maySeeAttachment,
  PATCH_CONTENT_TYPE,
} from '../../domain/bug/attachment.ts';
import type { Bug, HistoryChange, HistoryEntry } from '../../domain/bug/bug.ts';
import { isInsider } from '../../domain/bug/bugAccess.ts';
import { applyFlagInputs, type FlagInput } from '../../domain/bug/bugFlags.ts';
import { withAttachmentPrivacy } from '../../domain/bug/privateActivity.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { asList, truthy } from '../../domain/inputValues.ts';
import { toBugzillaDateTime } from '../../domain/time.ts';
import { errors } from '../../errors.ts';
import { bodyKeyOf, deleteBody, putBody } from '../../storage/bug/attachmentBodies.ts';
import { loadAttachmentsOfBug, putChangedAttachment, putNewAttachment } from '../../storage/bug/attachmentStore.ts';
import { commitBugWrite, loadBugs, type StoredComment } from '../../storage/bug/bugStore.ts';
import { allocateIds } from '../../storage/counterStore.ts';
import {
  assertMayEditBug,
  commentTextInput,
  editsAnyField,
  flagChange,
  flagRules,
  loginLookup,
} from './attachmentEditing.ts';
import { loadBugCatalog, resolveRequestees } from './bugContext.ts';
import { visibleBug, visibleBugs } from './bugVisibility.ts';
import { withFreshReads } from './bugWriting.ts';
import { parseObjectId, withComment } from './comments.ts';

export interface NewAttachmentInput {
  data?: unknown;
  file_name?: unknown;
  summary?: unknown;
  content_type?: unknown;
  comment?: unknown;
  is_patch?: unknown;
  is_private?: unknown;
  is_markdown?: unknown;
  obsoletes?: unknown;
  flags?: unknown;
  bug_flags?: unknown;
}

/** POST /rest/bug/{id}/attachment: the same file on every bug named (the path names one); answers the new ids. */
export async function createAttachments(
  caller: Caller,
  references: ReadonlyArray<string | number>,
  input: NewAttachmentInput,
): Promise<{ ids: number[] }> {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  const bugCatalog = await loadBugCatalog();
  const { catalog } = bugCatalog;
  const { parameters } = catalog;
  const targets = await visibleBugs(caller, references, bugCatalog);
  if (targets.length === 0)
    throw errors.missingParameter('You must give the id or alias of the bug to attach the file to.');
  for (const { bug } of targets) assertMayEditBug(caller, catalog, bug);

  const bytes = decodeData(input.data, parameters);
  const fileName = checkFileName(input.file_name);
  const summary = checkSummary(input.summary);
  const isPatch = truthy(input.is_patch);
  const contentType = isPatch ? PATCH_CONTENT_TYPE : checkContentType(input.content_type);
  const isPrivate = truthy(input.is_private);
  const isMarkdown = truthy(input.is_markdown);
  const commentText = commentTextInput(input.comment);
  if (isPrivate && !isInsider(caller, parameters))
    throw errors.notInsider('You are not allowed to make attachments private.');
  if (isMarkdown && parameters.markdown_enabled !== '1') throw errors.markdownDisabled();
  const obsoletes = asList(input.obsoletes).map((id) => parseObjectId(id, 'attachment id in obsoletes'));
  const flagInputs = asList(input.flags) as FlagInput[];
  const bugFlagInputs = asList(input.bug_flags) as FlagInput[];
  // Requestees with their groups: each must be able to see the bug (and a private attachment).
  const requestees = await resolveRequestees(catalog.groups, input.flags, input.bug_flags);
  const { userIds } = requestees;
  const sha256 = createHash('sha256').update(bytes).digest('hex');

  const perBugFlags = flagInputs.length + bugFlagInputs.length;
  const [attachmentIds, commentIds, flagIds] = await Promise.all([
    allocateIds('attachment', targets.length),
    allocateIds('comment', targets.length),
    perBugFlags > 0 ? allocateIds('flag', perBugFlags * targets.length) : Promise.resolve([] as number[]),
  ]);

  /** Everything one bug's share of the write is, computed from the bug as last read. */
  const plan = (bug: Bug, existing: readonly Attachment[], index: number, now: string) => {
    let nextFlag = index * perBugFlags;
    const nextFlagId = () => flagIds[nextFlag++];
    const attachmentFlags = flagRules(
      caller,
      catalog,
      bug,
      { id: attachmentIds[index], isPrivate },
      requestees,
      now,
      nextFlagId,
    );
    const flags = applyFlagInputs([], flagInputs, attachmentFlags.rules, attachmentFlags.allTypes);
    const bugFlags = flagRules(caller, catalog, bug, 'bug', requestees, now, nextFlagId);
    const newBugFlags =
      bugFlagInputs.length > 0
        ? applyFlagInputs(bug.flags, bugFlagInputs, bugFlags.rules, bugFlags.allTypes)
        : bug.flags;
    const obsoleted: Attachment[] = [];
    for (const id of obsoletes) {
      const old = existing.find((attachment) => attachment.id === id);
      if (!old) {
        if (targets.length === 1)
          throw errors.invalidParameter(
            `Attachment ${id} is not an attachment of bug ${bug.id}, so it cannot be made obsolete by this one.`,
          );
        continue;
      }
      if (
        !maySeeAttachment(caller, parameters, old) ||
        !mayEditAttachment(caller, old, editsAnyField(caller, catalog, bug))
      ) {
        throw errors.bugEditDenied(`You are not allowed to make attachment ${id} obsolete.`);
      }
      if (!old.isObsolete) obsoleted.push({ ...old, isObsolete: true, lastChangeTime: now });
    }
    const attachment: Attachment = {
      id: attachmentIds[index],
      bugId: bug.id,
      fileName,
      summary,
      contentType,
      size: bytes.length,
      isPatch,
      isPrivate,
      isObsolete: false,
      creatorId: caller.user.id,
      creationTime: now,
      lastChangeTime: now,
      sha256,
      bodyKey: bodyKeyOf(bug.id, attachmentIds[index]),
      creationCommentCount: bug.commentCount,
      flags,
    };
    const comment: StoredComment = {
      id: commentIds[index],
      bugId: bug.id,
      count: bug.commentCount,
      creatorId: caller.user.id,
      rawText: commentText,
      isPrivate,
      isMarkdown,
      workTime: 0,
      creationTime: now,
      attachmentId: attachment.id,
      tags: [],
      commentType: 'attachment_created',
      extraData: attachment.id,
    };
    const next = withComment(bug, isPrivate, 0, now).bug;
    return {
      attachment,
      comment,
      obsoleted,
      bug: withAttachmentPrivacy({ ...next, attachmentCount: bug.attachmentCount + 1, flags: newBugFlags }, attachment),
    };
  };

  // Every rule is checked once before the upload, so a refused request leaves nothing in S3.
  const existingOf = async (bug: Bug) => (obsoletes.length > 0 ? loadAttachmentsOfBug(bug.id) : []);
  const now = toBugzillaDateTime(new Date());
  await Promise.all(targets.map(async ({ bug }, index) => plan(bug, await existingOf(bug), index, now)));

  const uploaded: string[] = [];
  try {
    await Promise.all(
      targets.map(async ({ bug }, index) => {
        const key = bodyKeyOf(bug.id, attachmentIds[index]);
        await putBody(key, bytes, contentType, sha256);
        uploaded.push(key);
      }),
    );
    await withFreshReads(async () => {
      const stored = await loadBugs(targets.map(({ bug }) => bug.id));
      const writeTime = toBugzillaDateTime(new Date());
      const updated: Array<{ bug: Bug; rev: number; previousAlias: string | null }> = [];
      const comments: StoredComment[] = [];
      const history: HistoryEntry[] = [];
      const attachments: Attachment[] = [];
      const obsoleted: Attachment[] = [];
      for (const [
        index,
        {
          bug: { id },
        },
      ] of targets.entries()) {
        const { bug, rev } = visibleBug(caller, stored.get(id), id, bugCatalog);
        const share = plan(bug, await existingOf(bug), index, writeTime);
        updated.push({ bug: share.bug, rev, previousAlias: bug.alias });
        comments.push(share.comment);
        attachments.push(share.attachment);
        obsoleted.push(...share.obsoleted);
        const changes: HistoryChange[] = share.obsoleted.map((old) => ({
          field_name: HISTORY_FIELD.is_obsolete,
          removed: '0',
          added: '1',
          attachment_id: old.id,
        }));
        const login = await loginLookup([...bug.flags, ...share.bug.flags], userIds);
        const bugFlagChange = flagChange(
          bug.flags,
          share.bug.flags,
          (typeId) => catalog.flagTypes.find((type) => type.id === typeId)?.name ?? '',
          login,
        );
        if (bugFlagChange) changes.push({ field_name: 'flagtypes.name', ...bugFlagChange });
        if (changes.length > 0) history.push({ bugId: id, when: writeTime, whoId: caller.user.id, changes });
      }
      await commitBugWrite({
        created: [],
        updated,
        comments,
        history,
        extend: (transaction) => {
          for (const attachment of attachments) putNewAttachment(transaction, attachment);
          for (const old of obsoleted) putChangedAttachment(transaction, old);
        },
      });
    });
  } catch (error) {
    // The metadata never landed: take the bodies back so nothing is left unreferenced.
    await Promise.allSettled(uploaded.map((key) => deleteBody(key)));
    throw error;
  }
  return { ids: attachmentIds };
}
