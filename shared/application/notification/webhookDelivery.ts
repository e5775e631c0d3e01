import { DETAIL_TYPES, EVENT_SOURCE, type EventKind, type TrackerEvent } from '../../domain/notification/bugEvents.ts';
import { deliveryLogOf } from '../../storage/notification/deliveryLog.ts';
import { postWebhook } from '../../storage/notification/httpWebhookPoster.ts';
import type { WebhookTarget } from './notificationOutlets.ts';

/**
 * Webhooks fed by the bus on AWS: an EventBridge rule hands each event to a function that signs
 * and posts it to every webhook that wants its detail-type (EventBridge's API destinations
 * cannot sign: the signature covers a timestamp and the body). A receiver that fails makes the
 * invocation fail, and EventBridge and Lambda try again; the webhooks that took the event are
 * marked (deliveryLog.ts), so a retry posts only to those that did not. Each webhook gets the
 * events as the bus carries them (TRACKER_EVENT_AUDIENCE): a webhook's own `audience` applies
 * where the publisher posts webhooks itself.
 */
export interface BusEvent {
  source: string;
  'detail-type': string;
  time: string;
  detail: Record<string, unknown>;
}

const KIND_OF = new Map(Object.entries(DETAIL_TYPES).map(([kind, detailType]) => [detailType, kind as EventKind]));

/** The event as the publisher built it, from what the bus hands over; undefined for anything else. */
export function trackerEventOf(event: BusEvent): TrackerEvent | undefined {
  const kind = KIND_OF.get(event['detail-type']);
  const id = event.detail?.event_id;
  if (event.source !== EVENT_SOURCE || !kind || typeof id !== 'string') return undefined;
  return { source: EVENT_SOURCE, kind, detailType: event['detail-type'], id, time: event.time, detail: event.detail };
}

/** Posts the event to each webhook that wants it and has not taken it yet; throws when any did not. */
export async function deliverToWebhooks(event: BusEvent, targets: readonly WebhookTarget[]): Promise<number> {
  const tracked = trackerEventOf(event);
  if (!tracked) return 0;
  const wanting = targets.filter((target) => !target.detailTypes || target.detailTypes.includes(tracked.detailType));
  if (wanting.length === 0) return 0;
  const bug = tracked.detail.bug as { id?: unknown } | undefined;
  const log = await deliveryLogOf(Number(bug?.id), Number(tracked.detail.revision));
  const failures: string[] = [];
  let delivered = 0;
  for (const target of wanting) {
    const key = `${target.url} ${tracked.id}`;
    if (log.has('webhook', key)) continue;
    try {
      // One attempt each: the retries are EventBridge's and Lambda's, with their dead-letter queue.
      await postWebhook(target, tracked, { attempts: 1 });
    } catch (error) {
      failures.push(`${target.url}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    await log.mark('webhook', key);
    delivered++;
  }
  if (failures.length > 0) throw new Error(`webhook delivery of ${tracked.id} failed: ${failures.join('; ')}`);
  return delivered;
}
