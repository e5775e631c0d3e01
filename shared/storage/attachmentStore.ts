import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Attachment } from '../domain/attachment.ts';
import { documentClient, tableName } from './dynamoClient.ts';
import { attachmentKeys, bugKeys } from './keys.ts';
import { ENV } from './tableSchema.ts';
import { batchGetAll, queryAll } from './tableReads.ts';
import type { WriteTransaction } from './transaction.ts';

/**
 * Attachments: metadata items in the bug's collection (`BUG#<bug>` / `ATTACHMENT#<id10>`, flags
 * inside), a pointer per id (`ATTACHMENT#<id>` / `ATTACHMENT`), and the body in S3 under
 * `attachments/<bug>/<id>`. The body is always written before the metadata and never removed
 * while metadata points at it, so no metadata ever names a missing body (docs/data-model.md §3).
 */

// ---- metadata (DynamoDB) --------------------------------------------------------------------

const toAttachment = (item: Record<string, unknown>): Attachment => {
  const { pk, sk, type, ...attachment } = item;
  void pk, sk, type;
  const stored = attachment as unknown as Attachment;
  return { ...stored, flags: stored.flags ?? [] };
};

/** Every attachment of a bug, in id order (strongly consistent). */
export async function loadAttachmentsOfBug(bugId: number): Promise<Attachment[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': bugKeys.bug(bugId).pk, ':prefix': attachmentKeys.attachmentPrefix },
    ConsistentRead: true,
  });
  return items.map(toAttachment);
}

/** The summaries of a bug's attachments, for the "Created attachment N" comments. */
export async function attachmentSummaries(bugId: number): Promise<Map<number, string>> {
  return new Map((await loadAttachmentsOfBug(bugId)).map((attachment) => [attachment.id, attachment.summary]));
}

/** Attachments by id, wherever they are: pointers first, then the items (both consistent). */
export async function loadAttachmentsById(attachmentIds: readonly number[]): Promise<Map<number, Attachment>> {
  const unique = [...new Set(attachmentIds)];
  if (unique.length === 0) return new Map();
  const pointers = unique.length === 1
    ? [(await documentClient().send(new GetCommand({ TableName: tableName(), Key: attachmentKeys.attachmentPointer(unique[0]), ConsistentRead: true }))).Item].filter((item) => item !== undefined)
    : await batchGetAll(unique.map((id) => attachmentKeys.attachmentPointer(id)), { consistent: true });
  const located = pointers.map((pointer) => ({ id: Number(pointer.attachmentId), bugId: Number(pointer.bugId) }));
  if (located.length === 0) return new Map();
  const items = located.length === 1
    ? [(await documentClient().send(new GetCommand({ TableName: tableName(), Key: attachmentKeys.attachment(located[0].bugId, located[0].id), ConsistentRead: true }))).Item].filter((item) => item !== undefined)
    : await batchGetAll(located.map(({ bugId, id }) => attachmentKeys.attachment(bugId, id)), { consistent: true });
  return new Map(items.map((item) => {
    const attachment = toAttachment(item);
    return [attachment.id, attachment];
  }));
}

/** Adds a new attachment (metadata and pointer) to a bug write's transaction. */
export function putNewAttachment(transaction: WriteTransaction, attachment: Attachment): void {
  transaction.putNew({ ...attachmentKeys.attachment(attachment.bugId, attachment.id), type: 'attachment', ...attachment }, () => new Error(`Attachment ${attachment.id} already exists.`));
  transaction.putNew({ ...attachmentKeys.attachmentPointer(attachment.id), type: 'attachmentPointer', attachmentId: attachment.id, bugId: attachment.bugId }, () => new Error(`Attachment ${attachment.id} already exists.`));
}

/**
 * Rewrites an attachment's metadata. It needs no condition of its own: it is always written with
 * its bug, whose revision condition fails the whole transaction if anything changed meanwhile.
 */
export function putChangedAttachment(transaction: WriteTransaction, attachment: Attachment): void {
  transaction.put({ ...attachmentKeys.attachment(attachment.bugId, attachment.id), type: 'attachment', ...attachment });
}

/** Sets a comment's privacy (the "Created attachment" comment follows its attachment's). */
export function setCommentPrivacy(transaction: WriteTransaction, bugId: number, count: number, isPrivate: boolean): void {
  transaction.update(bugKeys.comment(bugId, count), {
    expression: 'SET isPrivate = :private',
    condition: 'attribute_exists(pk)',
    values: { ':private': isPrivate },
  });
}

/** Whether metadata refers to an attachment id (the sweep's question). */
export async function existingAttachmentIds(attachmentIds: readonly number[]): Promise<Set<number>> {
  if (attachmentIds.length === 0) return new Set();
  const pointers = await batchGetAll(attachmentIds.map((id) => attachmentKeys.attachmentPointer(id)), { consistent: true });
  return new Set(pointers.map((pointer) => Number(pointer.attachmentId)));
}

// ---- bodies (S3) ----------------------------------------------------------------------------

let client: S3Client | undefined;

/** One client per container. Locally TRACKER_S3_ENDPOINT points it at s3rver (path-style addressing). */
function s3(): S3Client {
  if (!client) {
    const endpoint = process.env[ENV.s3Endpoint];
    client = new S3Client(endpoint
      ? { endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }
      : {});
  }
  return client;
}

function bucketName(): string {
  const name = process.env[ENV.bucket];
  if (!name) throw new Error(`${ENV.bucket} is not set`);
  return name;
}

export { attachmentKeys };

export async function putBody(key: string, body: Uint8Array, contentType: string, sha256: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: bucketName(), Key: key, Body: body, ContentType: contentType, Metadata: { sha256 } }));
}

export async function getBody(key: string): Promise<Buffer> {
  const result = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
  return Buffer.from(await result.Body!.transformToByteArray());
}

export async function deleteBody(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: bucketName(), Key: key }));
}

/** A short-lived address from which the body downloads straight from S3, under its file name. */
export async function presignBody(key: string, fileName: string, contentType: string, expiresInSeconds: number): Promise<string> {
  const disposition = `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucketName(), Key: key, ResponseContentDisposition: disposition, ResponseContentType: contentType }), { expiresIn: expiresInSeconds });
}

/** Every body in the bucket, page by page: key and when it was written. */
export async function* listBodies(): AsyncGenerator<{ key: string; lastModified: Date }> {
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: attachmentKeys.bodyPrefix, ContinuationToken: token }));
    for (const object of page.Contents ?? []) if (object.Key) yield { key: object.Key, lastModified: object.LastModified ?? new Date(0) };
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}
