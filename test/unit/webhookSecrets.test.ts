import { describe, expect, it } from 'vitest';
import type { WebhookTarget } from '../../shared/application/notification/notificationOutlets.ts';
import {
  READ_AGAIN_MS,
  signingSecretsOf,
  WebhookSecrets,
} from '../../shared/application/notification/webhookSecrets.ts';

/** Webhook secrets kept in Secrets Manager: what a stored secret may hold, and when it is read again. */
const named: WebhookTarget = {
  url: 'https://a.example.com/',
  secrets: [],
  secretName: 'tracker/hook',
  audience: 'public',
};
const inline: WebhookTarget = { url: 'https://b.example.com/', secrets: ['s'], audience: 'public' };

function secretsManager(values: Record<string, string | Error>) {
  const reads: string[] = [];
  const read = async (id: string) => {
    reads.push(id);
    const value = values[id];
    if (value === undefined) throw new Error(`ResourceNotFoundException: ${id}`);
    if (value instanceof Error) throw value;
    return value;
  };
  return { reads, read, values };
}

describe('webhook secrets in Secrets Manager', () => {
  it('takes a plain text secret as one signing secret, and a JSON list as several, current first', () => {
    expect(signingSecretsOf('whsec_1', 'x')).toEqual(['whsec_1']);
    expect(signingSecretsOf(' ["new", "old"] ', 'x')).toEqual(['new', 'old']);
    for (const bad of ['', '  ', '[]', '[""]', '[1]', '["a",', '[{"a":1}]'])
      expect(() => signingSecretsOf(bad, 'tracker/hook'), bad).toThrow(/tracker\/hook/);
  });

  it('fills in the secrets a webhook names, leaves inline ones alone, and reads each again only after a while', async () => {
    let now = 1_000_000;
    const store = secretsManager({ 'tracker/hook': '["new","old"]' });
    const secrets = new WebhookSecrets(store.read, () => now);
    expect(await secrets.resolve([named, inline])).toEqual([{ ...named, secrets: ['new', 'old'] }, inline]);
    await secrets.resolve([named]);
    expect(store.reads).toEqual(['tracker/hook']);
    store.values['tracker/hook'] = 'rotated';
    now += READ_AGAIN_MS;
    expect((await secrets.resolve([named]))[0]!.secrets).toEqual(['rotated']);
    expect(store.reads).toHaveLength(2);
  });

  it('fails a delivery whose secret was never read, and keeps the last one through an outage', async () => {
    let now = 0;
    const store = secretsManager({});
    const secrets = new WebhookSecrets(store.read, () => now);
    await expect(secrets.resolve([named])).rejects.toThrow(/ResourceNotFoundException: tracker\/hook/);
    store.values['tracker/hook'] = 'whsec_1';
    expect((await secrets.resolve([named]))[0]!.secrets).toEqual(['whsec_1']);
    store.values['tracker/hook'] = new Error('ThrottlingException');
    now += READ_AGAIN_MS + 1;
    expect((await secrets.resolve([named]))[0]!.secrets).toEqual(['whsec_1']);
  });
});
