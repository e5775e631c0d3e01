/**
 * A bug as Tracker keeps it: ids rather than names for everything that can be renamed (users,
 * products, components, versions, milestones, keywords, groups), so a rename never rewrites bugs. Plain data; the
 * rules that change it live in bugCreation.ts, bugUpdate.ts and bugFlags.ts, and bugView.ts
 * turns it into the spec's Bug object.
 */
export type FlagStatus = '?' | '+' | '-';

export interface BugFlag {
  id: number;
  typeId: number;
  status: FlagStatus;
  setterId: number;
  requesteeId: number | null;
  /** Bugzilla wire time, whole seconds. */
  creationDate: string;
  modificationDate: string;
}

export interface Bug {
  id: number;
  alias: string | null;
  summary: string;
  status: string;
  resolution: string;
  /** Bugzilla's everconfirmed: the bug has been in an open status other than UNCONFIRMED. */
  isConfirmed: boolean;
  productId: number;
  componentId: number;
  /**
   * Version and milestone by id (Bugzilla stores their names and rewrites every bug on a rename:
   * catalog/bugValues.ts). Bug items stored before carry `version`/`targetMilestone` names
   * instead, resolved on read (storage/bug/legacyBugValues.ts).
   */
  versionId: number;
  targetMilestoneId: number;
  bugType: string;
  priority: string;
  severity: string;
  platform: string;
  opSys: string;
  assigneeId: number;
  reporterId: number;
  qaContactId: number | null;
  url: string;
  whiteboard: string;
  deadline: string | null;
  creationTime: string;
  lastChangeTime: string;
  filedVia: string;
  isCcAccessible: boolean;
  isCreatorAccessible: boolean;
  estimatedTime: number;
  remainingTime: number;
  actualTime: number;
  ccIds: number[];
  keywordIds: number[];
  groupIds: number[];
  dependsOn: number[];
  blocks: number[];
  regressedBy: number[];
  regressions: number[];
  duplicates: number[];
  dupeOf: number | null;
  seeAlso: string[];
  flags: BugFlag[];
  /** Comments including the description: the next comment's `count`. */
  commentCount: number;
  /** How many of those comments are private: non-insiders are never told they exist. */
  privateCommentCount?: number;
  attachmentCount: number;
  /**
   * The attachments that are private now, with who attached them (privateActivity.ts): outsiders
   * neither count them nor see nor search their history. Empty when none is; absent only on bugs
   * without attachments and on items stored before the list existed, which storage completes on
   * read until the backfill has written it (knownPrivateAttachments).
   */
  privateAttachments?: PrivateAttachmentMark[];
  /** Custom field values by field name (`cf_*`). */
  custom: Record<string, unknown>;
  /** Personal tags (not comment tags) by user id: only their owner ever sees them. */
  tags: Record<string, string[]>;
}

/** A private attachment as its bug remembers it. */
export interface PrivateAttachmentMark {
  id: number;
  creatorId: number;
}

/** A comment written together with a bug change; its id is allocated by the writer. */
export interface NewComment {
  bugId: number;
  creatorId: number;
  rawText: string;
  isPrivate: boolean;
  isMarkdown: boolean;
  workTime: number;
  creationTime: string;
  /**
   * Bugzilla's special comments: a duplicate notice on either side, or the comment that comes
   * with a new or changed attachment (`extraData` is then the attachment id).
   */
  commentType?: 'dupe_of' | 'has_dupe' | 'attachment_created' | 'attachment_updated';
  extraData?: number;
}

export interface HistoryChange {
  field_name: string;
  removed: string;
  added: string;
  attachment_id?: number;
  /** A comment's privacy change names the comment. */
  comment_id?: number;
  comment_count?: number;
}

/** One write's changes to one bug by one user. Entries of one user in one second read as one. */
export interface HistoryEntry {
  bugId: number;
  when: string;
  whoId: number;
  changes: HistoryChange[];
}

export type FieldChanges = Record<string, { removed: string; added: string }>;

export const MAX_SUMMARY_LENGTH = 255;
export const MAX_ALIAS_LENGTH = 40;
export const MAX_COMMENT_LENGTH = 65_535;
export const MAX_URL_LENGTH = 2_048;
export const MAX_WHITEBOARD_LENGTH = 65_535;
export const MAX_TIME = 99_999.99;
/** Bugzilla's personal tag names: no commas or spaces would survive its tag lists. */
export const MAX_TAG_LENGTH = 40;

/** Ids in a relation are kept sorted and unique, as Bugzilla lists them. */
export const sortedIds = (ids: Iterable<number>): number[] => [...new Set(ids)].sort((a, b) => a - b);
