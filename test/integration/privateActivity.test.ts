import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accounts from '../support/testAccounts.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * What the activity of a public bug tells callers outside the insider group about its private
 * attachments and comments (privateActivity.ts; docs/data-model.md §3, "What an outsider learns").
 * The insider group is `insiders`. The administrator is in it as in every group (Bugzilla makes
 * the admin group a member of each new group), so is an insider until `insidergroup` is emptied:
 * then nobody is, the administrator included. An insider renames a private attachment to a secret
 * and requests a flag on it, makes a plain user's attachment private and a comment private; the
 * administrator logs hours. Every way history reaches a caller is asked by every kind of caller.
 */
let app: TestApp;
let admin: string;
let member: string;
let alice: string;
let bob: string;
let bug: number;
let secretAttachment: number;
let aliceAttachment: number;
let readme: number;

const SUMMARY = 'Public bug with private activity';
const SECRET = 'Customer passwords';
const REQUEST = 'review?(member@tracker.test)';

const attach = (key: string, body: Record<string, unknown>) =>
  ok(
    call(app, 'POST', `/rest/bug/${bug}/attachment`, {
      apiKey: key,
      body: { content_type: 'text/plain', data: Buffer.from('data').toString('base64'), ...body },
    }),
  ).then((answer) => Number(answer.ids[0]));
const updateAttachment = (id: number, body: Record<string, unknown>, key = member) =>
  ok(call(app, 'PUT', `/rest/bug/attachment/${id}`, { apiKey: key, body }));
const setParameters = (body: Record<string, unknown>) =>
  ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body }));

interface Change {
  field_name: string;
  removed: string;
  added: string;
  attachment_id?: number;
}
const changesIn = (history: Array<{ changes: Change[] }>) => history.flatMap((entry) => entry.changes);

const history = async (key?: string) =>
  (await ok(call(app, 'GET', `/rest/bug/${bug}/history`, { apiKey: key }))).bugs[0].history;
const getBug = async (key: string | undefined, fields: string) =>
  (await ok(call(app, 'GET', `/rest/bug/${bug}`, { apiKey: key, query: { include_fields: fields } }))).bugs[0];
/** A search page that finds the bug by its summary: a search instance's page, with its rendered-text cache. */
const searchPage = async (key: string | undefined, fields: string) =>
  (
    await ok(
      call(app, 'GET', '/rest/bug', {
        apiKey: key,
        query: { f1: 'short_desc', o1: 'equals', v1: SUMMARY, include_fields: fields },
      }),
    )
  ).bugs;
const found = async (key: string | undefined, field: string, op: string, value: string) =>
  (
    await ok(
      call(app, 'GET', '/rest/bug', { apiKey: key, query: { f1: field, o1: op, v1: value, include_fields: 'id' } }),
    )
  ).bugs.map((found: { id: number }) => found.id);

/** Each kind of caller, by name; `undefined` is nobody logged in. */
const callers = () => ({ anonymous: undefined, bob, alice, admin, member }) as Record<string, string | undefined>;
const OUTSIDERS = ['anonymous', 'bob', 'alice'];
const INSIDERS = ['member', 'admin'];

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'insiders', description: 'Insiders' } }));
  await setParameters({ insidergroup: 'insiders' });
  member = await accounts.userWithKey(app, 'member', ['insiders']);
  alice = await accounts.userWithKey(app, 'alice');
  bob = await accounts.userWithKey(app, 'bob');
  await ok(
    call(app, 'POST', '/rest/flag_type', {
      apiKey: admin,
      body: {
        name: 'review',
        description: 'review',
        target_type: 'attachment',
        is_requestable: true,
        is_requesteeble: true,
      },
    }),
  );
  bug = await fileTestBug(app, admin, { summary: SUMMARY });

  readme = await attach(bob, { file_name: 'readme.txt', summary: 'readme' });
  await updateAttachment(readme, { summary: 'readme v2' }, bob);
  aliceAttachment = await attach(alice, { file_name: 'alice.log', summary: 'Alice log' });
  secretAttachment = await attach(member, { file_name: 'dump.txt', summary: 'Dump 7f3', is_private: true });
  await updateAttachment(secretAttachment, {
    summary: SECRET,
    flags: [{ name: 'review', status: '?', requestee: 'member@tracker.test' }],
  });
  await updateAttachment(aliceAttachment, { is_private: true });
  await ok(call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: member, body: { comment: 'Call me' } }));
  const comments = (await ok(call(app, 'GET', `/rest/bug/${bug}/comment`, { apiKey: member }))).bugs[bug].comments;
  const last = comments[comments.length - 1];
  await ok(call(app, 'PUT', `/rest/bug/${bug}`, { apiKey: member, body: { comment_is_private: { [last.id]: true } } }));
  await ok(
    call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: admin, body: { comment: 'Worked', work_time: 1.5 } }),
  );
});

afterAll(() => app?.close());

describe('history of a bug with private attachments and comments', () => {
  it('hides changes to private attachments and comment privacy from anyone outside the insider group', async () => {
    for (const name of OUTSIDERS) {
      const key = callers()[name];
      const changes = changesIn(await history(key));
      const text = JSON.stringify(changes);
      expect(text, name).not.toContain(SECRET);
      expect(text, name).not.toContain('Dump 7f3');
      expect(text, name).not.toContain(REQUEST);
      const attachmentIds = changes.map((change) => change.attachment_id).filter((id) => id !== undefined);
      // The public attachment's rename is everybody's; nothing names the private ones.
      expect(attachmentIds, name).toEqual([readme]);
      expect(
        changes.map((change) => change.field_name),
        name,
      ).not.toContain('longdescs.isprivate');
    }
  });

  it('shows them to insiders', async () => {
    for (const name of INSIDERS) {
      const changes = changesIn(await history(callers()[name]));
      expect(changes, name).toEqual(
        expect.arrayContaining([
          {
            field_name: 'attachments.description',
            removed: 'Dump 7f3',
            added: SECRET,
            attachment_id: secretAttachment,
          },
          { field_name: 'flagtypes.name', removed: '', added: REQUEST, attachment_id: secretAttachment },
          { field_name: 'attachments.isprivate', removed: '0', added: '1', attachment_id: aliceAttachment },
          expect.objectContaining({ field_name: 'longdescs.isprivate', removed: '0', added: '1' }),
        ]),
      );
    }
  });

  it('keeps hours worked for the time-tracking group', async () => {
    expect(changesIn(await history(admin)).map((change) => change.field_name)).toContain('work_time');
    for (const key of [undefined, bob, member])
      expect(changesIn(await history(key)).map((change) => change.field_name)).not.toContain('work_time');
  });

  it("gives Get Bug's and search pages' `history` the same rows as the history endpoint", async () => {
    for (const [name, key] of Object.entries(callers())) {
      const expected = await history(key);
      expect((await getBug(key, 'id,history')).history, name).toEqual(expected);
      expect((await searchPage(key, 'id,history'))[0].history, name).toEqual(expected);
    }
  });
});

describe('counts.attachments', () => {
  const expected: Record<string, number> = { anonymous: 1, bob: 1, alice: 2, admin: 3, member: 3 };

  it('counts private attachments for insiders and for whoever attached them, as the listing shows them', async () => {
    for (const [name, key] of Object.entries(callers())) {
      const listed = (await ok(call(app, 'GET', `/rest/bug/${bug}/attachment`, { apiKey: key }))).bugs[bug].length;
      expect(listed, name).toBe(expected[name]);
      expect((await getBug(key, 'counts')).counts.attachments, name).toBe(expected[name]);
      expect((await getBug(key, 'id,history,counts')).counts.attachments, name).toBe(expected[name]);
    }
  });

  it('is what `attachments.count` searches', async () => {
    for (const [name, key] of Object.entries(callers())) {
      expect(await found(key, 'attachments.count', 'equals', String(expected[name])), name).toEqual([bug]);
      expect(await found(key, 'attachments.count', 'greaterthan', String(expected[name])), name).toEqual([]);
    }
  });

  it("is each viewer's own on search pages, whoever asked before", async () => {
    // bob first fills the page cache for logged-in outsiders; alice must not get his count, nor he hers.
    for (const name of ['bob', 'alice', 'bob', 'anonymous', 'alice', 'member', 'admin']) {
      const [page] = await searchPage(callers()[name], 'id,counts');
      expect(page.counts.attachments, name).toBe(expected[name]);
    }
  });
});

describe('searching by history', () => {
  // Attachment fields are not search fields (108); a change to one is reached through `*` (any field)
  // and, for its flags, `flagtypes.name`. member made no change that outsiders may see.
  const searches: Array<[string, string, string]> = [
    ['*', 'changedto', SECRET],
    ['*', 'changedfrom', 'Dump 7f3'],
    ['flagtypes.name', 'changedto', REQUEST],
    ['flagtypes.name', 'changedby', 'member@tracker.test'],
    ['*', 'changedby', 'member@tracker.test'],
  ];

  it('finds a bug by a change to a private attachment or comment for insiders only', async () => {
    for (const name of OUTSIDERS)
      for (const [field, op, value] of searches)
        expect(await found(callers()[name], field, op, value), `${name} ${field} ${op}`).toEqual([]);
    for (const name of INSIDERS)
      for (const [field, op, value] of searches)
        expect(await found(callers()[name], field, op, value), `${name} ${field} ${op}`).toEqual([bug]);
    // A public attachment's changes find the bug for everyone.
    expect(await found(undefined, '*', 'changedto', 'readme v2')).toEqual([bug]);
  });

  it("judges by the attachment's privacy now: made public, its past changes are everyone's", async () => {
    await updateAttachment(secretAttachment, { is_private: false });
    expect(await found(bob, '*', 'changedto', SECRET)).toEqual([bug]);
    expect(await found(bob, 'flagtypes.name', 'changedto', REQUEST)).toEqual([bug]);
    expect(changesIn(await history(undefined))).toEqual(
      expect.arrayContaining([
        { field_name: 'attachments.description', removed: 'Dump 7f3', added: SECRET, attachment_id: secretAttachment },
        { field_name: 'attachments.isprivate', removed: '1', added: '0', attachment_id: secretAttachment },
      ]),
    );
    // alice's attachment is still private: the change that made it so stays hidden (and the comment's).
    expect(await found(bob, '*', 'changedto', '1')).toEqual([]);
    expect(await found(member, '*', 'changedto', '1')).toEqual([bug]);
    expect((await getBug(bob, 'counts')).counts.attachments).toBe(2);
  });

  it('treats the administrator as an outsider when insidergroup names no group', async () => {
    await setParameters({ insidergroup: '' });
    try {
      for (const key of [admin, member]) {
        expect(await found(key, '*', 'changedto', '1')).toEqual([]);
        expect((await getBug(key, 'counts')).counts.attachments).toBe(2);
        const changes = changesIn(await history(key));
        expect(changes.map((change) => change.attachment_id)).not.toContain(aliceAttachment);
        expect(changes.map((change) => change.field_name)).not.toContain('longdescs.isprivate');
      }
      // Whoever attached it still counts it, as they still see it listed.
      expect((await getBug(alice, 'counts')).counts.attachments).toBe(3);
    } finally {
      await setParameters({ insidergroup: 'insiders' });
    }
  });
});
