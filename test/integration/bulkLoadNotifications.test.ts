import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBugs } from '../../bench/seedWriter.ts';
import { toBugzillaDateTime } from '../../shared/domain/time.ts';
import { loadBug, loadComments } from '../../shared/storage/bug/bugStore.ts';
import { allocateIds } from '../../shared/storage/counterStore.ts';
import { type NotificationHarness, notificationHarness, person } from '../support/notificationHarness.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * A bulk load tells nobody, by construction (the items it writes carry `importRev`), whatever the
 * times of its bugs: `npm run seed`'s bugs, changed up to a minute before the load, once made
 * about one event in ten (the publisher told a load by the age of its bugs). Here the seed's own
 * writer (bench/seedWriter.ts) writes bugs changed a moment ago; a write through the API
 * afterwards is told as any other. The importer writes its bugs with the same items
 * (bugImportStore.ts); importer.test.ts checks that an import tells nobody either.
 */
let app: TestApp;
let receiver: Server;
const posted: string[] = [];
let harness: NotificationHarness;
let template = 0;
let seeded: number[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      posted.push(String(request.headers['x-tracker-event-id']));
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  app = await startTestApp({ changeStream: true });
  await ok(
    call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { mail_delivery_method: 'Test', urlbase: 'https://bugs.example.com/' },
    }),
  );
  await person(app, 'someone');
  harness = notificationHarness({ webhooks: [{ url, secrets: ['whsec_bulk'], audience: 'full' }] });
});

afterAll(async () => {
  await harness?.close();
  await app?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('a bulk load', () => {
  it('sends no event, no webhook and no mail for bugs the seed writer wrote, changed a moment ago', async () => {
    // A bug filed through the API is the template (a valid product, people and a description).
    template = await fileTestBug(app, app.admin.apiKey, { summary: 'Template', cc: ['someone@tracker.test'] });
    await harness.drain();
    expect(harness.events.map((event) => event.detailType)).toEqual(['Bug Created']);
    harness.reset();
    posted.length = 0;

    const { bug } = (await loadBug(template))!;
    const [description] = await loadComments(template);
    const ids = await allocateIds('bug', 5);
    const commentIds = await allocateIds('comment', 5);
    const now = toBugzillaDateTime(new Date());
    const copies = ids.map((id) => ({ ...bug, id, alias: null, creationTime: now, lastChangeTime: now }));
    await writeBugs(
      {
        bugs: copies,
        commentsOf: ids.map((id, n) => [{ ...description!, bugId: id, id: commentIds[n]!, creationTime: now }]),
        historyOf: ids.map(() => []),
        attachmentsOf: ids.map(() => []),
        bodies: new Map(),
      },
      () => undefined,
      performance.now(),
    );
    seeded = ids;
    const drained = await harness.drain();
    expect(drained.reports.reduce((sum, report) => sum + report.bulkLoaded, 0)).toBe(5);
    expect(harness.events).toEqual([]);
    expect(harness.mails).toEqual([]);
    expect(posted).toEqual([]);
  });

  it('tells of a write through the API to a bug loaded in bulk', async () => {
    const id = seeded[2]!;
    await ok(call(app, 'PUT', `/rest/bug/${id}`, { apiKey: app.admin.apiKey, body: { comment: { body: 'Seen.' } } }));
    await harness.drain();
    expect(harness.events.map((event) => event.detailType)).toEqual(['Comment Added']);
    expect(harness.events[0]!.detail).toMatchObject({ bug: { id }, comment: { text: 'Seen.' } });
    expect(harness.mails.map((mail) => mail.bugId)).toEqual([id]);
    expect(posted).toEqual([harness.events[0]!.id]);
  });
});
