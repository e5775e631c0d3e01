import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accounts from '../support/testAccounts.ts';
import { createHiddenAndLockedProducts, expectError, fileTestBug, ok } from '../support/testAccounts.ts';
import { type ApiResponse, call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Issue 22, items 5, 8 and 14, over HTTP:
 * - a flag may be requested only of someone who can see the bug, and on a private attachment
 *   only of an insider (Bugzilla's flag_requestee_unauthorized(_attachment), code 32000), on
 *   bug create and update and attachment create and update, for bug and attachment flags;
 * - a hidden bug reached through its alias answers 102 naming the alias, never its number;
 * - a date that names no instant of years 0001–9999 is 56 wherever a date is read.
 * Bugs of the product Hidden are in the mandatory group `secret`; the insider group is `insiders`.
 */
let app: TestApp;
let admin: string;
/** In `secret` and `insiders`: sees hidden bugs and private attachments. */
let member: string;
/** In no group. */
let plain: string;
let publicBug: number;
let hiddenBug: number;
let hiddenBugNoCc: number;

const MEMBER = 'member@tracker.test';
const PLAIN = 'plain@tracker.test';
const HIDDEN_ALIAS = 'hush-hush';
const data = Buffer.from('patch').toString('base64');

const bugRequest = (requestee: string) => [{ name: 'review', status: '?', requestee }];
const attachmentRequest = (requestee: string) => [{ name: 'attrev', status: '?', requestee }];

function expectUnauthorizedRequestee(response: ApiResponse, kind: 'bug' | 'attachment') {
  expectError(response, 32000, 400);
  expect(response.body.message).toContain(`You asked ${PLAIN} for `);
  expect(response.body.message).toContain(kind === 'bug' ? 'that bug is restricted' : 'that attachment is private');
}

const attach = (bug: number, body: Record<string, unknown>, key = admin) =>
  call(app, 'POST', `/rest/bug/${bug}/attachment`, {
    apiKey: key,
    body: { file_name: 'a.txt', summary: 'a file', content_type: 'text/plain', data, ...body },
  });
const flagsOf = async (bug: number) =>
  (await ok(call(app, 'GET', `/rest/bug/${bug}`, { apiKey: admin, query: { include_fields: 'flags' } }))).bugs[0].flags;

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await createHiddenAndLockedProducts(app);
  await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'insiders', description: 'Insiders' } }));
  await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { insidergroup: 'insiders' } }));
  member = await accounts.userWithKey(app, 'member', ['secret', 'insiders']);
  plain = await accounts.userWithKey(app, 'plain');
  for (const [name, target] of [
    ['review', 'bug'],
    ['attrev', 'attachment'],
  ])
    await ok(
      call(app, 'POST', '/rest/flag_type', {
        apiKey: admin,
        body: { name, description: name, target_type: target, is_requestable: true, is_requesteeble: true },
      }),
    );
  publicBug = await fileTestBug(app, admin, { summary: 'Public bug' });
  const hidden = { product: 'Hidden', component: 'Core', version: '1.0' };
  hiddenBug = await fileTestBug(app, admin, { ...hidden, summary: 'Hidden bug', alias: HIDDEN_ALIAS });
  hiddenBugNoCc = await fileTestBug(app, admin, {
    ...hidden,
    summary: 'Hidden, closed to CC',
    is_cc_accessible: false,
  });
});
afterAll(() => app?.close());

describe('5. flag requestees must see what they are asked about', () => {
  it('refuses a requestee who cannot see the bug when a bug is filed, and files nothing', async () => {
    const body = { product: 'Hidden', component: 'Core', version: '1.0', summary: 'Asks plain', description: 'x' };
    const refused = await call(app, 'POST', '/rest/bug', {
      apiKey: admin,
      body: { ...body, op_sys: 'Linux', platform: 'PC', flags: bugRequest(PLAIN) },
    });
    expectUnauthorizedRequestee(refused, 'bug');
    expect(refused.body.message).toContain('the new bug');
    const filed = await fileTestBug(app, admin, { ...body, flags: bugRequest(MEMBER) });
    expect((await flagsOf(filed))[0]).toMatchObject({ name: 'review', status: '?', requestee: MEMBER });
    // On a public bug anyone may be asked.
    await fileTestBug(app, admin, { summary: 'Asks plain in public', flags: bugRequest(PLAIN) });
  });

  it('refuses such a requestee on a bug update, unless the update lets them see the bug', async () => {
    expectUnauthorizedRequestee(
      await call(app, 'PUT', `/rest/bug/${hiddenBug}`, { apiKey: admin, body: { flags: bugRequest(PLAIN) } }),
      'bug',
    );
    expect(await flagsOf(hiddenBug)).toEqual([]);
    // Bugzilla's own advice: add them to the CC list of a bug open to it (here, in the same request).
    await ok(call(app, 'PUT', `/rest/bug/${hiddenBugNoCc}`, { apiKey: admin, body: { flags: bugRequest(MEMBER) } }));
    expectUnauthorizedRequestee(
      await call(app, 'PUT', `/rest/bug/${hiddenBugNoCc}`, {
        apiKey: admin,
        body: { cc: { add: [PLAIN] }, flags: [{ name: 'review', status: '?', requestee: PLAIN, new: true }] },
      }),
      'bug',
    );
    const accessible = await fileTestBug(app, admin, { product: 'Hidden', component: 'Core', version: '1.0' });
    await ok(
      call(app, 'PUT', `/rest/bug/${accessible}`, {
        apiKey: admin,
        body: { cc: { add: [PLAIN] }, flags: bugRequest(PLAIN) },
      }),
    );
    expect((await flagsOf(accessible))[0]).toMatchObject({ requestee: PLAIN });
  });

  it('refuses it for attachment and bug flags when an attachment is created', async () => {
    expectUnauthorizedRequestee(await attach(hiddenBug, { flags: attachmentRequest(PLAIN) }), 'bug');
    expectUnauthorizedRequestee(await attach(hiddenBug, { bug_flags: bugRequest(PLAIN) }), 'bug');
    // A private attachment on a public bug: only an insider may be asked.
    expectUnauthorizedRequestee(
      await attach(publicBug, { is_private: true, flags: attachmentRequest(PLAIN) }),
      'attachment',
    );
    await ok(attach(publicBug, { is_private: true, flags: attachmentRequest(MEMBER) }));
    await ok(attach(publicBug, { flags: attachmentRequest(PLAIN) }));
    // The refused ones stored nothing.
    const attachments = (await ok(call(app, 'GET', `/rest/bug/${hiddenBug}/attachment`, { apiKey: admin }))).bugs[
      hiddenBug
    ];
    expect(attachments).toEqual([]);
  });

  it('refuses it when an attachment is changed, judging the attachment as the change leaves it', async () => {
    const id = Number((await ok(attach(publicBug, {}))).ids[0]);
    const update = (body: Record<string, unknown>) =>
      call(app, 'PUT', `/rest/bug/attachment/${id}`, { apiKey: admin, body });
    expectUnauthorizedRequestee(await update({ is_private: true, flags: attachmentRequest(PLAIN) }), 'attachment');
    const unchanged = (await ok(call(app, 'GET', `/rest/bug/attachment/${id}`, { apiKey: admin }))).attachments[id];
    expect(unchanged).toMatchObject({ is_private: false, flags: [] });
    await ok(update({ flags: attachmentRequest(PLAIN) }));

    const hiddenAttachment = Number((await ok(attach(hiddenBug, {}))).ids[0]);
    const hiddenUpdate = (body: Record<string, unknown>) =>
      call(app, 'PUT', `/rest/bug/attachment/${hiddenAttachment}`, { apiKey: admin, body });
    expectUnauthorizedRequestee(await hiddenUpdate({ flags: attachmentRequest(PLAIN) }), 'bug');
    expectUnauthorizedRequestee(await hiddenUpdate({ bug_flags: bugRequest(PLAIN) }), 'bug');
    await ok(hiddenUpdate({ flags: attachmentRequest(MEMBER), bug_flags: bugRequest(MEMBER) }));
  });
});

describe('8. a hidden bug reached through its alias', () => {
  function expectDeniedByAlias(response: ApiResponse, status = 401) {
    expectError(response, 102, status);
    expect(response.body.message).toContain(`bug #${HIDDEN_ALIAS}`);
    // No number at all: the alias is the only name the caller gave.
    expect(response.body.message).not.toMatch(/\d/);
  }

  it('answers 102 repeating the alias on every route that takes one', async () => {
    const byAlias = `/rest/bug/${HIDDEN_ALIAS}`;
    expectDeniedByAlias(await call(app, 'GET', byAlias, { apiKey: plain }));
    expectDeniedByAlias(await call(app, 'GET', byAlias));
    expectDeniedByAlias(
      await call(app, 'GET', `/rest/bug/${publicBug}`, { apiKey: plain, query: { ids: HIDDEN_ALIAS } }),
    );
    expectDeniedByAlias(await call(app, 'GET', `${byAlias}/history`, { apiKey: plain }));
    expectDeniedByAlias(await call(app, 'GET', `${byAlias}/comment`, { apiKey: plain }));
    expectDeniedByAlias(await call(app, 'POST', `${byAlias}/comment`, { apiKey: plain, body: { comment: 'hi' } }));
    expectDeniedByAlias(await call(app, 'GET', `${byAlias}/attachment`, { apiKey: plain }));
    expectDeniedByAlias(
      await call(app, 'POST', `${byAlias}/attachment`, {
        apiKey: plain,
        body: { file_name: 'a.txt', summary: 'a', content_type: 'text/plain', data },
      }),
    );
    expectDeniedByAlias(await call(app, 'PUT', byAlias, { apiKey: plain, body: { summary: 'mine now' } }));
    expectDeniedByAlias(
      await call(app, 'PUT', '/rest/bug', { apiKey: plain, body: { ids: [HIDDEN_ALIAS], summary: 'mine now' } }),
    );
    expectDeniedByAlias(await call(app, 'PUT', `${byAlias}/tags`, { apiKey: plain, body: { add: ['mine'] } }));
    expectDeniedByAlias(await call(app, 'GET', `/rest/bug_user_last_visit/${HIDDEN_ALIAS}`, { apiKey: plain }));
    expectDeniedByAlias(await call(app, 'POST', `/rest/bug_user_last_visit/${HIDDEN_ALIAS}`, { apiKey: plain }));
  });

  it('names the alias in a permissive fault too', async () => {
    const answer = await ok(
      call(app, 'GET', `/rest/bug/${publicBug}`, { apiKey: plain, query: { ids: HIDDEN_ALIAS, permissive: 1 } }),
    );
    expect(answer.bugs.map((bug: { id: number }) => bug.id)).toEqual([publicBug]);
    expect(answer.faults).toEqual([
      { id: HIDDEN_ALIAS, faultCode: 102, faultString: expect.stringContaining(HIDDEN_ALIAS) },
    ]);
    expect(answer.faults[0].faultString).not.toMatch(/\d/);
  });

  it('still names the number to whoever asked by number, and answers 100 for an alias nobody has', async () => {
    const byNumber = await call(app, 'GET', `/rest/bug/${hiddenBug}`, { apiKey: plain });
    expectError(byNumber, 102, 401);
    expect(byNumber.body.message).toContain(`bug #${hiddenBug}`);
    expectError(await call(app, 'GET', '/rest/bug/no-such-alias', { apiKey: plain }), 100, 400);
    // Those who may see it get it by its alias.
    expect((await ok(call(app, 'GET', `/rest/bug/${HIDDEN_ALIAS}`, { apiKey: member }))).bugs[0].id).toBe(hiddenBug);
  });
});

describe('14. dates that name no instant of years 0001–9999', () => {
  const search = (query: Record<string, string>) =>
    call(app, 'GET', '/rest/bug', { apiKey: admin, query: { ...query, include_fields: 'id' } });

  it('answers 56 for overflowing or impossible search dates, wherever a search reads one', async () => {
    for (const value of ['-1000000000w', '-1000000000d', '-99999999999h', '-10000y', '2024-02-30', '0000-01-01']) {
      const queries: Array<Record<string, string>> = [
        { chfieldfrom: value },
        { chfieldto: value },
        { creation_time: value },
        { last_change_time: value },
        { f1: 'creation_ts', o1: 'greaterthan', v1: value },
        { f1: 'delta_ts', o1: 'lessthan', v1: value },
        { f1: 'deadline', o1: 'greaterthaneq', v1: value },
        { f1: 'status', o1: 'changedafter', v1: value },
      ];
      for (const query of queries) {
        const response = await search(query);
        expectError(response, 56, 400);
        expect(response.body.message).toBe(`'${value}' is not a legal date.`);
      }
    }
  });

  it('still reads legal relative and absolute dates', async () => {
    for (const value of ['-1d', '-2w', 'Now', '2020-02-29', '0001-01-01']) {
      expect((await search({ chfieldfrom: value, chfield: '[Bug creation]' })).status).toBe(200);
      expect((await search({ f1: 'creation_ts', o1: 'greaterthan', v1: value })).status).toBe(200);
    }
    const since = (await ok(search({ creation_time: '-1d' }))).bugs.map((bug: { id: number }) => bug.id);
    expect(since).toContain(publicBug);
  });

  it('answers 56 for such dates as a deadline or new_since', async () => {
    for (const deadline of ['0000-01-01', '2023-02-29']) {
      expectError(await call(app, 'PUT', `/rest/bug/${publicBug}`, { apiKey: admin, body: { deadline } }), 56, 400);
    }
    for (const path of [`/rest/bug/${publicBug}/history`, `/rest/bug/${publicBug}/comment`]) {
      for (const value of ['2024-02-30', '0000-06-01T00:00:00Z'])
        expectError(await call(app, 'GET', path, { apiKey: admin, query: { new_since: value } }), 56, 400);
      await ok(call(app, 'GET', path, { apiKey: admin, query: { new_since: '2024-02-29' } }));
    }
  });
});

/**
 * Bugzilla's other two refusals in _check_requestee, both 32000 (HTTP 400): a disabled account
 * (flag_requestee_disabled), and for a type with a grant group someone outside it, who could not
 * set the flag (flag_requestee_needs_privs). Both only for a newly named requestee.
 */
describe('5. flag requestees must be able to answer', () => {
  const GONE = 'gone@tracker.test';
  const GRANTER = 'granter@tracker.test';
  const approval = (requestee: string) => [{ name: 'approval', status: '?', requestee }];
  const attApproval = (requestee: string) => [{ name: 'attapproval', status: '?', requestee }];
  const fileRequesting = (flags: unknown[]) =>
    call(app, 'POST', '/rest/bug', {
      apiKey: admin,
      body: {
        product: 'TestProduct',
        component: 'TestComponent',
        version: 'unspecified',
        op_sys: 'Linux',
        platform: 'PC',
        summary: 'Asks',
        description: 'x',
        flags,
      },
    });

  function expectDisabled(response: ApiResponse) {
    expectError(response, 32000, 400);
    expect(response.body.message).toMatch(new RegExp(`^You can't ask ${GONE} for '(review|attrev)' because`));
    expect(response.body.message).toContain('account is disabled');
  }
  function expectNeedsPrivileges(response: ApiResponse, flag: string) {
    expectError(response, 32000, 400);
    expect(response.body.message).toBe(
      `${MEMBER} does not have permission to set the '${flag}' flag. Ask someone who is a member of the group 'granters'.`,
    );
  }

  beforeAll(async () => {
    // In every group a requestee could need, so only the disabled account stands in the way.
    await accounts.userWithKey(app, 'gone', ['secret', 'insiders']);
    await ok(call(app, 'PUT', `/rest/user/${GONE}`, { apiKey: admin, body: { login_denied_text: 'Left.' } }));
    await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'granters', description: 'Granters' } }));
    await accounts.userWithKey(app, 'granter', ['granters']);
    for (const [name, target] of [
      ['approval', 'bug'],
      ['attapproval', 'attachment'],
    ])
      await ok(
        call(app, 'POST', '/rest/flag_type', {
          apiKey: admin,
          body: {
            name,
            description: name,
            target_type: target,
            is_requestable: true,
            is_requesteeble: true,
            grant_group: 'granters',
          },
        }),
      );
  });

  it('refuses a disabled account on bug create and update and attachment create and update', async () => {
    expectDisabled(await fileRequesting(bugRequest(GONE)));
    expectDisabled(
      await call(app, 'PUT', `/rest/bug/${publicBug}`, { apiKey: admin, body: { flags: bugRequest(GONE) } }),
    );
    expectDisabled(await attach(publicBug, { flags: attachmentRequest(GONE) }));
    expectDisabled(await attach(publicBug, { bug_flags: bugRequest(GONE) }));
    const id = Number((await ok(attach(publicBug, {}))).ids[0]);
    const update = (body: Record<string, unknown>) =>
      call(app, 'PUT', `/rest/bug/attachment/${id}`, { apiKey: admin, body });
    expectDisabled(await update({ flags: attachmentRequest(GONE) }));
    expectDisabled(await update({ bug_flags: bugRequest(GONE) }));
    expect((await ok(call(app, 'GET', `/rest/bug/attachment/${id}`, { apiKey: admin }))).attachments[id].flags).toEqual(
      [],
    );
    expect((await flagsOf(publicBug)).filter((flag: { requestee?: string }) => flag.requestee === GONE)).toEqual([]);
  });

  it('refuses someone outside the grant group, on bug and attachment flags, and asks a member', async () => {
    expectNeedsPrivileges(await fileRequesting(approval(MEMBER)), 'approval');
    const bug = await fileTestBug(app, admin, { summary: 'Approval', flags: approval(GRANTER) });
    expect((await flagsOf(bug))[0]).toMatchObject({ name: 'approval', status: '?', requestee: GRANTER });
    expectNeedsPrivileges(
      await call(app, 'PUT', `/rest/bug/${bug}`, { apiKey: admin, body: { flags: approval(MEMBER) } }),
      'approval',
    );
    expectNeedsPrivileges(await attach(bug, { flags: attApproval(MEMBER) }), 'attapproval');
    expectNeedsPrivileges(await attach(bug, { bug_flags: approval(MEMBER) }), 'approval');
    const id = Number((await ok(attach(bug, { flags: attApproval(GRANTER) }))).ids[0]);
    const update = (body: Record<string, unknown>) =>
      call(app, 'PUT', `/rest/bug/attachment/${id}`, { apiKey: admin, body });
    expectNeedsPrivileges(await update({ flags: attApproval(MEMBER) }), 'attapproval');
    expectNeedsPrivileges(await update({ bug_flags: approval(MEMBER) }), 'approval');
    // Nothing changed: the granter is still the one asked.
    expect((await flagsOf(bug))[0]).toMatchObject({ requestee: GRANTER });
    const flags = (await ok(call(app, 'GET', `/rest/bug/attachment/${id}`, { apiKey: admin }))).attachments[id].flags;
    expect(flags).toMatchObject([{ name: 'attapproval', requestee: GRANTER }]);
  });
});
