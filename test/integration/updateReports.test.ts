import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSecond, useSteppableClock } from '../support/clock.ts';
import { expectError, fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * What an update of a bug reports, as Bugzilla 5.2 reports it, in its `changes` and in the bug's
 * history: the CC list a new component brings, a component of the same name in another product,
 * the confirmed state (`is_confirmed`), who a duplicate puts on the CC list (and that nobody else
 * joins it unasked), negative hours worked, an attachment added to the path's bug alone, and bug 0.
 */
let app: TestApp;
let admin: string;
const keys: Record<string, string> = {};
const login = (name: string) => `${name}@tracker.test`;

interface Change {
  field_name: string;
  removed: string;
  added: string;
}

const fileBug = (key: string, overrides: Record<string, unknown> = {}) => fileTestBug(app, key, overrides);
const update = (id: number, body: Record<string, unknown>, key = admin) =>
  call(app, 'PUT', `/rest/bug/${id}`, { apiKey: key, body });
/** The update's `changes` for its one bug. */
const changesOf = async (id: number, body: Record<string, unknown>, key = admin) =>
  (await ok(update(id, body, key))).bugs[0].changes;
const bugOf = async (id: number, fields: string) =>
  (await ok(call(app, 'GET', `/rest/bug/${id}`, { apiKey: admin, query: { include_fields: fields } }))).bugs[0];
const historyOf = async (id: number): Promise<Array<{ who: string; changes: Change[] }>> =>
  (await ok(call(app, 'GET', `/rest/bug/${id}/history`, { apiKey: admin }))).bugs[0].history;
/** The changes of the bug's latest history entry. */
const lastChanges = async (id: number) => (await historyOf(id)).at(-1)?.changes ?? [];
const allChanges = async (id: number) => (await historyOf(id)).flatMap((entry) => entry.changes);

useSteppableClock();
beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  for (const name of ['reporter', 'watcher', 'mover', 'requestee', 'outsider', 'commenter'])
    keys[name] = await userWithKey(app, name);
  await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'secret', description: 'Secret' } }));
  await ok(
    call(app, 'PUT', '/rest/product/TestProduct', {
      apiKey: admin,
      body: { group_controls: [{ group: 'secret', membercontrol: 'SHOWN', othercontrol: 'NA' }] },
    }),
  );
  await ok(
    call(app, 'POST', '/rest/component', {
      apiKey: admin,
      body: {
        product: 'TestProduct',
        name: 'Watched',
        description: 'Watched',
        default_assignee: app.admin.login,
        default_cc: [login('watcher')],
      },
    }),
  );
  // Another product with a component of the same name as TestProduct's, and its own default CC.
  await ok(
    call(app, 'POST', '/rest/product', {
      apiKey: admin,
      body: { name: 'Other', description: 'Other product', version: 'unspecified' },
    }),
  );
  await ok(
    call(app, 'POST', '/rest/component', {
      apiKey: admin,
      body: {
        product: 'Other',
        name: 'TestComponent',
        description: 'Same name',
        default_assignee: app.admin.login,
        default_cc: [login('mover')],
      },
    }),
  );
  for (const target_type of ['bug', 'attachment'])
    await ok(
      call(app, 'POST', '/rest/flag_type', {
        apiKey: admin,
        body: {
          name: `ask-${target_type}`,
          description: 'Ask someone',
          target_type,
          is_requestable: true,
          is_requesteeble: true,
        },
      }),
    );
});
afterAll(async () => {
  await app?.close();
});

describe('a new component', () => {
  it("adds the component's default CC list to the bug and reports it under cc, in changes and history", async () => {
    const id = await fileBug(admin);
    nextSecond();
    const changes = await changesOf(id, { component: 'Watched' });
    expect(changes).toEqual({
      component: { removed: 'TestComponent', added: 'Watched' },
      cc: { removed: '', added: login('watcher') },
    });
    expect((await bugOf(id, 'cc')).cc).toEqual([login('watcher')]);
    expect(await lastChanges(id)).toEqual(
      expect.arrayContaining([
        { field_name: 'component', removed: 'TestComponent', added: 'Watched' },
        { field_name: 'cc', removed: '', added: login('watcher') },
      ]),
    );
  });

  it('lets the same request take a default CC off again, and adds nobody already on the list', async () => {
    const removed = await fileBug(admin);
    expect(await changesOf(removed, { component: 'Watched', cc: { remove: [login('watcher')] } })).toEqual({
      component: { removed: 'TestComponent', added: 'Watched' },
    });
    const listed = await fileBug(admin, { cc: [login('watcher')] });
    expect(await changesOf(listed, { component: 'Watched' })).toEqual({
      component: { removed: 'TestComponent', added: 'Watched' },
    });
    expect((await bugOf(listed, 'cc')).cc).toEqual([login('watcher')]);
  });

  it('reports the component of a product move even when the new one has the same name, with its CC list', async () => {
    const id = await fileBug(admin);
    nextSecond();
    const changes = await changesOf(id, { product: 'Other' });
    expect(changes).toEqual({
      product: { removed: 'TestProduct', added: 'Other' },
      component: { removed: 'TestComponent', added: 'TestComponent' },
      cc: { removed: '', added: login('mover') },
    });
    expect(await lastChanges(id)).toEqual(
      expect.arrayContaining([
        { field_name: 'product', removed: 'TestProduct', added: 'Other' },
        { field_name: 'component', removed: 'TestComponent', added: 'TestComponent' },
        { field_name: 'cc', removed: '', added: login('mover') },
      ]),
    );
  });
});

describe('the confirmed state', () => {
  it('records no history when a bug is filed, confirmed or not', async () => {
    expect(await historyOf(await fileBug(admin, { status: 'UNCONFIRMED' }))).toEqual([]);
    expect(await historyOf(await fileBug(admin))).toEqual([]);
  });

  it.each([
    ['CONFIRMED', 'CONFIRMED'],
    ['NEW', 'CONFIRMED'],
    ['ASSIGNED', 'IN_PROGRESS'],
    ['IN_PROGRESS', 'IN_PROGRESS'],
  ])('reports is_confirmed 0 -> 1 when an UNCONFIRMED bug moves to %s', async (asked, status) => {
    const id = await fileBug(admin, { status: 'UNCONFIRMED' });
    expect((await bugOf(id, 'is_confirmed')).is_confirmed).toBe(false);
    const changes = await changesOf(id, { status: asked });
    expect(changes).toEqual({
      status: { removed: 'UNCONFIRMED', added: status },
      is_confirmed: { removed: '0', added: '1' },
    });
    expect(await lastChanges(id)).toEqual(
      expect.arrayContaining([{ field_name: 'is_confirmed', removed: '0', added: '1' }]),
    );
    expect((await bugOf(id, 'is_confirmed')).is_confirmed).toBe(true);
  });

  it('reports is_confirmed 1 -> 0 when a confirmed bug is reopened as UNCONFIRMED, and nothing while it stays closed', async () => {
    const id = await fileBug(admin);
    const resolved = await changesOf(id, { status: 'RESOLVED', resolution: 'INVALID' });
    expect(resolved).not.toHaveProperty('is_confirmed');
    nextSecond();
    expect(await changesOf(id, { status: 'UNCONFIRMED' })).toEqual({
      status: { removed: 'RESOLVED', added: 'UNCONFIRMED' },
      resolution: { removed: 'INVALID', added: '' },
      is_confirmed: { removed: '1', added: '0' },
    });
    expect(await lastChanges(id)).toEqual(
      expect.arrayContaining([{ field_name: 'is_confirmed', removed: '1', added: '0' }]),
    );
    expect((await bugOf(id, 'is_confirmed')).is_confirmed).toBe(false);
  });

  it('confirms a never-confirmed bug reopened as CONFIRMED, and leaves one moved between confirmed statuses alone', async () => {
    const id = await fileBug(admin, { status: 'UNCONFIRMED' });
    await ok(update(id, { status: 'RESOLVED', resolution: 'WORKSFORME' }));
    expect((await changesOf(id, { status: 'CONFIRMED' })).is_confirmed).toEqual({ removed: '0', added: '1' });
    expect(await changesOf(id, { status: 'IN_PROGRESS' })).toEqual({
      status: { removed: 'CONFIRMED', added: 'IN_PROGRESS' },
    });
  });
});

describe('marking a duplicate', () => {
  const ccOf = async (id: number) => (await bugOf(id, 'cc')).cc;

  it("adds the duplicate's reporter to the original's CC list, reported in the original's history", async () => {
    const original = await fileBug(admin);
    const dupe = await fileBug(keys.reporter);
    nextSecond();
    await ok(update(dupe, { dupe_of: original }));
    expect(await ccOf(original)).toEqual([login('reporter')]);
    expect(await lastChanges(original)).toEqual([{ field_name: 'cc', removed: '', added: login('reporter') }]);
    // The person marking it joins neither list.
    expect(await ccOf(dupe)).toEqual([]);
  });

  it('adds nobody when the reporter reported the original too, or is already on its CC list', async () => {
    const ownOriginal = await fileBug(keys.reporter);
    await ok(update(await fileBug(keys.reporter), { dupe_of: ownOriginal }));
    expect(await ccOf(ownOriginal)).toEqual([]);
    expect((await allChanges(ownOriginal)).map((change) => change.field_name)).not.toContain('cc');

    const watched = await fileBug(admin, { cc: [login('reporter'), login('watcher')] });
    await ok(update(await fileBug(keys.reporter), { dupe_of: watched }));
    expect(await ccOf(watched)).toEqual([login('reporter'), login('watcher')]);
    expect((await allChanges(watched)).map((change) => change.field_name)).not.toContain('cc');
  });

  it('adds no reporter who cannot see the original, which would show it to them', async () => {
    const hidden = await fileBug(admin, { groups: ['secret'] });
    const dupe = await fileBug(keys.outsider);
    await ok(update(dupe, { dupe_of: hidden }));
    expect(await ccOf(hidden)).toEqual([]);
    expect((await bugOf(dupe, 'dupe_of')).dupe_of).toBe(hidden);
  });
});

describe('nobody joins a CC list unasked', () => {
  it('neither the person changing a bug nor the requestee of a flag they ask for', async () => {
    const id = await fileBug(admin);
    const changes = await changesOf(
      id,
      { summary: 'Changed by someone else', flags: [{ name: 'ask-bug', status: '?', requestee: login('requestee') }] },
      keys.commenter,
    );
    expect(changes).toEqual({
      summary: { removed: 'A bug', added: 'Changed by someone else' },
      'flagtypes.name': { removed: '', added: `ask-bug?(${login('requestee')})` },
    });
    await ok(call(app, 'POST', `/rest/bug/${id}/comment`, { apiKey: keys.commenter, body: { comment: 'Hello' } }));
    expect((await bugOf(id, 'cc')).cc).toEqual([]);
  });

  it("nor the requestee of an attachment's flag, nor the person attaching it", async () => {
    const id = await fileBug(admin);
    await ok(
      call(app, 'POST', `/rest/bug/${id}/attachment`, {
        apiKey: keys.commenter,
        body: {
          data: Buffer.from('diff').toString('base64'),
          file_name: 'fix.patch',
          summary: 'Fix',
          is_patch: true,
          flags: [{ name: 'ask-attachment', status: '?', requestee: login('requestee') }],
        },
      }),
    );
    expect((await bugOf(id, 'cc')).cc).toEqual([]);
  });
});

describe('negative hours worked', () => {
  const times = (id: number) => bugOf(id, 'actual_time,remaining_time');

  it('take hours off the hours worked on update, give them back to the time remaining, and are in the history', async () => {
    const id = await fileBug(admin);
    await ok(update(id, { remaining_time: 5, work_time: 3 }));
    expect(await times(id)).toEqual({ actual_time: 3, remaining_time: 5 });
    nextSecond();
    const changes = await changesOf(id, { work_time: -1.5, comment: { body: 'Booked too much' } });
    expect(changes).toEqual({ remaining_time: { removed: '5.00', added: '6.5' } });
    expect(await times(id)).toEqual({ actual_time: 1.5, remaining_time: 6.5 });
    expect(await lastChanges(id)).toEqual(
      expect.arrayContaining([{ field_name: 'work_time', removed: '', added: '-1.50' }]),
    );
    const comments = (await ok(call(app, 'GET', `/rest/bug/${id}/comment`, { apiKey: admin }))).bugs[id].comments;
    expect(comments.at(-1)).toMatchObject({ text: 'Booked too much' });
  });

  it('correct hours worked through a comment too, and are refused beyond -99999.99', async () => {
    const id = await fileBug(admin);
    const comment = (work_time: number) =>
      call(app, 'POST', `/rest/bug/${id}/comment`, { apiKey: admin, body: { comment: 'Hours', work_time } });
    await ok(comment(2));
    nextSecond();
    await ok(comment(-0.5));
    expect(await times(id)).toEqual({ actual_time: 1.5, remaining_time: 0.5 });
    expect(await lastChanges(id)).toEqual([
      { field_name: 'work_time', removed: '', added: '-0.50' },
      { field_name: 'remaining_time', removed: '0.00', added: '0.5' },
    ]);
    // Bugzilla's number_too_small (55), as a negative estimated_time.
    expectError(await comment(-100_000), 55, 400);
    expectError(await update(id, { work_time: -100_000 }), 55, 400);
    expectError(await update(id, { work_time: 100_000 }), 54, 400);
    expect(await times(id)).toEqual({ actual_time: 1.5, remaining_time: 0.5 });
  });
});

describe('the bug a request names in its path', () => {
  it("attaches a file to the path's bug alone, whatever bugs the body's ids name", async () => {
    const target = await fileBug(admin);
    const other = await fileBug(admin);
    const { ids } = await ok(
      call(app, 'POST', `/rest/bug/${target}/attachment`, {
        apiKey: admin,
        body: {
          ids: [other],
          data: Buffer.from('text').toString('base64'),
          file_name: 'notes.txt',
          summary: 'Notes',
          content_type: 'text/plain',
        },
      }),
    );
    expect(ids).toHaveLength(1);
    const listed = await ok(
      call(app, 'GET', `/rest/bug/${target}/attachment`, {
        apiKey: admin,
        query: { ids: String(other), exclude_fields: 'data' },
      }),
    );
    expect(listed.bugs[target].map((attachment: { id: number }) => attachment.id)).toEqual(ids);
    expect(listed.bugs[other]).toEqual([]);
  });

  it('answers bug 0 as a bug that does not exist (101)', async () => {
    const response = await call(app, 'GET', '/rest/bug/0', { apiKey: admin });
    expectError(response, 101, 404);
    expect(response.body.message).toBe('Bug #0 does not exist.');
    for (const path of ['/rest/bug/0/history', '/rest/bug/0/comment'])
      expectError(await call(app, 'GET', path, { apiKey: admin }), 101, 404);
    expectError(await update(0, { summary: 'Nothing' }), 101, 404);
  });
});
