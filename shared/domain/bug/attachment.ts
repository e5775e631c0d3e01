import { errors } from '../../errors.ts';
import type { ResourceFields } from '../fieldSelection.ts';
import { type Caller, isLoggedIn, type UserAccount } from '../identity/caller.ts';
import { userDetail } from '../identity/userView.ts';
import { characterCount } from '../inputLimits.ts';
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

/** As much as Bugzilla's column holds; S3 takes request headers of a few KB only. */
const MAX_CONTENT_TYPE_LENGTH = 255;

/**
 * Bugzilla's legal MIME types: a known top-level type and a subtype, parameters allowed. A
 * parameter value is printable ASCII, quoted or not, as MIME wants it (RFC 2045; other text is
 * encoded per RFC 2231): the type becomes an HTTP header of the stored body and of its download.
 */
const MIME_TYPE =
  /^(application|audio|font|image|message|model|multipart|text|video)\/[A-Za-z0-9!#$&^_.+-]+( *; *[A-Za-z0-9_.-]+=("[\x20\x21\x23-\x7E]*"|[\x21\x23-\x3A\x3C-\x7E]*))*$/i;

/**
 * Control characters (C0 with tab and line breaks, DEL, C1) anywhere in a content type: a CR or
 * LF in a header value would end the header (S3 refuses it, so the body could not be stored or
 * downloaded), and none of them has a meaning in a MIME type.
 */
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

export const PATCH_CONTENT_TYPE = 'text/plain';

export function checkContentType(value: unknown): string {
  const type = typeof value === 'string' ? value.trim() : '';
  if (type === '')
    throw errors.invalidContentType(
      'You must give the content type (MIME type) of the attachment, such as text/plain.',
    );
  if (CONTROL_CHARACTER.test(value as string))
    throw errors.invalidContentType('The content type (MIME type) must not contain control characters.');
  if (type.length > MAX_CONTENT_TYPE_LENGTH)
    throw errors.invalidContentType(
      `The content type (MIME type) is too long: at most ${MAX_CONTENT_TYPE_LENGTH} characters.`,
    );
  if (!MIME_TYPE.test(type)) throw errors.invalidContentType(`'${type}' is not a valid MIME type.`);
  return type;
}

/**
 * The type a download is served with: the stored one, unless it was stored before the rules
 * above were strict (a CR or LF in it would break the response header), then plain bytes.
 */
export const downloadContentType = (stored: string): string =>
  CONTROL_CHARACTER.test(stored) || !MIME_TYPE.test(stored) ? 'application/octet-stream' : stored;

/**
 * A file name without any directory part, as browsers and Bugzilla keep it (`[\s\S]`, not `.`:
 * a line break before the last slash must not keep the directory).
 */
export function checkFileName(value: unknown): string {
  const name = (typeof value === 'string' ? value : '').replace(/^[\s\S]*[/\\]/, '').trim();
  if (name === '') throw errors.fileNameRequired('You must give a file name for the attachment.');
  if (characterCount(name) > 255) throw errors.invalidParameter('The file name is too long: at most 255 characters.');
  return name;
}

/**
 * The Content-Disposition under which an attachment downloads (RFC 6266): `filename*` gives the
 * exact name in UTF-8, percent-encoded (RFC 8187, where `'`, `(`, `)` and `*` are encoded too),
 * and `filename` an ASCII stand-in for clients that read only that one: accents dropped, any
 * other character outside printable ASCII, a quote, a backslash, a slash (NFKD makes one of
 * `／`) or `%` (which some clients decode) as `_`. The header is ASCII whatever the name: S3
 * and HTTP carry header values as Latin-1 bytes, so a raw `报告.txt` broke the download and
 * `résumé.pdf` arrived garbled.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]|["\\/%]/gu, '_');
  const encoded = encodeURIComponent(fileName.replace(/[\uD800-\uDFFF]/gu, '\uFFFD')).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export function checkSummary(value: unknown): string {
  const summary = typeof value === 'string' ? value.trim() : '';
  if (summary === '')
    throw errors.attachmentSummaryRequired('You must give a summary (description) of the attachment.');
  if (characterCount(summary) > 255)
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
