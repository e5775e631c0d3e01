import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../local/notification/webhookQueue.ts';
import { mailFileName } from '../../shared/application/notification/notificationOutlets.ts';
import { FULL_AUDIENCE, PUBLIC_AUDIENCE, type TrackerEvent } from '../../shared/domain/notification/bugEvents.ts';
import {
  eventAudienceFrom,
  webhooksWithInlineSecrets,
  webhookTargetsFrom,
} from '../../shared/domain/notification/notificationSettings.ts';
import { verifyWebhook } from '../../shared/domain/notification/webhookSignature.ts';
import { putEventsCalls } from '../../shared/storage/notification/eventBridgePublisher.ts';
import { ANSWER_READ_LIMIT, postWebhook } from '../../shared/storage/notification/httpWebhookPoster.ts';

/** The publisher's settings and the outlets' own rules: webhook configuration, PutEvents calls, file names, posting. */
describe('notification settings', () => {
  it('reads webhooks from JSON: one secret or several, an event filter, the public audience by default', () => {
    expect(webhookTargetsFrom(undefined)).toEqual([]);
    expect(webhookTargetsFrom('  ')).toEqual([]);
    expect(
      webhookTargetsFrom(
        JSON.stringify([
          { url: 'https://hooks.example.com/a', secret: 's1' },
          { url: 'http://127.0.0.1:9000/b', secret: ['new', 'old'], detailTypes: ['Bug Created'], audience: 'full' },
        ]),
      ),
    ).toEqual([
      { url: 'https://hooks.example.com/a', secrets: ['s1'], audience: 'public' },
      { url: 'http://127.0.0.1:9000/b', secrets: ['new', 'old'], detailTypes: ['Bug Created'], audience: 'full' },
    ]);
  });

  it('refuses a webhook setting it cannot follow, naming the variable', () => {
    for (const setting of [
      'not json',
      '{"url": "https://a.example.com", "secret": "s"}',
      '[{"url": "https://a.example.com"}]',
      '[{"url": "https://a.example.com", "secret": ""}]',
      '[{"url": "ftp://a.example.com", "secret": "s"}]',
      '[{"url": "https://a.example.com", "secret": "s", "audience": "insiders"}]',
      '[{"url": "https://a.example.com", "secret": "s", "secretName": "tracker/hook"}]',
      '[{"url": "https://a.example.com", "secretName": ""}]',
    ])
      expect(() => webhookTargetsFrom(setting), setting).toThrow(/TRACKER_WEBHOOKS/);
  });

  it('reads a webhook whose secret is in Secrets Manager, which only the webhook function may use', () => {
    const setting = JSON.stringify([{ url: 'https://a.example.com/', secretName: 'tracker/hook' }]);
    const targets = webhookTargetsFrom(setting);
    expect(targets).toEqual([
      { url: 'https://a.example.com/', secrets: [], secretName: 'tracker/hook', audience: 'public' },
    ]);
    expect(() => webhooksWithInlineSecrets(targets)).toThrow(/tracker\/hook.*give "secret" here/);
    const inline = webhookTargetsFrom('[{"url": "https://b.example.com/", "secret": "s"}]');
    expect(webhooksWithInlineSecrets(inline)).toEqual(inline);
  });

  it('builds the events on the bus for the public unless told otherwise', () => {
    expect(eventAudienceFrom(undefined)).toBe(PUBLIC_AUDIENCE);
    expect(eventAudienceFrom('full')).toBe(FULL_AUDIENCE);
    expect(() => eventAudienceFrom('everyone')).toThrow(/TRACKER_EVENT_AUDIENCE/);
  });
});

describe('EventBridge calls', () => {
  const entry = (detailBytes: number) => ({
    Source: 'tracker',
    DetailType: 'Bug Changed',
    Detail: 'x'.repeat(detailBytes),
  });

  it('puts at most ten entries in a call', () => {
    expect(putEventsCalls(Array.from({ length: 23 }, () => entry(10))).map((call) => call.length)).toEqual([10, 10, 3]);
  });

  it('keeps a call under PutEvents size limit, and an entry near the limit alone', () => {
    const sizes = putEventsCalls([entry(100_000), entry(100_000), entry(100_000), entry(239_000), entry(10)]).map(
      (call) => call.map((item) => item.Detail?.length),
    );
    expect(sizes).toEqual([[100_000, 100_000], [100_000], [239_000, 10]]);
  });
});

describe('kept mail', () => {
  it('names a message by bug, revision and recipient, the same name every time', () => {
    const mail = {
      bugId: 42,
      revision: 8,
      key: '<bug-42-7-r8@site> a@example.com',
      message: { to: 'a b/c@example.com' },
    };
    const name = mailFileName(mail as never);
    expect(name).toMatch(/^bug-42-r8-a_b_c@example\.com-[0-9a-f]{10}\.eml$/);
    expect(mailFileName(mail as never)).toBe(name);
    expect(mailFileName({ ...mail, key: 'another' } as never)).not.toBe(name);
  });
});

describe('posting a webhook', () => {
  const event: TrackerEvent = {
    source: 'tracker',
    kind: 'bug-changed',
    detailType: 'Bug Changed',
    id: '42-8-bug-changed-0',
    time: '2025-03-04T05:06:07Z',
    detail: { bug: { id: 42 }, event_id: '42-8-bug-changed-0' },
  };

  async function receiver(answers: number[]) {
    const received: Array<{ body: string; signature: string; timestamp: string }> = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({
          body,
          signature: String(request.headers['x-tracker-signature']),
          timestamp: String(request.headers['x-tracker-timestamp']),
        });
        response.statusCode = answers.shift() ?? 200;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    return { url, received, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('signs each attempt afresh and tries again until the receiver takes it', async () => {
    const hook = await receiver([503, 500, 204]);
    let clock = 1_700_000_000_000;
    try {
      await postWebhook({ url: hook.url, secrets: ['s3cret'] }, event, {
        attempts: 3,
        backoffMs: 1,
        now: () => {
          clock += 1000;
          return new Date(clock);
        },
      });
    } finally {
      await hook.close();
    }
    expect(hook.received).toHaveLength(3);
    expect(new Set(hook.received.map((delivery) => delivery.timestamp)).size).toBe(3);
    for (const delivery of hook.received)
      expect(verifyWebhook(delivery, 's3cret', new Date(Number(delivery.timestamp) * 1000))).toMatchObject({
        valid: true,
      });
    expect(JSON.parse(hook.received[0]!.body)).toEqual({
      id: event.id,
      source: 'tracker',
      'detail-type': 'Bug Changed',
      time: event.time,
      detail: event.detail,
    });
  });

  it('gives up after its attempts, saying what the receiver answered', async () => {
    const hook = await receiver([500, 500]);
    try {
      await expect(
        postWebhook({ url: hook.url, secrets: ['s'] }, event, { attempts: 2, backoffMs: 1 }),
      ).rejects.toThrow('not taken after 2 attempts (HTTP 500)');
    } finally {
      await hook.close();
    }
    expect(hook.received).toHaveLength(2);
  });

  /**
   * A receiver whose answer never ends: it writes 1 MB pieces as fast as they are read (64 MB at
   * most, then holds the answer open). The poster reads at most ANSWER_READ_LIMIT bytes of it, so
   * it returns with the answer unread and the receiver sees its answer closed early.
   */
  async function endlessAnswer(status: number) {
    let written = 0;
    let closed!: () => void;
    const answerClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(status, { 'Content-Type': 'text/plain' });
        const piece = Buffer.alloc(1024 * 1024, 'x');
        const more = () => {
          while (written < 64 * 1024 * 1024) {
            written += piece.length;
            if (!response.write(piece)) return void response.once('drain', more);
          }
        };
        response.on('close', () => closed());
        more();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    return {
      url,
      written: () => written,
      answerClosed,
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('reads no more than a little of what a receiver answers, however long its answer', async () => {
    expect(ANSWER_READ_LIMIT).toBeLessThanOrEqual(64 * 1024);
    const taken = await endlessAnswer(200);
    const refused = await endlessAnswer(500);
    try {
      // A timeout far beyond the test's: only reading less than everything lets these return.
      await postWebhook({ url: taken.url, secrets: ['s'] }, event, { attempts: 1, timeoutMs: 3_600_000 });
      await expect(
        postWebhook({ url: refused.url, secrets: ['s'] }, event, { attempts: 1, timeoutMs: 3_600_000 }),
      ).rejects.toThrow(/^not taken after 1 attempts \(HTTP 500: x+\)$/);
      await Promise.all([taken.answerClosed, refused.answerClosed]);
      expect(taken.written()).toBeLessThan(64 * 1024 * 1024);
      expect(refused.written()).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await taken.close();
      await refused.close();
    }
  });
});

describe('the local webhook queue', () => {
  it('waits twice as long after each failure, up to its longest pause', () => {
    expect([1, 2, 3, 4, 5, 9, 10, 60].map((attempts) => retryDelay(attempts, 1_000, 300_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 256_000, 300_000, 300_000,
    ]);
  });
});
