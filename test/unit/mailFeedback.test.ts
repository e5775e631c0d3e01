import { describe, expect, it } from 'vitest';
import { loginOfAddress, mailFeedbackOf } from '../../shared/domain/notification/mailFeedback.ts';

/** What SES says about undeliverable mail, in both of its shapes, and what Tracker stops because of it. */
const published = (event: object) => JSON.stringify({ eventType: 'Bounce', mail: { messageId: 'm-1' }, ...event });

describe('SES bounces and complaints', () => {
  it('stops mail to every recipient of a permanent bounce, by address', () => {
    const message = published({
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'NoEmail',
        bouncedRecipients: [{ emailAddress: 'Gone@Example.com' }, { emailAddress: '"Jo" <jo@example.com>' }],
      },
    });
    expect(mailFeedbackOf(message)).toEqual({
      kind: 'bounce',
      addresses: ['gone@example.com', 'jo@example.com'],
      detail: 'Permanent/NoEmail',
    });
  });

  it('reads identity notifications (notificationType) as well as configuration-set events (eventType)', () => {
    const notification = JSON.stringify({
      notificationType: 'Complaint',
      complaint: { complaintFeedbackType: 'abuse', complainedRecipients: [{ emailAddress: 'angry@example.com' }] },
    });
    expect(mailFeedbackOf(notification)).toEqual({
      kind: 'complaint',
      addresses: ['angry@example.com'],
      detail: 'abuse',
    });
  });

  it('stops nothing for a transient bounce, a not-spam report, a delivery or text that is not SES', () => {
    const transient = published({
      bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: 'full@example.com' }] },
    });
    const notSpam = JSON.stringify({
      eventType: 'Complaint',
      complaint: { complaintFeedbackType: 'not-spam', complainedRecipients: [{ emailAddress: 'a@example.com' }] },
    });
    const delivery = JSON.stringify({ eventType: 'Delivery', delivery: { recipients: ['a@example.com'] } });
    const empty = published({ bounce: { bounceType: 'Permanent', bouncedRecipients: [] } });
    for (const message of [transient, notSpam, delivery, empty, 'not json', '"a string"', 'null'])
      expect(mailFeedbackOf(message), message).toBeUndefined();
  });

  it('takes the emailsuffix off again to find the login mail was sent to', () => {
    expect(loginOfAddress('jane@example.com', '')).toBe('jane@example.com');
    expect(loginOfAddress('jane@example.com', '@example.com')).toBe('jane');
    expect(loginOfAddress('jane@Example.com'.toLowerCase(), '@EXAMPLE.COM')).toBe('jane');
    expect(loginOfAddress('jane@other.org', '@example.com')).toBeUndefined();
    expect(loginOfAddress('@example.com', '@example.com')).toBeUndefined();
  });
});
