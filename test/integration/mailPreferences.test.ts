import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingMail } from '../../shared/application/notification/notificationOutlets.ts';
import {
  headerOf,
  type NotificationHarness,
  notificationHarness,
  type Person,
  person,
} from '../support/notificationHarness.ts';
import { createHiddenAndLockedProducts, expectError, fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Mail preferences over REST (GET/PUT /rest/preferences/mail, Bugzilla's userprefs.cgi
 * tab=email) and the bug mail publisher honouring them, through the table's real stream and the
 * local outbox: a preference changed over REST changes who is mailed.
 */
let app: TestApp;
let harness: NotificationHarness;
const people = {} as Record<'reporter' | 'assignee' | 'cc' | 'watcher' | 'changer' | 'outsider', Person>;
let bug: number;
let secretBug: number;

const MAIL_PATH = '/rest/preferences/mail';

const preferencesOf = (who: Person) => ok(call(app, 'GET', MAIL_PATH, { apiKey: who.key }));
const changePreferences = (who: Person, body: Record<string, unknown>) =>
  ok(call(app, 'PUT', MAIL_PATH, { apiKey: who.key, body }));

async function publish(): Promise<OutgoingMail[]> {
  harness.reset();
  await harness.drain();
  return [...harness.mails];
}

/** Who got the mail of a change, with X-Bugzilla-Reason and X-Bugzilla-Watch-Reason, sorted. */
const mailed = (mails: readonly OutgoingMail[]) =>
  mails
    .filter((mail) => headerOf(mail, 'X-Bugzilla-Type') !== 'request')
    .map(
      (mail) =>
        `${mail.message.to.split('@')[0]} ${headerOf(mail, 'X-Bugzilla-Reason')} / ${headerOf(mail, 'X-Bugzilla-Watch-Reason')}`,
    )
    .sort();

async function commentBy(who: Person, text = 'Still happens.'): Promise<OutgoingMail[]> {
  await ok(call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: who.key, body: { comment: text } }));
  return publish();
}

const DEFAULT_COLUMN = {
  added_removed: true,
  bug_created: true,
  opened_closed: true,
  component: true,
  project_management: true,
  comment: true,
  attachment: true,
  attachment_data: true,
  keywords: true,
  cc: false,
  dependencies: true,
  other: true,
  not_if_unconfirmed: false,
  not_if_changed_by_me: true,
};

beforeAll(async () => {
  app = await startTestApp({ changeStream: true });
  const key = app.admin.apiKey;
  await createHiddenAndLockedProducts(app);
  await ok(
    call(app, 'PUT', '/rest/parameters', {
      apiKey: key,
      body: { mail_delivery_method: 'Test', urlbase: 'https://bugs.example.com/', useqacontact: '1' },
    }),
  );
  for (const name of Object.keys({ reporter: 0, assignee: 0, cc: 0, watcher: 0, changer: 0, outsider: 0 }))
    people[name as keyof typeof people] = await person(app, name, name === 'changer' ? ['editbugs'] : []);
  bug = await fileTestBug(app, people.reporter.key, {
    summary: 'Frobnicator drops frames',
    assigned_to: people.assignee.login,
    cc: [people.cc.login],
  });
  secretBug = await fileTestBug(app, key, { product: 'Hidden', component: 'Core', version: '1.0' });
  harness = notificationHarness();
  await publish();
});

afterAll(async () => {
  await harness?.close();
  await app?.close();
});

describe('GET and PUT /rest/preferences/mail', () => {
  it("starts from Bugzilla 5.2's defaults", async () => {
    expect(await preferencesOf(people.outsider)).toEqual({
      email_enabled: true,
      flag_requested_of_me: true,
      flag_i_requested: true,
      relationships: {
        assignee: DEFAULT_COLUMN,
        reporter: { ...DEFAULT_COLUMN, cc: true },
        qa_contact: DEFAULT_COLUMN,
        cc: DEFAULT_COLUMN,
      },
      ignored_bugs: [],
      watched_users: [],
      watchers: [],
    });
  });

  it('changes only what the body names, and keeps it', async () => {
    const changed = await changePreferences(people.outsider, {
      flag_i_requested: false,
      relationships: { cc: { comment: false, not_if_unconfirmed: true } },
    });
    expect(changed.flag_i_requested).toBe(false);
    expect(changed.flag_requested_of_me).toBe(true);
    expect(changed.relationships.cc).toEqual({ ...DEFAULT_COLUMN, comment: false, not_if_unconfirmed: true });
    expect(changed.relationships.assignee).toEqual(DEFAULT_COLUMN);
    expect(await preferencesOf(people.outsider)).toEqual(changed);
  });

  it('refuses what it does not know, a bug the caller may not see, a login nobody has, and strangers', async () => {
    const refused = (body: Record<string, unknown>) =>
      call(app, 'PUT', MAIL_PATH, { apiKey: people.outsider.key, body });
    const before = await preferencesOf(people.outsider);
    const unknownBox = await refused({ relationships: { cc: { votes: true } } });
    expect(unknownBox.body.error, unknownBox.text).toBe(true);
    const unknownRole = await refused({ relationships: { voter: { comment: true } } });
    expect(unknownRole.body.error, unknownRole.text).toBe(true);
    // Nothing of a refused change is kept, the valid part included.
    expectError(await refused({ flag_requested_of_me: false, ignored_bugs: { add: [secretBug] } }), 102, 401);
    expectError(await refused({ ignored_bugs: { add: [999999] } }), 101, 404);
    expectError(await refused({ watched_users: { add: ['nobody@tracker.test'] } }), 51, 404);
    expectError(await refused({ watched_users: { add: [people.outsider.login] } }), 32000, 400);
    expect(await preferencesOf(people.outsider)).toEqual(before);
    expectError(await call(app, 'GET', MAIL_PATH), 410, 401);
  });
});

describe('the bug mail publisher honours what was set over REST', () => {
  it("mails everyone in a role by Bugzilla's defaults", async () => {
    expect(mailed(await commentBy(people.changer))).toEqual([
      'assignee AssignedTo / None',
      'cc CC / None',
      'reporter Reporter / None',
    ]);
  });

  it('leaves out someone who ignores the bug, until they stop ignoring it', async () => {
    const ignoring = await changePreferences(people.cc, { ignored_bugs: { add: [bug] } });
    expect(ignoring.ignored_bugs).toEqual([bug]);
    expect(mailed(await commentBy(people.changer))).toEqual(['assignee AssignedTo / None', 'reporter Reporter / None']);
    await changePreferences(people.cc, { ignored_bugs: { remove: [bug] } });
    expect(mailed(await commentBy(people.changer))).toContain('cc CC / None');
  });

  it('mails someone their own changes once they untick "the change was made by me"', async () => {
    expect(mailed(await commentBy(people.reporter))).not.toContain('reporter Reporter / None');
    await changePreferences(people.reporter, { relationships: { reporter: { not_if_changed_by_me: false } } });
    expect(mailed(await commentBy(people.reporter))).toContain('reporter Reporter / None');
    // Only in that column: as a CC of another bug, the default still spares them.
    await changePreferences(people.reporter, { relationships: { reporter: { not_if_changed_by_me: true } } });
    expect(mailed(await commentBy(people.reporter))).not.toContain('reporter Reporter / None');
  });

  it("mails a watcher what the watched person gets, by the watcher's own boxes", async () => {
    const watching = await changePreferences(people.watcher, { watched_users: { add: [people.assignee.login] } });
    expect(watching.watched_users).toEqual([people.assignee.login]);
    expect((await preferencesOf(people.assignee)).watchers).toEqual([people.watcher.login]);
    const mails = await commentBy(people.changer);
    expect(mailed(mails)).toContain(`watcher None / AssignedTo ${people.assignee.login}`);
    const toWatcher = mails.find((mail) => mail.message.to === people.watcher.login)!;
    expect(toWatcher.message.body).toContain('You are watching the assignee of the bug.');
    await changePreferences(people.watcher, { relationships: { assignee: { comment: false } } });
    expect(mailed(await commentBy(people.changer)).some((line) => line.startsWith('watcher'))).toBe(false);
    await changePreferences(people.watcher, { relationships: { assignee: { comment: true } } });
  });

  it('mails nobody whose bug mail is off (email_enabled), while their watcher still hears', async () => {
    const off = await changePreferences(people.assignee, { email_enabled: false });
    expect(off.email_enabled).toBe(false);
    expect((await ok(call(app, 'GET', '/rest/whoami', { apiKey: people.assignee.key }))).email_enabled).toBe(false);
    expect(mailed(await commentBy(people.changer))).toEqual([
      'cc CC / None',
      'reporter Reporter / None',
      `watcher None / AssignedTo ${people.assignee.login}`,
    ]);
    await changePreferences(people.assignee, { email_enabled: true });
    await changePreferences(people.watcher, { watched_users: { remove: [people.assignee.login] } });
    expect((await preferencesOf(people.assignee)).watchers).toEqual([]);
    expect(mailed(await commentBy(people.changer))).toEqual([
      'assignee AssignedTo / None',
      'cc CC / None',
      'reporter Reporter / None',
    ]);
  });

  it('mails a CC a status change but not a comment once their comment box is off', async () => {
    await changePreferences(people.cc, { relationships: { cc: { comment: false } } });
    expect(mailed(await commentBy(people.changer))).not.toContain('cc CC / None');
    await ok(call(app, 'PUT', `/rest/bug/${bug}`, { apiKey: people.changer.key, body: { priority: 'High' } }));
    expect(mailed(await publish())).toContain('cc CC / None');
  });
});
