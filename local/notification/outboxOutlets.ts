import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  mailFileName,
  type NotificationOutlets,
  type OutgoingMail,
  type WebhookTarget,
} from '../../shared/application/notification/notificationOutlets.ts';
import { type TrackerEvent, webhookBody } from '../../shared/domain/notification/bugEvents.ts';
import { eventAudienceFrom, NOTIFICATION_ENV } from '../../shared/domain/notification/notificationSettings.ts';
import type { WebhookQueue } from './webhookQueue.ts';

/**
 * The publisher's outlets on the local engines: each mail an `.eml` file under `<outbox>/mail/`
 * (what SES would be handed), each event a `.json` file under `<outbox>/events/` (what the bus
 * would carry), and each event for a webhook handed to its queue (webhookQueue.ts), which posts
 * it for real, apart from the publisher: handing it over never waits for a receiver. A message or event always
 * has the same file name, so keeping it again leaves one file. Nothing is sent by mail from a
 * developer's machine: with mail_delivery_method SMTP or Sendmail the mail is kept the same way
 * as with Test (and `npm start` says so once).
 */
export interface OutboxOptions {
  /** The outbox directory, e.g. `.data/outbox`. */
  directory: string;
  env?: NodeJS.ProcessEnv;
  /** The webhooks and the queue that posts to them; none: no webhooks. */
  webhooks?: { targets: readonly WebhookTarget[]; queue: WebhookQueue };
  /** Told once when mail would be sent rather than kept. */
  onSendingMail?: () => void;
}

/** Writes a whole file or none: the publisher may stop at any moment. */
function writeWhole(path: string, content: string): void {
  writeFileSync(`${path}.tmp`, content);
  renameSync(`${path}.tmp`, path);
}

/** An event as a file, as EventBridge hands it to a consumer (with the idempotency key as `id`). */
export const eventFileContent = (event: TrackerEvent): string =>
  `${JSON.stringify(JSON.parse(webhookBody(event)), null, 2)}\n`;

export function outboxOutlets(options: OutboxOptions): NotificationOutlets {
  const env = options.env ?? process.env;
  const mailDirectory = join(options.directory, 'mail');
  const eventDirectory = join(options.directory, 'events');
  mkdirSync(mailDirectory, { recursive: true });
  mkdirSync(eventDirectory, { recursive: true });
  let toldAboutSending = false;
  return {
    mail: {
      async send(mail: OutgoingMail) {
        if (mail.delivery === 'send' && !toldAboutSending) {
          toldAboutSending = true;
          options.onSendingMail?.();
        }
        writeWhole(join(mailDirectory, mailFileName(mail)), mail.raw);
      },
    },
    events: {
      async publish(events) {
        for (const event of events) writeWhole(join(eventDirectory, `${event.id}.json`), eventFileContent(event));
      },
    },
    eventAudience: eventAudienceFrom(env[NOTIFICATION_ENV.eventAudience]),
    webhooks: {
      targets: options.webhooks?.targets ?? [],
      poster: {
        async post(target, event) {
          if (!options.webhooks) throw new Error(`no webhook queue for ${target.url}`);
          options.webhooks.queue.enqueue(target, event);
        },
      },
    },
  };
}
