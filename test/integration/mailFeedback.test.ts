import type { Context, SNSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/notification/handleMailFeedback.ts';
import { type NotificationHarness, notificationHarness, type Person, person } from '../support/notificationHarness.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * SES's bounces and complaints, handed to the mail feedback function as SNS delivers them, on
 * the real table: the account's mail goes off as an administrator turning it off would, no more
 * mail reaches it, and nothing else changes.
 */
let app: TestApp;
let harness: NotificationHarness;
let gone: Person;
let angry: Person;
let full: Person;

const context = {
  awsRequestId: 'feedback-1',
  functionName: 'notification-handleMailFeedback',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

const snsOf = (...messages: object[]): SNSEvent => ({
  Records: messages.map((message, index) => ({
    EventSource: 'aws:sns',
    EventVersion: '1.0',
    EventSubscriptionArn: 'arn:aws:sns:eu-west-1:123456789012:feedback:1',
    Sns: { MessageId: `m-${index}`, Message: JSON.stringify(message) } as SNSEvent['Records'][number]['Sns'],
  })),
});
const bounce = (type: 'Permanent' | 'Transient', ...addresses: string[]) => ({
  eventType: 'Bounce',
  bounce: {
    bounceType: type,
    bounceSubType: 'General',
    bouncedRecipients: addresses.map((emailAddress) => ({ emailAddress })),
  },
});
const complaint = (...addresses: string[]) => ({
  eventType: 'Complaint',
  complaint: {
    complaintFeedbackType: 'abuse',
    complainedRecipients: addresses.map((emailAddress) => ({ emailAddress })),
  },
});

async function mailEnabled(who: Person): Promise<boolean> {
  const answer = await ok(
    call(app, 'GET', `/rest/user/${who.id}?include_fields=email_enabled`, { apiKey: app.admin.apiKey }),
  );
  return answer.users[0].email_enabled;
}

beforeAll(async () => {
  app = await startTestApp({ changeStream: true });
  await ok(
    call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { mail_delivery_method: 'Test', urlbase: 'https://bugs.example.com/' },
    }),
  );
  gone = await person(app, 'gone');
  angry = await person(app, 'angry');
  full = await person(app, 'full');
  harness = notificationHarness();
});

afterAll(async () => {
  await harness?.close();
  await app?.close();
});

describe('bounces and complaints', () => {
  it('turns mail off for a permanent bounce and a complaint, and leaves a transient bounce alone', async () => {
    const answer = await handler(
      snsOf(bounce('Permanent', gone.login.toUpperCase()), complaint(angry.login), bounce('Transient', full.login)),
      context,
    );
    expect(answer).toEqual({ disabled: 2 });
    expect(await mailEnabled(gone)).toBe(false);
    expect(await mailEnabled(angry)).toBe(false);
    expect(await mailEnabled(full)).toBe(true);
  });

  it('takes a repeated message, or an address nobody has, as done', async () => {
    expect(await handler(snsOf(bounce('Permanent', gone.login, 'nobody@elsewhere.test')), context)).toEqual({
      disabled: 0,
    });
  });

  it('loses no change when a bounce and an administrator change the same account at once', async () => {
    const busy = await person(app, 'busy');
    const [first, second, renamed] = await Promise.all([
      handler(snsOf(bounce('Permanent', busy.login)), context),
      handler(snsOf(complaint(busy.login)), context),
      call(app, 'PUT', `/rest/user/${busy.id}`, { apiKey: app.admin.apiKey, body: { full_name: 'Busy Bee' } }),
    ]);
    // Each write is conditioned on the revision it read and retried: one of the two turns mail off.
    expect(first.disabled + second.disabled).toBe(1);
    expect(renamed.status).toBe(200);
    const answer = await ok(
      call(app, 'GET', `/rest/user/${busy.id}?include_fields=email_enabled,real_name`, { apiKey: app.admin.apiKey }),
    );
    expect(answer.users[0]).toMatchObject({ email_enabled: false, real_name: 'Busy Bee' });
  });

  it('sends no more mail to those addresses, and still to the others', async () => {
    harness.reset();
    await harness.drain();
    await fileTestBug(app, app.admin.apiKey, { summary: 'Bounce test', cc: [gone.login, angry.login, full.login] });
    harness.reset();
    await harness.drain();
    const to = harness.mails.map((mail) => mail.message.to);
    expect(to).toContain(full.login);
    expect(to).not.toContain(gone.login);
    expect(to).not.toContain(angry.login);
  });

  it('is undone as an administrator turns mail on again, which reports it as Bugzilla does', async () => {
    const updated = await ok(
      call(app, 'PUT', `/rest/user/${gone.id}`, { apiKey: app.admin.apiKey, body: { email_enabled: true } }),
    );
    expect(updated.users[0].changes).toEqual({ disable_mail: { removed: '1', added: '0' } });
    expect(await mailEnabled(gone)).toBe(true);
  });
});
