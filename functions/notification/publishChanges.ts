import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { awsNotificationOutlets } from '../../shared/application/notification/awsOutlets.ts';
import { publishChanges } from '../../shared/application/notification/changePublisher.ts';
import { invocationObservers } from '../../shared/observability/invocationObservers.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * The table's change stream (a DynamoDB event source mapping), not an API route: every committed
 * bug change becomes events on the bus, bug mail and webhooks (changePublisher.ts). A failure
 * answers with the record to start again from (ReportBatchItemFailures), so the changes before
 * it are not handed over again and order per bug holds; what was delivered before a failure is
 * marked, and a retry does not send it twice.
 */
const outlets = awsNotificationOutlets();

export const handler = middy(async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const report = await publishChanges(event.Records, outlets, {
    warn: (message, details) => logger.warn(message, { ...details }),
  });
  const { retryFrom, error, problems, ...counts } = report;
  logger.info('bug changes published', { records: event.Records.length, ...counts, problems: problems.length });
  if (retryFrom === undefined) return { batchItemFailures: [] };
  const sequenceNumber = event.Records[retryFrom]?.dynamodb?.SequenceNumber ?? '';
  logger.error('publishing stopped; the stream hands the batch over again from this record', {
    sequenceNumber,
    error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
  });
  return { batchItemFailures: [{ itemIdentifier: sequenceNumber }] };
}).use(invocationObservers());
