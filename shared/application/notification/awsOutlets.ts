import {
  eventAudienceFrom,
  NOTIFICATION_ENV,
  webhooksWithInlineSecrets,
  webhookTargetsFrom,
} from '../../domain/notification/notificationSettings.ts';
import { putEventsOnBus } from '../../storage/notification/eventBridgePublisher.ts';
import { postWebhook } from '../../storage/notification/httpWebhookPoster.ts';
import { keepTestMail, sendRawMail } from '../../storage/notification/sesMailSender.ts';
import { mailFileName, type NotificationOutlets } from './notificationOutlets.ts';

/**
 * The publisher's outlets on AWS: mail through SES (Test mail kept in the bucket), events on the
 * stack's bus, and webhooks posted from the function when TRACKER_WEBHOOKS names any.
 */
export function awsNotificationOutlets(env: NodeJS.ProcessEnv = process.env): NotificationOutlets {
  const bus = env[NOTIFICATION_ENV.eventBus];
  if (!bus) throw new Error(`${NOTIFICATION_ENV.eventBus} is not set`);
  return {
    mail: {
      send: (mail) =>
        mail.delivery === 'test'
          ? keepTestMail(mailFileName(mail), mail.raw)
          : sendRawMail(mail.message.from, mail.message.to, mail.raw),
    },
    events: { publish: (events) => putEventsOnBus(bus, events) },
    eventAudience: eventAudienceFrom(env[NOTIFICATION_ENV.eventAudience]),
    webhooks: {
      targets: webhooksWithInlineSecrets(webhookTargetsFrom(env[NOTIFICATION_ENV.webhooks])),
      poster: { post: (target, event) => postWebhook(target, event) },
    },
  };
}
