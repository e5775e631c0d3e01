import { type Attachment, HISTORY_FIELD } from '../../domain/bug/attachment.ts';
import type { Bug, HistoryEntry } from '../../domain/bug/bug.ts';
import type {
  AttachmentChange,
  AttachmentFacts,
  BugChange,
  ChangeComment,
} from '../../domain/notification/bugChange.ts';
import { loadAttachmentsById } from '../bug/attachmentStore.ts';
import { type StoredComment, toAttachment, toComment, toStoredBugItem } from '../bug/bugItems.ts';
import { loadComment, type StoredBug } from '../bug/bugStore.ts';
import { withValueIds } from '../bug/legacyBugValues.ts';
import { withPrivateAttachments } from '../bug/legacyPrivateAttachments.ts';
import { tableName } from '../dynamoClient.ts';
import { bugKeys } from '../keys.ts';
import { queryAll } from '../tableReads.ts';
import { type BugItemRecord, bugItemRecords, changeLogHistories, type TableStreamRecord } from './streamRecords.ts';

/**
 * Bug changes from a batch of the table's change stream. A write to a bug raises the bug item's
 * `rev` in one transaction with its comments, its history entry (which carries that revision)
 * and its attachments: the bug item's record, with its images before and after, is the change,
 * and the other items are found beside it in the batch. DynamoDB promises order per item only:
 * the records of one transaction may come in another batch, interleaved with others
 * (docs.aws.amazon.com, "Transactions: how it works"), so what the batch lacks is read from the
 * table, strongly consistent. Comments are found by number (the bug's `commentCount` before and
 * after), the history entry by revision, attachments by the ids the comments and history name.
 * One thing only the batch can give: an attachment as this write left it and as it was before.
 * Read later from the table, it is as it is now; its fields are taken from there (and undone by
 * the history for its state before), but its flags may have moved since, so they are left out of
 * the change: their transitions go untold (the caller logs it), while the history still names
 * every flag change in the change's `changes`.
 */
export interface RecordedChange {
  change: BugChange;
  /** Positions in the batch of the records it was read from: the bug's first, then the others found there. */
  indexes: number[];
  /** Attachments read from the table, not from the batch: their flag transitions are not told. */
  attachmentsReadLater: number[];
}

export interface BatchChanges {
  changes: RecordedChange[];
  /** Bug writes an import or a seed made (marked by `importRev`): nobody is told. */
  bulkLoaded: number;
  /** Bug writes that tell nobody anything (personal tags, a backfill): no history, comment or attachment. */
  silent: number;
}

/**
 * An import or a seed writes each bug item with `importRev`, the revision it gave the bug
 * (bugImportStore.ts): a write through the API puts the item again without it, or raises `rev`
 * past it. So a record whose bug item holds `importRev` equal to its `rev` is a bulk load, told
 * to nobody (Bugzilla's importers send no mail), whatever the times it carries.
 */
export const isBulkLoaded = (image: Record<string, unknown>): boolean =>
  image.importRev !== undefined && Number(image.importRev) === Number(image.rev);

/**
 * A write that gave the bug a new revision. A change needs the bug as it was: a stream without
 * old images (a view type other than NEW_AND_OLD_IMAGES) would make every change look new.
 */
const newRevision = (record: BugItemRecord): boolean => {
  if (!record.newImage || record.eventName === 'REMOVE') return false;
  if (record.eventName === 'INSERT') return true;
  if (!record.oldImage) throw new Error('The table stream carries no old images: it must be NEW_AND_OLD_IMAGES.');
  return Number(record.newImage.rev ?? 0) > Number(record.oldImage.rev ?? 0);
};

const toChangeComment = (stored: StoredComment): ChangeComment => {
  const { attachmentId, tags, ...comment } = stored;
  return comment;
};

function toAttachmentFacts(attachment: Attachment): AttachmentFacts {
  return {
    id: attachment.id,
    fileName: attachment.fileName,
    summary: attachment.summary,
    contentType: attachment.contentType,
    size: attachment.size,
    isPatch: attachment.isPatch,
    isPrivate: attachment.isPrivate,
    isObsolete: attachment.isObsolete,
    creatorId: attachment.creatorId,
    creationTime: attachment.creationTime,
    flags: attachment.flags,
  };
}

const ATTACHMENT_FIELD: Readonly<Record<string, 'summary' | 'fileName' | 'contentType'>> = {
  [HISTORY_FIELD.summary!]: 'summary',
  [HISTORY_FIELD.file_name!]: 'fileName',
  [HISTORY_FIELD.content_type!]: 'contentType',
};
const ATTACHMENT_SWITCH: Readonly<Record<string, 'isPatch' | 'isPrivate' | 'isObsolete'>> = {
  [HISTORY_FIELD.is_patch!]: 'isPatch',
  [HISTORY_FIELD.is_private!]: 'isPrivate',
  [HISTORY_FIELD.is_obsolete!]: 'isObsolete',
};

/** An attachment as it was before a change the batch does not hold: its fields undone by the history, its flags as now. */
function attachmentBefore(after: AttachmentFacts, history: HistoryEntry | undefined): AttachmentFacts {
  const before = { ...after };
  for (const change of history?.changes ?? []) {
    if (change.attachment_id !== after.id) continue;
    const field = ATTACHMENT_FIELD[change.field_name];
    if (field) before[field] = change.removed;
    const flag = ATTACHMENT_SWITCH[change.field_name];
    if (flag) before[flag] = change.removed === '1';
  }
  return before;
}

/** The history entry a write of this revision wrote, read from the table (entries sort by the time written). */
async function historyOfRevision(bugId: number, rev: number, when: string): Promise<HistoryEntry | undefined> {
  const from = new Date(Date.parse(when) - 60_000).toISOString();
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': bugKeys.bug(bugId).pk,
      ':from': `${bugKeys.historyPrefix}${from}`,
      ':to': `${bugKeys.historyPrefix}\uffff`,
    },
    ConsistentRead: true,
  });
  const item = items.find((candidate) => Number(candidate.rev) === rev);
  return item && toHistory(item);
}

const toHistory = (item: Record<string, unknown>): HistoryEntry => ({
  bugId: Number(item.bugId),
  when: String(item.when),
  whoId: Number(item.whoId),
  changes: (item.changes ?? []) as HistoryEntry['changes'],
});

/** Bugs from their images, read as loadBug reads them (ids for legacy version names, the private attachment list). */
async function storedBugs(images: ReadonlyArray<Record<string, unknown>>): Promise<StoredBug[]> {
  return withPrivateAttachments(await withValueIds(images.map(toStoredBugItem)));
}

/** Reads what one bug's write changed, from the batch where it can and the table where it must. */
class ChangeReader {
  private readonly claimed = new Set<number>();

  constructor(
    private readonly items: readonly BugItemRecord[],
    private readonly logHistories: ReadonlyMap<string, HistoryEntry[]>,
  ) {}

  private take(predicate: (record: BugItemRecord) => boolean): BugItemRecord | undefined {
    const found = this.items.find((record) => !this.claimed.has(record.index) && predicate(record));
    if (found) this.claimed.add(found.index);
    return found;
  }

  async read(anchor: BugItemRecord, before: Bug | null, after: Bug, rev: number): Promise<RecordedChange | null> {
    const indexes = [anchor.index];
    const bugId = after.id;
    const inBatch = (record: BugItemRecord, kind: BugItemRecord['kind']) =>
      record.bugId === bugId && record.kind === kind && record.newImage !== undefined;

    const comments: ChangeComment[] = [];
    for (let count = before?.commentCount ?? 0; count < after.commentCount; count++) {
      const record = this.take(
        (candidate) =>
          inBatch(candidate, 'comment') &&
          candidate.eventName === 'INSERT' &&
          Number(candidate.newImage!.count) === count,
      );
      if (record) indexes.push(record.index);
      const stored = record ? toComment(record.newImage!) : await loadComment(bugId, count);
      if (stored) comments.push(toChangeComment(stored));
    }

    const historyRecord = this.take(
      (candidate) =>
        inBatch(candidate, 'history') && candidate.eventName === 'INSERT' && Number(candidate.newImage!.rev) === rev,
    );
    if (historyRecord) indexes.push(historyRecord.index);
    const logged = this.logHistories.get(`${bugId}#${rev}`);
    const history = historyRecord
      ? toHistory(historyRecord.newImage!)
      : logged
        ? logged[0]
        : await historyOfRevision(bugId, rev, after.lastChangeTime);

    const created = comments
      .filter((comment) => comment.commentType === 'attachment_created' && comment.extraData !== undefined)
      .map((comment) => comment.extraData!);
    const named = [
      ...(history?.changes ?? []).map((change) => change.attachment_id),
      ...comments.filter((comment) => comment.commentType === 'attachment_updated').map((comment) => comment.extraData),
    ].filter((id): id is number => id !== undefined && id !== null && !created.includes(id));
    const attachmentIds = [...new Set([...created, ...named])].sort((a, b) => a - b);
    const attachments: AttachmentChange[] = [];
    const missing: number[] = [];
    for (const id of attachmentIds) {
      const record = this.take(
        (candidate) =>
          inBatch(candidate, 'attachment') &&
          Number(candidate.newImage!.id) === id &&
          (candidate.newImage!.lastChangeTime === undefined ||
            candidate.newImage!.lastChangeTime === after.lastChangeTime),
      );
      if (!record) {
        missing.push(id);
        continue;
      }
      indexes.push(record.index);
      const was =
        record.eventName === 'INSERT' || !record.oldImage ? null : toAttachmentFacts(toAttachment(record.oldImage));
      attachments.push({
        before: created.includes(id) ? null : was,
        after: toAttachmentFacts(toAttachment(record.newImage!)),
      });
    }
    const attachmentsReadLater: number[] = [];
    if (missing.length > 0) {
      const stored = await loadAttachmentsById(missing);
      for (const id of missing) {
        const found = stored.get(id);
        if (!found) continue;
        attachmentsReadLater.push(id);
        // Its flags now may not be this write's: without them, no flag transition is made up.
        const now = { ...toAttachmentFacts(found), flags: created.includes(id) ? [] : found.flags };
        attachments.push({ before: created.includes(id) ? null : attachmentBefore(now, history), after: now });
      }
      attachments.sort((a, b) => a.after.id - b.after.id);
    }

    const whoId =
      history?.whoId ??
      comments[0]?.creatorId ??
      (before === null ? after.reporterId : undefined) ??
      attachments[0]?.after.creatorId;
    const tellsNothing = (history?.changes.length ?? 0) === 0 && comments.length === 0 && attachments.length === 0;
    if (whoId === undefined || (before !== null && tellsNothing)) return null;
    return {
      change: {
        revision: rev,
        whoId,
        when: after.lastChangeTime,
        before,
        after,
        changes: history?.changes ?? [],
        comments,
        attachments,
      },
      indexes,
      attachmentsReadLater,
    };
  }
}

/** Every bug change of a batch, in the order of its bug records (so in order per bug). */
export async function bugChangesOf(records: readonly TableStreamRecord[]): Promise<BatchChanges> {
  const items = bugItemRecords(records);
  const anchors = items.filter((record) => record.kind === 'bug' && newRevision(record));
  const changed = anchors.flatMap((record, position) =>
    record.eventName === 'MODIFY' && record.oldImage ? [{ position, image: record.oldImage }] : [],
  );
  const [afters, befores] = await Promise.all([
    storedBugs(anchors.map((record) => record.newImage!)),
    withValueIds(changed.map(({ image }) => toStoredBugItem(image))),
  ]);
  const beforeAt = new Map(changed.map(({ position }, index) => [position, befores[index]!.bug]));
  const reader = new ChangeReader(items, changeLogHistories(records));
  const result: BatchChanges = { changes: [], bulkLoaded: 0, silent: 0 };
  for (const [position, anchor] of anchors.entries()) {
    const after = afters[position]!;
    const before = beforeAt.get(position) ?? null;
    if (isBulkLoaded(anchor.newImage!)) {
      result.bulkLoaded++;
      continue;
    }
    const recorded = await reader.read(anchor, before, after.bug, after.rev);
    if (recorded) result.changes.push(recorded);
    else result.silent++;
  }
  return result;
}
