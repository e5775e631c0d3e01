import { describe, expect, it } from 'vitest';
import type { BugFlag } from '../../shared/domain/bug/bug.ts';
import type { BugChange } from '../../shared/domain/notification/bugChange.ts';
import { bugMailMessage } from '../../shared/domain/notification/bugMailMessage.ts';
import {
  bugMailEvents,
  CHOSEN_RELATIONSHIPS,
  type ChosenRelationship,
  DEFAULT_MAIL_PREFERENCES,
  MAIL_EVENTS,
  type MailEvent,
  type MailPreferencesChange,
} from '../../shared/domain/notification/mailPreferences.ts';
import { bugMailRecipients, flagMailRecipients } from '../../shared/domain/notification/mailRecipients.ts';
import {
  attachment,
  baseBug,
  changeOf,
  comment,
  everyRelationship,
  loginOf,
  mailContext,
  PEOPLE,
  type Person,
  personOf,
  SECRET_GROUP_ID,
} from './support/notificationFixtures.ts';

/**
 * Bugzilla's e-mail preferences as a table: for each kind of change, the events it is made of
 * from where each role stands (User::wants_bug_mail), then, role by role and event by event,
 * whether someone who ticked only that box is mailed. Then the two "but not when" rows, ignored
 * bugs, bug mail turned off, and user watching.
 */

/** The person who holds each relationship on the base bug. */
const HOLDER: Readonly<Record<ChosenRelationship, Person>> = {
  AssignedTo: 'assignee',
  Reporter: 'reporter',
  QAcontact: 'qa',
  CC: 'cc',
};

const before = baseBug({ keywordIds: [], dependsOn: [] });

interface ChangeCase {
  name: string;
  change: BugChange;
  /** The events of the change for the holder of each relationship. */
  events: Record<ChosenRelationship, MailEvent[]>;
}

const same = (events: MailEvent[]): Record<ChosenRelationship, MailEvent[]> => ({
  AssignedTo: events,
  Reporter: events,
  QAcontact: events,
  CC: events,
});

const CASES: ChangeCase[] = [
  {
    name: 'a new bug',
    change: changeOf(null, before, { comments: [comment({ count: 0, rawText: 'It crashes.' })] }),
    // Bugzilla reads no field of a new bug; the description is a comment.
    events: {
      AssignedTo: ['addedRemoved', 'bugCreated', 'comment'],
      Reporter: ['bugCreated', 'comment'],
      QAcontact: ['addedRemoved', 'bugCreated', 'comment'],
      CC: ['addedRemoved', 'bugCreated', 'comment'],
    },
  },
  {
    name: 'a status change',
    change: changeOf(
      before,
      { ...before, status: 'ASSIGNED' },
      {
        changes: [{ field_name: 'status', removed: 'NEW', added: 'ASSIGNED' }],
      },
    ),
    events: same(['projectManagement']),
  },
  {
    name: 'resolving',
    change: changeOf(
      before,
      { ...before, status: 'RESOLVED', resolution: 'FIXED' },
      {
        changes: [
          { field_name: 'status', removed: 'NEW', added: 'RESOLVED' },
          { field_name: 'resolution', removed: '', added: 'FIXED' },
        ],
      },
    ),
    events: same(['projectManagement', 'openedClosed']),
  },
  {
    name: 'a severity change',
    change: changeOf(
      before,
      { ...before, severity: 'critical' },
      {
        changes: [{ field_name: 'severity', removed: 'normal', added: 'critical' }],
      },
    ),
    events: same(['projectManagement']),
  },
  {
    name: 'a milestone change',
    change: changeOf(before, before, { changes: [{ field_name: 'target_milestone', removed: '---', added: '2.0' }] }),
    events: same(['projectManagement']),
  },
  {
    name: 'a comment',
    change: changeOf(before, before, { comments: [comment()] }),
    events: same(['comment']),
  },
  {
    name: 'a new attachment',
    change: changeOf(before, before, {
      comments: [comment({ commentType: 'attachment_created', extraData: 7, rawText: '' })],
      attachments: [{ before: null, after: attachment() }],
    }),
    events: same(['attachment']),
  },
  {
    name: "an attachment's description",
    change: changeOf(before, before, {
      changes: [{ field_name: 'attachments.description', removed: 'old', added: 'new', attachment_id: 7 }],
      attachments: [{ before: attachment({ summary: 'old' }), after: attachment({ summary: 'new' }) }],
    }),
    events: same(['attachmentData']),
  },
  {
    name: 'keywords',
    change: changeOf(
      before,
      { ...before, keywordIds: [1] },
      {
        changes: [{ field_name: 'keywords', removed: '', added: 'kw1' }],
      },
    ),
    events: same(['keyword']),
  },
  {
    name: 'someone else joining the CC list',
    change: changeOf(
      before,
      { ...before, ccIds: [PEOPLE.cc, PEOPLE.outsider] },
      {
        changes: [{ field_name: 'cc', removed: '', added: loginOf('outsider') }],
      },
    ),
    events: same(['cc']),
  },
  {
    name: 'the CC leaving the CC list',
    change: changeOf(
      before,
      { ...before, ccIds: [] },
      { changes: [{ field_name: 'cc', removed: loginOf('cc'), added: '' }] },
    ),
    events: { ...same(['cc']), CC: ['cc', 'addedRemoved'] },
  },
  {
    name: 'a dependency',
    change: changeOf(
      before,
      { ...before, dependsOn: [7] },
      { changes: [{ field_name: 'depends_on', removed: '', added: '7' }] },
    ),
    events: same(['dependBlock']),
  },
  {
    name: 'a move to another component',
    change: changeOf(
      before,
      { ...before, componentId: 2 },
      {
        changes: [{ field_name: 'component', removed: 'Frobnicator', added: 'Component2' }],
      },
    ),
    events: same(['component']),
  },
  {
    name: 'a new assignee',
    change: changeOf(
      before,
      { ...before, assigneeId: PEOPLE.newAssignee },
      {
        changes: [{ field_name: 'assigned_to', removed: loginOf('assignee'), added: loginOf('newAssignee') }],
      },
    ),
    events: { ...same(['other']), AssignedTo: ['other', 'addedRemoved'] },
  },
  {
    name: 'a new QA contact',
    change: changeOf(
      before,
      { ...before, qaContactId: PEOPLE.outsider },
      {
        changes: [{ field_name: 'qa_contact', removed: loginOf('qa'), added: loginOf('outsider') }],
      },
    ),
    events: { ...same(['other']), QAcontact: ['other', 'addedRemoved'] },
  },
  {
    name: 'a summary change',
    change: changeOf(
      before,
      { ...before, summary: 'Frobnicator drops frames' },
      {
        changes: [{ field_name: 'summary', removed: before.summary, added: 'Frobnicator drops frames' }],
      },
    ),
    events: same(['other']),
  },
  {
    name: 'a flag of the bug',
    change: changeOf(before, before, { changes: [{ field_name: 'flagtypes.name', removed: '', added: 'review+' }] }),
    events: same(['other']),
  },
];

const sorted = (events: Iterable<MailEvent>) => [...events].sort();

/** A person whose one ticked box, in the whole matrix, is `event` in `relationship`. */
function onlyBox(relationship: ChosenRelationship, event: MailEvent): MailPreferencesChange {
  const nothing = Object.fromEntries(MAIL_EVENTS.map((each) => [each, false])) as Record<MailEvent, boolean>;
  const relationships = Object.fromEntries(
    CHOSEN_RELATIONSHIPS.map((each) => [
      each,
      { events: each === relationship ? { ...nothing, [event]: true } : nothing },
    ]),
  );
  return { relationships };
}

const reasonsOf = (change: BugChange, context: ReturnType<typeof mailContext>, person: Person) =>
  bugMailRecipients(change, context).find((recipient) => recipient.user.caller.user.id === PEOPLE[person]);

describe("the events of a change, from each role (Bugzilla's %names_to_events)", () => {
  it.each(CASES)('$name', ({ change, events }) => {
    for (const relationship of CHOSEN_RELATIONSHIPS) {
      expect(sorted(bugMailEvents(change, relationship, loginOf(HOLDER[relationship]))), relationship).toEqual(
        sorted(events[relationship]),
      );
    }
  });
});

describe('the matrix: role × event × the one box ticked', () => {
  it.each(CASES)('$name mails exactly the roles whose ticked event it is made of', ({ change, events }) => {
    const decided: string[] = [];
    const expected: string[] = [];
    for (const relationship of CHOSEN_RELATIONSHIPS) {
      const holder = HOLDER[relationship];
      for (const event of MAIL_EVENTS) {
        const context = mailContext({ preferences: { [holder]: onlyBox(relationship, event) } });
        const mailed = reasonsOf(change, context, holder)?.reasons.includes(relationship) ?? false;
        if (mailed) decided.push(`${relationship}:${event}`);
        if (events[relationship].includes(event)) expected.push(`${relationship}:${event}`);
        // The same box in another column never mails this role.
        const elsewhere = CHOSEN_RELATIONSHIPS.find((other) => other !== relationship)!;
        const wrongColumn = mailContext({ preferences: { [holder]: onlyBox(elsewhere, event) } });
        expect(reasonsOf(change, wrongColumn, holder)?.reasons ?? []).not.toContain(relationship);
      }
    }
    expect(decided).toEqual(expected);
  });

  it("starts from Bugzilla 5.2's defaults: everything, but a mere CC change only for the reporter (and whoever joined)", () => {
    const ccChange = CASES.find((entry) => entry.name === 'someone else joining the CC list')!.change;
    expect(
      bugMailRecipients(ccChange, mailContext()).map((recipient) => [
        personOf(recipient.user.caller.user.id),
        recipient.reasons,
      ]),
    ).toEqual([
      ['reporter', ['Reporter']],
      ['outsider', ['CC']],
    ]);
    for (const relationship of CHOSEN_RELATIONSHIPS) {
      const column = DEFAULT_MAIL_PREFERENCES.relationships[relationship];
      expect(sorted(column.events)).toEqual(
        sorted(MAIL_EVENTS.filter((event) => event !== 'cc' || relationship === 'Reporter')),
      );
      expect(column).toMatchObject({ unconfirmed: true, ownChanges: false });
    }
    expect(DEFAULT_MAIL_PREFERENCES).toMatchObject({ flagRequested: true, requestedFlag: true });
  });
});

describe('"but not when" (overrides above), per relationship', () => {
  const statusChange = CASES.find((entry) => entry.name === 'a status change')!;

  it.each(CHOSEN_RELATIONSHIPS)('%s: my own changes only when that column asks for them', (relationship) => {
    const holder = HOLDER[relationship];
    const mine = { ...statusChange.change, whoId: PEOPLE[holder] };
    expect(reasonsOf(mine, mailContext(), holder)).toBeUndefined();
    const wanted = mailContext({
      preferences: { [holder]: { relationships: { [relationship]: { ownChanges: true } } } },
    });
    expect(reasonsOf(mine, wanted, holder)?.reasons).toEqual([relationship]);
    const otherColumn = CHOSEN_RELATIONSHIPS.find((other) => other !== relationship)!;
    const elsewhere = mailContext({
      preferences: { [holder]: { relationships: { [otherColumn]: { ownChanges: true } } } },
    });
    expect(reasonsOf(mine, elsewhere, holder)).toBeUndefined();
  });

  it.each(CHOSEN_RELATIONSHIPS)('%s: UNCONFIRMED bugs unless that column leaves them out', (relationship) => {
    const holder = HOLDER[relationship];
    const unconfirmed = baseBug({ status: 'UNCONFIRMED', isConfirmed: false });
    const change = changeOf(
      unconfirmed,
      { ...unconfirmed, priority: 'High' },
      {
        changes: [{ field_name: 'priority', removed: '---', added: 'High' }],
      },
    );
    expect(reasonsOf(change, mailContext(), holder)?.reasons).toEqual([relationship]);
    const spared = mailContext({
      preferences: { [holder]: { relationships: { [relationship]: { unconfirmed: false } } } },
    });
    expect(reasonsOf(change, spared, holder)).toBeUndefined();
    expect(reasonsOf(statusChange.change, spared, holder)?.reasons).toEqual([relationship]);
  });

  it('keeps the column of each role apart: someone in two roles is mailed for the one that wants it', () => {
    const bug = baseBug({ ccIds: [PEOPLE.assignee] });
    const change = changeOf(
      bug,
      { ...bug, status: 'ASSIGNED' },
      {
        changes: [{ field_name: 'status', removed: 'NEW', added: 'ASSIGNED' }],
      },
    );
    const context = mailContext({
      preferences: { assignee: { relationships: { CC: { events: { projectManagement: false } } } } },
    });
    expect(reasonsOf(change, context, 'assignee')?.reasons).toEqual(['AssignedTo']);
  });
});

describe('ignored bugs and bug mail turned off', () => {
  const comment1 = changeOf(before, before, { comments: [comment()] });

  it('never mails someone about a bug they ignore, in any role, nor its flag requests', () => {
    const context = mailContext({ preferences: { cc: { ignoreBugs: [42] }, reporter: { ignoreBugs: [41] } } });
    const mailed = bugMailRecipients(comment1, context).map((recipient) => personOf(recipient.user.caller.user.id));
    expect(mailed).toEqual(['reporter', 'assignee', 'qa']);
    const flag: BugFlag = {
      id: 30,
      typeId: 1,
      status: '?',
      setterId: PEOPLE.changer,
      requesteeId: PEOPLE.cc,
      creationDate: '2025-03-04T05:06:07Z',
      modificationDate: '2025-03-04T05:06:07Z',
    };
    const requested = changeOf(before, { ...before, flags: [flag] });
    expect(flagMailRecipients(requested, mailContext()).map((recipient) => recipient.reason)).toEqual(['Requestee']);
    expect(flagMailRecipients(requested, context)).toEqual([]);
  });

  it('mails nobody whose bug mail is off (email_enabled), whatever their boxes say', () => {
    const bug = baseBug({ ccIds: [PEOPLE.mailOff] });
    const change = changeOf(bug, bug, { comments: [comment()] });
    const context = mailContext({
      preferences: { mailOff: { relationships: everyRelationship({ ownChanges: true }) } },
    });
    expect(reasonsOf(change, context, 'mailOff')).toBeUndefined();
  });
});

describe("user watching: the watcher stands in the watched person's shoes, with their own preferences", () => {
  const change = changeOf(before, before, { comments: [comment()] });

  it('mails a watcher for each role of whom they watch, under X-Bugzilla-Watch-Reason', () => {
    const context = mailContext({ watches: { watcher: ['cc', 'qa'] } });
    const recipient = reasonsOf(change, context, 'watcher')!;
    expect(recipient).toMatchObject({
      reasons: [],
      watchReasons: ['QAcontact', 'CC'],
      watching: [loginOf('qa'), loginOf('cc')],
    });
    const message = bugMailMessage(change, recipient, context)!;
    const header = (name: string) => message.headers.find(([each]) => each === name)?.[1];
    expect(header('X-Bugzilla-Reason')).toBe('None');
    expect(header('X-Bugzilla-Watch-Reason')).toBe(`QAcontact CC ${loginOf('qa')} ${loginOf('cc')}`);
    expect(message.body).toContain(
      'You are watching the QA Contact of the bug.\nYou are watching someone on the CC list of the bug.',
    );
  });

  it("decides by the watcher's own boxes, not the watched person's", () => {
    const offForWatcher = mailContext({
      watches: { watcher: ['cc'] },
      preferences: { watcher: { relationships: { CC: { events: { comment: false } } } } },
    });
    expect(reasonsOf(change, offForWatcher, 'watcher')).toBeUndefined();
    expect(reasonsOf(change, offForWatcher, 'cc')?.reasons).toEqual(['CC']);
    const offForWatched = mailContext({
      watches: { watcher: ['cc'] },
      preferences: { cc: { relationships: { CC: { events: { comment: false } } } } },
    });
    expect(reasonsOf(change, offForWatched, 'cc')).toBeUndefined();
    expect(reasonsOf(change, offForWatched, 'watcher')?.watchReasons).toEqual(['CC']);
  });

  it("gets the watched person's mail even when the watched person made the change or takes no mail", () => {
    const byCc = { ...change, whoId: PEOPLE.cc };
    expect(reasonsOf(byCc, mailContext({ watches: { watcher: ['cc'] } }), 'watcher')?.watchReasons).toEqual(['CC']);
    const bug = baseBug({ ccIds: [PEOPLE.mailOff] });
    const toMailOff = changeOf(bug, bug, { comments: [comment()] });
    expect(reasonsOf(toMailOff, mailContext({ watches: { watcher: ['mailOff'] } }), 'watcher')?.watchReasons).toEqual([
      'CC',
    ]);
  });

  it('spares the watcher their own changes, a bug they ignore or cannot see', () => {
    const byWatcher = { ...change, whoId: PEOPLE.watcher };
    expect(reasonsOf(byWatcher, mailContext({ watches: { watcher: ['cc'] } }), 'watcher')).toBeUndefined();
    const ignoring = mailContext({ watches: { watcher: ['cc'] }, preferences: { watcher: { ignoreBugs: [42] } } });
    expect(reasonsOf(change, ignoring, 'watcher')).toBeUndefined();
    const secret = baseBug({ groupIds: [SECRET_GROUP_ID], ccIds: [PEOPLE.secretKeeper] });
    const secretChange = changeOf(secret, secret, { comments: [comment()] });
    expect(reasonsOf(secretChange, mailContext({ watches: { watcher: ['secretKeeper'] } }), 'watcher')).toBeUndefined();
  });

  it('gives someone both their own reason and the watched one, once', () => {
    const bug = baseBug({ ccIds: [PEOPLE.cc, PEOPLE.watcher] });
    const both = changeOf(bug, bug, { comments: [comment()] });
    expect(reasonsOf(both, mailContext({ watches: { watcher: ['cc'] } }), 'watcher')).toMatchObject({
      reasons: ['CC'],
      watchReasons: ['CC'],
    });
    expect(
      bugMailRecipients(both, mailContext({ watches: { watcher: ['cc'] } })).filter(
        (recipient) => recipient.user.caller.user.id === PEOPLE.watcher,
      ),
    ).toHaveLength(1);
  });

  it('treats someone just added as the watched person does: added for them, a CC change for the watcher', () => {
    const added = changeOf(
      before,
      { ...before, ccIds: [PEOPLE.cc, PEOPLE.outsider] },
      {
        changes: [{ field_name: 'cc', removed: '', added: loginOf('outsider') }],
      },
    );
    // Bugzilla's defaults leave a mere CC change out for a CC: the outsider is told (added), not their watcher.
    const context = mailContext({ watches: { watcher: ['outsider'] } });
    expect(reasonsOf(added, context, 'outsider')?.reasons).toEqual(['CC']);
    expect(reasonsOf(added, context, 'watcher')).toBeUndefined();
  });
});

describe('global watchers', () => {
  it('spares a global watcher their own change unless some column asks for their own changes', () => {
    const change = { ...changeOf(before, before, { comments: [comment()] }), whoId: PEOPLE.watcher };
    const parameters = { globalwatchers: loginOf('watcher') };
    expect(reasonsOf(change, mailContext({ parameters }), 'watcher')).toBeUndefined();
    const wanting = mailContext({
      parameters,
      preferences: { watcher: { relationships: { CC: { ownChanges: true } } } },
    });
    expect(reasonsOf(change, wanting, 'watcher')?.reasons).toEqual(['GlobalWatcher']);
  });
});
