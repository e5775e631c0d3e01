import * as z from 'zod';
import { type EventAudience, FULL_AUDIENCE, PUBLIC_AUDIENCE } from './bugEvents.ts';

export interface WebhookTarget {
  url: string;
  /** The secrets to sign with, the current one first (two while one is being replaced). */
  secrets: readonly string[];
  /**
   * The Secrets Manager secret that holds `secrets` instead (a name or an ARN): `secrets` is
   * empty until the webhook function has read it (webhookSecrets.ts).
   */
  secretName?: string;
  /** The detail-types it wants (`Bug Changed`, ...); absent: every event. */
  detailTypes?: readonly string[];
  /** What its events may say: `public` (what anybody may read, the default) or `full` (everything). */
  audience: 'public' | 'full';
}

/**
 * The publisher's settings, from the environment: who the bus's events are for, and the
 * webhooks to post to. A wrong setting stops the publisher with a message that names it, rather
 * than publishing to fewer places than asked.
 */
export const NOTIFICATION_ENV = {
  /** `public` (the default) or `full`: what the events on the bus may say (docs/events.md). */
  eventAudience: 'TRACKER_EVENT_AUDIENCE',
  /** JSON: `[{"url": "...", "secret": "...", "detailTypes": ["Bug Changed"], "audience": "public"}]`. */
  webhooks: 'TRACKER_WEBHOOKS',
  /** The EventBridge bus the events go to (the stack's own). */
  eventBus: 'TRACKER_EVENT_BUS',
} as const;

const AUDIENCES = { public: PUBLIC_AUDIENCE, full: FULL_AUDIENCE } as const;

export function eventAudienceFrom(value: string | undefined): EventAudience {
  const name = (value ?? '').trim() || 'public';
  if (name !== 'public' && name !== 'full')
    throw new Error(`${NOTIFICATION_ENV.eventAudience} must be 'public' or 'full', not '${name}'.`);
  return AUDIENCES[name];
}

export const audienceOf = (target: Pick<WebhookTarget, 'audience'>): EventAudience => AUDIENCES[target.audience];

const webhookSchema = z
  .object({
    url: z.url({ protocol: /^https?$/ }),
    /** One secret, or several while one is replaced (the current first). */
    secret: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** Or: the name or ARN of a Secrets Manager secret holding them (webhookSecrets.ts). */
    secretName: z.string().min(1).max(2048).optional(),
    detailTypes: z.array(z.string().min(1)).optional(),
    audience: z.enum(['public', 'full']).default('public'),
  })
  .refine((webhook) => (webhook.secret === undefined) !== (webhook.secretName === undefined), {
    message: 'give either "secret" or "secretName", not both',
  });

/** The webhooks a JSON setting names; none when it is empty. */
export function webhookTargetsFrom(json: string | undefined): WebhookTarget[] {
  if (!json?.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error(
      `${NOTIFICATION_ENV.webhooks} is not JSON: a list of {"url", "secret" or "secretName", "detailTypes"?}.`,
    );
  }
  const result = z.array(webhookSchema).safeParse(parsed);
  if (!result.success)
    throw new Error(`${NOTIFICATION_ENV.webhooks} is not a list of webhooks: ${z.prettifyError(result.error)}`);
  return result.data.map(({ url, secret, secretName, detailTypes, audience }) => ({
    url,
    secrets: secret === undefined ? [] : typeof secret === 'string' ? [secret] : secret,
    ...(secretName ? { secretName } : {}),
    ...(detailTypes ? { detailTypes } : {}),
    audience,
  }));
}

/**
 * Webhooks whose secrets sit in the setting itself. The publisher posts webhooks only where
 * no Secrets Manager is at hand (locally, or when TRACKER_WEBHOOKS is given to it by hand):
 * a webhook naming a secret there is refused rather than posted unsigned.
 */
export function webhooksWithInlineSecrets(targets: readonly WebhookTarget[]): WebhookTarget[] {
  const named = targets.find((target) => target.secretName);
  if (named)
    throw new Error(
      `${NOTIFICATION_ENV.webhooks}: ${named.url} names the secret "${named.secretName}", which only the stack's ` +
        'webhook function reads (from Secrets Manager); give "secret" here',
    );
  return [...targets];
}
