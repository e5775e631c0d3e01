/**
 * The cdk-nag findings (AwsSolutions and Serverless packs, test/unit/cdkNag.suite.ts) that are
 * acknowledged rather than fixed, each on the constructs it concerns and with the reason. Uses
 * CDK's own `Validations.of().acknowledge()`, which cdk-nag reads: nothing here needs cdk-nag.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { ATTACHMENT_BODY_PREFIX, type FunctionRoles, SEARCH_SNAPSHOT_PREFIX } from './functionRoles.ts';
import { BOOTSTRAP_HANDLER } from './handlerPlan.ts';
import type { Monitoring } from './monitoring.ts';
import { type Notifications, TEST_MAIL_OBJECTS } from './notifications.ts';
import type { SingleSignOn } from './singleSignOn.ts';
import type { StackSettings } from './stackSettings.ts';
import type { TrackerStorage } from './trackerStorage.ts';
import type { WebFrontEnd } from './webFrontEnd.ts';

/**
 * The parts of the stack the acknowledgements name. TrackerStack is one; this file takes its shape
 * rather than the class, so that the stack can apply them without a circle of imports.
 */
export interface NagSubject extends Stack {
  readonly settings: StackSettings;
  readonly encryptionKey?: kms.IKey;
  readonly storage: TrackerStorage;
  readonly api: HttpApi;
  readonly adminApiKey: secretsmanager.Secret;
  readonly roles: FunctionRoles;
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  readonly searchCompactor: NodejsFunction;
  readonly attachmentSweep: NodejsFunction;
  readonly failedRuns: sqs.Queue;
  readonly notifications: Notifications;
  readonly monitoring: Monitoring;
  readonly web: WebFrontEnd;
  readonly singleSignOn?: SingleSignOn;
}

function acknowledge(constructs: readonly IConstruct[], id: string, reason: string): void {
  for (const construct of constructs) Validations.of(construct).acknowledge({ id, reason });
}

/** `<LogicalId.Arn>` as cdk-nag writes a resource attribute in a finding. */
const arnOf = (construct: IConstruct): string => {
  const resource = construct.node.defaultChild as unknown as { logicalId?: string } | undefined;
  const logicalId = Stack.of(construct).resolve(resource?.logicalId);
  return `<${logicalId}.Arn>`;
};

const policiesOf = (roles: readonly iam.Role[]): IConstruct[] =>
  roles.flatMap((role) => role.node.children.filter((child) => child instanceof iam.Policy));

export function applyNagSuppressions(stack: NagSubject): void {
  const { api, functions, searchCompactor, attachmentSweep, adminApiKey, failedRuns, storage, settings } = stack;
  const apiFunctions: lambda.IFunction[] = [...functions.values()];
  const scheduled = [searchCompactor, attachmentSweep];
  const { publisher, webhookDelivery, mailFeedback, mailFeedbackTopic, failures } = stack.notifications;
  const notificationFunctions = [
    publisher,
    ...(webhookDelivery ? [webhookDelivery] : []),
    ...(mailFeedback ? [mailFeedback] : []),
  ];
  const provider = stack.node.findChild('BootstrapProvider');
  const framework = provider.node.findChild('framework-onEvent');
  const roles = stack.roles.roles;

  // --- API -----------------------------------------------------------------------------------
  acknowledge(
    [api],
    'AwsSolutions-APIG4',
    'Bugzilla clients authenticate in the request itself (API key, token or login parameters, as Bugzilla 5 does), ' +
      'and anonymous callers may read public bugs: every function checks the caller (shared/http middleware). ' +
      'An API Gateway authorizer cannot express that.',
  );

  // --- Functions -----------------------------------------------------------------------------
  acknowledge(
    apiFunctions,
    'Serverless-LambdaDLQ',
    'Invoked synchronously (API Gateway, or CloudFormation through the provider framework for the bootstrap): ' +
      'the caller gets the failure, there is no event to keep.',
  );
  acknowledge(
    scheduled,
    'Serverless-LambdaDLQ',
    'Failed runs go to the failed-run queue through the on-failure destination (scheduledRuns.ts), ' +
      'which records the error as well as the event; a DeadLetterConfig as well would deliver each failure twice.',
  );
  acknowledge(
    [publisher],
    'Serverless-LambdaDLQ',
    "Invoked by the table stream's event source mapping, whose on-failure destination (the notification failure " +
      'queue) keeps the position of a batch that failed for good; a function DLQ only serves asynchronous invocations.',
  );
  if (webhookDelivery || mailFeedback) {
    acknowledge(
      [...(webhookDelivery ? [webhookDelivery] : []), ...(mailFeedback ? [mailFeedback] : [])],
      'Serverless-LambdaDLQ',
      'Failed runs go to the notification failure queue through the on-failure destination (notifications.ts), ' +
        'which records the error as well as the event; a DeadLetterConfig as well would deliver each failure twice.',
    );
  }
  if (!settings.tracing) {
    acknowledge(
      [...apiFunctions, ...scheduled, ...notificationFunctions],
      'Serverless-LambdaTracing',
      'X-Ray tracing is a deployment setting (-c tracing=on, docs/operations.md), off by default for its cost.',
    );
  }

  // --- Roles ---------------------------------------------------------------------------------
  const bodyObjects = `Resource::${arnOf(storage.bucket)}/${ATTACHMENT_BODY_PREFIX}*`;
  acknowledge(
    policiesOf(roles),
    `AwsSolutions-IAM5[${bodyObjects}]`,
    'The objects under attachments/ of the attachment bucket: one per attachment body, named by bug and ' +
      'attachment id at upload time.',
  );
  acknowledge(
    policiesOf(roles),
    `AwsSolutions-IAM5[Resource::${arnOf(storage.bucket)}/${SEARCH_SNAPSHOT_PREFIX}*]`,
    'The objects under search-snapshots/ of the bucket: the frames of the search snapshot, named by generation, ' +
      'part and frame when the compactor writes them (docs/data-model.md §8.7).',
  );
  acknowledge(
    policiesOf(roles),
    `AwsSolutions-IAM5[Resource::${arnOf(storage.bucket)}/${TEST_MAIL_OBJECTS}]`,
    "The notification publisher keeps each mail under outbox/mail/ when mail_delivery_method is Test (Bugzilla's " +
      'file of test mail): one object per message, named by its Message-ID and recipient.',
  );
  acknowledge(
    policiesOf([publisher.role as iam.Role]),
    'AwsSolutions-IAM5[Resource::*]',
    "dynamodb:ListStreams, which the stream's event source mapping needs (as CDK grants it), has no " +
      'resource-level permissions; the stream itself is read by its ARN only.',
  );
  if (settings.tracing) {
    acknowledge(
      policiesOf(roles),
      'AwsSolutions-IAM5[Resource::*]',
      "X-Ray's PutTraceSegments and PutTelemetryRecords have no resource-level permissions (Lambda active tracing).",
    );
  }
  if (stack.encryptionKey) {
    for (const action of ['kms:GenerateDataKey*', 'kms:ReEncrypt*']) {
      acknowledge(
        policiesOf(roles),
        `AwsSolutions-IAM5[Action::${action}]`,
        `${action} on the stack's one key only: the variants KMS uses for the table, the bucket and the queue ` +
          '(as CDK grants them).',
      );
    }
  }

  // --- Storage, queue, secret ----------------------------------------------------------------
  acknowledge(
    [adminApiKey],
    'AwsSolutions-SMG4',
    "The first administrator's API key, generated once: nothing could rotate it in the table as well. " +
      'Administrators replace API keys through the API (docs/operations.md, "Rotating the administrator key").',
  );
  acknowledge(
    [failedRuns],
    'AwsSolutions-SQS3',
    'This queue is itself the dead-letter queue of the scheduled functions (EventBridge target DLQ and Lambda ' +
      'on-failure destination).',
  );
  acknowledge(
    [failedRuns],
    'Serverless-SQSRedrivePolicy',
    'This queue is itself a dead-letter queue: nothing consumes it to fail again.',
  );
  acknowledge(
    [failures],
    'AwsSolutions-SQS3',
    'This queue is itself the dead-letter queue of the notifications (stream on-failure destination, EventBridge ' +
      'target DLQ and Lambda on-failure destination of the webhook function).',
  );
  acknowledge(
    [failures],
    'Serverless-SQSRedrivePolicy',
    'This queue is itself a dead-letter queue: nothing consumes it to fail again.',
  );
  if (mailFeedbackTopic) {
    acknowledge(
      // The finding is on the subscription, which CDK makes a child of the function.
      [mailFeedbackTopic, ...(mailFeedback ? [mailFeedback] : [])],
      'Serverless-SNSRedrivePolicy',
      'Its one subscriber is the mail feedback function, invoked asynchronously: SNS retries delivery to Lambda ' +
        'for days, and a run that fails lands in the notification failure queue (on-failure destination).',
    );
  }
  if (settings.alarmEmail) {
    acknowledge(
      [stack.monitoring.topic],
      'Serverless-SNSRedrivePolicy',
      'The e-mail subscription of the alarm topic: an undeliverable alarm e-mail shows in SNS delivery metrics, ' +
        'and a queue of undelivered alarms would have no reader either.',
    );
  }

  // --- Web front end (webFrontEnd.ts) ----------------------------------------------------------
  const { distribution } = stack.web;
  acknowledge(
    [distribution],
    'AwsSolutions-CFR1',
    'A bug tracker is used from anywhere its users are; which countries to refuse is a choice for a deployment ' +
      '(an addition to the distribution), not a default.',
  );
  acknowledge(
    [distribution],
    'AwsSolutions-CFR2',
    "AWS WAF costs per web ACL and request; the API's own throttling (stage-wide rate and burst limits) and its " +
      'login throttle hold abuse off. A deployment that needs a WAF attaches one to the distribution.',
  );
  acknowledge(
    [distribution],
    'AwsSolutions-CFR3',
    "Every API request is logged by API Gateway's JSON access log and the functions' own log; standard logs of the " +
      'static files would need an ACL-enabled bucket (the access log bucket enforces bucket-owner ownership).',
  );
  acknowledge(
    [distribution],
    'AwsSolutions-CFR4',
    "The distribution's own *.cloudfront.net certificate, whose TLS policy CloudFront fixes: a minimum protocol " +
      'version needs a certificate of its own (a custom domain for the web app, not yet a deployment setting).',
  );
  const deploymentProvider = stack.node.children.find((child) =>
    child.node.id.startsWith('Custom::CDKBucketDeployment'),
  );
  if (deploymentProvider) {
    const deploymentReason =
      "Part of aws-cdk-lib's BucketDeployment, which copies the built web app into its bucket at deploy time";
    acknowledge(
      [deploymentProvider],
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      `${deploymentReason}: CDK gives its role this policy.`,
    );
    for (const finding of [
      'Action::s3:Abort*',
      'Action::s3:DeleteObject*',
      'Action::s3:GetBucket*',
      'Action::s3:GetObject*',
      'Action::s3:List*',
      `Resource::${arnOf(stack.web.bucket)}/*`,
      'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*',
    ])
      acknowledge(
        [deploymentProvider],
        `AwsSolutions-IAM5[${finding}]`,
        `${deploymentReason}: CDK grants it reading the staged asset and writing every object of the web bucket.`,
      );
    acknowledge([deploymentProvider], 'AwsSolutions-L1', `${deploymentReason}: CDK chooses its runtime.`);
    acknowledge(
      [deploymentProvider],
      'Serverless-LambdaLatestVersion',
      `${deploymentReason}: CDK chooses its runtime.`,
    );
    acknowledge(
      [deploymentProvider],
      'Serverless-LambdaDLQ',
      `${deploymentReason}: CloudFormation waits for its answer and shows a failure as a failed deploy.`,
    );
    acknowledge([deploymentProvider], 'Serverless-LambdaTracing', `${deploymentReason}: nothing to trace in it.`);
  }

  // --- Single sign-on (singleSignOn.ts) ------------------------------------------------------
  const userPool = stack.singleSignOn?.userPool;
  if (userPool)
    acknowledge(
      [userPool],
      'AwsSolutions-COG8',
      'The Plus feature plan (threat protection) is billed per active user on top of Essentials; the pool requires ' +
        'a second factor (authenticator app) and a 12-character password of every person instead. A team that wants ' +
        'adaptive authentication switches the plan on the pool.',
    );

  // --- CDK's custom-resource provider framework ----------------------------------------------
  const frameworkReason = "Part of aws-cdk-lib's custom-resource provider framework (the deploy-time bootstrap)";
  acknowledge(
    [framework],
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    `${frameworkReason}: CDK gives its role this policy.`,
  );
  acknowledge(
    [framework],
    `AwsSolutions-IAM5[Resource::${arnOf(functions.get(BOOTSTRAP_HANDLER) ?? framework)}:*]`,
    `${frameworkReason}: it may invoke any version of the bootstrap function.`,
  );
  acknowledge([framework], 'Serverless-LambdaDefaultMemorySize', `${frameworkReason}: CDK sizes it.`);
  acknowledge(
    [framework],
    'Serverless-LambdaDLQ',
    `${frameworkReason}: CloudFormation waits for its answer and shows a failure as a failed deploy.`,
  );
  acknowledge([framework], 'Serverless-LambdaTracing', `${frameworkReason}: nothing to trace in it.`);
}
