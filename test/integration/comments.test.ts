import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSecond, useSteppableClock } from '../support/clock.ts';
import { tableInconsistencies } from '../support/tableIntegrity.ts';
import * as accounts from '../support/testAccounts.ts';
import { expectError, fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Comments, comment tags and comment rendering, over HTTP against the real handlers. Viewers:
 * the administrator (in every group, so insider, time tracker and tagger by default), a plain
 * user, a tagger who is no insider, and nobody logged in. "Hidden" bugs are in a mandatory group
 * the plain user is not in; "Locked" bugs are visible to all but editable only by "lockers".
 */
let app: TestApp;
let admin: string;
let plain: string;
let tagger: string;

const userWithKey = (name: string, groups: string[] = []) => accounts.userWithKey(app, name, groups);

const fileBug = (overrides: Record<string, unknown> = {}, key = admin) =>
  fileTestBug(app, key, { summary: 'Comment target', description: 'The description.', ...overrides });

const addComment = (bug: number | string, body: Record<string, unknown>, key: string | undefined = admin) =>
  call(app, 'POST', `/rest/bug/${bug}/comment`, { apiKey: key, body });
const commentsOf = (bug: number | string, key?: string, query: Record<string, string> = {}) =>
  call(app, 'GET', `/rest/bug/${bug}/comment`, { apiKey: key, query });
const setParameters = (body: Record<string, unknown>) =>
  ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body }));
const bugField = async (bug: number, field: string, key = admin) =>
  (await ok(call(app, 'GET', `/rest/bug/${bug}`, { apiKey: key, query: { include_fields: field } }))).bugs[0][field];

let hiddenBug: number;
let lockedBug: number;

useSteppableClock();
beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await accounts.createHiddenAndLockedProducts(app);
  await ok(
    call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'taggers', description: 'Comment taggers' } }),
  );
  plain = await userWithKey('plain');
  tagger = await userWithKey('tagger', ['taggers']);
  hiddenBug = await fileBug({ product: 'Hidden', component: 'Core', version: '1.0' });
  lockedBug = await fileBug({ product: 'Locked', component: 'Core', version: '1.0' });
});
afterAll(async () => {
  // Whatever the tests above did, refused or not, nothing was left half-written.
  if (app) expect(await tableInconsistencies()).toEqual([]);
  await app?.close();
});

describe('adding a comment', () => {
  it('answers the new id; the bug counts it and its last change time moves', async () => {
    const bug = await fileBug();
    const before = await bugField(bug, 'last_change_time');
    nextSecond(); // Bugzilla times have whole seconds
    const { id } = await ok(addComment(bug, { comment: 'First look: reproducible.' }, plain));
    expect(id).toBeGreaterThan(0);
    expect(await bugField(bug, 'comment_count')).toBe(2);
    expect(await bugField(bug, 'last_change_time')).not.toBe(before);
    const { bugs, comments } = await ok(commentsOf(bug));
    expect(comments).toEqual({});
    expect(Object.keys(bugs)).toEqual([String(bug)]);
    const [description, added] = bugs[bug].comments;
    expect(description).toMatchObject({ count: 0, text: 'The description.', creator: app.admin.login });
    expect(added).toEqual({
      id,
      bug_id: bug,
      attachment_id: null,
      count: 1,
      text: 'First look: reproducible.',
      raw_text: 'First look: reproducible.',
      creator: 'plain@tracker.test',
      creation_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      time: added.creation_time,
      is_private: false,
      is_markdown: false,
      tags: [],
    });
  });

  it('accepts an alias and adds one comment to each bug of ids', async () => {
    const first = await fileBug({ alias: 'comment-alias' });
    const second = await fileBug();
    const { id } = await ok(
      call(app, 'POST', '/rest/bug/comment-alias/comment', {
        apiKey: admin,
        body: { comment: 'On both', ids: [second] },
      }),
    );
    const { bugs } = await ok(
      call(app, 'GET', `/rest/bug/${first}/comment`, {
        apiKey: admin,
        query: { ids: [String(second), String(first)] } as never,
      }),
    );
    expect(Object.keys(bugs).sort()).toEqual([String(first), String(second)].sort());
    expect(bugs[first].comments.at(-1)).toMatchObject({ id, text: 'On both', count: 1 });
    expect(bugs[second].comments.at(-1)).toMatchObject({ text: 'On both', count: 1 });
  });

  it("refuses with Bugzilla's codes", async () => {
    const bug = await fileBug();
    expectError(await addComment(bug, {}), 50, 400);
    expectError(await addComment(bug, { comment: '' }), 50, 400);
    expectError(await addComment(bug, { comment: ' \n\t ' }), 50, 400);
    expectError(await addComment(bug, { comment: 'x'.repeat(65_536) }), 114, 400);
    expect((await addComment(bug, { comment: 'x'.repeat(65_535) })).status).toBe(200);
    expectError(await addComment(bug, { comment: 'secret', is_private: true }, plain), 113, 401);
    expectError(await addComment(bug, { comment: 'hours', work_time: 100_000 }), 54, 400);
    expectError(await addComment('no-such-alias', { comment: 'x' }), 100, 400);
    expectError(await addComment(999_999, { comment: 'x' }), 101, 404);
    expectError(await addComment(hiddenBug, { comment: 'x' }, plain), 102, 401);
    expectError(await addComment(lockedBug, { comment: 'x' }, plain), 109, 401);
    expectError(await addComment(bug, { comment: 'x' }, ''), 410, 401);
    await setParameters({ markdown_enabled: false });
    try {
      expectError(await addComment(bug, { comment: '**x**', is_markdown: true }), 140, 400);
    } finally {
      await setParameters({ markdown_enabled: true });
    }
    expect(await bugField(bug, 'comment_count')).toBe(2);
  });

  it('numbers comments made at the same moment one after the other, losing none', async () => {
    const bug = await fileBug();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        addComment(bug, { comment: `parallel ${index}` }, index % 2 ? plain : admin),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const comments = (await ok(commentsOf(bug))).bugs[bug].comments;
    expect(comments.map((comment: { count: number }) => comment.count)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(
      comments
        .slice(1)
        .map((comment: { text: string }) => comment.text)
        .sort(),
    ).toEqual(Array.from({ length: 8 }, (_, index) => `parallel ${index}`));
    expect(await bugField(bug, 'comment_count')).toBe(9);
  });

  it('counts hours worked for the time-tracking group and ignores them from anyone else', async () => {
    const bug = await fileBug();
    await ok(call(app, 'PUT', `/rest/bug/${bug}`, { apiKey: admin, body: { remaining_time: 3 } }));
    await ok(addComment(bug, { comment: 'Spent a while', work_time: 1.5 }));
    await ok(addComment(bug, { comment: 'Me too', work_time: 2 }, plain));
    const fields = (
      await ok(
        call(app, 'GET', `/rest/bug/${bug}`, {
          apiKey: admin,
          query: { include_fields: 'actual_time,remaining_time' },
        }),
      )
    ).bugs[0];
    expect(fields).toEqual({ actual_time: 1.5, remaining_time: 1.5 });
    const history = (await ok(call(app, 'GET', `/rest/bug/${bug}/history`, { apiKey: admin }))).bugs[0].history;
    expect(history.flatMap((entry: { changes: unknown[] }) => entry.changes)).toEqual(
      expect.arrayContaining([
        { field_name: 'work_time', removed: '', added: '1.50' },
        { field_name: 'remaining_time', removed: '3.00', added: '1.5' },
      ]),
    );
  });
});

describe('private comments', () => {
  let bug: number;
  let privateId: number;
  beforeAll(async () => {
    bug = await fileBug();
    privateId = (await ok(addComment(bug, { comment: 'Insiders only', is_private: true }))).id;
    await ok(addComment(bug, { comment: 'Public again' }));
  });

  it('are shown and counted for insiders', async () => {
    const { bugs } = await ok(commentsOf(bug, admin));
    expect(
      bugs[bug].comments.map((comment: { text: string; is_private: boolean }) => [comment.text, comment.is_private]),
    ).toEqual([
      ['The description.', false],
      ['Insiders only', true],
      ['Public again', false],
    ]);
    expect(await bugField(bug, 'comment_count')).toBe(3);
    expect(
      (await ok(call(app, 'GET', `/rest/bug/comment/${privateId}`, { apiKey: admin }))).comments[privateId].text,
    ).toBe('Insiders only');
  });

  it('are neither shown nor counted for anyone else, logged in or not', async () => {
    for (const key of [plain, tagger, undefined]) {
      const { bugs } = await ok(commentsOf(bug, key));
      expect(
        bugs[bug].comments.map((comment: { text: string; count: number }) => [comment.text, comment.count]),
      ).toEqual([
        ['The description.', 0],
        ['Public again', 2],
      ]);
      const viaBug = (
        await ok(
          call(app, 'GET', `/rest/bug/${bug}`, {
            apiKey: key,
            query: { include_fields: 'comment_count,comments,counts' },
          }),
        )
      ).bugs[0];
      expect(viaBug.comment_count).toBe(2);
      expect(viaBug.counts.comments).toBe(2);
      expect(viaBug.comments.map((comment: { text: string }) => comment.text)).not.toContain('Insiders only');
      expectError(await call(app, 'GET', `/rest/bug/comment/${privateId}`, { apiKey: key }), 110, 401);
    }
  });
});

describe('changing the privacy of existing comments (comment_is_private on bug update)', () => {
  let bug: number;
  let commentId: number;
  const update = (body: Record<string, unknown>, key = admin) =>
    call(app, 'PUT', `/rest/bug/${bug}`, { apiKey: key, body });
  const texts = async (key?: string) =>
    (await ok(commentsOf(bug, key))).bugs[bug].comments.map((comment: { text: string }) => comment.text);
  beforeAll(async () => {
    bug = await fileBug();
    commentId = (await ok(addComment(bug, { comment: 'Said in the open by a zanzibarian' }))).id;
  });

  it('lets an insider hide a comment and show it again, recorded for insiders only and never in changes', async () => {
    const hidden = await ok(update({ comment_is_private: { [commentId]: true } }));
    expect(hidden.bugs[0].changes).toEqual({});
    expect(await texts(plain)).toEqual(['The description.']);
    expect(await texts(admin)).toEqual(['The description.', 'Said in the open by a zanzibarian']);
    expect(await bugField(bug, 'comment_count', plain)).toBe(1);
    const insiderHistory = (await ok(call(app, 'GET', `/rest/bug/${bug}/history`, { apiKey: admin }))).bugs[0].history;
    expect(insiderHistory.at(-1).changes).toEqual([
      { field_name: 'longdescs.isprivate', removed: '0', added: '1', comment_id: commentId, comment_count: 1 },
    ]);
    const outsiderHistory = (await ok(call(app, 'GET', `/rest/bug/${bug}/history`, { apiKey: plain }))).bugs[0].history;
    expect(JSON.stringify(outsiderHistory)).not.toContain('isprivate');

    const found = async (key: string) =>
      (
        await ok(
          call(app, 'GET', '/rest/bug', {
            apiKey: key,
            query: { f1: 'content', o1: 'matches', v1: 'zanzibarian', include_fields: 'id' },
          }),
        )
      ).bugs.map((found: { id: number }) => found.id);
    // Comment searches follow the privacy too: an outsider's search no longer matches the words.
    expect(await found(plain)).toEqual([]);
    expect(await found(admin)).toEqual([bug]);

    await ok(update({ comment_is_private: { [commentId]: false }, comment: { body: 'And a new one' } }));
    expect(await found(plain)).toEqual([bug]);
    expect(await texts(plain)).toEqual(['The description.', 'Said in the open by a zanzibarian', 'And a new one']);
    expect(await bugField(bug, 'comment_count', plain)).toBe(3);
  });

  it('loses no change when comments, privacy and fields change at the same moment', async () => {
    const target = await fileBug();
    const secretId = (await ok(addComment(target, { comment: 'Soon hidden' }))).id;
    const results = await Promise.all([
      call(app, 'PUT', `/rest/bug/${target}`, { apiKey: admin, body: { comment_is_private: { [secretId]: true } } }),
      addComment(target, { comment: 'Added meanwhile' }),
      call(app, 'PUT', `/rest/bug/${target}`, { apiKey: admin, body: { priority: 'Low' } }),
      addComment(target, { comment: 'And another' }, plain),
    ]);
    for (const result of results) expect(result.status, result.text).toBe(200);
    const seenByAdmin = (await ok(commentsOf(target, admin))).bugs[target].comments.map(
      (comment: { text: string; is_private: boolean }) => [comment.text, comment.is_private],
    );
    expect(seenByAdmin.sort()).toEqual([
      ['Added meanwhile', false],
      ['And another', false],
      ['Soon hidden', true],
      ['The description.', false],
    ]);
    expect(await bugField(target, 'priority')).toBe('Low');
    // The bug's private-comment count moved with the privacy change, whatever order the writes landed in.
    expect(await bugField(target, 'comment_count', plain)).toBe(3);
    expect(await bugField(target, 'comment_count', admin)).toBe(4);
  });

  it('refuses outsiders (113) and comments of other bugs (111), saving nothing of the request', async () => {
    const other = await fileBug();
    const otherComment = (await ok(addComment(other, { comment: 'Elsewhere' }))).id;
    expectError(
      await update({ comment_is_private: { [commentId]: true }, comment: { body: 'Hiding it' } }, plain),
      113,
      401,
    );
    expectError(await update({ comment_is_private: { [otherComment]: true }, priority: 'Low' }), 111, 400);
    expectError(await update({ comment_is_private: { nonsense: true } }), 111, 400);
    expect(await bugField(bug, 'priority')).not.toBe('Low');
    expect(await texts(plain)).toContain('Said in the open by a zanzibarian');
    expect(await texts(plain)).not.toContain('Hiding it');
    // Asking for what already is changes nothing and needs no insider.
    expect((await ok(update({ comment_is_private: { [commentId]: false } }, plain))).bugs[0].changes).toEqual({});
  });
});

describe('reading comments', () => {
  it('by comment id: keyed by id, with comment_ids; 111 unknown, 52 not a number, 102 on a hidden bug', async () => {
    const bug = await fileBug();
    const one = (await ok(addComment(bug, { comment: 'one' }))).id;
    const two = (await ok(addComment(bug, { comment: 'two' }))).id;
    const { bugs, comments } = await ok(
      call(app, 'GET', `/rest/bug/comment/${one}`, { apiKey: plain, query: { comment_ids: String(two) } }),
    );
    expect(bugs).toEqual({});
    expect(Object.keys(comments).sort()).toEqual([String(one), String(two)].sort());
    expect(comments[two]).toMatchObject({ text: 'two', count: 2, bug_id: bug });
    expectError(await call(app, 'GET', '/rest/bug/comment/99999999', { apiKey: plain }), 111, 400);
    expectError(await call(app, 'GET', '/rest/bug/comment/abc', { apiKey: plain }), 52, 400);
    const hiddenComment = (await ok(commentsOf(hiddenBug, admin))).bugs[hiddenBug].comments[0].id;
    expectError(await call(app, 'GET', `/rest/bug/comment/${hiddenComment}`, { apiKey: plain }), 102, 401);
    expectError(await commentsOf(hiddenBug, plain), 102, 401);
    expectError(await commentsOf(999_999, plain), 101, 404);
  });

  it('new_since keeps only later comments of bugs; include_fields applies to each comment', async () => {
    const bug = await fileBug();
    const first = (await ok(commentsOf(bug))).bugs[bug].comments[0];
    nextSecond();
    await ok(addComment(bug, { comment: 'later' }));
    const later = await ok(commentsOf(bug, admin, { new_since: first.creation_time }));
    expect(later.bugs[bug].comments.map((comment: { text: string }) => comment.text)).toEqual(['later']);
    const byId = await ok(
      call(app, 'GET', `/rest/bug/comment/${first.id}`, {
        apiKey: admin,
        query: { new_since: '2099-01-01T00:00:00Z' },
      }),
    );
    expect(byId.comments[first.id].text).toBe('The description.');
    const narrow = await ok(commentsOf(bug, admin, { include_fields: 'id,text' }));
    expect(narrow.bugs[bug].comments[1]).toEqual({ id: expect.any(Number), text: 'later' });
    const wide = await ok(commentsOf(bug, admin, { exclude_fields: 'raw_text,time' }));
    expect(Object.keys(wide.bugs[bug].comments[0]).sort()).toEqual([
      'attachment_id',
      'bug_id',
      'count',
      'creation_time',
      'creator',
      'id',
      'is_markdown',
      'is_private',
      'tags',
      'text',
    ]);
  });

  it("shows Bugzilla's wording for duplicates", async () => {
    const target = await fileBug();
    const dupe = await fileBug();
    await ok(call(app, 'PUT', `/rest/bug/${dupe}`, { apiKey: admin, body: { dupe_of: target } }));
    expect((await ok(commentsOf(dupe))).bugs[dupe].comments.at(-1).text).toBe(
      `*** This bug has been marked as a duplicate of bug ${target} ***`,
    );
    expect((await ok(commentsOf(target))).bugs[target].comments.at(-1).text).toBe(
      `*** Bug ${dupe} has been marked as a duplicate of this bug. ***`,
    );
  });
});

describe('comment tags', () => {
  let bug: number;
  let commentId: number;
  let privateId: number;
  const tag = (id: number, body: Record<string, unknown>, key = admin) =>
    call(app, 'PUT', `/rest/bug/comment/${id}/tags`, { apiKey: key, body });
  const search = (query: string, key = admin, params: Record<string, string> = {}) =>
    call(app, 'GET', `/rest/bug/comment/tags/${query}`, { apiKey: key, query: params });
  beforeAll(async () => {
    bug = await fileBug();
    commentId = (await ok(addComment(bug, { comment: 'Buy cheap watches' }))).id;
    privateId = (await ok(addComment(bug, { comment: 'Private', is_private: true }))).id;
  });

  it('adds and removes tags, case-insensitively, and answers them sorted', async () => {
    expect(await ok(tag(commentId, { comment_id: commentId, add: ['spam', 'needinfo'], remove: [] }))).toEqual([
      'needinfo',
      'spam',
    ]);
    expect(await ok(tag(commentId, { add: ['SPAM', 'Abuse'] }))).toEqual(['Abuse', 'needinfo', 'spam']);
    expect(await ok(tag(commentId, { remove: ['NEEDINFO', 'absent'] }))).toEqual(['Abuse', 'spam']);
    const shown = (await ok(commentsOf(bug, plain))).bugs[bug].comments.find(
      (comment: { id: number }) => comment.id === commentId,
    );
    expect(shown.tags).toEqual(['Abuse', 'spam']);
  });

  it('finds tags in use by substring, case-insensitively, up to limit (10 by default)', async () => {
    await ok(tag(commentId, { add: ['spammy'] }));
    expect(await ok(search('SPA'))).toEqual(['spam', 'spammy']);
    expect(await ok(search('spa', admin, { limit: '1' }))).toEqual(['spam']);
    await ok(tag(commentId, { remove: ['spammy'] }));
    expect(await ok(search('spa'))).toEqual(['spam']);
    const other = (await ok(addComment(bug, { comment: 'more' }))).id;
    for (let index = 0; index < 12; index++) await ok(tag(other, { add: [`bulk${String(index).padStart(2, '0')}`] }));
    expect(await ok(search('bulk'))).toHaveLength(10);
  });

  it('refuses with 125-128, 110 and 111', async () => {
    expectError(await tag(commentId, { add: ['spam'] }, plain), 125, 400);
    expectError(await search('spa', plain), 125, 400);
    expectError(await tag(commentId, { add: ['ab'] }), 127, 400);
    expectError(await tag(commentId, { add: ['x'.repeat(25)] }), 128, 400);
    expectError(await tag(commentId, { add: ['two words'] }), 126, 400);
    expectError(await tag(commentId, { add: ['a,b,c'] }), 126, 400);
    expectError(await tag(99_999_999, { add: ['spam'] }), 111, 400);
    await setParameters({ comment_taggers_group: 'taggers' });
    try {
      expect(await ok(tag(commentId, { add: ['triaged'] }, tagger))).toContain('triaged');
      expectError(await tag(privateId, { add: ['triaged'] }, tagger), 110, 401);
      expectError(await tag(commentId, { add: ['spam'] }, plain), 125, 400);
      await setParameters({ comment_taggers_group: '' });
      expectError(await tag(commentId, { add: ['spam'] }), 125, 400);
      expectError(await search('spa'), 125, 400);
    } finally {
      await setParameters({ comment_taggers_group: 'admin' });
    }
    expectError(await call(app, 'PUT', `/rest/bug/comment/${commentId}/tags`, { body: { add: ['spam'] } }), 410, 401);
  });
});

describe('rendering', () => {
  const render = (body: Record<string, unknown>, key: string | undefined = plain) =>
    call(app, 'POST', '/rest/bug/comment/render', { apiKey: key, body });

  it('renders Markdown with bug and comment links, and nothing that runs', async () => {
    const bug = await fileBug();
    const { html } = await ok(
      render({
        id: bug,
        text: '**Fixed** by bug 12 (see comment 2).\n\n<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>',
      }),
    );
    expect(html).toContain('<strong>Fixed</strong>');
    expect(html).toContain('<a href="show_bug.cgi?id=12" class="bz_ref" rel="nofollow noopener noreferrer">bug 12</a>');
    expect(html).toContain(
      `<a href="show_bug.cgi?id=${bug}#c2" class="bz_ref" rel="nofollow noopener noreferrer">comment 2</a>`,
    );
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
  });

  it('checks the bug like Get Bug does, and works logged out', async () => {
    expectError(await render({ id: hiddenBug, text: 'x' }), 102, 401);
    expectError(await render({ id: 999_999, text: 'x' }), 101, 404);
    expectError(await render({ id: 1 }), 50, 400);
    expect((await ok(render({ text: 'plain *text*' }, undefined))).html).toBe('<p>plain <em>text</em></p>\n');
  });
});
