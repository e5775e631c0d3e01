import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { searchKeys } from '../keys.ts';
import { bucketName, s3Client } from '../s3Client.ts';

/**
 * The search snapshot's frames in the bucket, one object per compressed frame (about 1 MB at a
 * million bugs). Kept in S3 rather than in table items: a cold instance reads a million bugs'
 * core (43 MB) as binary GETs, 8 in flight, instead of base64 inside JSON from one partition
 * (measured locally 0.6 s against 2.5 s), DynamoDB's 3,000 read units a second per partition
 * would have held that read to about 12 MB/s on AWS, and writing a snapshot every few minutes
 * costs a few dozen PUTs instead of tens of thousands of write units.
 */

/** Frames written at once. */
const WRITES_IN_FLIGHT = 8;

export async function putSnapshotFrames(
  generation: string,
  part: string,
  frames: readonly Uint8Array[],
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < frames.length) {
      const frame = next++;
      await s3Client().send(
        new PutObjectCommand({
          Bucket: bucketName(),
          Key: searchKeys.snapshotFrame(generation, part, frame),
          Body: frames[frame],
          ContentType: 'application/gzip',
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITES_IN_FLIGHT, frames.length) }, worker));
}

/** One frame's compressed bytes; a missing object (its generation deleted under a slow reader) throws. */
export async function readSnapshotFrame(generation: string, part: string, frame: number): Promise<Uint8Array> {
  const result = await s3Client().send(
    new GetObjectCommand({ Bucket: bucketName(), Key: searchKeys.snapshotFrame(generation, part, frame) }),
  );
  return result.Body!.transformToByteArray();
}

/** Deletes every frame of a generation (none for generations kept in table items). */
export async function deleteSnapshotObjects(generation: string): Promise<void> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3Client().send(
      new ListObjectsV2Command({
        Bucket: bucketName(),
        Prefix: searchKeys.snapshotObjects(generation),
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  // One DeleteObject each rather than DeleteObjects, which needs a checksum header every S3
  // stand-in does not take; a generation is a few hundred objects at most.
  let next = 0;
  const worker = async () => {
    while (next < keys.length)
      await s3Client().send(new DeleteObjectCommand({ Bucket: bucketName(), Key: keys[next++] }));
  };
  await Promise.all(Array.from({ length: Math.min(WRITES_IN_FLIGHT, keys.length) }, worker));
}
