import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingMail } from '../../shared/application/notification/notificationOutlets.ts';
import {
  headerOf,
  type NotificationHarness,
  notificationHarness,
  type Person,
  person,
} from '../support/notificationHarness.ts';
import { createHiddenAndLockedProducts, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Bug mail from the table's real stream, as `npm start` delivers it: who gets which mail for
 * each kind of change, from where they stand (their role, the insider and time-tracking groups,
 * the bug's group), with Bugzilla's headers and threading. The installation: a reporter, an
 * assignee, a QA contact, a plain CC, an insider and the administrator on the CC list, a global
 * watcher, and people in no role; Hidden's bugs are in the group `secret`.
 */
let app: TestApp;
let harness: NotificationHarness;
let admin: Person;
const people = {} as Record<
  'reporter' | 'assignee' | 'qa' | 'cc' | 'outsider' | 'insider' | 'timer' | 'keeper' | 'watcher' | 'changer',
  Person
>;
/** Every mail of this file, to check what outsiders got at the end. */
const everyMail: OutgoingMail[] = [];
let bug: number;

const URLBASE = 'https://bugs.example.com/';
const SITE = '@https.bugs.example.com/';
const SUMMARY = 'Frobnicator drops frames';

async function publish(): Promise<OutgoingMail[]> {
  harness.reset();
  await harness.drain();
  everyMail.push(...harness.mails);
  return [...harness.mails];
}

/** Recipient and X-Bugzilla-Reason of each mail, sorted. */
const recipients = (mails: readonly OutgoingMail[]) =>
  mails.map((mail) => `${mail.message.to} ${headerOf(mail, 'X-Bugzilla-Reason')}`).sort();

const mailTo = (mails: readonly OutgoingMail[], who: Person) => {
  const found = mails.filter((mail) => mail.message.to === who.login);
  expect(found, `mail to ${who.login}`).toHaveLength(1);
  return found[0]!;
};

const update = (key: string, body: Record<string, unknown>, id = bug) =>
  ok(call(app, 'PUT', `/rest/bug/${id}`, { apiKey: key, body }));
const comment = (key: string, body: Record<string, unknown>) =>
  ok(call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: key, body }));

beforeAll(async () => {
  app = await startTestApp({ changeStream: true });
  const key = app.admin.apiKey;
  admin = { id: app.admin.id, login: app.admin.login, key };
  for (const name of ['insiders', 'timetrackers'])
    await ok(call(app, 'POST', '/rest/group', { apiKey: key, body: { name, description: name } }));
  await createHiddenAndLockedProducts(app);
  await ok(
    call(app, 'PUT', '/rest/parameters', {
      apiKey: key,
      body: {
        mail_delivery_method: 'Test',
        urlbase: URLBASE,
        mailfrom: 'bugzilla-daemon',
        insidergroup: 'insiders',
        timetrackinggroup: 'timetrackers',
        useqacontact: '1',
        globalwatchers: 'watcher@tracker.test',
      },
    }),
  );
  const groups: Record<keyof typeof people, string[]> = {
    reporter: ['editbugs', 'canconfirm'],
    assignee: ['editbugs'],
    qa: [],
    cc: [],
    outsider: [],
    insider: ['insiders', 'editbugs'],
    timer: ['timetrackers', 'editbugs'],
    keeper: ['secret', 'editbugs'],
    watcher: [],
    changer: ['editbugs'],
  };
  for (const [name, memberOf] of Object.entries(groups))
    people[name as keyof typeof people] = await person(app, name, memberOf, `${name} person`);
  await ok(
    call(app, 'POST', '/rest/flag_type', {
      apiKey: key,
      body: {
        name: 'review',
        description: 'Review',
        target_type: 'bug',
        is_requestable: true,
        is_requesteeble: true,
        cc_list: 'triage@lists.example.com',
      },
    }),
  );
  harness = notificationHarness();
  // What setting up wrote (users, groups, the catalogue) is no bug change.
  await publish();
  expect(everyMail).toEqual([]);
  expect(harness.events).toEqual([]);
});

afterAll(async () => {
  await harness?.close();
  await app?.close();
});

describe('bug mail', () => {
  it('tells a new bug to everyone in a role and the global watcher, not its reporter', async () => {
    bug = (
      await ok(
        call(app, 'POST', '/rest/bug', {
          apiKey: people.reporter.key,
          body: {
            product: 'TestProduct',
            component: 'TestComponent',
            version: 'unspecified',
            summary: SUMMARY,
            description: 'Every second frame is dropped.',
            op_sys: 'Linux',
            platform: 'PC',
            assigned_to: people.assignee.login,
            qa_contact: people.qa.login,
            cc: [people.cc.login, people.insider.login, admin.login],
          },
        }),
      )
    ).id;
    const mails = await publish();
    expect(recipients(mails)).toEqual(
      [
        `${admin.login} CC`,
        `${people.assignee.login} AssignedTo`,
        `${people.qa.login} QAcontact`,
        `${people.cc.login} CC`,
        `${people.insider.login} CC`,
        `${people.watcher.login} GlobalWatcher`,
      ].sort(),
    );
    for (const mail of mails) {
      const userId = Object.values({ ...people, admin }).find((who) => who.login === mail.message.to)!.id;
      expect(headerOf(mail, 'Subject')).toBe(`[Bug ${bug}] New: ${SUMMARY}`);
      expect(headerOf(mail, 'X-Bugzilla-Type')).toBe('new');
      expect(headerOf(mail, 'Message-ID')).toBe(`<bug-${bug}-${userId}${SITE}>`);
      expect(headerOf(mail, 'In-Reply-To')).toBeUndefined();
      expect(headerOf(mail, 'From')).toBe('bugzilla-daemon@bugs.example.com');
      expect(headerOf(mail, 'X-Bugzilla-Who')).toBe(people.reporter.login);
      expect(headerOf(mail, 'X-Bugzilla-Product')).toBe('TestProduct');
      expect(headerOf(mail, 'X-Bugzilla-URL')).toBe(URLBASE);
      expect(mail.message.body).toContain(`${URLBASE}show_bug.cgi?id=${bug}`);
      expect(mail.message.body).toContain('Every second frame is dropped.');
      expect(mail.delivery).toBe('test');
    }
  });

  it('keeps each mail as an .eml file: RFC 5322 with CRLF line ends, headers and quoted-printable body', () => {
    const files = [...harness.mailFiles().values()];
    expect(files).toHaveLength(everyMail.length);
    const toWatcher = files.find((text) => text.includes(`To: ${people.watcher.login}\r\n`))!;
    expect(toWatcher).toContain(`Subject: [Bug ${bug}] New: ${SUMMARY}\r\n`);
    expect(toWatcher).toContain('X-Bugzilla-Reason: GlobalWatcher\r\n');
    expect(toWatcher).toContain('Auto-Submitted: auto-generated\r\n');
    expect(toWatcher).toContain('Content-Transfer-Encoding: quoted-printable\r\n\r\n');
    expect(toWatcher).toContain(`Message-ID: <bug-${bug}-${people.watcher.id}${SITE}>\r\n`);
    expect(toWatcher.replace(/\r\n/g, '')).not.toMatch(/\n/);
  });

  it('tells a field change to everyone concerned but the changer, threaded under the first mail', async () => {
    await update(people.changer.key, { priority: 'High' });
    const mails = await publish();
    expect(recipients(mails)).toEqual(
      [
        `${admin.login} CC`,
        `${people.reporter.login} Reporter`,
        `${people.assignee.login} AssignedTo`,
        `${people.qa.login} QAcontact`,
        `${people.cc.login} CC`,
        `${people.insider.login} CC`,
        `${people.watcher.login} GlobalWatcher`,
      ].sort(),
    );
    const toQa = mailTo(mails, people.qa);
    expect(toQa.revision).toBe(2);
    expect(headerOf(toQa, 'Subject')).toBe(`[Bug ${bug}] ${SUMMARY}`);
    expect(headerOf(toQa, 'X-Bugzilla-Type')).toBe('changed');
    expect(headerOf(toQa, 'Message-ID')).toBe(`<bug-${bug}-${people.qa.id}-r2${SITE}>`);
    expect(headerOf(toQa, 'In-Reply-To')).toBe(`<bug-${bug}-${people.qa.id}${SITE}>`);
    expect(headerOf(toQa, 'References')).toBe(`<bug-${bug}-${people.qa.id}${SITE}>`);
    expect(headerOf(toQa, 'X-Bugzilla-Changed-Fields')).toBe('priority');
    expect(headerOf(toQa, 'X-Bugzilla-Priority')).toBe('High');
    expect(toQa.message.body).toContain(`changer person <${people.changer.login}> changed:`);
    expect(toQa.message.body).toMatch(/Priority\s*\|[^|]*\|High/);
  });

  it('tells a private comment to insiders only, and a public one to everyone', async () => {
    await comment(people.insider.key, { comment: 'The customer is ACME Corp.', is_private: true });
    const privateMails = await publish();
    expect(recipients(privateMails)).toEqual([`${admin.login} CC`]);
    expect(privateMails[0]!.message.body).toContain('The customer is ACME Corp.');

    await comment(people.insider.key, { comment: 'Reproduced on the nightly build.' });
    const publicMails = await publish();
    expect(recipients(publicMails)).toHaveLength(6);
    expect(publicMails.map((mail) => mail.message.to)).not.toContain(people.insider.login);
    for (const mail of publicMails) {
      expect(mail.message.body).toContain('Reproduced on the nightly build.');
      expect(headerOf(mail, 'X-Bugzilla-Changed-Field-Names')).toBe('comment');
    }
  });

  it('shows time tracking only to the time-tracking group', async () => {
    await update(people.timer.key, { priority: 'Low', estimated_time: 4.5 });
    const mails = await publish();
    expect(mails.map((mail) => mail.message.to)).not.toContain(people.timer.login);
    expect(recipients(mails)).toHaveLength(7);
    for (const mail of mails) {
      const timeTracker = mail.message.to === admin.login;
      expect(mail.message.body.includes('Orig. Est.'), mail.message.to).toBe(timeTracker);
      expect(mail.message.body.includes('4.50'), mail.message.to).toBe(timeTracker);
      expect(headerOf(mail, 'X-Bugzilla-Changed-Fields')).toBe(timeTracker ? 'priority estimated_time' : 'priority');
    }
  });

  it('mails a flag request to the person asked and the flag type CC list, and its answer to who asked', async () => {
    await update(people.reporter.key, {
      flags: [{ name: 'review', status: '?', requestee: people.assignee.login }],
    });
    const requested = await publish();
    const requestMails = requested.filter((mail) => headerOf(mail, 'X-Bugzilla-Type') === 'request');
    expect(recipients(requestMails)).toEqual(
      [`${people.assignee.login} Requestee`, 'triage@lists.example.com FlagTypeCC'].sort(),
    );
    for (const mail of requestMails) {
      expect(headerOf(mail, 'Subject')).toBe(`review requested: [Bug ${bug}] ${SUMMARY}`);
      expect(headerOf(mail, 'X-Bugzilla-Flag-Requestee')).toBe(people.assignee.login);
      expect(headerOf(mail, 'In-Reply-To')).toMatch(new RegExp(`^<bug-${bug}-\\d+${SITE}>$`));
    }
    expect(mailTo(requestMails, people.assignee).message.body.replace(/\s+/g, ' ')).toContain(
      `reporter person <${people.reporter.login}> has asked assignee person <${people.assignee.login}> for review:`,
    );
    // The flag is a change of the bug too: everyone concerned but the reporter, who made it.
    const bugMails = requested.filter((mail) => headerOf(mail, 'X-Bugzilla-Type') === 'changed');
    expect(bugMails.map((mail) => mail.message.to)).not.toContain(people.reporter.login);
    expect(headerOf(bugMails[0]!, 'X-Bugzilla-Changed-Fields')).toBe('flagtypes.name');

    const flag = (
      await ok(call(app, 'GET', `/rest/bug/${bug}`, { apiKey: admin.key, query: { include_fields: 'flags' } }))
    ).bugs[0].flags[0];
    await update(people.assignee.key, { flags: [{ id: flag.id, status: '+' }] });
    const granted = (await publish()).filter((mail) => headerOf(mail, 'X-Bugzilla-Type') === 'request');
    expect(recipients(granted)).toEqual([`${people.reporter.login} Requester`, 'triage@lists.example.com FlagTypeCC']);
    expect(headerOf(granted[0]!, 'Subject')).toBe(`review granted: [Bug ${bug}] ${SUMMARY}`);
  });

  it('tells a mere CC change only to the reporter, the person removed and the global watcher', async () => {
    await update(people.changer.key, { cc: { remove: [people.cc.login] } });
    const mails = await publish();
    expect(recipients(mails)).toEqual(
      [`${people.reporter.login} Reporter`, `${people.cc.login} CC`, `${people.watcher.login} GlobalWatcher`].sort(),
    );
  });

  it('never mails a bug in a group to anyone outside it, the CC list included when it may not see it', async () => {
    const secret = (
      await ok(
        call(app, 'POST', '/rest/bug', {
          apiKey: people.keeper.key,
          body: {
            product: 'Hidden',
            component: 'Core',
            version: '1.0',
            summary: 'Secret plans',
            description: 'Only the secret group may read this.',
            op_sys: 'Linux',
            platform: 'PC',
            cc: [people.outsider.login],
            is_cc_accessible: false,
          },
        }),
      )
    ).id;
    const created = await publish();
    expect(recipients(created)).toEqual([`${admin.login} AssignedTo`]);
    await update(people.keeper.key, { priority: 'High' }, secret);
    expect(recipients(await publish())).toEqual([`${admin.login} AssignedTo`]);
    const stored = await ok(
      call(app, 'GET', `/rest/bug/${secret}`, { apiKey: admin.key, query: { include_fields: 'cc,is_cc_accessible' } }),
    );
    expect(stored.bugs[0]).toEqual({ cc: [people.outsider.login], is_cc_accessible: false });
    // With the CC list allowed in (Bugzilla's default), the people on it read the bug, and get its mail.
    await update(people.keeper.key, { is_cc_accessible: true, cc: { add: [people.cc.login] } }, secret);
    expect(recipients(await publish())).toEqual(
      [`${admin.login} AssignedTo`, `${people.cc.login} CC`, `${people.outsider.login} CC`].sort(),
    );
    await update(people.keeper.key, { cc: { remove: [people.outsider.login] }, is_cc_accessible: false }, secret);
    await publish();
  });

  it('sends nothing with mail_delivery_method None, and events still go out', async () => {
    await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin.key, body: { mail_delivery_method: 'None' } }));
    await update(people.changer.key, { priority: 'Highest' });
    expect(await publish()).toEqual([]);
    expect(harness.events.map((event) => event.detailType)).toEqual(['Bug Changed']);
    await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin.key, body: { mail_delivery_method: 'Test' } }));
  });

  it('never mailed anything to someone in no role, nor private text to anyone outside the insider group', () => {
    expect(everyMail.length).toBeGreaterThan(30);
    const outsiderMail = everyMail.filter((mail) => mail.message.to === people.outsider.login);
    // Only while the secret bug let its CC list in, and the outsider was on it.
    expect(outsiderMail.map((mail) => headerOf(mail, 'Subject'))).toEqual(['[Bug 2] Secret plans']);
    const leaked = everyMail.filter((mail) => mail.raw.includes('ACME') && mail.message.to !== admin.login);
    expect(leaked.map((mail) => mail.message.to)).toEqual([]);
    // One mail per message id and recipient: nothing went out twice.
    const keys = everyMail.map((mail) => mail.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
