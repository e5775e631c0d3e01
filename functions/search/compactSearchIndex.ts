import { compactSearchIndex } from '../../shared/application/search/searchCompactor.ts';
import { scheduledHandler } from '../../shared/observability/invocationObservers.ts';
import { logger } from '../../shared/observability/logger.ts';
import { recordCompaction } from '../../shared/observability/metrics.ts';

/** Scheduled (EventBridge), not an API route: writes a fresh search snapshot. */
export const handler = scheduledHandler(async () => {
  const pointer = await compactSearchIndex().catch((error: unknown) => {
    recordCompaction('failed');
    throw error;
  });
  recordCompaction('completed');
  logger.info(pointer ? 'search snapshot written' : 'search snapshot superseded', { ...pointer });
  return pointer;
});
