import { createHash } from 'node:crypto';
import type { Attachment } from '../../../shared/domain/bug/attachment.ts';
import type { Bug, BugFlag, FlagStatus, HistoryChange, HistoryEntry } from '../../../shared/domain/bug/bug.ts';
import { toBugzillaDateTime } from '../../../shared/domain/time.ts';
import type { StoredComment } from '../../../shared/storage/bug/bugStore.ts';
import type { BugBundle, BugRecord, FlagRecord } from '../source/index.ts';
import {
  type Cleaned,
  cleanAliases,
  cleanAttachmentSummary,
  cleanBugSummary,
  cleanBugUrl,
  cleanCommentTags,
  cleanContentType,
  cleanFileName,
  cleanSeeAlso,
  cleanWhiteboard,
  commentTooLong,
} from './cleanValues.ts';
import type { IdMaps } from './idMaps.ts';

/**
 * One source bug with its comments, history and attachments as Tracker keeps them (bug.ts,
 * attachment.ts): the source's ids and times, names turned into the target's ids (IdMaps).
 * Pure: what cannot be mapped is handed to `problem` (the report's skipped list) and left out,
 * never guessed; a value the API would not take is cleaned as it would be, or left out, and
 * handed to `cleaned` (cleanValues.ts); except a person the target does not know, who becomes the importing account
 * (a bug must have an assignee and a reporter).
 */
export interface ConvertedBug {
  bug: Bug;
  product: string;
  comments: StoredComment[];
  history: HistoryEntry[];
  attachments: Attachment[];
  bodies: Array<{ key: string; data: Buffer; contentType: string; sha256: string }>;
}

export interface ConvertContext {
  ids: IdMaps;
  /** The importing account's id in the target (personal tags, stand-in for unknown people). */
  accountId: number;
  /** S3 key of an attachment body (storage builds it). */
  bodyKey(bugId: number, attachmentId: number): string;
  /** Harmony/BMO names history fields as its database does (historyFields.ts). */
  historyField(name: string): string;
  problem(kind: string, what: string, reason: string): void;
  /** A value stored otherwise than the source has it, to pass the API's rules (cleanValues.ts). */
  cleaned?(kind: string, what: string, note: string): void;
  /** A bug left out because groups that restrict it were not imported (it would have become more visible). */
  restrictedLeftOut?(bugId: number, groups: string[]): void;
}

/** Bugzilla's wire time, whole seconds in UTC, whatever form the source sent. */
export const wireTime = (value: string): string => {
  const ms = Date.parse(value.includes('T') || value.includes('Z') ? value : `${value.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? toBugzillaDateTime(new Date(ms)) : value;
};

const FLAG_STATUSES: readonly string[] = ['?', '+', '-'];

export function convertBug(
  record: BugRecord,
  bundle: Pick<BugBundle, 'comments' | 'history' | 'attachments'>,
  context: ConvertContext,
): ConvertedBug | null {
  const { ids, problem } = context;
  const where = `bug ${record.id}`;
  const productId = ids.productId(record.product);
  const componentId = productId === undefined ? undefined : ids.componentId(productId, record.component);
  if (productId === undefined || componentId === undefined) {
    problem(
      'bug',
      String(record.id),
      `its product or component (${record.product} / ${record.component}) was not imported`,
    );
    return null;
  }
  // A bug keeps every group that restricts it, or is not imported: never more visible than on the source.
  const lostGroups = record.groups.filter((name) => ids.groupId(name) === undefined);
  if (lostGroups.length > 0) {
    problem(
      'bug',
      String(record.id),
      `restricted to groups that were not imported (${lostGroups.join(', ')}): left out, so that it does not become visible to more people`,
    );
    context.restrictedLeftOut?.(record.id, lostGroups);
    return null;
  }
  const person = (login: string, role: string): number => {
    const id = ids.userId(login);
    if (id !== undefined) return id;
    problem('person', `${login} (${where}, ${role})`, 'not a user of the target: the importing account stands in');
    return context.accountId;
  };
  const optionalPerson = (login: string | null, role: string) => (login ? person(login, role) : null);
  const namedIds = (names: readonly string[], lookup: (name: string) => number | undefined, kind: string) =>
    names.flatMap((name) => {
      const id = lookup(name);
      if (id === undefined) problem(kind, `${name} (${where})`, `no ${kind} of that name was imported`);
      return id === undefined ? [] : [id];
    });
  const flag = (source: FlagRecord, on: string): BugFlag[] => {
    if (!FLAG_STATUSES.includes(source.status)) {
      problem('flag', `${source.id} (${on})`, `status ${source.status} is not ?, + or -`);
      return [];
    }
    return [
      {
        id: source.id,
        typeId: source.typeId,
        status: source.status as FlagStatus,
        setterId: person(source.setter, `setter of flag ${source.id}`),
        requesteeId: optionalPerson(source.requestee, `requestee of flag ${source.id}`),
        creationDate: wireTime(source.creationDate),
        modificationDate: wireTime(source.modificationDate),
      },
    ];
  };

  const clean = <T>(kind: string, what: string, result: Cleaned<T>): T => {
    if (result.note) context.cleaned?.(kind, what, result.note);
    return result.value;
  };
  const cleanList = <T>(kind: string, what: string, result: { value: T; notes: string[] }): T => {
    for (const note of result.notes) context.cleaned?.(kind, what, note);
    return result.value;
  };
  const alias = cleanList('alias', where, cleanAliases(record.alias));
  const comments = (bundle.comments.get(record.id) ?? []).flatMap((comment): StoredComment[] => {
    const tooLong = commentTooLong(comment.rawText);
    if (tooLong) {
      problem('comment', `${comment.id} (${where})`, tooLong);
      return [];
    }
    return [
      {
        id: comment.id,
        bugId: record.id,
        count: comment.count,
        creatorId: person(comment.creator, `author of comment ${comment.id}`),
        rawText: comment.rawText,
        isPrivate: comment.isPrivate,
        isMarkdown: comment.isMarkdown,
        workTime: 0,
        creationTime: wireTime(comment.creationTime),
        ...(comment.kind === 'normal' ? {} : { commentType: comment.kind, extraData: comment.extraData ?? undefined }),
        attachmentId: comment.attachmentId,
        tags: cleanList('comment tag', `comment ${comment.id} (${where})`, cleanCommentTags(comment.tags)),
      },
    ];
  });
  const creationComment = new Map(
    comments
      .filter((comment) => comment.commentType === 'attachment_created')
      .map((comment) => [comment.extraData, comment.count]),
  );
  const bodies: ConvertedBug['bodies'] = [];
  const attachments = (bundle.attachments.get(record.id) ?? []).flatMap((source): Attachment[] => {
    if (source.data === null) {
      problem('attachment', `${source.id} (${where})`, 'its body could not be read');
      return [];
    }
    const bodyKey = context.bodyKey(record.id, source.id);
    const sha256 = createHash('sha256').update(source.data).digest('hex');
    const about = `${source.id} (${where})`;
    const fileName = clean('attachment', about, cleanFileName(source.fileName));
    const contentType = clean('attachment', about, cleanContentType(source.contentType));
    bodies.push({ key: bodyKey, data: source.data, contentType, sha256 });
    return [
      {
        id: source.id,
        bugId: record.id,
        fileName,
        summary: clean('attachment', about, cleanAttachmentSummary(source.summary, fileName)),
        contentType,
        size: source.data.length,
        isPatch: source.isPatch,
        isPrivate: source.isPrivate,
        isObsolete: source.isObsolete,
        creatorId: person(source.creator, `attacher of ${source.id}`),
        creationTime: wireTime(source.creationTime),
        lastChangeTime: wireTime(source.lastChangeTime),
        sha256,
        bodyKey,
        creationCommentCount: creationComment.get(source.id) ?? -1,
        flags: source.flags.flatMap((entry) => flag(entry, `attachment ${source.id}`)),
      },
    ];
  });
  const history = (bundle.history.get(record.id) ?? []).map(
    (entry): HistoryEntry => ({
      bugId: record.id,
      when: wireTime(entry.when),
      whoId: person(entry.who, 'history'),
      changes: entry.changes.map((change): HistoryChange => {
        const converted: HistoryChange = {
          field_name: context.historyField(change.fieldName),
          removed: change.removed,
          added: change.added,
        };
        if (change.attachmentId !== null) converted.attachment_id = change.attachmentId;
        if (change.commentId != null) converted.comment_id = change.commentId;
        if (change.commentCount != null) converted.comment_count = change.commentCount;
        return converted;
      }),
    }),
  );
  const value = (kind: 'version' | 'milestone', name: string | null) => {
    if (name === null) return 0;
    const id = ids.valueId(kind, productId, name);
    if (id === undefined) problem(kind, `${name} (${where})`, `no ${kind} of that name in ${record.product}`);
    return id ?? 0;
  };
  const privateMarks = attachments
    .filter((attachment) => attachment.isPrivate)
    .map((attachment) => ({ id: attachment.id, creatorId: attachment.creatorId }));
  const bug: Bug = {
    id: record.id,
    alias,
    summary: clean('bug', where, cleanBugSummary(record.summary)),
    status: record.status,
    resolution: record.resolution,
    isConfirmed: record.isConfirmed,
    productId,
    componentId,
    versionId: value('version', record.version),
    targetMilestoneId: value('milestone', record.targetMilestone),
    bugType: record.type ?? ids.bugTypeOf(productId),
    priority: record.priority,
    severity: record.severity,
    platform: record.platform,
    opSys: record.opSys,
    assigneeId: person(record.assignedTo, 'assignee'),
    reporterId: person(record.creator, 'reporter'),
    qaContactId: optionalPerson(record.qaContact, 'QA contact'),
    url: clean('bug', where, cleanBugUrl(record.url)),
    whiteboard: clean('bug', where, cleanWhiteboard(record.whiteboard)),
    deadline: record.deadline,
    creationTime: wireTime(record.creationTime),
    lastChangeTime: wireTime(record.lastChangeTime),
    filedVia: record.filedVia ?? '',
    isCcAccessible: record.isCcAccessible,
    isCreatorAccessible: record.isCreatorAccessible,
    estimatedTime: record.estimatedTime ?? 0,
    remainingTime: record.remainingTime ?? 0,
    actualTime: record.actualTime ?? 0,
    ccIds: [...new Set(record.cc.map((login) => person(login, 'CC')))],
    keywordIds: namedIds(record.keywords, (name) => ids.keywordId(name), 'keyword'),
    groupIds: namedIds(record.groups, (name) => ids.groupId(name), 'group'),
    dependsOn: [...record.dependsOn].sort((a, b) => a - b),
    blocks: [...record.blocks].sort((a, b) => a - b),
    regressedBy: record.regressedBy ?? [],
    regressions: record.regressions ?? [],
    duplicates: record.duplicates ?? [],
    dupeOf: record.dupeOf,
    seeAlso: cleanList('bug', where, cleanSeeAlso(record.seeAlso)),
    flags: record.flags.flatMap((entry) => flag(entry, where)),
    commentCount: comments.reduce((next, comment) => Math.max(next, comment.count + 1), 0),
    privateCommentCount: comments.filter((comment) => comment.isPrivate).length,
    attachmentCount: attachments.length,
    privateAttachments: privateMarks,
    custom: { ...record.custom },
    tags: record.tags.length > 0 ? { [String(context.accountId)]: [...record.tags].sort() } : {},
  };
  return { bug, product: record.product, comments, history, attachments, bodies };
}
