import { type TrackerEvent, webhookBody } from '../../domain/notification/bugEvents.ts';
import { webhookHeaders } from '../../domain/notification/webhookSignature.ts';

/**
 * Posts an event to a webhook, signed (docs/events.md, "Webhooks"): the body as webhookBody
 * writes it, the signature over the timestamp and those exact bytes. A receiver that answers
 * 2xx took it; anything else, or no answer within the timeout, is tried again a few times with
 * a growing pause, then given up on (the caller logs it). Every attempt is signed afresh, so its
 * timestamp is current; the event id stays the same, for the receiver to drop repeats. Of the
 * receiver's answer only the status counts: at most ANSWER_READ_LIMIT bytes of its body are read
 * (the start of an error's text, for the log), and the rest is left unread, so a receiver that
 * answers without end costs neither memory nor time.
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
  /** Stops the post (and its retries) early: it then fails. */
  signal?: AbortSignal;
}

/** What is read of a receiver's answer at most: enough for an error's first words. */
export const ANSWER_READ_LIMIT = 1_024;

/** The first bytes of an answer's body (at most `limit`), the rest cancelled unread. */
async function answerStart(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

export const WEBHOOK_USER_AGENT = 'Tracker-Webhook/1';

export async function postWebhook(
  target: WebhookRequest,
  event: TrackerEvent,
  options: WebhookPostOptions = {},
): Promise<void> {
  const { attempts = 3, timeoutMs = 10_000, backoffMs = 500, now = () => new Date(), signal } = options;
  const body = webhookBody(event);
  let failure = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: { ...webhookHeaders(body, target.secrets, now(), event.id), 'User-Agent': WEBHOOK_USER_AGENT },
        body,
        redirect: 'manual',
        signal: signal ? AbortSignal.any([deadline, signal]) : deadline,
      });
      if (response.status >= 200 && response.status < 300) {
        // Taken: the body is not wanted, and cancelling it frees the connection at once.
        await response.body?.cancel().catch(() => undefined);
        return;
      }
      const said = await answerStart(response, ANSWER_READ_LIMIT).catch(() => '');
      failure = `HTTP ${response.status}${said.trim() ? `: ${said.trim().replace(/\s+/g, ' ').slice(0, 200)}` : ''}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    if (signal?.aborted) break;
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)));
  }
  throw new Error(`not taken after ${attempts} attempts (${failure})`);
}
