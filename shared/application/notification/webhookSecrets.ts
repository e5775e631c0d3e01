import { readSecretString } from '../../storage/notification/webhookSecretStore.ts';
import type { WebhookTarget } from './notificationOutlets.ts';

/**
 * Webhook secrets kept in Secrets Manager (a webhook's `secretName`), so they are in neither the
 * template nor the function's configuration. A secret holds one signing secret as plain text, or
 * a JSON list of them while one is being replaced (the current first). Each is read again after
 * READ_AGAIN_MS, so a rotation reaches running functions within minutes without a deploy.
 */
export const READ_AGAIN_MS = 5 * 60_000;

export type SecretReader = (secretId: string) => Promise<string>;

/** The signing secrets a stored secret's text gives: one string, or a JSON list of non-empty strings. */
export function signingSecretsOf(text: string, secretId: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(trimmed);
    } catch {
      throw new Error(`secret ${secretId} starts like a JSON list but is not one`);
    }
    if (!Array.isArray(list) || list.length === 0 || !list.every((item) => typeof item === 'string' && item !== ''))
      throw new Error(`secret ${secretId} must be a JSON list of non-empty strings`);
    return list as string[];
  }
  if (trimmed === '') throw new Error(`secret ${secretId} is empty`);
  return [text];
}

export class WebhookSecrets {
  private readonly cache = new Map<string, { secrets: string[]; readAt: number }>();

  constructor(
    private readonly read: SecretReader = readSecretString,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The targets with the secrets they name filled in. A secret that cannot be read fails the
   * delivery (it is retried) rather than posting unsigned; a secret read before and unreadable
   * now keeps its last value, so a passing Secrets Manager outage does not stop webhooks.
   */
  async resolve(targets: readonly WebhookTarget[]): Promise<WebhookTarget[]> {
    return Promise.all(
      targets.map(async (target) =>
        target.secretName ? { ...target, secrets: await this.secretsOf(target.secretName) } : target,
      ),
    );
  }

  private async secretsOf(secretId: string): Promise<string[]> {
    const cached = this.cache.get(secretId);
    if (cached && this.now() - cached.readAt < READ_AGAIN_MS) return cached.secrets;
    try {
      const secrets = signingSecretsOf(await this.read(secretId), secretId);
      this.cache.set(secretId, { secrets, readAt: this.now() });
      return secrets;
    } catch (error) {
      if (cached) return cached.secrets;
      throw error;
    }
  }
}
