import { type BugChange, bugIdOf } from '../../domain/notification/bugChange.ts';
import { bugEvents, type TrackerEvent } from '../../domain/notification/bugEvents.ts';
import type { MailMessage } from '../../domain/notification/bugMailMessage.ts';
import { changeMail } from '../../domain/notification/changeMail.ts';
import { mailDelivery } from '../../domain/notification/mailRecipients.ts';
import { renderMessage } from '../../domain/notification/mimeMessage.ts';
import { audienceOf } from '../../domain/notification/notificationSettings.ts';
import { inRequestScope } from '../../runtime/requestScope.ts';
import { bugChangesOf } from '../../storage/notification/bugChangeRecords.ts';
import { type DeliveryLog, deliveryLogOf } from '../../storage/notification/deliveryLog.ts';
import type { TableStreamRecord } from '../../storage/notification/streamRecords.ts';
import { loadNotificationContext, type NotificationContext } from './notificationContext.ts';
import type { NotificationOutlets, WebhookTarget } from './notificationOutlets.ts';

/**
 * Tells people what changed: turns a batch of the table's change stream into bug changes and
 * delivers, for each in stream order (so in order per bug), its events to the bus, its mail,
 * and its webhooks. It runs outside any request: a request never waits for a notification nor
 * fails because of one.
 *
 * The stream hands a batch over at least once. Every delivery is marked once it succeeded
 * (deliveryLog.ts) and skipped when marked, so a batch handed over again sends only what did
 * not go out. When a change fails, the changes after it are not tried: the caller hands the
 * batch back from that change's first record (Lambda's partial batch response), and order per
 * bug holds. A webhook that does not answer is logged and left: a receiver that is down must
 * not hold back everyone's mail.
 */
export interface PublishReport {
  /** Position in the batch from which the stream must hand the records over again; absent when all went out. */
  retryFrom?: number;
  error?: unknown;
  changes: number;
  mails: number;
  events: number;
  webhooks: number;
  /** Deliveries found marked as done (a batch handed over again). */
  alreadyDelivered: number;
  /** Bug writes an import or a seed made (marked by `importRev`, bugChangeRecords.ts): nobody is told. */
  bulkLoaded: number;
  problems: string[];
}

/** Lets the caller log what went wrong where it logs (Powertools on AWS, the console locally). */
export interface PublishLog {
  warn(message: string, details?: Record<string, unknown>): void;
}

const EVENT_ENTRIES_PER_CALL = 10;

const messageIdOf = (message: MailMessage) =>
  message.headers.find(([name]) => name.toLowerCase() === 'message-id')?.[1] ?? '';

class ChangeDelivery {
  constructor(
    private readonly change: BugChange,
    private readonly context: NotificationContext,
    private readonly outlets: NotificationOutlets,
    private readonly deliveries: DeliveryLog,
    private readonly report: PublishReport,
    private readonly logger: PublishLog,
  ) {}

  async events(): Promise<void> {
    const events = bugEvents(this.change, { names: this.context.names }, this.outlets.eventAudience);
    const pending = events.filter((event) => !this.delivered('event', event.id));
    for (let start = 0; start < pending.length; start += EVENT_ENTRIES_PER_CALL) {
      const chunk = pending.slice(start, start + EVENT_ENTRIES_PER_CALL);
      await this.outlets.events.publish(chunk);
      for (const event of chunk) await this.deliveries.mark('event', event.id);
      this.report.events += chunk.length;
    }
  }

  async mail(): Promise<void> {
    const delivery = mailDelivery(this.context.parameters);
    if (delivery === 'none') return;
    for (const message of changeMail(this.change, this.context.mail)) {
      const key = `${messageIdOf(message)} ${message.to}`;
      if (this.delivered('mail', key)) continue;
      await this.outlets.mail.send({
        message,
        raw: renderMessage(message),
        delivery,
        key,
        bugId: bugIdOf(this.change),
        revision: this.change.revision,
      });
      await this.deliveries.mark('mail', key);
      this.report.mails++;
    }
  }

  async webhooks(): Promise<void> {
    for (const target of this.outlets.webhooks.targets) {
      for (const event of this.eventsFor(target)) {
        const key = `${target.url} ${event.id}`;
        if (this.delivered('webhook', key)) continue;
        try {
          await this.outlets.webhooks.poster.post(target, event);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          this.report.problems.push(`webhook ${target.url}: ${event.id}: ${reason}`);
          this.logger.warn('webhook delivery failed', { url: target.url, eventId: event.id, reason });
          continue;
        }
        await this.deliveries.mark('webhook', key);
        this.report.webhooks++;
      }
    }
  }

  private eventsFor(target: WebhookTarget): TrackerEvent[] {
    const events = bugEvents(this.change, { names: this.context.names }, audienceOf(target));
    return target.detailTypes ? events.filter((event) => target.detailTypes!.includes(event.detailType)) : events;
  }

  private delivered(channel: 'mail' | 'event' | 'webhook', key: string): boolean {
    if (!this.deliveries.has(channel, key)) return false;
    this.report.alreadyDelivered++;
    return true;
  }
}

const CONSOLE_LOG: PublishLog = { warn: (message, details) => console.warn(message, details ?? '') };

/** Publishes every change of a batch; never throws: a failure is reported with where to start again. */
export function publishChanges(
  records: readonly TableStreamRecord[],
  outlets: NotificationOutlets,
  log: PublishLog = CONSOLE_LOG,
): Promise<PublishReport> {
  // One scope for the batch: the catalogue and the people are read once for all its changes.
  return inRequestScope(async () => {
    const report: PublishReport = {
      changes: 0,
      mails: 0,
      events: 0,
      webhooks: 0,
      alreadyDelivered: 0,
      bulkLoaded: 0,
      problems: [],
    };
    let batch: Awaited<ReturnType<typeof bugChangesOf>>;
    let context: NotificationContext;
    try {
      batch = await bugChangesOf(records);
      report.bulkLoaded = batch.bulkLoaded;
      // Most records are no bug change (sessions, the search log, these deliveries' own markers).
      if (batch.changes.length === 0) return report;
      context = await loadNotificationContext(batch.changes.map((recorded) => recorded.change));
    } catch (error) {
      return records.length > 0 ? { ...report, retryFrom: 0, error } : report;
    }
    for (const [position, recorded] of batch.changes.entries()) {
      const { change } = recorded;
      if (recorded.attachmentsReadLater.length > 0)
        log.warn('attachments of a change were not in its batch: their flag transitions are not told', {
          bugId: bugIdOf(change),
          revision: change.revision,
          attachmentIds: recorded.attachmentsReadLater,
        });
      try {
        const delivery = new ChangeDelivery(
          change,
          context,
          outlets,
          await deliveryLogOf(bugIdOf(change), change.revision),
          report,
          log,
        );
        await delivery.events();
        await delivery.mail();
        await delivery.webhooks();
        report.changes++;
      } catch (error) {
        // Everything from this change on comes again, with the records of later changes read before it.
        const retryFrom = Math.min(...batch.changes.slice(position).flatMap((later) => later.indexes));
        return { ...report, retryFrom, error };
      }
    }
    return report;
  });
}
