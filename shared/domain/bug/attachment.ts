import { errors } from '../../errors.ts';
import type { ResourceFields } from '../fieldSelection.ts';
import { type Caller, isLoggedIn, type UserAccount } from '../identity/caller.ts';
import { userDetail } from '../identity/userView.ts';
import type { Parameters } from '../instance/parameters.ts';
import type { BugFlag } from './bug.ts';
import { isInsider } from './bugAccess.ts';
import { flagView } from './bugFlags.ts';

/**
 * Attachments as Tracker keeps them: metadata and flags in the bug's item collection, the body in
 * S3 (docs/data-model.md §3). This module holds the rules: what a valid attachment is, who may
 * see and change one, and how changes are reported. No storage, no AWS.
 */
export interface Attachment {
  id: number;
  bugId: number;
  fileName: string;
  summary: string;
  contentType: string;
  size: number;
  isPatch: boolean;
  isPrivate: boolean;
  isObsolete: boolean;
  creatorId: number;
  creationTime: string;
  lastChangeTime: string;
  /** Hex SHA-256 of the body: lets a download be checked against what was uploaded. */
  sha256: string;
  /** The S3 key of the body. */
  bodyKey: string;
  /** The `count` of the "Created attachment N" comment, so its privacy can follow the attachment's. */
  creationCommentCount: number;
  flags: BugFlag[];
}

/**
 * The largest body a deployed function can take and give back. A synchronous Lambda invocation
 * carries at most 6 MB each way (API Gateway's own limit, 10 MB, is larger), and the body travels
 * base64-encoded inside JSON, which adds a third: 4,400 KB of file leave room for the JSON around
 * it. Larger files need another path (a presigned upload), which Bugzilla's API does not have.
 */
export const LAMBDA_ATTACHMENT_LIMIT_KB = 4_400;

/**
 * The most base64 one response may carry: Lambda answers at most 6 MB (6,291,456 bytes), and
 * ~140 KB stay for the JSON around the data. One attachment of LAMBDA_ATTACHMENT_LIMIT_KB fits.
 */
export const MAX_RESPONSE_BASE64_BYTES = 6_150_000;

/** Bugzilla's legal MIME types: a known top-level type and a subtype, parameters allowed. */
const MIME_TYPE =
  /^(application|audio|font|image|message|model|multipart|text|video)\/[A-Za-z0-9!#$&^_.+-]+(\s*;\s*[A-Za-z0-9_.-]+=("[^"]*"|[^;\s]*))*$/i;

export const PATCH_CONTENT_TYPE = 'text/plain';

export function checkContentType(value: unknown): string {
  const type = typeof value === 'string' ? value.trim() : '';
  if (type === '')
    throw errors.invalidContentType(
      'You must give the content type (MIME type) of the attachment, such as text/plain.',
    );
  if (!MIME_TYPE.test(type)) throw errors.invalidContentType(`'${type}' is not a valid MIME type.`);
  return type;
}

/** A file name without any directory part, as browsers and Bugzilla keep it. */
export function checkFileName(value: unknown): string {
  const name = (typeof value === 'string' ? value : '').replace(/^.*[/\\]/, '').trim();
  if (name === '') throw errors.fileNameRequired('You must give a file name for the attachment.');
  if (name.length > 255) throw errors.invalidParameter('The file name is too long: at most 255 characters.');
  return name;
}

export function checkSummary(value: unknown): string {
  const summary = typeof value === 'string' ? value.trim() : '';
  if (summary === '')
    throw errors.attachmentSummaryRequired('You must give a summary (description) of the attachment.');
  if (summary.length > 255)
    throw errors.invalidParameter('The attachment summary is too long: at most 255 characters.');
  return summary;
}

/**
 * Base64 text, checked without a repeated group: a pattern like `(?:[…]{4})*` backtracks through
 * V8's stack and overflows on a multi-megabyte body. Padding, when present, completes a quantum.
 */
const BASE64_CHARACTERS = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (text: string): boolean =>
  BASE64_CHARACTERS.test(text) && (text.endsWith('=') ? text.length % 4 === 0 : text.length % 4 !== 1);

/** The size Tracker accepts, in KB: the installation's maxattachmentsize, capped by what Lambda can carry. */
export function attachmentLimitKb(parameters: Parameters): { kb: number; byLambda: boolean } {
  const configured = Number(parameters.maxattachmentsize);
  const kb = Number.isFinite(configured) && configured >= 0 ? configured : 1000;
  return kb > LAMBDA_ATTACHMENT_LIMIT_KB ? { kb: LAMBDA_ATTACHMENT_LIMIT_KB, byLambda: true } : { kb, byLambda: false };
}

/** Decodes `data` (base64) and checks it against the size limit: 606 for nothing, 600 for too much. */
export function decodeData(value: unknown, parameters: Parameters): Buffer {
  if (value === undefined || value === null || value === '') throw errors.emptyAttachment();
  if (typeof value !== 'string') throw errors.invalidParameter('The attachment data must be base64 text.');
  const compact = value.replace(/\s+/g, '');
  if (!isBase64(compact)) throw errors.invalidParameter('The attachment data is not valid base64.');
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) throw errors.emptyAttachment();
  const limit = attachmentLimitKb(parameters);
  if (bytes.length > limit.kb * 1024) {
    throw errors.attachmentTooLarge(
      limit.byLambda
        ? `The file is too large: ${Math.ceil(bytes.length / 1024)} KB. Attachments travel inside one Lambda request of at most 6 MB, so Tracker accepts at most ${limit.kb} KB.`
        : `The file is too large: ${Math.ceil(bytes.length / 1024)} KB. Attachments may be at most ${limit.kb} KB (the maxattachmentsize parameter).`,
    );
  }
  return bytes;
}

/** Private attachments are for the insider group and the person who attached them. */
export function maySeeAttachment(
  caller: Caller,
  parameters: Parameters,
  attachment: Pick<Attachment, 'isPrivate' | 'creatorId'>,
): boolean {
  if (!attachment.isPrivate) return true;
  return isInsider(caller, parameters) || (isLoggedIn(caller) && caller.user.id === attachment.creatorId);
}

/** Who may change an attachment: the person who attached it, or whoever may edit any field of the bug. */
export function mayEditAttachment(
  caller: Caller,
  attachment: Pick<Attachment, 'creatorId'>,
  hasEditBugs: boolean,
): boolean {
  return isLoggedIn(caller) && (hasEditBugs || caller.user.id === attachment.creatorId);
}

/** Attachment fields as the API names them, and the names Bugzilla's history gives them. */
export const HISTORY_FIELD: Readonly<Record<string, string>> = {
  summary: 'attachments.description',
  file_name: 'attachments.filename',
  content_type: 'attachments.mimetype',
  is_patch: 'attachments.ispatch',
  is_private: 'attachments.isprivate',
  is_obsolete: 'attachments.isobsolete',
  'flagtypes.name': 'flagtypes.name',
};

/** The Attachment object's fields; `data` is costly (an S3 read) and goes only when wanted. */
export const attachmentResourceFields = (): ResourceFields => ({ nested: { flags: {}, creator_detail: {} } });

/** The spec's Attachment object; `data` (base64) only when the caller read the body. */
export function attachmentView(
  caller: Caller,
  attachment: Attachment,
  users: ReadonlyMap<number, UserAccount>,
  typeName: (id: number) => string,
  data: string | undefined,
) {
  const login = (id: number | null) => (id === null ? '' : (users.get(id)?.login ?? ''));
  const creator = users.get(attachment.creatorId);
  return {
    id: attachment.id,
    bug_id: attachment.bugId,
    file_name: attachment.fileName,
    summary: attachment.summary,
    content_type: attachment.contentType,
    size: attachment.size,
    creation_time: attachment.creationTime,
    last_change_time: attachment.lastChangeTime,
    is_private: attachment.isPrivate,
    is_obsolete: attachment.isObsolete,
    is_patch: attachment.isPatch,
    creator: login(attachment.creatorId),
    ...(creator ? { creator_detail: userDetail(creator, caller) } : {}),
    flags: attachment.flags.map((flag) => flagView(flag, typeName, login)),
    ...(data !== undefined ? { data } : {}),
  };
}
