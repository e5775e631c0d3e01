import { createHash } from 'node:crypto';
import {
  type Attachment,
  attachmentView,
  checkContentType,
  checkFileName,
  checkSummary,
  decodeData,
  HISTORY_FIELD,
  MAX_RESPONSE_BASE64_BYTES,
  mayEditAttachment,
  maySeeAttachment,
  PATCH_CONTENT_TYPE,
} from '../../domain/bug/attachment.ts';
import {
  type Bug,
  type BugFlag,
  type HistoryChange,
  type HistoryEntry,
  MAX_COMMENT_LENGTH,
} from '../../domain/bug/bug.ts';
import { hasEditBugs, isInsider, mayEditProductBugs } from '../../domain/bug/bugAccess.ts';
import { listChange } from '../../domain/bug/bugChanges.ts';
import { applyFlagInputs, type FlagInput, flagLabel } from '../../domain/bug/bugFlags.ts';
import { appliesTo } from '../../domain/catalog/flagTypes.ts';
import { flagText } from '../../domain/changeReport.ts';
import type { FieldSelection } from '../../domain/fieldSelection.ts';
import { type Caller, inGroup, isLoggedIn, type UserAccount } from '../../domain/identity/caller.ts';
import { toBugzillaDateTime } from '../../domain/time.ts';
import {
  bodyKeyOf,
  deleteBody,
  getBody,
  listBodies,
  presignBody,
  putBody,
} from '../../storage/bug/attachmentBodies.ts';
import {
  existingAttachmentIds,
  loadAttachmentsById,
  loadAttachmentsOfBug,
  loadAttachmentWithBug,
  loadBugWithAttachments,
  putChangedAttachment,
  putNewAttachment,
  setCommentPrivacy,
} from '../../storage/bug/attachmentStore.ts';
import { commitBugWrite, loadBugs, loadComments, type StoredComment } from '../../storage/bug/bugStore.ts';
import { loadFlagTypes } from '../../storage/catalog/flagTypeStore.ts';
import { allocateIds } from '../../storage/counterStore.ts';
import { loginRequired, TrackerError } from '../../trackerError.ts';
import { groupNameIn } from '../catalog/catalogContext.ts';
import { type BugCatalog, loadBugCatalog, resolveLogins, usersById } from './bugContext.ts';
import { resolveBugId, visibleBug, visibleBugs, withFreshReads } from './bugs.ts';
import { parseObjectId, visibilityContext, withComment } from './comments.ts';

/**
 * Attachments: create, read, change and download them (docs/data-model.md §3 and §7.2).
 *
 * Order of writes on create: the body goes to S3 first, then one DynamoDB transaction writes the
 * metadata, the comment and the bug. If the transaction fails, the bodies just written are
 * deleted; if the process dies in between, the body is an orphan that `sweepOrphanBodies`
 * removes. Metadata is never written for a body that is not there.
 */

type Catalog = BugCatalog['catalog'];
const asList = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value];
const truthy = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';

/** Logins named as flag requestees. */
function requesteesIn(...lists: unknown[]): string[] {
  return [
    ...new Set(
      lists
        .flatMap(asList)
        .map((flag) => (flag && typeof flag === 'object' ? (flag as Record<string, unknown>).requestee : undefined))
        .filter((login): login is string => typeof login === 'string' && login.trim() !== '')
        .map((login) => login.trim()),
    ),
  ];
}

function flagRules(
  caller: Caller & { user: UserAccount },
  catalog: Catalog,
  bug: Bug,
  target: 'bug' | 'attachment',
  userIds: ReadonlyMap<string, number>,
  now: string,
  nextFlagId: () => number,
) {
  const ofTarget = catalog.flagTypes.filter((type) => type.targetType === target);
  const groupName = groupNameIn(catalog);
  return {
    rules: {
      types: ofTarget.filter((type) => appliesTo(type, bug.productId, bug.componentId)),
      callerId: caller.user.id,
      inGroupId: (groupId: number) => inGroup(caller, groupName(groupId) ?? ''),
      userIdOf: (login: string) => userIds.get(login.trim().toLowerCase()),
      now,
      nextFlagId,
    },
    allTypes: ofTarget,
  };
}

/** Bugzilla's `flagtypes.name` change: the labels of the flags that went and that came. */
function flagChange(
  before: readonly BugFlag[],
  after: readonly BugFlag[],
  typeName: (id: number) => string,
  login: (id: number) => string,
): { removed: string; added: string } | undefined {
  const label = (flag: BugFlag) => flagLabel(flag, typeName, login);
  return listChange(before.map(label), after.map(label));
}

/** Logins of everyone a set of flags names, plus the ones the request named. */
async function loginLookup(
  flags: readonly BugFlag[],
  named: ReadonlyMap<string, number>,
): Promise<(id: number) => string> {
  const byId = new Map<number, string>([...named].map(([login, id]) => [id, login]));
  const missing = [
    ...new Set(
      flags
        .flatMap((flag) => [flag.setterId, flag.requesteeId])
        .filter((id): id is number => id !== null && !byId.has(id)),
    ),
  ];
  if (missing.length > 0) for (const [id, user] of await usersById(missing)) byId.set(id, user.login);
  return (id: number) => byId.get(id) ?? '';
}

function commentTextInput(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new TrackerError(32000, 'The comment must be text.');
  if (value.length > MAX_COMMENT_LENGTH)
    throw new TrackerError(114, `The comment is too long: at most ${MAX_COMMENT_LENGTH} characters.`);
  return value;
}

function assertMayEditBug(caller: Caller, catalog: Catalog, bug: Bug): void {
  const record = catalog.products.find((candidate) => candidate.product.id === bug.productId);
  if (!record || !mayEditProductBugs(caller, record, groupNameIn(catalog)))
    throw new TrackerError(109, `You are not allowed to change bug ${bug.id}.`);
}

const editsAnyField = (caller: Caller, catalog: Catalog, bug: Bug): boolean => {
  const record = catalog.products.find((candidate) => candidate.product.id === bug.productId);
  return !!record && hasEditBugs(caller, record, groupNameIn(catalog));
};

// ---- creating --------------------------------------------------------------------------------

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

/** POST /rest/bug/{id}/attachment (and `ids`): the same file on every bug named; answers the new ids. */
export async function createAttachments(
  caller: Caller,
  references: ReadonlyArray<string | number>,
  input: NewAttachmentInput,
): Promise<{ ids: number[] }> {
  if (!isLoggedIn(caller)) throw loginRequired();
  const bugCatalog = await loadBugCatalog();
  const { catalog } = bugCatalog;
  const { parameters } = catalog;
  const targets = await visibleBugs(caller, references, bugCatalog);
  if (targets.length === 0)
    throw new TrackerError(50, 'You must give the id or alias of the bug to attach the file to.');
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
    throw new TrackerError(113, 'You are not allowed to make attachments private.');
  if (isMarkdown && parameters.markdown_enabled !== '1')
    throw new TrackerError(140, 'Markdown is disabled on this installation.');
  const obsoletes = asList(input.obsoletes).map((id) => parseObjectId(id, 'attachment id in obsoletes'));
  const flagInputs = asList(input.flags) as FlagInput[];
  const bugFlagInputs = asList(input.bug_flags) as FlagInput[];
  const userIds = await resolveLogins(requesteesIn(input.flags, input.bug_flags));
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
    const attachmentFlags = flagRules(caller, catalog, bug, 'attachment', userIds, now, nextFlagId);
    const flags = applyFlagInputs([], flagInputs, attachmentFlags.rules, attachmentFlags.allTypes);
    const bugFlags = flagRules(caller, catalog, bug, 'bug', userIds, now, nextFlagId);
    const newBugFlags =
      bugFlagInputs.length > 0
        ? applyFlagInputs(bug.flags, bugFlagInputs, bugFlags.rules, bugFlags.allTypes)
        : bug.flags;
    const obsoleted: Attachment[] = [];
    for (const id of obsoletes) {
      const old = existing.find((attachment) => attachment.id === id);
      if (!old) {
        if (targets.length === 1)
          throw new TrackerError(
            32000,
            `Attachment ${id} is not an attachment of bug ${bug.id}, so it cannot be made obsolete by this one.`,
          );
        continue;
      }
      if (
        !maySeeAttachment(caller, parameters, old) ||
        !mayEditAttachment(caller, old, editsAnyField(caller, catalog, bug))
      ) {
        throw new TrackerError(109, `You are not allowed to make attachment ${id} obsolete.`);
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
      bug: { ...next, attachmentCount: bug.attachmentCount + 1, flags: newBugFlags },
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

// ---- reading ---------------------------------------------------------------------------------

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
  const bugIds = [...new Set(await Promise.all(request.bugs.map(resolveBugId)))];
  // One attachment alone (what clients ask most) comes with its bug in two round trips.
  const [withAttachments, single, several] = await Promise.all([
    Promise.all(bugIds.map(loadBugWithAttachments)),
    attachmentIds.length === 1 ? loadAttachmentWithBug(attachmentIds[0]) : Promise.resolve(undefined),
    attachmentIds.length > 1 ? loadAttachmentsById(attachmentIds) : Promise.resolve(new Map<number, Attachment>()),
  ]);
  const byId = single ? new Map([[single.attachment.id, single.attachment]]) : several;
  const bugs = bugIds.map((id, index) => ({
    ...visibleBug(caller, withAttachments[index].stored, id, context),
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
    if (!maySeeAttachment(caller, parameters, attachment))
      throw new TrackerError(
        304,
        `Sorry, you are not authorized to access attachment ${attachment.id}: it is private.`,
      );
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
      throw new TrackerError(
        600,
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

// ---- changing --------------------------------------------------------------------------------

export interface AttachmentChangeInput extends Omit<NewAttachmentInput, 'data' | 'obsoletes'> {
  is_obsolete?: unknown;
}

type Changes = Record<string, { removed: string; added: string }>;

/** PUT /rest/bug/attachment/{attachment_id} (and `ids`): each attachment with its bug, in one transaction per attachment. */
export async function updateAttachments(caller: Caller, idValues: readonly unknown[], input: AttachmentChangeInput) {
  if (!isLoggedIn(caller)) throw loginRequired();
  const ids = [...new Set(idValues.map((id) => parseObjectId(id, 'attachment id')))];
  if (ids.length === 0) throw new TrackerError(50, 'You must give the id of at least one attachment to change.');
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
  if (isMarkdown && parameters.markdown_enabled !== '1')
    throw new TrackerError(140, 'Markdown is disabled on this installation.');
  const flagInputs = asList(input.flags) as FlagInput[];
  const bugFlagInputs = asList(input.bug_flags) as FlagInput[];
  const userIds = await resolveLogins(requesteesIn(input.flags, input.bug_flags));
  const perAttachmentFlags = flagInputs.length + bugFlagInputs.length;
  const [flagIds, commentIds] = await Promise.all([
    perAttachmentFlags > 0 ? allocateIds('flag', perAttachmentFlags * ids.length) : Promise.resolve([] as number[]),
    commentText.trim() !== '' ? allocateIds('comment', ids.length) : Promise.resolve([] as number[]),
  ]);
  const typeName = (id: number) => catalog.flagTypes.find((type) => type.id === id)?.name ?? '';

  const found = await loadAttachmentsById(ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw new TrackerError(32000, `There is no attachment with the id ${missing}.`);

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
        if (!maySeeAttachment(caller, parameters, attachment))
          throw new TrackerError(304, `Sorry, you are not authorized to access attachment ${id}: it is private.`);
        assertMayEditBug(caller, catalog, bug);
        if (!mayEditAttachment(caller, attachment, editsAnyField(caller, catalog, bug))) {
          throw new TrackerError(
            109,
            `You are not allowed to change attachment ${id}: only the person who attached it and users with editbugs rights may.`,
          );
        }
        if (
          wanted.isPrivate !== undefined &&
          wanted.isPrivate !== attachment.isPrivate &&
          !isInsider(caller, parameters)
        ) {
          throw new TrackerError(113, 'You are not allowed to make attachments private or public.');
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
          const { rules, allTypes } = flagRules(caller, catalog, bug, 'attachment', userIds, now, nextFlagId);
          next.flags = applyFlagInputs(attachment.flags, flagInputs, rules, allTypes);
        }
        let nextBug: Bug = bug;
        if (bugFlagInputs.length > 0) {
          const { rules, allTypes } = flagRules(caller, catalog, bug, 'bug', userIds, now, nextFlagId);
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
        let after: Bug = {
          ...nextBug,
          lastChangeTime: now,
          privateCommentCount: Math.max(0, (bug.privateCommentCount ?? 0) + privateDelta),
        };
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

// ---- downloading -----------------------------------------------------------------------------

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
  if (!found) throw new TrackerError(32000, `There is no attachment with the id ${id}.`);
  const { attachment, stored } = found;
  visibleBug(caller, stored, attachment.bugId, context);
  if (!maySeeAttachment(caller, context.parameters, attachment))
    throw new TrackerError(304, `Sorry, you are not authorized to access attachment ${id}: it is private.`);
  const url = await presignBody(attachment.bodyKey, attachment.fileName, attachment.contentType, DOWNLOAD_URL_SECONDS);
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

// ---- the sweep -------------------------------------------------------------------------------

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
