/**
 * The scheduled functions (search compactor, attachment orphan sweep): an EventBridge rule that
 * invokes each asynchronously, the retries each gets, and one dead-letter queue for runs that
 * failed for good, whichever side failed: EventBridge not delivering the event (target DLQ) or
 * the function failing its last attempt (Lambda's on-failure destination, which records the
 * error with the event). Monitoring alarms on anything in the queue.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** How long a failed run waits in the queue for someone to look (SQS's longest). */
export const FAILED_RUN_RETENTION = Duration.days(14);

export function createFailedRunQueue(scope: Construct, id: string, encryptionKey?: kms.IKey): sqs.Queue {
  return new sqs.Queue(scope, id, {
    ...(encryptionKey
      ? { encryption: sqs.QueueEncryption.KMS, encryptionMasterKey: encryptionKey }
      : { encryption: sqs.QueueEncryption.SQS_MANAGED }),
    enforceSSL: true,
    retentionPeriod: FAILED_RUN_RETENTION,
  });
}

export interface ScheduleOptions {
  description: string;
  schedule: events.Schedule;
  /** Further attempts after a failed one: by EventBridge (delivery) and by Lambda (the run). */
  retryAttempts: number;
  /** A run not started (or retried) within this is dropped into the queue: the next one is due. */
  maxEventAge: Duration;
  failedRuns: sqs.IQueue;
}

/** Runs `fn` on a schedule, with retries and the dead-letter queue. */
export function schedule(scope: Construct, id: string, fn: lambda.Function, options: ScheduleOptions): events.Rule {
  fn.configureAsyncInvoke({
    retryAttempts: options.retryAttempts,
    maxEventAge: options.maxEventAge,
    onFailure: new destinations.SqsDestination(options.failedRuns),
  });
  return new events.Rule(scope, id, {
    description: options.description,
    schedule: options.schedule,
    targets: [
      new eventTargets.LambdaFunction(fn, {
        retryAttempts: options.retryAttempts,
        maxEventAge: options.maxEventAge,
        deadLetterQueue: options.failedRuns,
      }),
    ],
  });
}
