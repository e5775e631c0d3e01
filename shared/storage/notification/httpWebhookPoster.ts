import { type TrackerEvent, webhookBody } from '../../domain/notification/bugEvents.ts';
import { webhookHeaders } from '../../domain/notification/webhookSignature.ts';

/**
 * Posts an event to a webhook, signed (docs/events.md, "Webhooks"): the body as webhookBody
 * writes it, the signature over the timestamp and those exact bytes. A receiver that answers
 * 2xx took it; anything else, or no answer within the timeout, is tried again a few times with
 * a growing pause, then given up on (the caller logs it). Every attempt is signed afresh, so its
 * timestamp is current; the event id stays the same, for the receiver to drop repeats.
 */
export interface WebhookRequest {
  url: string;
  secrets: readonly string[];
}

export interface WebhookPostOptions {
  attempts?: number;
  timeoutMs?: number;
  /** The first pause; each later one doubles. */
  backoffMs?: number;
  now?: () => Date;
}

export const WEBHOOK_USER_AGENT = 'Tracker-Webhook/1';

export async function postWebhook(
  target: WebhookRequest,
  event: TrackerEvent,
  options: WebhookPostOptions = {},
): Promise<void> {
  const { attempts = 3, timeoutMs = 10_000, backoffMs = 500, now = () => new Date() } = options;
  const body = webhookBody(event);
  let failure = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: { ...webhookHeaders(body, target.secrets, now(), event.id), 'User-Agent': WEBHOOK_USER_AGENT },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The answer's body is not wanted; reading it frees the connection.
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return;
      failure = `HTTP ${response.status}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)));
  }
  throw new Error(`not taken after ${attempts} attempts (${failure})`);
}
