import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import type { PublishLog } from '../../shared/application/notification/changePublisher.ts';
import {
  NOTIFICATION_ENV,
  webhooksWithInlineSecrets,
  webhookTargetsFrom,
} from '../../shared/domain/notification/notificationSettings.ts';
import { serviceName } from '../../shared/observability/logger.ts';
import { routineOutputOff } from '../../shared/observability/routineOutput.ts';
import { ChangeStreamPoller, type DrainReport } from './changeStreamPoller.ts';
import { outboxOutlets } from './outboxOutlets.ts';
import { WebhookQueue, type WebhookQueueOptions } from './webhookQueue.ts';

/**
 * `npm start`'s notification publisher: the deployed function's publisher, fed by polling the
 * local table's stream once a second, delivering into `<dataDir>/outbox/` (mail as `.eml`,
 * events as `.json`), and handing the events for the webhooks of TRACKER_WEBHOOKS to their
 * queues under `<dataDir>/outbox/webhooks/` (webhookQueue.ts), posted apart from it: a receiver
 * that fails or hangs holds back neither the stream, nor mail, nor another webhook.
 */

/**
 * Its own logger: the API's carries the context of the last request the emulator served, and
 * the publisher is no request; on AWS it is a function of its own.
 */
const logger = new Logger({
  serviceName: serviceName(),
  persistentKeys: { function_name: 'notification-publishChanges' },
});

export interface LocalPublisherOptions {
  dataDir: string;
  tableName: string;
  /** Where TRACKER_WEBHOOKS and TRACKER_EVENT_AUDIENCE are read (process.env). */
  env?: NodeJS.ProcessEnv;
  /** How often the stream is read (1 s). */
  intervalMs?: number;
  /** The webhook queues' timeout and pauses (webhookQueue.ts). */
  webhooks?: Pick<WebhookQueueOptions, 'timeoutMs' | 'firstRetryMs' | 'longestRetryMs' | 'giveUpAfterMs'>;
}

export interface LocalPublisher {
  poller: ChangeStreamPoller;
  webhooks: WebhookQueue;
  /** Stops reading the stream, then the webhook posts (an event under way stays queued). */
  stop(): Promise<void>;
}

export function startLocalPublisher(options: LocalPublisherOptions): LocalPublisher {
  const env = options.env ?? process.env;
  const outbox = join(options.dataDir, 'outbox');
  const log: PublishLog = { warn: (message, details) => logger.warn(message, { ...details }) };
  const targets = webhooksWithInlineSecrets(webhookTargetsFrom(env[NOTIFICATION_ENV.webhooks]));
  const webhooks = new WebhookQueue({
    directory: join(outbox, 'webhooks'),
    targets,
    log: {
      warn: (message, details) => logger.warn(message, { ...details }),
      error: (message, details) => logger.error(message, { ...details }),
    },
    ...options.webhooks,
  });
  const poller = new ChangeStreamPoller({
    tableName: options.tableName,
    outlets: outboxOutlets({
      directory: outbox,
      env,
      webhooks: { targets, queue: webhooks },
      onSendingMail: () =>
        logger.warn(`mail_delivery_method says send: locally mail is kept in ${join(outbox, 'mail')}, as with Test`),
    }),
    log,
    positionFile: join(outbox, 'stream-position.json'),
  });
  webhooks.start();
  poller.start(options.intervalMs ?? 1_000, {
    drained: (drained) => {
      if (!routineOutputOff()) logPublished(drained);
    },
    failed: (error) =>
      logger.error('notifications: publishing stopped, trying again', {
        error: error instanceof Error ? error.message : String(error),
      }),
  });
  return {
    poller,
    webhooks,
    async stop() {
      await poller.stop();
      await webhooks.stop();
    },
  };
}

/** One line per round that told anybody anything, like the request lines. */
function logPublished({ reports }: DrainReport): void {
  const total = (count: 'changes' | 'mails' | 'events' | 'webhooks') =>
    reports.reduce((sum, report) => sum + report[count], 0);
  if (total('changes') === 0) return;
  logger.info('bug changes published', {
    changes: total('changes'),
    mails: total('mails'),
    events: total('events'),
    webhooks: total('webhooks'),
  });
}
