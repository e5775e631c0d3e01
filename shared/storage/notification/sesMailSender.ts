import { PutObjectCommand } from '@aws-sdk/client-s3';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { bucketName, s3Client } from '../s3Client.ts';
import { sdkTimeouts } from '../sdkTimeouts.ts';

/**
 * Bug mail on AWS. `SMTP` and `Sendmail` (mail_delivery_method) send it through SES as the raw
 * message Tracker rendered, so every header Bugzilla's mail filters read goes out as written;
 * the envelope is the From address and the one recipient. `Test` keeps it instead, as Bugzilla
 * keeps it in a file: one `.eml` object per message under `outbox/mail/` in the stack's bucket.
 * The SES identity of mailfrom's domain must be verified (and the account out of the SES
 * sandbox) for mail to reach anyone.
 */
export const SES_ENV = {
  /** An SES configuration set for the mail (bounces, complaints, sending statistics); optional. */
  configurationSet: 'TRACKER_SES_CONFIGURATION_SET',
} as const;

/** Where Test mail is kept in the bucket. */
export const TEST_MAIL_PREFIX = 'outbox/mail/';

let ses: SESv2Client | undefined;

export async function sendRawMail(from: string, to: string, raw: string): Promise<void> {
  ses ??= new SESv2Client(sdkTimeouts());
  const configurationSet = process.env[SES_ENV.configurationSet];
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: from,
      Destination: { ToAddresses: [to] },
      Content: { Raw: { Data: Buffer.from(raw, 'utf8') } },
      ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
    }),
  );
}

/** Keeps a Test mail in the bucket; the same message always lands on the same object. */
export async function keepTestMail(name: string, raw: string): Promise<void> {
  await s3Client().send(
    new PutObjectCommand({
      Bucket: bucketName(),
      Key: `${TEST_MAIL_PREFIX}${name}`,
      Body: raw,
      ContentType: 'message/rfc822',
    }),
  );
}
