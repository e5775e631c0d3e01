import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeStreamPoller, type DrainReport } from '../../local/notification/changeStreamPoller.ts';
import { outboxOutlets } from '../../local/notification/outboxOutlets.ts';
import { type FlushReport, WebhookQueue } from '../../local/notification/webhookQueue.ts';
import type {
  NotificationOutlets,
  OutgoingMail,
  WebhookTarget,
} from '../../shared/application/notification/notificationOutlets.ts';
import { type EventAudience, PUBLIC_AUDIENCE, type TrackerEvent } from '../../shared/domain/notification/bugEvents.ts';
import { TableStreamReader } from '../../shared/storage/notification/tableStream.ts';
import { ENV } from '../../shared/storage/tableSchema.ts';
import { call, type TestApp } from './testApp.ts';

/**
 * The notification publisher as `npm start` runs it, against a test file's own table: the
 * table's real stream polled by the local poller, mail and events kept in a throwaway outbox,
 * and everything handed over recorded in order, so a test can ask who got what.
 */
export interface NotificationHarness {
  outbox: string;
  /** Every mail handed over, in order (a resent one twice). */
  mails: OutgoingMail[];
  /** Every event put on the "bus", in order (a republished one twice). */
  events: TrackerEvent[];
  outlets: NotificationOutlets;
  poller: ChangeStreamPoller;
  /** The webhooks' queues (not started: drain flushes them). */
  webhookQueue: WebhookQueue;
  /** What the last drain's flush of the webhook queues posted. */
  lastFlush: FlushReport;
  /**
   * Publishes what the stream holds now, then posts what the webhook queues hold (each up to its
   * first failure); fails the test when a page did not all go out.
   */
  drain(): Promise<DrainReport>;
  /** The `.eml` files of the outbox, by name. */
  mailFiles(): Map<string, string>;
  /** The `.json` event files of the outbox, parsed, by event id. */
  eventFiles(): Map<string, any>;
  /** Forgets what was recorded (the outbox stays). */
  reset(): void;
  close(): Promise<void>;
}

export interface HarnessOptions {
  eventAudience?: EventAudience;
  webhooks?: WebhookTarget[];
  pageSize?: number;
  /** Wraps the outlets (to make them fail, for instance). */
  wrap?: (outlets: NotificationOutlets) => NotificationOutlets;
}

export function notificationHarness(options: HarnessOptions = {}): NotificationHarness {
  const outbox = mkdtempSync(join(tmpdir(), 'tracker-outbox-'));
  const mails: OutgoingMail[] = [];
  const events: TrackerEvent[] = [];
  const webhookQueue = new WebhookQueue({
    directory: join(outbox, 'webhooks'),
    targets: options.webhooks ?? [],
    timeoutMs: 20_000,
    log: { warn: () => undefined, error: () => undefined },
  });
  const files = outboxOutlets({
    directory: outbox,
    env: {},
    webhooks: { targets: options.webhooks ?? [], queue: webhookQueue },
  });
  const recorded: NotificationOutlets = {
    mail: {
      async send(mail) {
        await files.mail.send(mail);
        mails.push(mail);
      },
    },
    events: {
      async publish(published) {
        await files.events.publish(published);
        events.push(...published);
      },
    },
    eventAudience: options.eventAudience ?? PUBLIC_AUDIENCE,
    webhooks: { targets: options.webhooks ?? [], poster: files.webhooks.poster },
  };
  const outlets = options.wrap ? options.wrap(recorded) : recorded;
  const tableName = process.env[ENV.table]!;
  let streamChecked = false;
  const poller = new ChangeStreamPoller({
    tableName,
    outlets,
    pageSize: options.pageSize,
    log: { warn: () => undefined },
  });
  const harness: NotificationHarness = {
    outbox,
    mails,
    events,
    outlets,
    poller,
    webhookQueue,
    lastFlush: { delivered: 0, failed: 0 },
    async drain() {
      // Without a stream the poller finds nothing to publish, and a test would wait for mail
      // that never comes: say why at once.
      if (!streamChecked) {
        if (!(await new TableStreamReader(tableName).streamArn()))
          throw new Error(
            `table ${tableName} has no change stream: start the app with startTestApp({ changeStream: true })`,
          );
        streamChecked = true;
      }
      const drained = await poller.drain();
      if (drained.failed) throw drained.failed.error;
      harness.lastFlush = await webhookQueue.flush();
      return drained;
    },
    mailFiles: () =>
      new Map(
        readdirSync(join(outbox, 'mail'))
          .filter((name) => name.endsWith('.eml'))
          .map((name) => [name, readFileSync(join(outbox, 'mail', name), 'utf8')]),
      ),
    eventFiles: () =>
      new Map(
        readdirSync(join(outbox, 'events'))
          .filter((name) => name.endsWith('.json'))
          .map((name) => {
            const event = JSON.parse(readFileSync(join(outbox, 'events', name), 'utf8'));
            return [event.id, event];
          }),
      ),
    reset() {
      mails.length = 0;
      events.length = 0;
    },
    async close() {
      await poller.stop();
      await webhookQueue.stop();
      rmSync(outbox, { recursive: true, force: true });
    },
  };
  return harness;
}

/** A header of a mail as the rules wrote it (not as folded on the wire). */
export const headerOf = (mail: OutgoingMail, name: string): string | undefined =>
  mail.message.headers.find(([header]) => header.toLowerCase() === name.toLowerCase())?.[1];

/** The mails of one bug, by recipient login. */
export function mailsTo(mails: readonly OutgoingMail[], bugId: number): Map<string, OutgoingMail[]> {
  const byRecipient = new Map<string, OutgoingMail[]>();
  for (const mail of mails.filter((entry) => entry.bugId === bugId)) {
    const list = byRecipient.get(mail.message.to) ?? [];
    list.push(mail);
    byRecipient.set(mail.message.to, list);
  }
  return byRecipient;
}

export interface Person {
  id: number;
  login: string;
  key: string;
}

/** A user `<name>@tracker.test` in these groups, with an API key. */
export async function person(app: TestApp, name: string, groups: string[] = [], realName = ''): Promise<Person> {
  const admin = app.admin.apiKey;
  const login = `${name}@tracker.test`;
  const created = await call(app, 'POST', '/rest/user', {
    apiKey: admin,
    body: { email: login, password: `${name}-password-1`, ...(realName ? { full_name: realName } : {}) },
  });
  if (created.status !== 200) throw new Error(created.text);
  const id = Number(created.body.id);
  if (groups.length > 0) {
    const updated = await call(app, 'PUT', `/rest/user/${id}`, { apiKey: admin, body: { groups: { add: groups } } });
    if (updated.status !== 200) throw new Error(updated.text);
  }
  const key = await call(app, 'POST', `/rest/user/${id}/api_key`, { apiKey: admin, body: {} });
  return { id, login, key: key.body.api_key };
}
