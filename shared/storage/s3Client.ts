import { S3Client } from '@aws-sdk/client-s3';
import { sdkTimeouts } from './sdkTimeouts.ts';
import { ENV } from './tableSchema.ts';

/**
 * The one S3 client of a container, for the stack's bucket: attachment bodies and the search
 * snapshot. Locally TRACKER_S3_ENDPOINT points it at s3rver (path-style addressing). Timeouts
 * and retries as for DynamoDB (sdkTimeouts.ts).
 */
let client: S3Client | undefined;

export function s3Client(): S3Client {
  if (!client) {
    const endpoint = process.env[ENV.s3Endpoint];
    client = new S3Client(
      endpoint
        ? {
            endpoint,
            region: 'us-east-1',
            forcePathStyle: true,
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
            ...sdkTimeouts(),
          }
        : sdkTimeouts(),
    );
  }
  return client;
}

export function bucketName(): string {
  const name = process.env[ENV.bucket];
  if (!name) throw new Error(`${ENV.bucket} is not set`);
  return name;
}
