import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationOutlets, OutgoingMail } from '../../shared/application/notification/notificationOutlets.ts';
import { headerOf, type NotificationHarness, notificationHarness, person } from '../support/notificationHarness.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The publisher stopping half-way through a batch, as a crash or an outage of SES or
 * EventBridge makes it: the stream hands the batch over again from the change that failed, and
 * in the end every mail and event went out exactly once. The one exception is the documented
 * one: a crash after a message was handed over and before it was marked sends that one message
 * again (the local outbox still holds it once: it keeps a message under one name).
 */
let app: TestApp;
let harness: NotificationHarness;
const bugs: number[] = [];

/** What the outlets do on their next calls: fail before handing over, or after. */
const faults = { mailBefore: 0, mailAfter: 0, events: 0 };
/** Which call of each outlet fails (1-based); 0: none. */
const calls = { mail: 0, events: 0 };

class Crash extends Error {}

function faulty(outlets: NotificationOutlets): NotificationOutlets {
  return {
    ...outlets,
    mail: {
      async send(mail: OutgoingMail) {
        calls.mail++;
        if (calls.mail === faults.mailBefore) throw new Crash(`mail ${calls.mail} not handed over`);
        await outlets.mail.send(mail);
        if (calls.mail === faults.mailAfter) throw new Crash(`died after handing over mail ${calls.mail}`);
      },
    },
    events: {
      async publish(events) {
        calls.events++;
        if (calls.events === faults.events) throw new Crash(`events call ${calls.events} failed`);
        await outlets.events.publish(events);
      },
    },
  };
}

function arm(fault: Partial<typeof faults>): void {
  calls.mail = 0;
  calls.events = 0;
  Object.assign(faults, { mailBefore: 0, mailAfter: 0, events: 0 }, fault);
}

const sentPairs = (mails: readonly OutgoingMail[]) =>
  mails.map((mail) => `${mail.message.to} ${headerOf(mail, 'Subject')}`).sort();

const expectedPairs = (subject: (bug: number) => string) =>
  bugs
    .flatMap((bug) => [app.admin.login, 'ann@tracker.test', 'ben@tracker.test'].map((to) => `${to} ${subject(bug)}`))
    .sort();

beforeAll(async () => {
  app = await startTestApp({ changeStream: true });
  await ok(
    call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { mail_delivery_method: 'Test', urlbase: 'https://bugs.example.com/' },
    }),
  );
  const reporter = await person(app, 'reporter');
  for (const name of ['ann', 'ben']) await person(app, name);
  harness = notificationHarness({ wrap: faulty, pageSize: 1000 });
  await harness.drain();
  // Three bugs, each mailed to its assignee (the administrator) and two people on its CC list.
  for (const summary of ['First', 'Second', 'Third'])
    bugs.push(await fileTestBug(app, reporter.key, { summary, cc: ['ann@tracker.test', 'ben@tracker.test'] }));
});

afterAll(async () => {
  await harness?.close();
  await app?.close();
});

describe('a publisher that stops half-way through a batch', () => {
  it('sends every mail exactly once when it failed before handing the fifth one over', async () => {
    arm({ mailBefore: 5 });
    harness.reset();
    const first = await harness.poller.drain();
    expect(first.failed?.error).toBeInstanceOf(Crash);
    expect(harness.mails).toHaveLength(4);
    // The first bug's change went out whole; the batch comes again from the second bug's.
    expect(first.failed!.changes).toBe(1);

    const second = await harness.poller.drain();
    expect(second.failed).toBeUndefined();
    expect(sentPairs(harness.mails)).toEqual(expectedPairs((bug) => `[Bug ${bug}] New: ${subjectOf(bug)}`));
    expect(second.reports.reduce((sum, report) => sum + report.alreadyDelivered, 0)).toBeGreaterThanOrEqual(2);
    expect(harness.events.map((event) => event.id)).toEqual(bugs.map((bug) => `${bug}-1-bug-created-0`));
  });

  it('sends the one message it was handing over again when it died right after, and no other', async () => {
    for (const bug of bugs)
      await ok(call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: app.admin.apiKey, body: { comment: 'Seen' } }));
    // The administrator comments, so each comment is mailed to the two people on the CC list
    // and the reporter: nine mails. The process dies after handing over the fourth.
    arm({ mailAfter: 4 });
    harness.reset();
    expect((await harness.poller.drain()).failed?.error).toBeInstanceOf(Crash);
    await harness.drain();
    const keys = harness.mails.map((mail) => mail.key);
    expect(keys).toHaveLength(10);
    expect(new Set(keys).size).toBe(9);
    const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
    expect(repeated).toEqual([harness.mails[3]!.key]);
    // The outbox keeps one file per message: the repeat landed on the same name.
    const files = [...harness.mailFiles().values()];
    expect(files).toHaveLength(18);
    expect(files.filter((text) => text.includes('Seen'))).toHaveLength(9);
  });

  it('publishes every event exactly once when EventBridge failed half-way', async () => {
    for (const bug of bugs)
      await ok(call(app, 'PUT', `/rest/bug/${bug}`, { apiKey: app.admin.apiKey, body: { priority: 'High' } }));
    arm({ events: 2 });
    harness.reset();
    expect((await harness.poller.drain()).failed?.error).toBeInstanceOf(Crash);
    expect(harness.events).toHaveLength(1);
    await harness.drain();
    expect(harness.events.map((event) => event.id)).toEqual(bugs.map((bug) => `${bug}-3-bug-changed-0`));
    expect(harness.mails.map((mail) => mail.key).length).toBe(new Set(harness.mails.map((mail) => mail.key)).size);
  });
});

function subjectOf(bug: number): string {
  return ['First', 'Second', 'Third'][bugs.indexOf(bug)]!;
}
