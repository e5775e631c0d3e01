import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a webhook receiver knows a delivery came from this installation and is not a replay:
 * an HMAC-SHA256, keyed with the webhook's secret, over the timestamp, a dot and the exact
 * body bytes. The timestamp travels in its own header and is inside what is signed, so an old
 * delivery cannot be sent again with a new time; a receiver refuses one outside a few minutes
 * of its clock, and drops a repeat within them by the event id. While a secret is being
 * replaced the signature header carries one signature per secret, and either verifies.
 */
export const SIGNATURE_HEADER = 'X-Tracker-Signature';
export const TIMESTAMP_HEADER = 'X-Tracker-Timestamp';
/** The event's idempotency key (bugEvents.ts), the same on every retry of the same event. */
export const EVENT_ID_HEADER = 'X-Tracker-Event-Id';

/** How far a delivery's timestamp may be from the receiver's clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const SCHEME = 'sha256=';

const toBytes = (body: string | Uint8Array): Buffer =>
  typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);

const digest = (body: Buffer, secret: string, timestamp: number): Buffer =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

const checkSecret = (secret: string) => {
  if (secret === '') throw new RangeError('A webhook secret must not be empty.');
};

const checkTimestamp = (timestamp: number) => {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`Not a Unix time: ${timestamp}`);
};

/** `sha256=<hex>` for one secret. `timestamp` is Unix seconds. */
export function webhookSignature(body: string | Uint8Array, secret: string, timestamp: number): string {
  checkSecret(secret);
  checkTimestamp(timestamp);
  return `${SCHEME}${digest(toBytes(body), secret, timestamp).toString('hex')}`;
}

/** The headers of one delivery: signatures (one per secret, the current first), timestamp, event id. */
export function webhookHeaders(
  body: string | Uint8Array,
  secrets: string | readonly string[],
  now: Date,
  eventId: string,
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  if (keys.length === 0) throw new RangeError('A webhook needs a secret to sign with.');
  return {
    'Content-Type': 'application/json',
    [SIGNATURE_HEADER]: keys.map((secret) => webhookSignature(body, secret, timestamp)).join(', '),
    [TIMESTAMP_HEADER]: String(timestamp),
    [EVENT_ID_HEADER]: eventId,
  };
}

export type WebhookVerification =
  | { valid: true; timestamp: number }
  | { valid: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

export interface WebhookDelivery {
  /** The body exactly as received: re-serialised JSON would not match. */
  body: string | Uint8Array;
  signature: string | undefined;
  timestamp: string | undefined;
}

/**
 * Whether a delivery is genuine and fresh: a well-formed timestamp within the tolerance of
 * `now`, and a signature that one of the secrets produces over it and the body (compared in
 * constant time).
 */
export function verifyWebhook(
  delivery: WebhookDelivery,
  secrets: string | readonly string[],
  now: Date,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): WebhookVerification {
  const { signature, timestamp } = delivery;
  if (!signature || !timestamp) return { valid: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(timestamp.trim())) return { valid: false, reason: 'malformed' };
  const claimed = signature.split(',').map((part) => part.trim());
  if (claimed.some((part) => !/^sha256=[0-9a-f]{64}$/i.test(part))) return { valid: false, reason: 'malformed' };
  const time = Number(timestamp.trim());
  if (Math.abs(now.getTime() / 1000 - time) > toleranceSeconds) return { valid: false, reason: 'stale' };
  const body = toBytes(delivery.body);
  const keys = (typeof secrets === 'string' ? [secrets] : secrets).filter((secret) => secret !== '');
  const expected = keys.map((secret) => digest(body, secret, time));
  const matches = claimed.some((part) => {
    const given = Buffer.from(part.slice(SCHEME.length), 'hex');
    return expected.some((candidate) => timingSafeEqual(candidate, given));
  });
  return matches ? { valid: true, timestamp: time } : { valid: false, reason: 'mismatch' };
}
