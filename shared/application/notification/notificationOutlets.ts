import { createHash } from 'node:crypto';
import type { EventAudience, TrackerEvent } from '../../domain/notification/bugEvents.ts';
import type { MailMessage } from '../../domain/notification/bugMailMessage.ts';
import type { MailDelivery } from '../../domain/notification/mailRecipients.ts';
import type { WebhookTarget } from '../../domain/notification/notificationSettings.ts';

/**
 * Where the publisher delivers what a change tells: mail, events and webhooks. On AWS mail goes
 * through SES and events to the stack's EventBridge bus; locally both become files under the
 * data directory (`npm start`), and webhooks are posted for real in both.
 */
export type { WebhookTarget };

export interface OutgoingMail {
  message: MailMessage;
  /** The message as it goes on the wire (renderMessage): RFC 5322, CRLF line ends. */
  raw: string;
  /** mail_delivery_method: send it (SMTP, Sendmail) or keep it where it can be read (Test). */
  delivery: Exclude<MailDelivery, 'none'>;
  /** Names this message among every other: its Message-ID and its recipient. */
  key: string;
  bugId: number;
  revision: number;
}

export interface MailSender {
  /** Resolves once the message is handed over (or kept); rejects when it was not, and it is sent again later. */
  send(mail: OutgoingMail): Promise<void>;
}

export interface EventPublisher {
  /** Resolves once every event is on the bus; rejects when any is not (all are published again later). */
  publish(events: readonly TrackerEvent[]): Promise<void>;
}

export interface WebhookPoster {
  /** Posts one signed event; rejects when the receiver did not take it after the poster's own retries. */
  post(target: WebhookTarget, event: TrackerEvent): Promise<void>;
}

export interface NotificationOutlets {
  mail: MailSender;
  events: EventPublisher;
  /** Who the events on the bus are built for (TRACKER_EVENT_AUDIENCE). */
  eventAudience: EventAudience;
  webhooks: { targets: readonly WebhookTarget[]; poster: WebhookPoster };
}

/**
 * The file (or object) name a kept message gets: the bug, the revision and the recipient, and a
 * digest of its key, so one message always has one name and keeping it twice leaves one copy.
 */
export function mailFileName(mail: Pick<OutgoingMail, 'bugId' | 'revision' | 'key' | 'message'>): string {
  const recipient = mail.message.to.replace(/[^A-Za-z0-9@._+-]/g, '_').slice(0, 100);
  const digest = createHash('sha256').update(mail.key).digest('hex').slice(0, 10);
  return `bug-${mail.bugId}-r${mail.revision}-${recipient}-${digest}.eml`;
}
