import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BugFlag } from '../../shared/domain/bug/bug.ts';
import type { BugChange } from '../../shared/domain/notification/bugChange.ts';
import {
  bugMailMessage,
  type MailMessage,
  mailFrom,
  siteSpec,
  threadHeaders,
} from '../../shared/domain/notification/bugMailMessage.ts';
import { changeMail } from '../../shared/domain/notification/changeMail.ts';
import { flagMailMessage } from '../../shared/domain/notification/flagMailMessage.ts';
import { bugMailRecipients, flagMailRecipients } from '../../shared/domain/notification/mailRecipients.ts';
import { renderMessage } from '../../shared/domain/notification/mimeMessage.ts';
import {
  attachment,
  baseBug,
  changeOf,
  comment,
  loginOf,
  mailContext,
  PARAMETERS,
  PEOPLE,
  type Person,
  personOf,
  SECRET_GROUP_ID,
} from './support/notificationFixtures.ts';

/** Bug mail as Bugzilla 5.2 writes it, for one recipient at a time. */
const header = (message: MailMessage, name: string) => message.headers.find(([key]) => key === name)?.[1];

function mailTo(change: BugChange, person: Person, context = mailContext()): MailMessage | null {
  const recipient = bugMailRecipients(change, context).find((entry) => entry.user.caller.user.id === PEOPLE[person]);
  if (!recipient) return null;
  return bugMailMessage(change, recipient, context);
}

describe('the mail of a changed bug', () => {
  const before = baseBug({ ccIds: [PEOPLE.cc] });
  const after = { ...before, status: 'RESOLVED', resolution: 'FIXED', remainingTime: 0 };
  const change = changeOf(before, after, {
    changes: [
      { field_name: 'status', removed: 'NEW', added: 'RESOLVED' },
      { field_name: 'resolution', removed: '', added: 'FIXED' },
      { field_name: 'remaining_time', removed: '3.00', added: '0' },
    ],
    comments: [comment({ rawText: 'Fixed in r1234.' })],
  });

  it("has Bugzilla's headers: reason, type, the bug's state, what changed, and threading under the bug", () => {
    const message = mailTo(change, 'cc')!;
    expect(message.headers.map(([name]) => name)).toEqual([
      'From',
      'To',
      'Subject',
      'Date',
      'X-Bugzilla-Reason',
      'X-Bugzilla-Type',
      'X-Bugzilla-Watch-Reason',
      'X-Bugzilla-Product',
      'X-Bugzilla-Component',
      'X-Bugzilla-Version',
      'X-Bugzilla-Keywords',
      'X-Bugzilla-Severity',
      'X-Bugzilla-ID',
      'X-Bugzilla-Who',
      'X-Bugzilla-Status',
      'X-Bugzilla-Resolution',
      'X-Bugzilla-Priority',
      'X-Bugzilla-Assigned-To',
      'X-Bugzilla-Target-Milestone',
      'X-Bugzilla-Flags',
      'X-Bugzilla-Changed-Fields',
      'X-Bugzilla-Changed-Field-Names',
      'Message-ID',
      'In-Reply-To',
      'References',
      'X-Bugzilla-URL',
      'Auto-Submitted',
    ]);
    expect(Object.fromEntries(message.headers)).toMatchObject({
      From: 'bugzilla-daemon@bugs.example.com',
      To: 'cc@example.com',
      Subject: '[Bug 42] Frobnicator drops every second frame',
      Date: 'Tue, 04 Mar 2025 05:06:07 +0000',
      'X-Bugzilla-Reason': 'CC',
      'X-Bugzilla-Type': 'changed',
      'X-Bugzilla-Watch-Reason': 'None',
      'X-Bugzilla-Who': 'changer@example.com',
      'X-Bugzilla-Status': 'RESOLVED',
      'X-Bugzilla-Resolution': 'FIXED',
      // Time tracking is for the time-tracking group: it is neither shown nor named here.
      'X-Bugzilla-Changed-Fields': 'bug_status resolution',
      'X-Bugzilla-Changed-Field-Names': 'bug_status resolution comment',
      'Message-ID': `<bug-42-${PEOPLE.cc}-r8@https.bugs.example.com/>`,
      'In-Reply-To': `<bug-42-${PEOPLE.cc}@https.bugs.example.com/>`,
      References: `<bug-42-${PEOPLE.cc}@https.bugs.example.com/>`,
      'X-Bugzilla-URL': 'https://bugs.example.com/',
      'Auto-Submitted': 'auto-generated',
    });
    expect(message.from).toBe('bugzilla-daemon@bugs.example.com');
    expect(message.to).toBe('cc@example.com');
  });

  it('has the change table, the new comment under its heading, and why the reader gets it', () => {
    expect(mailTo(change, 'cc')!.body).toBe(
      [
        'https://bugs.example.com/show_bug.cgi?id=42',
        '',
        'Changer Person <changer@example.com> changed:',
        '',
        '           What    |Removed                     |Added',
        '----------------------------------------------------------------------------',
        '             Status|NEW                         |RESOLVED',
        '         Resolution|                            |FIXED',
        '',
        '--- Comment #3 from Changer Person <changer@example.com> ---',
        'Fixed in r1234.',
        '',
        '-- ',
        'You are receiving this mail because:',
        'You are on the CC list for the bug.',
        '',
      ].join('\n'),
    );
  });

  it('shows time tracking, with two decimals, to the time-tracking group', () => {
    const timeTracker = mailContext({ parameters: { timetrackinggroup: 'editbugs' } });
    const cc = { ...before, ccIds: [PEOPLE.admin] };
    const message = mailTo(
      { ...change, before: cc, after: { ...after, ccIds: [PEOPLE.admin] } },
      'admin',
      timeTracker,
    )!;
    expect(message.body).toContain('         Hours Left|3.00                        |0.00\n');
    expect(header(message, 'X-Bugzilla-Changed-Fields')).toBe('bug_status resolution remaining_time');
  });

  it('lists every reason of a reader in several roles, in the header and the footer', () => {
    const twice = changeOf(
      { ...before, ccIds: [PEOPLE.assignee] },
      { ...after, ccIds: [PEOPLE.assignee] },
      { changes: change.changes },
    );
    const message = mailTo(twice, 'assignee')!;
    expect(header(message, 'X-Bugzilla-Reason')).toBe('AssignedTo CC');
    expect(message.body.endsWith('You are the assignee for the bug.\nYou are on the CC list for the bug.\n')).toBe(
      true,
    );
  });

  it('wraps long values in their columns and names attachment changes after the attachment', () => {
    const many = ['outsider', 'watcher', 'insider'] as const;
    const wide = changeOf(
      before,
      { ...before, ccIds: [PEOPLE.cc, ...many.map((name) => PEOPLE[name])] },
      {
        changes: [
          { field_name: 'cc', removed: '', added: many.map(loginOf).join(', ') },
          { field_name: 'attachments.isobsolete', removed: '0', added: '1', attachment_id: 7 },
          { field_name: 'flagtypes.name', removed: '', added: 'review?(reporter@example.com)', attachment_id: 7 },
        ],
      },
    );
    expect(mailTo(wide, 'reporter')!.body).toContain(
      [
        '                 CC|                            |outsider@example.com,',
        '                   |                            |watcher@example.com,',
        '                   |                            |insider@example.com',
        '   Attachment #7 is|0                           |1',
        '           obsolete|                            |',
      ].join('\n'),
    );
    expect(mailTo(wide, 'reporter')!.body).toContain(
      '      Attachment #7|                            |review?(reporter@example.co\n' +
        '              Flags|                            |m)\n',
    );
  });

  it("lists the bugs a dependency change names, to readers who may see them, with each one's summary", () => {
    const other = baseBug({ summary: 'Frame pacing is broken', groupIds: [] });
    const hidden = baseBug({ summary: 'Secret codec work', groupIds: [SECRET_GROUP_ID], isCcAccessible: false });
    const referencedBug = (id: number) =>
      id === 43 ? { ...other, id: 43 } : id === 44 ? { ...hidden, id: 44, reporterId: PEOPLE.admin } : undefined;
    const context = { ...mailContext(), referencedBug };
    const depends = changeOf(
      before,
      { ...before, dependsOn: [43, 44] },
      {
        changes: [{ field_name: 'depends_on', removed: '', added: '43, 44' }],
      },
    );
    const body = mailTo(depends, 'reporter', context)!.body;
    expect(body).toContain(
      'Referenced Bugs:\n\nhttps://bugs.example.com/show_bug.cgi?id=43\n[Bug 43] Frame pacing is broken\n\n-- ',
    );
    expect(body).not.toContain('Secret codec work');
  });

  it("leaves a private comment out of an outsider's mail, and the whole mail when that is all there is", () => {
    const mixed = changeOf(before, after, {
      changes: [{ field_name: 'status', removed: 'NEW', added: 'RESOLVED' }],
      comments: [
        comment({ count: 3, rawText: 'Public note.' }),
        comment({ count: 4, rawText: 'Insiders only', isPrivate: true }),
      ],
    });
    const insiderContext = mailContext();
    const insiderView = bugMailMessage(
      mixed,
      { user: insiderContext.directory.user(PEOPLE.insider)!, reasons: ['CC'], watchReasons: [], watching: [] },
      insiderContext,
    )!;
    expect(insiderView.body).toContain('--- Comment #4 from Changer Person <changer@example.com> ---\nInsiders only');
    const outsider = mailTo(mixed, 'cc')!;
    expect(outsider.body).toContain('Public note.');
    expect(outsider.body).not.toContain('Insiders only');
    expect(outsider.body).not.toContain('Comment #4');
    const onlyPrivate = changeOf(before, before, {
      comments: [comment({ isPrivate: true, rawText: 'Insiders only' })],
    });
    expect(
      bugMailMessage(
        onlyPrivate,
        { user: mailContext().directory.user(PEOPLE.cc)!, reasons: ['CC'], watchReasons: [], watching: [] },
        mailContext(),
      ),
    ).toBeNull();
  });

  it("shows an attachment's comment with its link and summary, as Bugzilla's bugmail does", () => {
    const added = changeOf(
      before,
      { ...before, attachmentCount: 1 },
      {
        comments: [comment({ commentType: 'attachment_created', extraData: 7, rawText: 'Here is the trace.' })],
        attachments: [{ before: null, after: attachment() }],
      },
    );
    const message = mailTo(added, 'cc')!;
    expect(message.body).toContain(
      '--- Comment #3 from Changer Person <changer@example.com> ---\n' +
        'Created attachment 7\n' +
        '  --> https://bugs.example.com/attachment.cgi?id=7&action=edit\n' +
        'Stack trace of the crash\n\nHere is the trace.\n',
    );
    expect(header(message, 'X-Bugzilla-Changed-Fields')).toBe('attachments.created');
    expect(header(message, 'X-Bugzilla-Changed-Field-Names')).toBe('attachment.created');
  });
});

describe('the mail of a new bug', () => {
  const bug = baseBug({ whiteboard: 'hot', keywordIds: [1], estimatedTime: 5, ccIds: [PEOPLE.cc], url: '' });
  const change = changeOf(null, bug, {
    whoId: PEOPLE.reporter,
    comments: [comment({ count: 0, creatorId: PEOPLE.reporter, rawText: 'It crashes.' })],
  });

  it("says New:, lists the bug's fields in use in Bugzilla's order and the description without a heading", () => {
    const message = mailTo(change, 'assignee')!;
    expect(header(message, 'Subject')).toBe('[Bug 42] New: Frobnicator drops every second frame');
    expect(header(message, 'X-Bugzilla-Type')).toBe('new');
    expect(header(message, 'Message-ID')).toBe(`<bug-42-${PEOPLE.assignee}@https.bugs.example.com/>`);
    expect(header(message, 'In-Reply-To')).toBeUndefined();
    expect(message.body).toBe(
      [
        'https://bugs.example.com/show_bug.cgi?id=42',
        '',
        '            Bug ID: 42',
        '           Summary: Frobnicator drops every second frame',
        '           Product: Widgets',
        '           Version: unspecified',
        '          Hardware: PC',
        '                OS: Linux',
        '            Status: NEW',
        '        Whiteboard: hot',
        '          Keywords: kw1',
        '          Severity: normal',
        '          Priority: ---',
        '         Component: Frobnicator',
        '          Assignee: assignee@example.com',
        '          Reporter: reporter@example.com',
        '        QA Contact: qa@example.com',
        '                CC: cc@example.com',
        '  Target Milestone: ---',
        '',
        'It crashes.',
        '',
        '-- ',
        'You are receiving this mail because:',
        'You are the assignee for the bug.',
        '',
      ].join('\n'),
    );
  });

  it('lists only the fields the installation uses, and the estimate for time trackers', () => {
    const context = mailContext({
      parameters: { usestatuswhiteboard: '0', useclassification: '1', timetrackinggroup: 'editbugs' },
    });
    const withAdmin = changeOf(
      null,
      { ...bug, ccIds: [PEOPLE.admin] },
      { whoId: PEOPLE.reporter, comments: change.comments },
    );
    const body = mailTo(withAdmin, 'admin', context)!.body;
    expect(body).not.toContain('Whiteboard:');
    expect(body).toContain('    Classification: Unclassified\n');
    expect(body).toContain('        Orig. Est.: 5.00\n');
    expect(mailTo(change, 'assignee')!.body).not.toContain('Orig. Est.');
  });
});

describe('request mail about flags', () => {
  const request: BugFlag = {
    id: 30,
    typeId: 1,
    status: '?',
    setterId: PEOPLE.changer,
    requesteeId: PEOPLE.reporter,
    creationDate: '2025-03-04T05:06:07Z',
    modificationDate: '2025-03-04T05:06:07Z',
  };
  const before = baseBug();

  it('asks the requestee, naming the bug and threading with its mail', () => {
    const change = changeOf(
      before,
      { ...before, flags: [request] },
      { comments: [comment({ rawText: 'Please look.' })] },
    );
    const context = mailContext();
    const [recipient] = flagMailRecipients(change, context);
    const message = flagMailMessage(change, recipient!, context);
    expect(Object.fromEntries(message.headers)).toMatchObject({
      To: 'reporter@example.com',
      Subject: 'review requested: [Bug 42] Frobnicator drops every second frame',
      'X-Bugzilla-Type': 'request',
      'X-Bugzilla-Reason': 'Requestee',
      'X-Bugzilla-Flag-Requestee': 'reporter@example.com',
      'Message-ID': `<bug-42-${PEOPLE.reporter}-r8-flag30@https.bugs.example.com/>`,
      'In-Reply-To': `<bug-42-${PEOPLE.reporter}@https.bugs.example.com/>`,
    });
    expect(message.body).toBe(
      [
        'Changer Person <changer@example.com> has asked Reporter Person',
        '<reporter@example.com> for review:',
        '',
        'Bug 42: Frobnicator drops every second frame',
        'https://bugs.example.com/show_bug.cgi?id=42',
        '',
        '--- Comment #3 from Changer Person <changer@example.com> ---',
        'Please look.',
        '',
      ].join('\n'),
    );
  });

  it('tells the requester that their request on an attachment was granted', () => {
    const file = attachment({ flags: [request] });
    const change = changeOf(before, before, {
      whoId: PEOPLE.reporter,
      attachments: [
        {
          before: file,
          after: { ...file, flags: [{ ...request, status: '+', setterId: PEOPLE.reporter, requesteeId: null }] },
        },
      ],
    });
    const context = mailContext();
    const [recipient] = flagMailRecipients(change, context);
    const message = flagMailMessage(change, recipient!, context);
    expect(header(message, 'Subject')).toBe(
      'review granted: [Bug 42] Frobnicator drops every second frame : [Attachment 7] Stack trace of the crash',
    );
    expect(header(message, 'X-Bugzilla-Reason')).toBe('Requester');
    expect(message.body).toContain(
      "Reporter Person <reporter@example.com> has granted Changer Person\n<changer@example.com>'s request for review:\n",
    );
    expect(message.body).toContain(
      'Attachment 7: Stack trace of the crash\nhttps://bugs.example.com/attachment.cgi?id=7&action=edit',
    );
  });
});

describe('addresses and threading', () => {
  it("completes mailfrom with urlbase's host, as Bugzilla does for SMTP", () => {
    expect(mailFrom(PARAMETERS)).toBe('bugzilla-daemon@bugs.example.com');
    expect(mailFrom({ ...PARAMETERS, mailfrom: 'Tracker <tracker>' })).toBe('Tracker <tracker@bugs.example.com>');
    expect(mailFrom({ ...PARAMETERS, mailfrom: 'noreply@example.org' })).toBe('noreply@example.org');
    expect(mailFrom({ ...PARAMETERS, urlbase: '', mailfrom: 'daemon' })).toBe('daemon@localhost');
  });

  it("builds Bugzilla's message ids: the port before the @, nothing a message id may not hold", () => {
    expect(siteSpec('https://bugs.example.com:8443/tracker/')).toBe('-8443@https.bugs.example.com/tracker/');
    expect(siteSpec('http://host/a b')).toBe('@http.host/a-b');
    expect(threadHeaders(5, 9, 'https://x.test/', { isNew: false, revision: 3 })).toEqual([
      ['Message-ID', '<bug-5-9-r3@https.x.test/>'],
      ['In-Reply-To', '<bug-5-9@https.x.test/>'],
      ['References', '<bug-5-9@https.x.test/>'],
    ]);
  });
});

describe('the mail of a change as a whole', () => {
  it('sends nothing when mail_delivery_method is None', () => {
    const before = baseBug();
    const change = changeOf(
      before,
      { ...before, status: 'ASSIGNED' },
      {
        changes: [{ field_name: 'status', removed: 'NEW', added: 'ASSIGNED' }],
      },
    );
    expect(changeMail(change, mailContext()).map((message) => message.to)).toEqual([
      'reporter@example.com',
      'assignee@example.com',
      'qa@example.com',
      'cc@example.com',
    ]);
    expect(changeMail(change, mailContext({ parameters: { mail_delivery_method: 'None' } }))).toEqual([]);
  });

  it("never puts a private comment's text into an outsider's mail, whatever the change", () => {
    const people = ['reporter', 'assignee', 'qa', 'cc', 'outsider', 'insider', 'admin'] as const;
    let outsiderMails = 0;
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 40 }).filter((text) => /\S{4}/.test(text)),
        fc.uniqueArray(fc.constantFrom(...people), { maxLength: 5 }),
        fc.boolean(),
        fc.boolean(),
        (secret, ccs, alsoStatus, isNew) => {
          const text = `SECRET ${secret} SECRET`;
          const bug = baseBug({ ccIds: ccs.map((name) => PEOPLE[name]) });
          const change = changeOf(
            isNew ? null : bug,
            { ...bug, status: alsoStatus ? 'ASSIGNED' : bug.status },
            {
              changes: alsoStatus && !isNew ? [{ field_name: 'status', removed: 'NEW', added: 'ASSIGNED' }] : [],
              comments: [comment({ count: isNew ? 0 : 3, isPrivate: true, rawText: text })],
            },
          );
          for (const message of changeMail(change, mailContext())) {
            const reader = personOf(mailContext().directory.userByLogin(message.to)!.caller.user.id);
            const insider = reader === 'insider' || reader === 'admin';
            const rendered = renderMessage(message);
            if (!insider) {
              outsiderMails += 1;
              expect(message.body).not.toContain('SECRET');
              expect(rendered).not.toContain('SECRET');
            }
          }
        },
      ),
    );
    // Outsiders were mailed (about the rest of the change), so the rule above was put to the test.
    expect(outsiderMails).toBeGreaterThan(0);
  });
});
