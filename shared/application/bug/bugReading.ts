import { attachmentView, maySeeAttachment } from '../../domain/bug/attachment.ts';
import type { Bug, HistoryEntry } from '../../domain/bug/bug.ts';
import { mergeHistory } from '../../domain/bug/bugChanges.ts';
import { commentText, mayReadComment } from '../../domain/bug/bugComments.ts';
import { bugView } from '../../domain/bug/bugView.ts';
import { type ActivityViewer, activityViewer, mayViewChange } from '../../domain/bug/privateActivity.ts';
import type { FieldSelection } from '../../domain/fieldSelection.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { loadAttachmentsOfBug } from '../../storage/bug/attachmentStore.ts';
import {
  loadBugs,
  loadComment,
  loadComments,
  loadHistory,
  type StoredBug,
  type StoredComment,
} from '../../storage/bug/bugStore.ts';
import { TrackerError } from '../../trackerError.ts';
import { bugViewContext, loadBugCatalog, updateToken, userIdsOf, usersById } from './bugContext.ts';
import { referencesById, resolveBugId, resolveBugReferences, visibleBug } from './bugVisibility.ts';

/** Reading bugs: Get Bug's rendering and a bug's history (docs/data-model.md §3). */
export interface CommentView {
  id: number;
  bug_id: number;
  attachment_id: number | null;
  count: number;
  text: string;
  raw_text: string;
  creator: string;
  creation_time: string;
  time: string;
  is_private: boolean;
  is_markdown: boolean;
  tags: string[];
}

export function commentView(
  comment: StoredComment,
  login: (id: number) => string,
  attachmentSummary?: (attachmentId: number) => string | undefined,
): CommentView {
  return {
    id: comment.id,
    bug_id: comment.bugId,
    attachment_id: comment.attachmentId ?? null,
    count: comment.count,
    text: commentText(comment, attachmentSummary),
    raw_text: comment.rawText,
    creator: login(comment.creatorId),
    creation_time: comment.creationTime,
    time: comment.creationTime,
    is_private: comment.isPrivate,
    is_markdown: comment.isMarkdown,
    tags: comment.tags ?? [],
  };
}

/**
 * A bug's history as this viewer may see it (privateActivity.ts): changes about its private
 * attachments and comments' privacy only for insiders, time-tracking changes only for the
 * time-tracking group. An entry left with no change is left out.
 */
export function historyView(
  bug: Pick<Bug, 'privateAttachments' | 'attachmentCount'>,
  entries: readonly HistoryEntry[],
  login: (id: number) => string,
  viewer: ActivityViewer,
  newSince?: string,
) {
  const since = newSince ? Date.parse(newSince) : undefined;
  return mergeHistory(entries)
    .filter((entry) => since === undefined || Date.parse(entry.when) > since)
    .map((entry) => ({
      when: entry.when,
      who: login(entry.whoId),
      changes: entry.changes.filter((change) => mayViewChange(viewer, bug, change)),
    }))
    .filter((entry) => entry.changes.length > 0);
}

/** Rendered bugs (or faults) for ids and aliases, in the order asked. */
export async function getBugs(
  caller: Caller,
  references: ReadonlyArray<string | number>,
  fields: FieldSelection,
  /** `load` replaces the table read (a search page may come from its instance's copies). */
  options: { permissive?: boolean; load?: (ids: readonly number[]) => Promise<Map<number, StoredBug>> } = {},
) {
  const faults: Array<{ id: string | number; faultString: string; faultCode: number }> = [];
  const failed = (reference: string | number, error: unknown) => {
    if (!(error instanceof TrackerError) || !options.permissive) throw error;
    faults.push({ id: reference, faultString: error.message, faultCode: error.code });
  };
  // The catalogue and the bugs are read side by side: one round trip before the users' batch.
  const ids = await Promise.all(
    references.map((reference) =>
      resolveBugId(reference).catch((error) => {
        failed(reference, error);
        return null;
      }),
    ),
  );
  // Each bug once, with what the caller named it by: an error repeats that, never a hidden alias's number.
  const named = referencesById(references, ids);
  const wanted = [...named.keys()];
  const [bugCatalog, stored] = await Promise.all([loadBugCatalog(), (options.load ?? loadBugs)(wanted)]);
  const bugs: Bug[] = [];
  for (const [id, reference] of named) {
    try {
      bugs.push(visibleBug(caller, stored.get(id), id, bugCatalog, reference).bug);
    } catch (error) {
      // A bug asked for by its number keeps a numeric id in its fault; by alias, the alias.
      failed(String(reference).trim() === String(id) ? id : reference, error);
    }
  }
  const extras = {
    description: fields.wants('description', 'extra'),
    comments: fields.wants('comments', 'extra'),
    history: fields.wants('history', 'extra'),
    attachments: fields.wants('attachments', 'extra'),
  };
  const [users, extraData] = await Promise.all([
    usersById(userIdsOf(bugs, bugCatalog.catalog)),
    Promise.all(
      bugs.map(async (bug) => ({
        comments: extras.comments
          ? await loadComments(bug.id)
          : extras.description
            ? [await loadComment(bug.id, 0)].filter((comment): comment is StoredComment => comment !== null)
            : [],
        history: extras.history ? await loadHistory(bug.id) : [],
        // Attachments (metadata, never bodies) serve the `attachments` field and the summaries that attachment comments show.
        attachments:
          (extras.comments || extras.attachments) && bug.attachmentCount > 0 ? await loadAttachmentsOfBug(bug.id) : [],
      })),
    ),
  ]);
  const extraUserIds = extraData
    .flatMap((data) => [
      ...data.comments.map((comment) => comment.creatorId),
      ...data.history.map((entry) => entry.whoId),
      ...data.attachments.flatMap((attachment) => [
        attachment.creatorId,
        ...attachment.flags.flatMap((flag) => [
          flag.setterId,
          ...(flag.requesteeId === null ? [] : [flag.requesteeId]),
        ]),
      ]),
    ])
    .filter((id) => !users.has(id));
  if (extraUserIds.length > 0) for (const [id, user] of await usersById(extraUserIds)) users.set(id, user);
  const context = bugViewContext(caller, bugCatalog, users);
  const login = (id: number) => users.get(id)?.login ?? '';
  const parameters = bugCatalog.catalog.parameters;
  const wantsToken = fields.wants('update_token');
  const views = bugs.map((bug, index) => {
    const { comments, history, attachments } = extraData[index];
    const summaries = new Map(attachments.map((attachment) => [attachment.id, attachment.summary]));
    const readable = comments.filter((comment) => mayReadComment(caller, parameters, comment));
    // An HMAC per bug: only when the caller will get it (a 1,000-bug search page rarely asks).
    return bugView(
      bug,
      { ...context, updateToken: isLoggedIn(caller) && wantsToken ? updateToken(caller.user.id, bug) : undefined },
      {
        // A private description is text like any private comment: only insiders read it.
        description: extras.description
          ? commentText(readable.find((comment) => comment.count === 0) ?? { rawText: '' })
          : undefined,
        comments: extras.comments
          ? readable.map((comment) => commentView(comment, login, (id) => summaries.get(id)))
          : undefined,
        history: extras.history ? historyView(bug, history, login, activityViewer(caller, parameters)) : undefined,
        attachments: extras.attachments
          ? attachments
              .filter((attachment) => maySeeAttachment(caller, parameters, attachment))
              .map((attachment) => attachmentView(caller, attachment, users, context.flagTypeName, undefined))
          : undefined,
      },
    );
  });
  return { faults, bugs: views };
}

/** GET /rest/bug/{id}/history. */
export async function getBugHistory(caller: Caller, references: ReadonlyArray<string | number>, newSince?: string) {
  const bugCatalog = await loadBugCatalog();
  const named = await resolveBugReferences(references);
  const stored = await loadBugs([...named.keys()]);
  const bugs = [...named].map(([id, reference]) => visibleBug(caller, stored.get(id), id, bugCatalog, reference).bug);
  const histories = await Promise.all(bugs.map((bug) => loadHistory(bug.id)));
  const users = await usersById([...new Set(histories.flat().map((entry) => entry.whoId))]);
  const login = (id: number) => users.get(id)?.login ?? '';
  const viewer = activityViewer(caller, bugCatalog.catalog.parameters);
  return {
    bugs: bugs.map((bug, index) => ({
      id: bug.id,
      alias: bug.alias,
      history: historyView(bug, histories[index], login, viewer, newSince),
    })),
  };
}
