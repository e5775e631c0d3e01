import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { plainBug } from './support/bugFixtures.ts';

/**
 * The stream function's answer to Lambda: an empty list of failures when the batch went out,
 * else the record to hand the batch over again from (ReportBatchItemFailures). No AWS is reached:
 * these batches hold no bug change the publisher could deliver (and no TRACKER_TABLE is set).
 */
const environment = vi.hoisted(() => {
  const previous = process.env.TRACKER_EVENT_BUS;
  process.env.TRACKER_EVENT_BUS = 'tracker-events';
  return previous;
});

let handler: (event: DynamoDBStreamEvent, context: Context) => Promise<{ batchItemFailures: unknown[] }>;
const context = {
  awsRequestId: 'stream-1',
  functionName: 'notification-publishChanges',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

const streamRecord = (
  sequence: string,
  eventName: 'INSERT' | 'MODIFY',
  pk: string,
  sk: string,
  images: { next?: object; previous?: object },
): DynamoDBRecord =>
  ({
    eventName,
    dynamodb: {
      Keys: marshall({ pk, sk }),
      ...(images.next ? { NewImage: marshall({ pk, sk, ...images.next }, { removeUndefinedValues: true }) } : {}),
      ...(images.previous
        ? { OldImage: marshall({ pk, sk, ...images.previous }, { removeUndefinedValues: true }) }
        : {}),
      SequenceNumber: sequence,
      ApproximateCreationDateTime: 1_741_064_767,
    },
  }) as DynamoDBRecord;

beforeAll(async () => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  handler = (await import('../../functions/notification/publishChanges.ts')).handler as never;
});

afterAll(() => {
  vi.restoreAllMocks();
  if (environment === undefined) delete process.env.TRACKER_EVENT_BUS;
  else process.env.TRACKER_EVENT_BUS = environment;
});

describe('the stream function', () => {
  it('reports no failure for a batch without bug changes', async () => {
    const event = {
      Records: [
        streamRecord('100', 'INSERT', 'USER#7', 'USER', { next: { login: 'a@example.com' } }),
        streamRecord('101', 'INSERT', 'NOTIFIED#42', '0000000001#mail#ab', { next: { type: 'delivered' } }),
      ],
    };
    expect(await handler(event, context)).toEqual({ batchItemFailures: [] });
  });

  it('asks for the whole batch again when it cannot read it', async () => {
    // A change read without the bug as it was (a stream of new images only) cannot be told.
    const bug = plainBug(42);
    const event = {
      Records: [
        streamRecord('200', 'INSERT', 'USER#7', 'USER', { next: { login: 'a@example.com' } }),
        streamRecord('201', 'MODIFY', 'BUG#42', 'BUG', { next: { type: 'bug', ...bug, rev: 3 } }),
      ],
    };
    expect(await handler(event, context)).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
  });
});
