import * as z from 'zod';
import type { Attachment } from '../../domain/bug/attachment.ts';
import type { Bug, BugFlag, NewComment, PrivateAttachmentMark } from '../../domain/bug/bug.ts';
import { type Item, parseItem, type ShapeOf } from '../itemParsing.ts';

/**
 * The shapes of the items in a bug's collection (docs/data-model.md §3) and their parsers: the
 * bug, its comments and its attachments, as every bug read, search page and stream batch reads
 * them (itemParsing.ts).
 */

const flagShape = {
  id: z.number(),
  typeId: z.number(),
  status: z.enum(['?', '+', '-']),
  setterId: z.number(),
  requesteeId: z.number().nullable(),
  creationDate: z.string(),
  modificationDate: z.string(),
} satisfies ShapeOf<BugFlag>;
const flagSchema = z.object(flagShape);

const ids = z.array(z.number());

/**
 * The two maps of a bug are checked where they are, not copied: z.record builds a new object key
 * by key, which measured as a third of a typical bug's parse (bench/itemParsing.ts).
 */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Personal tags: tag names by user id. */
const isTagMap = (value: unknown): value is Record<string, string[]> =>
  isPlainObject(value) &&
  Object.values(value).every((names) => Array.isArray(names) && names.every((name) => typeof name === 'string'));

const bugShape = {
  id: z.number(),
  alias: z.string().nullable(),
  summary: z.string(),
  status: z.string(),
  resolution: z.string(),
  isConfirmed: z.boolean(),
  productId: z.number(),
  componentId: z.number(),
  versionId: z.number(),
  targetMilestoneId: z.number(),
  bugType: z.string(),
  priority: z.string(),
  severity: z.string(),
  platform: z.string(),
  opSys: z.string(),
  assigneeId: z.number(),
  reporterId: z.number(),
  qaContactId: z.number().nullable(),
  url: z.string(),
  whiteboard: z.string(),
  deadline: z.string().nullable(),
  creationTime: z.string(),
  lastChangeTime: z.string(),
  filedVia: z.string(),
  isCcAccessible: z.boolean(),
  isCreatorAccessible: z.boolean(),
  estimatedTime: z.number(),
  remainingTime: z.number(),
  actualTime: z.number(),
  ccIds: ids,
  keywordIds: ids,
  groupIds: ids,
  dependsOn: ids,
  blocks: ids,
  regressedBy: ids,
  regressions: ids,
  duplicates: ids,
  dupeOf: z.number().nullable(),
  seeAlso: z.array(z.string()),
  flags: z.array(flagSchema),
  commentCount: z.number(),
  privateCommentCount: z.number().optional(),
  attachmentCount: z.number(),
  privateAttachments: z
    .array(z.object({ id: z.number(), creatorId: z.number() } satisfies ShapeOf<PrivateAttachmentMark>))
    .optional(),
  custom: z.custom<Bug['custom']>(isPlainObject),
  tags: z.custom<Bug['tags']>(isTagMap),
} satisfies ShapeOf<Bug>;

/**
 * A bug item: the domain Bug, except that items stored before bugs kept their version and
 * milestone by id hold the names instead (legacyBugValues.ts resolves them on read). Its keys,
 * `rev` and an import's `importRev` are no fields of the bug and are left out.
 */
const bugItemSchema = z.object({
  ...bugShape,
  versionId: z.number().optional(),
  targetMilestoneId: z.number().optional(),
  version: z.string().optional(),
  targetMilestone: z.string().optional(),
});

/** A bug as its item holds it: a Bug once legacyBugValues.ts has given it its version and milestone ids. */
export type BugAsStored = z.output<typeof bugItemSchema>;

/** A bug item with its revision, before legacy names are resolved (withValueIds makes it a StoredBug). */
export interface StoredBugItem {
  bug: BugAsStored;
  rev: number;
}

export const toStoredBugItem = (item: Item): StoredBugItem => ({
  bug: parseItem(bugItemSchema, 'bug', item),
  rev: Number(item.rev ?? 0),
});

export interface StoredComment extends NewComment {
  id: number;
  count: number;
  attachmentId: number | null;
  tags: string[];
}

const commentSchema = z.object({
  bugId: z.number(),
  creatorId: z.number(),
  rawText: z.string(),
  isPrivate: z.boolean(),
  isMarkdown: z.boolean(),
  workTime: z.number(),
  creationTime: z.string(),
  commentType: z.enum(['dupe_of', 'has_dupe', 'attachment_created', 'attachment_updated']).optional(),
  extraData: z.number().optional(),
  id: z.number(),
  count: z.number(),
  // Comments without an attachment or tags may have been stored without the attribute.
  attachmentId: z.number().nullable().default(null),
  tags: z.array(z.string()).default(() => []),
} satisfies ShapeOf<StoredComment>);

export const toComment = (item: Item): StoredComment => parseItem(commentSchema, 'comment', item);

const attachmentSchema = z.object({
  id: z.number(),
  bugId: z.number(),
  fileName: z.string(),
  summary: z.string(),
  contentType: z.string(),
  size: z.number(),
  isPatch: z.boolean(),
  isPrivate: z.boolean(),
  isObsolete: z.boolean(),
  creatorId: z.number(),
  creationTime: z.string(),
  lastChangeTime: z.string(),
  sha256: z.string(),
  bodyKey: z.string(),
  creationCommentCount: z.number(),
  flags: z.array(flagSchema).default(() => []),
} satisfies ShapeOf<Attachment>);

export const toAttachment = (item: Item): Attachment => parseItem(attachmentSchema, 'attachment', item);
