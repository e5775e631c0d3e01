import middy from '@middy/core';
import type { SNSEvent } from 'aws-lambda';
import { stopMailFor } from '../../shared/application/notification/mailFeedback.ts';
import { mailFeedbackOf } from '../../shared/domain/notification/mailFeedback.ts';
import { invocationObservers } from '../../shared/observability/invocationObservers.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * Subscribed to the topic SES reports bounces and complaints to (lib/notifications.ts), not an
 * API route: turns mail off for an address that bounced for good or complained
 * (mailFeedback.ts). A failure throws, so Lambda retries it and then sets it aside in the
 * notification failure queue.
 */
export const handler = middy(async (event: SNSEvent) => {
  let disabled = 0;
  for (const record of event.Records) {
    const feedback = mailFeedbackOf(record.Sns.Message);
    if (!feedback) continue;
    const outcomes = await stopMailFor(feedback);
    disabled += outcomes.filter((entry) => entry.outcome === 'disabled').length;
    logger.info('mail feedback', { kind: feedback.kind, detail: feedback.detail, outcomes });
  }
  return { disabled };
}).use(invocationObservers());
