import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookTarget } from '../../shared/application/notification/notificationOutlets.ts';
import { deliverToWebhooks } from '../../shared/application/notification/webhookDelivery.ts';
import { verifyWebhook } from '../../shared/domain/notification/webhookSignature.ts';
import { type NotificationHarness, notificationHarness, person } from '../support/notificationHarness.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Webhooks posted for real to a receiver on loopback: the signed body of each event a webhook
 * asked for, verified as a receiver does; what a public webhook is not told; a receiver that
 * fails holds back neither mail, nor events, nor another webhook: its events wait in its queue,
 * and it gets them, in order and once each, when it takes deliveries again.
 */
interface Delivery {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let app: TestApp;
let receiver: Server;
let base: string;
const deliveries: Delivery[] = [];
let brokenAnswers = 500;

const to = (path: string) => deliveries.filter((delivery) => delivery.path === path);
const detailTypes = (list: readonly Delivery[]) => list.map((delivery) => JSON.parse(delivery.body)['detail-type']);

let targets: WebhookTarget[];
let harness: NotificationHarness;
let bug: number;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      deliveries.push({
        path,
        method: request.method ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.statusCode = path.startsWith('/broken') ? brokenAnswers : 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  targets = [
    {
      url: `${base}/public`,
      secrets: ['whsec_current', 'whsec_old'],
      detailTypes: ['Bug Created', 'Comment Added'],
      audience: 'public',
    },
    { url: `${base}/everything`, secrets: ['whsec_full'], audience: 'full' },
    { url: `${base}/broken`, secrets: ['whsec_broken'], audience: 'public' },
  ];
  app = await startTestApp({ changeStream: true });
  const admin = app.admin.apiKey;
  await ok(
    call(app, 'PUT', '/rest/parameters', {
      apiKey: admin,
      body: { mail_delivery_method: 'Test', urlbase: 'https://bugs.example.com/' },
    }),
  );
  await person(app, 'someone');
  harness = notificationHarness({ webhooks: targets });
  bug = await fileTestBug(app, admin, { summary: 'Webhook bug', cc: ['someone@tracker.test'] });
  await ok(call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: admin, body: { comment: 'A public note' } }));
  await ok(call(app, 'PUT', `/rest/bug/${bug}`, { apiKey: admin, body: { priority: 'High' } }));
  await ok(
    call(app, 'POST', `/rest/bug/${bug}/comment`, {
      apiKey: admin,
      body: { comment: 'The customer is ACME', is_private: true },
    }),
  );
});

afterAll(async () => {
  await harness?.close();
  await app?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhooks', () => {
  it('posts each event a webhook asked for, signed, and no other', async () => {
    const drained = await harness.drain();
    expect(detailTypes(to('/public'))).toEqual(['Bug Created', 'Comment Added', 'Comment Added']);
    expect(detailTypes(to('/everything'))).toEqual(['Bug Created', 'Comment Added', 'Bug Changed', 'Comment Added']);
    const now = new Date();
    for (const delivery of to('/public')) {
      const body = JSON.parse(delivery.body);
      expect(delivery.method).toBe('POST');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['x-tracker-event-id']).toBe(body.id);
      expect(body).toMatchObject({ source: 'tracker', detail: { event_id: body.id, bug: { id: bug } } });
      expect(Math.abs(Number(delivery.headers['x-tracker-timestamp']) - now.getTime() / 1000)).toBeLessThan(60);
      const signed = {
        body: delivery.body,
        signature: String(delivery.headers['x-tracker-signature']),
        timestamp: String(delivery.headers['x-tracker-timestamp']),
      };
      // One signature per secret while the old one is being replaced: either verifies.
      expect(signed.signature.split(', ')).toHaveLength(2);
      expect(verifyWebhook(signed, 'whsec_current', now)).toMatchObject({ valid: true });
      expect(verifyWebhook(signed, 'whsec_old', now)).toMatchObject({ valid: true });
      expect(verifyWebhook(signed, 'whsec_full', now)).toEqual({ valid: false, reason: 'mismatch' });
      expect(
        verifyWebhook({ ...signed, body: signed.body.replace('Webhook bug', 'Webhook bux') }, 'whsec_current', now),
      ).toEqual({ valid: false, reason: 'mismatch' });
    }
    // Handed to the queues: the public one's 3, the full one's 4 and the broken one's 4.
    expect(drained.reports.reduce((sum, report) => sum + report.webhooks, 0)).toBe(11);
  });

  it('tells a public webhook only that a private comment was made, and a trusted one all of it', () => {
    expect(
      to('/public')
        .map((delivery) => delivery.body)
        .join(),
    ).not.toContain('ACME');
    const marked = JSON.parse(to('/public').at(-1)!.body);
    expect(marked.detail.comment).toMatchObject({ count: 2, is_private: true, redacted: true });
    expect(marked.detail.comment).not.toHaveProperty('text');
    const last = JSON.parse(to('/everything').at(-1)!.body);
    expect(last.detail.comment).toMatchObject({ is_private: true, text: 'The customer is ACME' });
  });

  it('keeps the events of a receiver that fails in its queue, without holding back mail, events or another webhook', () => {
    // Its queue stops at its first event, which failed once; the others' went out.
    expect(to('/broken')).toHaveLength(1);
    expect(harness.lastFlush).toEqual({ delivered: 7, failed: 1 });
    expect(harness.webhookQueue.waiting().get(`${base}/broken`)).toBe(4);
    expect(harness.events).toHaveLength(4);
    expect(harness.mails.map((mail) => mail.message.to)).toContain('someone@tracker.test');
  });

  it('delivers what a receiver missed, in order, once it takes deliveries, and nothing twice', async () => {
    brokenAnswers = 200;
    const before = deliveries.length;
    expect(await harness.webhookQueue.flush()).toEqual({ delivered: 4, failed: 0 });
    const later = deliveries.slice(before);
    expect(later.map((delivery) => delivery.path)).toEqual(['/broken', '/broken', '/broken', '/broken']);
    const ids = later.map((delivery) => delivery.headers['x-tracker-event-id']);
    expect(ids[0]).toBe(to('/broken')[0]!.headers['x-tracker-event-id']);
    expect(new Set(ids).size).toBe(4);
    // The stream handed over again sends nothing: every delivery is marked.
    const again = notificationHarness({ webhooks: targets });
    try {
      await again.drain();
    } finally {
      await again.close();
    }
    expect(deliveries.length).toBe(before + 4);
    expect(again.events).toEqual([]);
    expect(again.mails).toEqual([]);
  });

  it('on AWS, posts an event the bus hands over to each webhook that wants it, and on a retry only to those that failed', async () => {
    const busEvent = JSON.parse(to('/everything')[0]!.body);
    const fromBus = {
      source: 'tracker',
      'detail-type': busEvent['detail-type'],
      time: busEvent.time,
      detail: busEvent.detail,
    };
    const busTargets: WebhookTarget[] = [
      { url: `${base}/bus-ok`, secrets: ['whsec_bus'], audience: 'public' },
      { url: `${base}/broken?bus`, secrets: ['whsec_bus'], audience: 'public' },
      { url: `${base}/bus-other`, secrets: ['whsec_bus'], detailTypes: ['Flag Granted'], audience: 'public' },
    ];
    brokenAnswers = 500;
    await expect(deliverToWebhooks(fromBus, busTargets)).rejects.toThrow(
      /broken\?bus: not taken after 1 attempts \(HTTP 500\)/,
    );
    brokenAnswers = 200;
    expect(await deliverToWebhooks(fromBus, busTargets)).toBe(1);
    expect(await deliverToWebhooks(fromBus, busTargets)).toBe(0);
    expect(to('/bus-ok')).toHaveLength(1);
    expect(to('/broken?bus')).toHaveLength(2);
    expect(to('/bus-other')).toHaveLength(0);
    const delivery = to('/bus-ok')[0]!;
    expect(delivery.body).toBe(to('/everything')[0]!.body);
    const signed = {
      body: delivery.body,
      signature: String(delivery.headers['x-tracker-signature']),
      timestamp: String(delivery.headers['x-tracker-timestamp']),
    };
    expect(verifyWebhook(signed, 'whsec_bus', new Date())).toMatchObject({ valid: true });
  });
});
