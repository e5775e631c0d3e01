/**
 * `npm run sweep:attachments`: removes attachment bodies that no metadata refers to (left only
 * when a process died between the S3 put and the DynamoDB transaction; see
 * shared/application/bug/attachmentCreation.ts). The stack runs the same sweep once a day. Bodies
 * younger than an hour are left alone, since their transaction may still be under way;
 * SWEEP_MIN_AGE_MINUTES changes that. Even a short age is safe: the sweep claims an id before
 * deleting its body, so an upload still in flight is refused (and can be sent again) rather than
 * stored without its body (attachmentSweep.ts).
 *
 * Against AWS: TRACKER_TABLE=<table> TRACKER_BUCKET=<bucket> npm run sweep:attachments (default
 * credentials). Against `npm start`'s engines, also set TRACKER_DYNAMODB_ENDPOINT and
 * TRACKER_S3_ENDPOINT to the addresses it prints.
 */
import { sweepOrphanBodies } from '../shared/application/bug/attachmentSweep.ts';
import { ENV } from '../shared/storage/tableSchema.ts';

const HELP = `Usage: npm run sweep:attachments

Removes attachment bodies in the bucket that no attachment refers to, older than
SWEEP_MIN_AGE_MINUTES (default 60). The stack runs the same sweep once a day.

Environment:
  ${ENV.table}, ${ENV.bucket}
      the installation (required)
  ${ENV.dynamodbEndpoint}, ${ENV.s3Endpoint}
      the local engines' addresses, as npm start prints them
  SWEEP_MIN_AGE_MINUTES (default 60)
      leave younger bodies alone: their upload may still be in flight

Against AWS it uses the default credentials.`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(HELP);
} else if (!process.env[ENV.table] || !process.env[ENV.bucket]) {
  console.error(`Set ${ENV.table} and ${ENV.bucket} to the installation to sweep.\n\n${HELP}`);
  process.exitCode = 2;
} else {
  const minutes = Number(process.env.SWEEP_MIN_AGE_MINUTES ?? 60);
  const { checked, deleted } = await sweepOrphanBodies({ minimumAgeMs: minutes * 60_000 });
  console.log(`Checked ${checked} attachment bodies; removed ${deleted.length} that no attachment refers to.`);
  for (const key of deleted) console.log(`  removed ${key}`);
}
