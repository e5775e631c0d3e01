import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BugFlag } from '../../shared/domain/bug/bug.ts';
import { flagTransitions } from '../../shared/domain/notification/bugChange.ts';
import {
  bugMailRecipients,
  flagMailRecipients,
  mailDelivery,
} from '../../shared/domain/notification/mailRecipients.ts';
import {
  attachment,
  baseBug,
  callerOf,
  changeOf,
  comment,
  everyRelationship,
  loginOf,
  mailContext,
  PARAMETERS,
  PEOPLE,
  type Person,
  personOf,
  SECRET_GROUP_ID,
} from './support/notificationFixtures.ts';

/**
 * Who is mailed about a change and why, by Bugzilla's rules (BugMail::Send, User::wants_bug_mail,
 * Flag->notify), with Tracker's visibility rules deciding who may be told anything.
 */
const who = (recipients: ReturnType<typeof bugMailRecipients>) =>
  Object.fromEntries(recipients.map((recipient) => [personOf(recipient.user.caller.user.id), recipient.reasons]));

const statusChange = { field_name: 'status', removed: 'NEW', added: 'ASSIGNED' };

describe('bug mail recipients', () => {
  it("mails everyone in the bug's roles with Bugzilla's reasons, but not the person who made the change", () => {
    const before = baseBug({ ccIds: [PEOPLE.cc, PEOPLE.changer] });
    const change = changeOf(before, { ...before, status: 'ASSIGNED' }, { changes: [statusChange] });
    expect(who(bugMailRecipients(change, mailContext()))).toEqual({
      reporter: ['Reporter'],
      assignee: ['AssignedTo'],
      qa: ['QAcontact'],
      cc: ['CC'],
    });
  });

  it('mails the person who made the change when their preference asks for their own changes', () => {
    const before = baseBug({ ccIds: [PEOPLE.changer] });
    const change = changeOf(before, { ...before, status: 'ASSIGNED' }, { changes: [statusChange] });
    const context = mailContext({
      preferences: { changer: { relationships: everyRelationship({ ownChanges: true }) } },
    });
    expect(who(bugMailRecipients(change, context)).changer).toEqual(['CC']);
  });

  it('lists every reason of someone in several roles, in Bugzilla order', () => {
    const before = baseBug({ reporterId: PEOPLE.assignee, ccIds: [PEOPLE.assignee] });
    const change = changeOf(before, { ...before, status: 'ASSIGNED' }, { changes: [statusChange] });
    expect(who(bugMailRecipients(change, mailContext())).assignee).toEqual(['AssignedTo', 'Reporter', 'CC']);
  });

  it('tells the previous assignee and QA contact, and a removed CC, one last time', () => {
    const before = baseBug();
    const after = { ...before, assigneeId: PEOPLE.newAssignee, qaContactId: null, ccIds: [] };
    const change = changeOf(before, after, {
      changes: [
        { field_name: 'assigned_to', removed: loginOf('assignee'), added: loginOf('newAssignee') },
        { field_name: 'qa_contact', removed: loginOf('qa'), added: '' },
        { field_name: 'cc', removed: loginOf('cc'), added: '' },
      ],
    });
    expect(who(bugMailRecipients(change, mailContext()))).toEqual({
      reporter: ['Reporter'],
      assignee: ['AssignedTo'],
      newAssignee: ['AssignedTo'],
      qa: ['QAcontact'],
      cc: ['CC'],
    });
  });

  it('mails nobody about the QA contact when the installation does not use QA contacts', () => {
    const before = baseBug();
    const change = changeOf(before, { ...before, status: 'ASSIGNED' }, { changes: [statusChange] });
    expect(who(bugMailRecipients(change, mailContext({ parameters: { useqacontact: '0' } }))).qa).toBeUndefined();
  });

  it('by default tells only the reporter and the person added or removed about a mere CC change', () => {
    const before = baseBug();
    const after = { ...before, ccIds: [PEOPLE.cc, PEOPLE.outsider] };
    const change = changeOf(before, after, {
      changes: [{ field_name: 'cc', removed: '', added: loginOf('outsider') }],
    });
    expect(who(bugMailRecipients(change, mailContext()))).toEqual({ reporter: ['Reporter'], outsider: ['CC'] });
  });

  it('never mails a disabled account or one with mail turned off', () => {
    const before = baseBug({ ccIds: [PEOPLE.disabled, PEOPLE.mailOff, PEOPLE.cc] });
    const change = changeOf(before, { ...before, status: 'ASSIGNED' }, { changes: [statusChange] });
    const mailed = Object.keys(who(bugMailRecipients(change, mailContext())));
    expect(mailed).toContain('cc');
    expect(mailed).not.toContain('disabled');
    expect(mailed).not.toContain('mailOff');
  });

  it('never mails someone who cannot see the bug as the change left it', () => {
    const before = baseBug({ ccIds: [PEOPLE.cc, PEOPLE.secretKeeper] });
    const hidden = { ...before, groupIds: [SECRET_GROUP_ID], isCcAccessible: false, isCreatorAccessible: false };
    const change = changeOf(before, hidden, { changes: [{ field_name: 'groups', removed: '', added: 'secret' }] });
    // The assignee and QA contact always see their bugs; the reporter and a CC only while it lets them.
    expect(Object.keys(who(bugMailRecipients(change, mailContext()))).sort()).toEqual([
      'assignee',
      'qa',
      'secretKeeper',
    ]);
    const ccAccessible = changeOf(before, { ...hidden, isCcAccessible: true }, { changes: change.changes });
    expect(Object.keys(who(bugMailRecipients(ccAccessible, mailContext())))).toContain('cc');
  });

  it('does not mail someone who may read nothing of the change: a private comment is for insiders', () => {
    const before = baseBug({ ccIds: [PEOPLE.cc, PEOPLE.insider] });
    const change = changeOf(before, before, { comments: [comment({ isPrivate: true })] });
    expect(who(bugMailRecipients(change, mailContext()))).toEqual({ insider: ['CC'] });
  });

  it('keeps changes about a private attachment from outsiders, and with them the mail', () => {
    const before = baseBug({ attachmentCount: 1, privateAttachments: [{ id: 7, creatorId: PEOPLE.changer }] });
    const change = changeOf(before, before, {
      changes: [{ field_name: 'attachments.isobsolete', removed: '0', added: '1', attachment_id: 7 }],
    });
    expect(bugMailRecipients(change, mailContext())).toEqual([]);
  });

  it('spares people mail about UNCONFIRMED bugs when they said so, and mails global watchers all the rest', () => {
    const before = baseBug({ status: 'UNCONFIRMED', isConfirmed: false });
    const change = changeOf(
      before,
      { ...before, priority: 'High' },
      {
        changes: [{ field_name: 'priority', removed: '---', added: 'High' }],
      },
    );
    const context = mailContext({
      parameters: { globalwatchers: `${loginOf('watcher')}, nobody@example.com` },
      preferences: {
        reporter: { relationships: everyRelationship({ unconfirmed: false }) },
        watcher: { relationships: everyRelationship({ unconfirmed: false }) },
      },
    });
    const mailed = who(bugMailRecipients(change, context));
    expect(mailed.reporter).toBeUndefined();
    expect(mailed.watcher).toEqual(['GlobalWatcher']);
  });

  it('mails the roles of a new bug, which is news to all of them', () => {
    const bug = baseBug({ ccIds: [PEOPLE.cc] });
    const change = changeOf(null, bug, {
      whoId: PEOPLE.reporter,
      comments: [comment({ count: 0, creatorId: PEOPLE.reporter, rawText: 'It crashes.' })],
    });
    expect(who(bugMailRecipients(change, mailContext()))).toEqual({
      assignee: ['AssignedTo'],
      qa: ['QAcontact'],
      cc: ['CC'],
    });
  });

  it('honours a relationship whose events the person turned off', () => {
    const before = baseBug();
    const change = changeOf(before, { ...before, status: 'ASSIGNED' }, { changes: [statusChange] });
    const context = mailContext({
      preferences: {
        cc: { relationships: { CC: { events: { projectManagement: false, other: false, addedRemoved: false } } } },
      },
    });
    expect(who(bugMailRecipients(change, context)).cc).toBeUndefined();
  });
});

describe('the mail_delivery_method parameter', () => {
  it('sends nothing for None (or anything unknown), keeps mail for Test, sends for SMTP and Sendmail', () => {
    expect(mailDelivery({ ...PARAMETERS, mail_delivery_method: 'None' })).toBe('none');
    expect(mailDelivery({ ...PARAMETERS, mail_delivery_method: 'Test' })).toBe('test');
    expect(mailDelivery({ ...PARAMETERS, mail_delivery_method: 'SMTP' })).toBe('send');
    expect(mailDelivery({ ...PARAMETERS, mail_delivery_method: 'Sendmail' })).toBe('send');
    expect(mailDelivery({ ...PARAMETERS, mail_delivery_method: 'Carrier pigeon' })).toBe('none');
  });
});

const flag = (overrides: Partial<BugFlag>): BugFlag => ({
  id: 30,
  typeId: 1,
  status: '?',
  setterId: PEOPLE.changer,
  requesteeId: PEOPLE.reporter,
  creationDate: '2025-03-04T05:06:07Z',
  modificationDate: '2025-03-04T05:06:07Z',
  ...overrides,
});

describe('flag transitions and request mail', () => {
  it("reads a change's flags as Flag->notify does: requested, passed on, granted, denied, cleared", () => {
    const asked = flag({});
    const before = baseBug({ flags: [asked, flag({ id: 31, status: '+', requesteeId: null })] });
    const after = baseBug({
      flags: [flag({ requesteeId: PEOPLE.qa }), flag({ id: 32, status: '-', requesteeId: null })],
    });
    const change = changeOf(before, after);
    expect(
      flagTransitions(change).map((transition) => [transition.after?.id ?? transition.before?.id, transition.action]),
    ).toEqual([
      [30, 'requested'],
      [31, 'cleared'],
      [32, 'denied'],
    ]);
    const answered = changeOf(
      before,
      baseBug({ flags: [flag({ status: '+', setterId: PEOPLE.reporter, requesteeId: null })] }),
    );
    expect(flagTransitions(answered)[0]).toMatchObject({ action: 'granted', requesterId: PEOPLE.changer });
  });

  it('mails the requestee of a new request, and the requester when it is granted or denied', () => {
    const before = baseBug();
    const requested = changeOf(before, { ...before, flags: [flag({})] });
    expect(flagMailRecipients(requested, mailContext()).map((r) => [r.reason, r.address])).toEqual([
      ['Requestee', loginOf('reporter')],
    ]);
    const withRequest = { ...before, flags: [flag({})] };
    for (const status of ['+', '-'] as const) {
      const answered = changeOf(
        withRequest,
        { ...before, flags: [flag({ status, setterId: PEOPLE.reporter, requesteeId: null })] },
        { whoId: PEOPLE.reporter },
      );
      expect(flagMailRecipients(answered, mailContext()).map((r) => [r.reason, r.address])).toEqual([
        ['Requester', loginOf('changer')],
      ]);
    }
  });

  it('does not mail people about their own flag actions, nor a requestee who turned request mail off', () => {
    const before = baseBug();
    const own = changeOf(before, { ...before, flags: [flag({ requesteeId: PEOPLE.changer })] });
    expect(flagMailRecipients(own, mailContext())).toEqual([]);
    const change = changeOf(before, { ...before, flags: [flag({})] });
    expect(flagMailRecipients(change, mailContext({ preferences: { reporter: { flagRequested: false } } }))).toEqual(
      [],
    );
  });

  it("mails the flag type's CC list, leaving out addresses that may not read a restricted bug", () => {
    const before = baseBug();
    const change = changeOf(before, { ...before, flags: [flag({ typeId: 2, requesteeId: null })] });
    expect(flagMailRecipients(change, mailContext()).map((r) => [r.reason, r.address, r.user === null])).toEqual([
      ['FlagTypeCC', 'triage@lists.example.com', true],
      ['FlagTypeCC', loginOf('watcher'), false],
    ]);
    const restricted = changeOf(before, {
      ...before,
      groupIds: [SECRET_GROUP_ID],
      flags: [flag({ typeId: 2, requesteeId: null })],
    });
    expect(flagMailRecipients(restricted, mailContext())).toEqual([]);
  });

  it("keeps mail about a private attachment's flags to those who may see the attachment", () => {
    const before = baseBug();
    const secret = attachment({ isPrivate: true, creatorId: PEOPLE.admin });
    const change = changeOf(before, before, {
      attachments: [{ before: secret, after: { ...secret, flags: [flag({ requesteeId: PEOPLE.reporter })] } }],
    });
    expect(flagMailRecipients(change, mailContext())).toEqual([]);
    const toInsider = changeOf(before, before, {
      attachments: [{ before: secret, after: { ...secret, flags: [flag({ requesteeId: PEOPLE.insider })] } }],
    });
    expect(flagMailRecipients(toInsider, mailContext()).map((r) => r.address)).toEqual([loginOf('insider')]);
  });
});

describe('recipient properties', () => {
  const people = Object.keys(PEOPLE) as Person[];
  const anyone = fc.constantFrom(...people);

  it('never mails the changer (by default), a disabled account, or anyone who cannot see the bug', () => {
    fc.assert(
      fc.property(
        anyone,
        anyone,
        fc.uniqueArray(anyone, { maxLength: 6 }),
        anyone,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (reporter, assignee, ccs, changer, restricted, ccAccessible, privateComment) => {
          const before = baseBug({
            reporterId: PEOPLE[reporter],
            assigneeId: PEOPLE[assignee],
            ccIds: ccs.map((name) => PEOPLE[name]),
          });
          const after = {
            ...before,
            status: 'ASSIGNED',
            groupIds: restricted ? [SECRET_GROUP_ID] : [],
            isCcAccessible: ccAccessible,
          };
          const change = changeOf(before, after, {
            whoId: PEOPLE[changer],
            changes: [statusChange],
            comments: [comment({ isPrivate: privateComment })],
          });
          for (const { user } of bugMailRecipients(change, mailContext())) {
            const person = personOf(user.caller.user.id);
            expect(person).not.toBe(changer);
            expect(['disabled', 'mailOff']).not.toContain(person);
            if (restricted) {
              const role = PEOPLE[person] === after.assigneeId || PEOPLE[person] === after.qaContactId;
              const cc = ccAccessible && after.ccIds.includes(PEOPLE[person]);
              const member = callerOf(person).groups.has('secret');
              const reporterSees = PEOPLE[person] === after.reporterId && after.isCreatorAccessible;
              expect(role || cc || member || reporterSees).toBe(true);
            }
          }
        },
      ),
    );
  });
});
