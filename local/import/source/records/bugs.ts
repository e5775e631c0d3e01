import * as z from 'zod';
import { type CommentKind, recoverComment } from '../commentKinds.ts';
import { type UserRef, userRefSchema } from './people.ts';
import {
  bool,
  idSchema,
  ids,
  maybeBool,
  maybeId,
  maybeIds,
  maybeLogin,
  maybeNumber,
  maybeText,
  strings,
  text,
} from './wireValues.ts';

/** Bugs, their flags, comments, attachments and history; bugs that could not be read. */

export interface FlagRecord {
  id: number;
  name: string;
  typeId: number;
  status: string;
  setter: string;
  requestee: string | null;
  creationDate: string;
  modificationDate: string;
}

export const flagSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    type_id: idSchema,
    status: z.string(),
    setter: z.string(),
    requestee: maybeLogin,
    creation_date: z.string(),
    modification_date: z.string(),
  })
  .transform(
    (wire): FlagRecord => ({
      id: wire.id,
      name: wire.name,
      typeId: wire.type_id,
      status: wire.status,
      setter: wire.setter,
      requestee: wire.requestee,
      creationDate: wire.creation_date,
      modificationDate: wire.modification_date,
    }),
  );

const flags = z
  .array(flagSchema)
  .nullish()
  .transform((value) => value ?? []);

export interface BugRecord {
  id: number;
  alias: string[];
  summary: string;
  status: string;
  resolution: string;
  isOpen: boolean | null;
  isConfirmed: boolean;
  isCcAccessible: boolean;
  isCreatorAccessible: boolean;
  product: string;
  component: string;
  classification: string | null;
  version: string;
  targetMilestone: string | null;
  /** Harmony/BMO and Tracker (`defect`, `enhancement`, `task`); null from 5.0/5.2. */
  type: string | null;
  priority: string;
  severity: string;
  platform: string;
  opSys: string;
  assignedTo: string;
  creator: string;
  qaContact: string | null;
  cc: string[];
  creationTime: string;
  lastChangeTime: string;
  /** Time-tracking group only, like the three times. */
  deadline: string | null;
  url: string;
  whiteboard: string;
  keywords: string[];
  seeAlso: string[];
  /** Group names. */
  groups: string[];
  blocks: number[];
  dependsOn: number[];
  dupeOf: number | null;
  /** Null from 5.0/5.2, which do not list them (they follow from the duplicates' `dupeOf`). */
  duplicates: number[] | null;
  regressedBy: number[] | null;
  regressions: number[] | null;
  flags: FlagRecord[];
  commentCount: number | null;
  estimatedTime: number | null;
  remainingTime: number | null;
  actualTime: number | null;
  /** The reading account's personal tags on the bug. */
  tags: string[];
  filedVia: string | null;
  /** `cf_*` fields as sent: strings, arrays (multi-select), ints (bug id), date-times. */
  custom: Record<string, unknown>;
  /** Ids and real names of the people named above, from the source's `*_detail` objects. */
  people: UserRef[];
}

const detail = userRefSchema.nullish();

export const bugSchema = z
  .looseObject({
    id: idSchema,
    alias: z.union([z.array(z.string()), z.string(), z.null()]).optional(),
    summary: text,
    status: z.string(),
    resolution: text,
    is_open: maybeBool,
    is_confirmed: bool(true),
    is_cc_accessible: bool(true),
    is_creator_accessible: bool(true),
    product: z.string(),
    component: z.string(),
    classification: maybeText,
    version: z.string(),
    target_milestone: maybeText,
    type: maybeText,
    priority: z.string(),
    severity: z.string(),
    platform: z.string(),
    op_sys: z.string(),
    assigned_to: z.string(),
    creator: z.string(),
    qa_contact: maybeLogin,
    cc: strings,
    creation_time: z.string(),
    last_change_time: z.string(),
    deadline: maybeText,
    url: text,
    whiteboard: text,
    keywords: strings,
    see_also: strings,
    groups: strings,
    blocks: ids,
    depends_on: ids,
    dupe_of: maybeId,
    duplicates: maybeIds,
    regressed_by: maybeIds,
    regressions: maybeIds,
    flags,
    comment_count: maybeNumber,
    estimated_time: maybeNumber,
    remaining_time: maybeNumber,
    actual_time: maybeNumber,
    tags: strings,
    filed_via: maybeText,
    assigned_to_detail: detail,
    creator_detail: detail,
    qa_contact_detail: detail,
    cc_detail: z.array(userRefSchema).nullish(),
  })
  .transform((wire): BugRecord => {
    const custom: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(wire)) if (name.startsWith('cf_')) custom[name] = value;
    const people = new Map<number, UserRef>();
    for (const person of [
      wire.assigned_to_detail,
      wire.creator_detail,
      wire.qa_contact_detail,
      ...(wire.cc_detail ?? []),
    ])
      if (person) people.set(person.id, person);
    return {
      id: wire.id,
      alias: Array.isArray(wire.alias) ? wire.alias : wire.alias ? [wire.alias] : [],
      summary: wire.summary,
      status: wire.status,
      resolution: wire.resolution,
      isOpen: wire.is_open,
      isConfirmed: wire.is_confirmed,
      isCcAccessible: wire.is_cc_accessible,
      isCreatorAccessible: wire.is_creator_accessible,
      product: wire.product,
      component: wire.component,
      classification: wire.classification,
      version: wire.version,
      targetMilestone: wire.target_milestone,
      type: wire.type,
      priority: wire.priority,
      severity: wire.severity,
      platform: wire.platform,
      opSys: wire.op_sys,
      assignedTo: wire.assigned_to,
      creator: wire.creator,
      qaContact: wire.qa_contact,
      cc: wire.cc,
      creationTime: wire.creation_time,
      lastChangeTime: wire.last_change_time,
      deadline: wire.deadline,
      url: wire.url,
      whiteboard: wire.whiteboard,
      keywords: wire.keywords,
      seeAlso: wire.see_also,
      groups: wire.groups,
      blocks: wire.blocks,
      dependsOn: wire.depends_on,
      dupeOf: wire.dupe_of,
      duplicates: wire.duplicates,
      regressedBy: wire.regressed_by,
      regressions: wire.regressions,
      flags: wire.flags,
      commentCount: wire.comment_count,
      estimatedTime: wire.estimated_time,
      remainingTime: wire.remaining_time,
      actualTime: wire.actual_time,
      tags: wire.tags,
      filedVia: wire.filed_via,
      custom,
      people: [...people.values()].sort((a, b) => a.id - b.id),
    };
  });

/** A bug Get Bug with `permissive=1` could not give: 101 no such bug, 102 not visible to the account. */
export interface BugFault {
  id: number;
  code: number;
  message: string;
}

export const bugFaultSchema = z
  .object({ id: z.union([z.number(), z.string()]), faultCode: z.union([z.number(), z.string()]), faultString: text })
  .transform((wire): BugFault => ({ id: Number(wire.id), code: Number(wire.faultCode), message: wire.faultString }));

export type { CommentKind };

export interface CommentRecord {
  id: number;
  bugId: number;
  /** Position in the bug, the description being 0. */
  count: number;
  /** The text as shown, Bugzilla's generated wording included. */
  text: string;
  /** What the author wrote: `raw_text` where the source sends it, else recovered from `text` (commentKinds.ts). */
  rawText: string;
  /** Bugzilla's special comments; `extraData` is the attachment or other bug's id. */
  kind: CommentKind;
  extraData: number | null;
  creator: string;
  creationTime: string;
  isPrivate: boolean;
  isMarkdown: boolean;
  tags: string[];
  attachmentId: number | null;
}

export const commentWireSchema = z.object({
  id: idSchema,
  bug_id: idSchema,
  count: z.union([z.number(), z.string()]).transform(Number),
  text: text,
  raw_text: maybeText,
  creator: z.string().optional(),
  author: z.string().optional(),
  creation_time: z.string().optional(),
  time: z.string().optional(),
  is_private: bool(false),
  is_markdown: bool(false),
  tags: strings,
  attachment_id: maybeId,
});
export type CommentWire = z.output<typeof commentWireSchema>;

export interface AttachmentRecord {
  id: number;
  bugId: number;
  fileName: string;
  summary: string;
  contentType: string;
  isPrivate: boolean;
  isObsolete: boolean;
  isPatch: boolean;
  creator: string;
  creationTime: string;
  lastChangeTime: string;
  /** As the source reports it; the body's length when the body was read. */
  size: number;
  flags: FlagRecord[];
  /** The body, decoded; null when it was not asked for. */
  data: Buffer | null;
}

export const attachmentSchema = z
  .object({
    id: idSchema,
    bug_id: idSchema,
    file_name: text,
    summary: z.string().optional(),
    description: z.string().optional(),
    content_type: text,
    is_private: bool(false),
    is_obsolete: bool(false),
    is_patch: bool(false),
    creator: z.string().optional(),
    attacher: z.string().optional(),
    creation_time: z.string(),
    last_change_time: z.string(),
    size: maybeNumber,
    flags,
    data: z.string().nullish(),
  })
  .transform((wire): AttachmentRecord => {
    const data = typeof wire.data === 'string' ? Buffer.from(wire.data, 'base64') : null;
    return {
      id: wire.id,
      bugId: wire.bug_id,
      fileName: wire.file_name,
      summary: wire.summary ?? wire.description ?? '',
      contentType: wire.content_type,
      isPrivate: wire.is_private,
      isObsolete: wire.is_obsolete,
      isPatch: wire.is_patch,
      creator: wire.creator ?? wire.attacher ?? '',
      creationTime: wire.creation_time,
      lastChangeTime: wire.last_change_time,
      size: data ? data.length : (wire.size ?? 0),
      flags: wire.flags,
      data,
    };
  });

export interface HistoryChangeRecord {
  /**
   * As the source names it: 5.2 says `status` where Harmony/BMO says `bug_status`, and
   * attachment changes are `attachments.isobsolete`, flags `flagtypes.name`, and so on.
   */
  fieldName: string;
  removed: string;
  added: string;
  attachmentId: number | null;
  /** A comment's privacy change names the comment (5.2 and Tracker send both). */
  commentId: number | null;
  commentCount: number | null;
}

export interface HistoryEntryRecord {
  when: string;
  who: string;
  changes: HistoryChangeRecord[];
}

export const historyEntrySchema = z.object({
  when: z.string(),
  who: z.string(),
  changes: z.array(
    z
      .object({
        field_name: z.string(),
        removed: text,
        added: text,
        attachment_id: maybeId,
        comment_id: maybeId,
        comment_count: maybeNumber,
      })
      .transform(
        (wire): HistoryChangeRecord => ({
          fieldName: wire.field_name,
          removed: wire.removed,
          added: wire.added,
          attachmentId: wire.attachment_id,
          commentId: wire.comment_id,
          commentCount: wire.comment_count,
        }),
      ),
  ),
});

export const bugHistorySchema = z.object({ id: idSchema, history: z.array(historyEntrySchema) });

export function toCommentRecord(wire: CommentWire): CommentRecord {
  const recovered = recoverComment(wire.text, wire.attachment_id);
  return {
    id: wire.id,
    bugId: wire.bug_id,
    count: wire.count,
    text: wire.text,
    rawText: wire.raw_text ?? recovered.rawText,
    kind: recovered.kind,
    extraData: recovered.extraData,
    creator: wire.creator ?? wire.author ?? '',
    creationTime: wire.creation_time ?? wire.time ?? '',
    isPrivate: wire.is_private,
    isMarkdown: wire.is_markdown,
    tags: wire.tags,
    attachmentId: wire.attachment_id,
  };
}

export const commentSchema = commentWireSchema.transform(toCommentRecord);
