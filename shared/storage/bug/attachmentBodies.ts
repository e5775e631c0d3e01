import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { attachmentKeys } from '../keys.ts';
import { bucketName, s3Client as s3 } from '../s3Client.ts';

/**
 * Attachment bodies in S3, one object per attachment under `attachments/<bug>/<id>`. Apart from
 * the metadata store so that only the functions that move bodies bundle the S3 client.
 */

/** Where an attachment's body lives. */
export const bodyKeyOf = (bugId: number, attachmentId: number): string => attachmentKeys.bodyKey(bugId, attachmentId);

export async function putBody(key: string, body: Uint8Array, contentType: string, sha256: string): Promise<void> {
  await s3().send(
    new PutObjectCommand({
      Bucket: bucketName(),
      Key: key,
      Body: body,
      ContentType: contentType,
      Metadata: { sha256 },
    }),
  );
}

export async function getBody(key: string): Promise<Buffer> {
  const result = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: key }));
  return Buffer.from(await result.Body!.transformToByteArray());
}

export async function deleteBody(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: bucketName(), Key: key }));
}

/**
 * A short-lived address from which the body downloads straight from S3, with the headers S3 is
 * to answer with: `disposition` (see contentDisposition in the attachment rules) and the type.
 */
export async function presignBody(
  key: string,
  disposition: string,
  contentType: string,
  expiresInSeconds: number,
): Promise<string> {
  return getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: bucketName(),
      Key: key,
      ResponseContentDisposition: disposition,
      ResponseContentType: contentType,
    }),
    { expiresIn: expiresInSeconds },
  );
}

/** Every body in the bucket, page by page: key and when it was written. */
export async function* listBodies(): AsyncGenerator<{ key: string; lastModified: Date }> {
  let token: string | undefined;
  do {
    const page = await s3().send(
      new ListObjectsV2Command({ Bucket: bucketName(), Prefix: attachmentKeys.bodyPrefix, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? [])
      if (object.Key) yield { key: object.Key, lastModified: object.LastModified ?? new Date(0) };
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}
