/**
 * The customer-managed KMS key of a deployment that asks for one (`-c kmsKey=create` or a key
 * ARN): the table, the bucket, the log groups, the failure queue, the alarm topic and the
 * administrator's secret are encrypted with it. Without the setting each service uses its own
 * AWS key and there is no key to manage.
 *
 * Functions reach the key through their roles (the grants beside each table or bucket grant).
 * The services that write into encrypted resources on their own (CloudWatch Logs, CloudWatch
 * alarms publishing to the topic, EventBridge sending to the queue) need the key policy instead:
 * a created key gets those statements here; an imported key must already have them
 * (docs/operations.md lists them).
 */
import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import type { EncryptionSetting } from './stackSettings.ts';

/**
 * Services that use the key on their own, with the actions AWS documents for each. CloudWatch
 * Logs is held to this account's log groups by its encryption context; the others can only
 * reach the key through this stack's topics and queue, whose policies admit them.
 */
export const KEY_USER_SERVICES = [
  {
    sid: 'CloudWatchLogsEncryptsTheLogGroups',
    principal: () => `logs.${Aws.REGION}.amazonaws.com`,
    actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
    conditions: () => ({
      ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:*` },
    }),
  },
  {
    sid: 'CloudWatchAlarmsPublishToTheTopic',
    principal: () => 'cloudwatch.amazonaws.com',
    actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
    conditions: () => undefined,
  },
  {
    sid: 'SesReportsBouncesToTheTopic',
    principal: () => 'ses.amazonaws.com',
    actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
    conditions: () => undefined,
  },
  {
    sid: 'EventBridgeSendsFailedEventsToTheQueue',
    principal: () => 'events.amazonaws.com',
    actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
    conditions: () => undefined,
  },
] as const;

/** The key for `setting`, or undefined for AWS-managed encryption. */
export function stackKey(scope: Construct, id: string, setting: EncryptionSetting): kms.IKey | undefined {
  if (setting.kind === 'aws') return undefined;
  if (setting.kind === 'import') return kms.Key.fromKeyArn(scope, id, setting.keyArn);
  const key = new kms.Key(scope, id, {
    description: `Tracker (${Stack.of(scope).stackName}): table, attachments, logs, alarms, failed runs`,
    enableKeyRotation: true,
    // Everything it encrypts outlives the stack (the table and bucket are retained), so must the key.
    removalPolicy: RemovalPolicy.RETAIN,
    pendingWindow: Duration.days(30),
  });
  for (const service of KEY_USER_SERVICES) {
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: service.sid,
        principals: [new iam.ServicePrincipal(service.principal())],
        actions: [...service.actions],
        resources: ['*'],
        conditions: service.conditions(),
      }),
    );
  }
  return key;
}
