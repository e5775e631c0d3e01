import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import type { PublishLog } from '../../shared/application/notification/changePublisher.ts';
import { serviceName } from '../../shared/observability/logger.ts';
import { routineOutputOff } from '../../shared/observability/routineOutput.ts';
import { ChangeStreamPoller, type DrainReport } from './changeStreamPoller.ts';
import { outboxOutlets } from './outboxOutlets.ts';

/**
 * `npm start`'s notification publisher: the deployed function's publisher, fed by polling the
 * local table's stream once a second, delivering into `<dataDir>/outbox/` (mail as `.eml`,
 * events as `.json`) and to the webhooks of TRACKER_WEBHOOKS.
 */

/**
 * Its own logger: the API's carries the context of the last request the emulator served, and
 * the publisher is no request; on AWS it is a function of its own.
 */
const logger = new Logger({
  serviceName: serviceName(),
  persistentKeys: { function_name: 'notification-publishChanges' },
});

export function startLocalPublisher(options: { dataDir: string; tableName: string }): ChangeStreamPoller {
  const outbox = join(options.dataDir, 'outbox');
  const log: PublishLog = { warn: (message, details) => logger.warn(message, { ...details }) };
  const poller = new ChangeStreamPoller({
    tableName: options.tableName,
    outlets: outboxOutlets({
      directory: outbox,
      onSendingMail: () =>
        logger.warn(`mail_delivery_method says send: locally mail is kept in ${join(outbox, 'mail')}, as with Test`),
    }),
    log,
    positionFile: join(outbox, 'stream-position.json'),
  });
  poller.start(1_000, {
    drained: (drained) => {
      if (!routineOutputOff()) logPublished(drained);
    },
    failed: (error) =>
      logger.error('notifications: publishing stopped, trying again', {
        error: error instanceof Error ? error.message : String(error),
      }),
  });
  return poller;
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
