import middy from '@middy/core';
import type { EventBridgeEvent } from 'aws-lambda';
import { deliverToWebhooks } from '../../shared/application/notification/webhookDelivery.ts';
import { WebhookSecrets } from '../../shared/application/notification/webhookSecrets.ts';
import { NOTIFICATION_ENV, webhookTargetsFrom } from '../../shared/domain/notification/notificationSettings.ts';
import { invocationObservers } from '../../shared/observability/invocationObservers.ts';
import { logger } from '../../shared/observability/logger.ts';

/**
 * The target of the bus rule for webhooks, not an API route: signs each Tracker event and posts
 * it to the webhooks of TRACKER_WEBHOOKS that want it (webhookDelivery.ts). A failure throws, so
 * EventBridge and Lambda retry it, and in the end it lands in the dead-letter queue. Secrets
 * named by `secretName` are read from Secrets Manager (webhookSecrets.ts).
 */
const targets = webhookTargetsFrom(process.env[NOTIFICATION_ENV.webhooks]);
const secrets = new WebhookSecrets();

export const handler = middy(async (event: EventBridgeEvent<string, Record<string, unknown>>) => {
  const delivered = await deliverToWebhooks(event, await secrets.resolve(targets));
  logger.info('webhooks delivered', { eventId: event.detail?.event_id, delivered });
  return { delivered };
}).use(invocationObservers());
