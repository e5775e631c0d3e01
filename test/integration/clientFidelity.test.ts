import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RpcProtocol, rpc } from '../support/rpcCalls.ts';
import { expectError, fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * What long-lived Bugzilla client code sends and expects (issue 37), over REST and over the RPC
 * protocols, where Bugzilla 5.2 is the reference (clarifications.md, "What Bugzilla 5.2 accepts
 * and refuses", and docs/bugzilla-5.2-behaviour.md).
 */
let app: TestApp;
let admin: string;
const keys: Record<string, string> = {};
const ids: Record<string, number> = {};
const PROTOCOLS: RpcProtocol[] = ['json', 'xml'];

async function user(name: string, groups: string[] = []): Promise<void> {
  const id = (
    await ok(
      call(app, 'POST', '/rest/user', {
        apiKey: admin,
        body: { email: `${name}@fidelity.test`, full_name: `${name} User`, password: `${name}-password-1` },
      }),
    )
  ).id;
  ids[name] = id;
  if (groups.length > 0)
    await ok(call(app, 'PUT', `/rest/user/${id}`, { apiKey: admin, body: { groups: { add: groups } } }));
  keys[name] = (await ok(call(app, 'POST', `/rest/user/${id}/api_key`, { apiKey: admin, body: {} }))).api_key;
}

const bugOf = async (id: number, query: Record<string, string> = {}) =>
  (await ok(call(app, 'GET', `/rest/bug/${id}`, { apiKey: admin, query }))).bugs[0];
const update = (key: string, id: number, body: Record<string, unknown>) =>
  call(app, 'PUT', `/rest/bug/${id}`, { apiKey: key, body });

const NEW_BUG = {
  product: 'TestProduct',
  component: 'TestComponent',
  version: 'unspecified',
  summary: 'Filed as client code files it',
  description: 'Steps.',
  op_sys: 'Linux',
  platform: 'PC',
};

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'Master', description: 'Master bugs' } }));
  await ok(
    call(app, 'PUT', '/rest/product/TestProduct', {
      apiKey: admin,
      body: { group_controls: [{ group: 'Master', membercontrol: 'SHOWN', othercontrol: 'SHOWN' }] },
    }),
  );
  const me = (await ok(call(app, 'GET', '/rest/whoami', { apiKey: admin }))).id;
  await ok(call(app, 'PUT', `/rest/user/${me}`, { apiKey: admin, body: { groups: { add: ['Master'] } } }));
  await user('editor', ['editbugs']);
  await user('plain');
});
afterAll(async () => {
  await app?.close();
});

describe('1. Bug.create with creator and reporter', () => {
  it('accepts both over REST and ignores them: the reporter is the caller', async () => {
    const { id } = await ok(
      call(app, 'POST', '/rest/bug', {
        apiKey: keys.plain,
        body: { ...NEW_BUG, creator: app.admin.login, reporter: app.admin.login },
      }),
    );
    expect((await bugOf(id)).creator).toBe('plain@fidelity.test');
  });

  it.each(PROTOCOLS)('accepts both over %s-rpc', async (protocol) => {
    const answer = await rpc(protocol)(
      app,
      'Bug.create',
      { ...NEW_BUG, creator: 'someone@else.test', reporter: 'someone@else.test' },
      keys.plain,
    );
    expect(answer.fault).toBeUndefined();
    expect((await bugOf(answer.result.id)).creator).toBe('plain@fidelity.test');
  });

  it('still refuses any other unknown parameter (53)', async () => {
    expectError(await call(app, 'POST', '/rest/bug', { apiKey: keys.plain, body: { ...NEW_BUG, bogus: 1 } }), 53, 400);
  });
});

describe('3. booleans as Bugzilla takes them: 1/0, "1"/"0", true/false', () => {
  it('reads is_cc_accessible, is_creator_accessible and comment_is_private on create as numbers and text', async () => {
    const off = await fileTestBug(app, admin, { is_cc_accessible: 0, is_creator_accessible: '0' });
    expect(await bugOf(off, { include_fields: 'is_cc_accessible,is_creator_accessible' })).toEqual({
      is_cc_accessible: false,
      is_creator_accessible: false,
    });
    const on = await fileTestBug(app, admin, {
      is_cc_accessible: 1,
      is_creator_accessible: '1',
      comment_is_private: 1,
    });
    expect(await bugOf(on, { include_fields: 'is_cc_accessible,is_creator_accessible' })).toEqual({
      is_cc_accessible: true,
      is_creator_accessible: true,
    });
    const comments = await ok(call(app, 'GET', `/rest/bug/${on}/comment`, { apiKey: admin }));
    expect(comments.bugs[on].comments[0].is_private).toBe(true);
  });

  it("refuses a non-insider's comment_is_private: 1 (113) instead of filing the description public", async () => {
    expectError(
      await call(app, 'POST', '/rest/bug', { apiKey: keys.plain, body: { ...NEW_BUG, comment_is_private: '1' } }),
      113,
      401,
    );
  });

  it('reads is_cc_accessible, reset_assigned_to and reset_qa_contact on update as 1 and "1"', async () => {
    const id = await fileTestBug(app, admin, { is_cc_accessible: false });
    const moved = await ok(update(admin, id, { is_cc_accessible: 1, assigned_to: 'editor@fidelity.test' }));
    expect(moved.bugs[0].changes.is_cc_accessible).toEqual({ removed: '0', added: '1' });
    const reset = await ok(update(admin, id, { reset_assigned_to: '1', reset_qa_contact: 1 }));
    expect(reset.bugs[0].changes.assigned_to?.removed).toBe('editor@fidelity.test');
  });

  it.each(PROTOCOLS)('reads <int> booleans over %s-rpc', async (protocol) => {
    const filed = await rpc(protocol)(
      app,
      'Bug.create',
      { ...NEW_BUG, is_cc_accessible: 0, comment_is_private: 1 },
      admin,
    );
    expect(filed.fault).toBeUndefined();
    const id = filed.result.id as number;
    expect((await bugOf(id)).is_cc_accessible).toBe(false);
    const updated = await rpc(protocol)(app, 'Bug.update', { ids: [id], is_cc_accessible: 1 }, admin);
    expect(updated.result.bugs[0].changes.is_cc_accessible).toEqual({ removed: '0', added: '1' });
    const refused = await rpc(protocol)(app, 'Bug.create', { ...NEW_BUG, comment_is_private: 1 }, keys.plain);
    expect(refused.fault?.code).toBe(113);
  });
});

describe('2. groups a caller may put a bug in and take it out of', () => {
  const RESTRICT =
    "but either this group does not exist, or you are not allowed to restrict bugs to this group in the 'TestProduct' product.";

  it('refuses an editbugs user outside the group adding a bug to it (120), over REST', async () => {
    const id = await fileTestBug(app, keys.editor);
    const refused = await update(keys.editor, id, { groups: { add: ['Master'] } });
    expectError(refused, 120, 401);
    expect(refused.body.message).toBe(`You tried to restrict bug ${id} to the 'Master' group, ${RESTRICT}`);
    expect((await bugOf(id)).groups).toEqual([]);
    // A member may.
    expect((await ok(update(admin, id, { groups: { add: ['Master'] } }))).bugs[0].changes.groups).toEqual({
      added: 'Master',
      removed: '',
    });
  });

  it.each(PROTOCOLS)('refuses it over %s-rpc', async (protocol) => {
    const id = await fileTestBug(app, keys.editor);
    const answer = await rpc(protocol)(app, 'Bug.update', { ids: [id], groups: { add: ['Master'] } }, keys.editor);
    expect(answer.fault?.code).toBe(120);
    expect(answer.fault?.message).toBe(`You tried to restrict bug ${id} to the 'Master' group, ${RESTRICT}`);
  });

  it('refuses a non-member removing the group (120); a member may', async () => {
    // The editor sees the bug through its CC list, but is not in Master.
    const plainBug = await fileTestBug(app, admin, {
      groups: ['Master'],
      is_cc_accessible: true,
      cc: ['editor@fidelity.test'],
    });
    const outsider = await update(keys.editor, plainBug, { groups: { remove: ['Master'] } });
    expectError(outsider, 120, 401);
    expect(outsider.body.message).toMatch(
      new RegExp(`^You tried to remove bug ${plainBug} from the 'Master' group, but either this group does not exist`),
    );
    expect((await ok(update(admin, plainBug, { groups: { remove: ['Master'] } }))).bugs[0].changes.groups).toEqual({
      added: '',
      removed: 'Master',
    });
  });

  it('lets a non-member file a bug in a group whose othercontrol is SHOWN, as 5.2 does', async () => {
    const id = await fileTestBug(app, keys.editor, { groups: ['Master'], is_creator_accessible: true });
    expect((await bugOf(id)).groups).toEqual(['Master']);
  });
});

describe('4. input 5.2 refuses', () => {
  it('refuses an empty priority or severity on create (50); a missing or null one takes the default', async () => {
    for (const [field, what] of [
      ['priority', 'Priority'],
      ['severity', 'Severity'],
    ]) {
      const refused = await call(app, 'POST', '/rest/bug', { apiKey: admin, body: { ...NEW_BUG, [field]: '' } });
      expectError(refused, 50, 400);
      expect(refused.body.message).toBe(`You must select/enter a ${what}.`);
    }
    await fileTestBug(app, admin, { priority: null, severity: null });
  });

  it.each(PROTOCOLS)('refuses an empty priority over %s-rpc', async (protocol) => {
    expect((await rpc(protocol)(app, 'Bug.create', { ...NEW_BUG, priority: '' }, admin)).fault?.code).toBe(50);
  });

  it('refuses dupe_of: null on update (50, "dup_id was not defined")', async () => {
    const id = await fileTestBug(app, admin);
    const refused = await update(admin, id, { dupe_of: null });
    expectError(refused, 50, 400);
    expect(refused.body.message).toMatch(/^Form field dup_id was not defined\./);
    const answer = await rpc('json')(app, 'Bug.update', { ids: [id], dupe_of: null }, admin);
    expect(answer.fault?.code).toBe(50);
  });

  it('refuses a time-tracking change by a caller outside the time-tracking group (115)', async () => {
    const id = await fileTestBug(app, admin);
    for (const body of [{ estimated_time: 5 }, { remaining_time: 2 }, { deadline: '2030-01-01' }]) {
      const refused = await update(keys.editor, id, body);
      expectError(refused, 115, 401);
      expect(refused.body.message).toMatch(
        /^You tried to change the \w+ field .*but only a user with the required permissions may change that field\./,
      );
    }
    // Restating the current value is no change, as in 5.2.
    await ok(update(keys.editor, id, { estimated_time: 0 }));
    const answer = await rpc('xml')(app, 'Bug.update', { ids: [id], estimated_time: 5 }, keys.editor);
    expect(answer.fault?.code).toBe(115);
  });

  it("refuses a negative estimated_time with 5.2's number_too_small (55)", async () => {
    const id = await fileTestBug(app, admin);
    const refused = await update(admin, id, { estimated_time: -1 });
    expectError(refused, 55, 400);
    expect(refused.body.message).toBe(
      "The value '-1' in the estimated_time field is less than the minimum allowable value of '0'.",
    );
  });

  it('refuses a login longer than 127 characters (501)', async () => {
    const login = `${'a'.repeat(140 - '@fidelity.test'.length)}@fidelity.test`;
    expect(login).toHaveLength(140);
    expectError(await call(app, 'POST', '/rest/user', { apiKey: admin, body: { email: login } }), 501, 400);
    await ok(call(app, 'POST', '/rest/user', { apiKey: admin, body: { email: `${'b'.repeat(113)}@fidelity.test` } }));
  });

  it('answers an empty Bugzilla_login with a password as a failed login (300), not anonymously', async () => {
    const rest = await call(app, 'GET', '/rest/bug', {
      query: { id: '1', Bugzilla_login: '', Bugzilla_password: 'whatever' },
    });
    expectError(rest, 300, 401);
    const answer = await rpc('json')(app, 'Bug.search', { id: 1, Bugzilla_login: '', Bugzilla_password: 'whatever' });
    expect(answer.fault?.code).toBe(300);
  });
});

describe('8. error codes as 5.2 answers them', () => {
  it('refuses User.create from a logged-out caller with 304, as from a non-member', async () => {
    const rest = await call(app, 'POST', '/rest/user', { body: { email: 'anonymous@fidelity.test' } });
    expectError(rest, 304, 401);
    expect(rest.body.message).toBe(
      "Sorry, you aren't a member of the 'editusers' group, and so you are not authorized to add new users.",
    );
    expect((await rpc('xml')(app, 'User.create', { email: 'anonymous@fidelity.test' })).fault?.code).toBe(304);
    expect((await rpc('json')(app, 'User.create', { email: 'x@fidelity.test' }, keys.plain)).fault?.code).toBe(304);
  });
});

describe('7. older and missing client calls', () => {
  it('reads the pre-3.6 `private` parameter of Bug.add_comment as is_private, over REST and XML-RPC', async () => {
    const id = await fileTestBug(app, admin);
    const rest = await ok(
      call(app, 'POST', `/rest/bug/${id}/comment`, { apiKey: admin, body: { comment: 'Hush.', private: 1 } }),
    );
    const xml = await rpc('xml')(app, 'Bug.add_comment', { id, comment: 'Hush too.', private: true }, admin);
    expect(xml.fault).toBeUndefined();
    const comments = (await ok(call(app, 'GET', `/rest/bug/${id}/comment`, { apiKey: admin }))).bugs[id].comments;
    expect(
      comments
        .filter((comment: any) => comment.id === rest.id || comment.id === xml.result.id)
        .map((comment: any) => comment.is_private),
    ).toEqual([true, true]);
    // A non-insider's private comment is refused, as with is_private.
    expect((await rpc('json')(app, 'Bug.add_comment', { id, comment: 'x', private: 1 }, keys.editor)).fault?.code).toBe(
      113,
    );
  });
});

describe('5. calls 5.2 accepts', () => {
  it.each(PROTOCOLS)(
    'answers multi-id reads with an empty id list with empty results over %s-rpc',
    async (protocol) => {
      const call = (method: string) => rpc(protocol)(app, method, { ids: [] }, admin);
      expect((await call('Bug.get')).result).toEqual({ bugs: [], faults: [] });
      expect((await call('Bug.comments')).result).toEqual({ bugs: {}, comments: {} });
      expect((await call('Bug.attachments')).result).toEqual({ bugs: {}, attachments: {} });
      expect((await call('Bug.history')).result).toEqual({ bugs: [] });
    },
  );
});

describe('8. a null bug id', () => {
  it.each(PROTOCOLS)('is 100 "You must enter a valid bug number!" over %s-rpc', async (protocol) => {
    for (const method of ['Bug.get', 'Bug.history', 'Bug.comments', 'Bug.attachments']) {
      const answer = await rpc(protocol)(app, method, { ids: [null] }, admin);
      expect(answer.fault, method).toEqual({ code: 100, message: 'You must enter a valid bug number!' });
    }
  });
});

describe('5. JSONP callbacks as 5.2 takes them', () => {
  it('accepts ^[\\w.\\[\\]]+$, a leading digit included, over REST and JSON-RPC', async () => {
    const callback = '0123abc_[].';
    const rest = await call(app, 'GET', '/rest/version', {
      query: { callback },
      headers: { Accept: 'application/javascript' },
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.text).toBe(`/**/${callback}({"version":"5.2"})`);
    const json = await call(app, 'GET', '/jsonrpc.cgi', { query: { method: 'Bugzilla.version', callback } });
    expect(json.text.startsWith(`/**/${callback}(`), json.text).toBe(true);
  });
});

describe('5. See Also and products as 5.2 takes them', () => {
  it('ignores an empty or null See Also URL added, and an invalid one removed, over REST and JSON-RPC', async () => {
    const id = await fileTestBug(app, admin, { see_also: [''] });
    const restAnswer = await ok(update(admin, id, { see_also: { add: ['', null] }, summary: 'Still changed' }));
    expect(restAnswer.bugs[0].changes).toEqual({ summary: { removed: 'A bug', added: 'Still changed' } });
    await ok(update(admin, id, { see_also: { remove: ['not a url'] } }));
    const rpcAnswer = await rpc('json')(app, 'Bug.update_see_also', { ids: [id], add: [''], remove: ['nope'] }, admin);
    expect(rpcAnswer.fault).toBeUndefined();
    // An invalid URL added is still refused (112).
    expectError(await update(admin, id, { see_also: { add: ['not a url'] } }), 112, 400);
  });

  it.each(PROTOCOLS)('takes a default_milestone and version sent as numbers over %s-rpc', async (protocol) => {
    const name = `Numbered${protocol}`;
    const answer = await rpc(protocol)(
      app,
      'Product.create',
      { name, description: 'Numbers', version: 2.5, default_milestone: 3.5 },
      admin,
    );
    expect(answer.fault).toBeUndefined();
    const product = (await ok(call(app, 'GET', `/rest/product/${name}`, { apiKey: admin }))).products[0];
    expect(product.default_milestone).toBe('3.5');
    expect(product.versions.map((version: { name: string }) => version.name)).toContain('2.5');
  });
});

describe('9. answers as 5.2 gives them over REST', () => {
  it('gives email_enabled and login_denied_text to an editusers caller who names them in include_fields', async () => {
    const answer = await ok(
      call(app, 'GET', '/rest/user', {
        apiKey: admin,
        query: { ids: String(ids.plain), include_fields: 'email_enabled,login_denied_text' },
      }),
    );
    expect(answer.users).toEqual([{ email_enabled: true, login_denied_text: '' }]);
  });

  it('keeps every member of a legal value with include_fields=values', async () => {
    const answer = await ok(
      call(app, 'GET', '/rest/field/bug', { apiKey: admin, query: { include_fields: 'values' } }),
    );
    const full = await ok(call(app, 'GET', '/rest/field/bug', { apiKey: admin }));
    expect(answer.fields).toEqual(full.fields.map((field: { values: unknown }) => ({ values: field.values })));
    const status = full.fields.findIndex((field: { name: string }) => field.name === 'bug_status');
    expect(Object.keys(answer.fields[status].values[0])).toEqual(
      expect.arrayContaining(['name', 'sort_key', 'is_open', 'can_change_to', 'visibility_values']),
    );
  });

  it('answers OPTIONS with HEAD and OPTIONS in Allow', async () => {
    const response = await call(app, 'OPTIONS', '/rest/bug/1');
    const allowed = (response.headers.get('allow') ?? '').split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['GET', 'PUT', 'HEAD', 'OPTIONS']));
  });
});

describe('7. custom field names and classifications as 5.2 has them', () => {
  it('lower-cases a custom field name, and gives it the cf_ prefix it lacks', async () => {
    const created = await ok(
      call(app, 'POST', '/rest/field/bug', {
        apiKey: admin,
        body: { name: 'cf_QA_Status', display_name: 'QA', type: 1 },
      }),
    );
    const field = (await ok(call(app, 'GET', `/rest/field/bug/${created.id}`, { apiKey: admin }))).fields[0];
    expect(field.name).toBe('cf_qa_status');
    const bare = await rpc('xml')(app, 'Bug.fields', { names: ['cf_qa_status'] }, admin);
    expect(bare.result.fields[0].name).toBe('cf_qa_status');
  });

  it('answers 900 to a caller outside editclassifications while useclassification is off', async () => {
    const rest = await call(app, 'GET', '/rest/classification/1');
    expectError(rest, 900, 400);
    expect(rest.body.message).toBe('Sorry, classification is not enabled.');
    expect((await rpc('json')(app, 'Classification.get', { ids: [1] }, keys.plain)).fault?.code).toBe(900);
    expect((await ok(call(app, 'GET', '/rest/classification/1', { apiKey: admin }))).classifications).toHaveLength(1);
    await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { useclassification: '1' } }));
    expect((await ok(call(app, 'GET', '/rest/classification/1'))).classifications).toHaveLength(1);
    await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { useclassification: '0' } }));
  });
});

describe("8. Bugzilla 5.2's texts", () => {
  it('answers an unknown field with "There is no field named \'x\'." over REST and XML-RPC', async () => {
    const rest = await call(app, 'GET', '/rest/field/bug/x', { apiKey: admin });
    expectError(rest, 51, 404);
    expect(rest.body.message).toBe("There is no field named 'x'.");
    expect((await rpc('xml')(app, 'Bug.fields', { names: ['x'] }, admin)).fault).toEqual({
      code: 51,
      message: "There is no field named 'x'.",
    });
  });

  it('names the missing argument as 5.2 does, without quotes', async () => {
    const answer = await rpc('json')(app, 'Bug.add_comment', { comment: 'x' }, admin);
    expect(answer.fault).toEqual({
      code: 50,
      message: 'The function Bug.add_comment requires a id argument, and that argument was not set.',
    });
  });
});

describe('6. See Also between two bugs of this installation', () => {
  it('mirrors the link on the other bug, and takes it off again, over REST and JSON-RPC', async () => {
    const urlbase = 'http://tracker.example/';
    await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { urlbase } }));
    try {
      const a = await fileTestBug(app, admin);
      const b = await fileTestBug(app, admin);
      const linked = await ok(update(admin, b, { see_also: { add: [`${urlbase}show_bug.cgi?id=${a}`] } }));
      expect(linked.bugs.map((bug: { id: number }) => bug.id)).toContain(b);
      expect((await bugOf(a)).see_also).toEqual([`${urlbase}show_bug.cgi?id=${b}`]);
      const history = await ok(call(app, 'GET', `/rest/bug/${a}/history`, { apiKey: admin }));
      expect(JSON.stringify(history)).toContain(`show_bug.cgi?id=${b}`);
      await ok(update(admin, b, { see_also: { remove: [`${urlbase}show_bug.cgi?id=${a}`] } }));
      expect((await bugOf(a)).see_also).toEqual([]);

      const c = await fileTestBug(app, admin);
      const answer = await rpc('json')(
        app,
        'Bug.update_see_also',
        { ids: [c], add: [`${urlbase}show_bug.cgi?id=${a}`] },
        admin,
      );
      expect(answer.fault).toBeUndefined();
      expect((await bugOf(a)).see_also).toEqual([`${urlbase}show_bug.cgi?id=${c}`]);
      // A link to a bug that does not exist is refused (101), as 5.2 checks the bug.
      expect((await update(admin, c, { see_also: { add: [`${urlbase}show_bug.cgi?id=999999`] } })).body.code).toBe(101);
    } finally {
      await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { urlbase: '' } }));
    }
  });
});

describe('11. the typed inputs refuse nothing the bug rules would judge', () => {
  it('leaves odd values to the bug rules and their codes', async () => {
    const id = await fileTestBug(app, admin);
    await ok(update(admin, id, { comment_is_private: 1, see_also: { add: null } }));
    const flagless = await call(app, 'POST', '/rest/bug', {
      apiKey: admin,
      body: { ...NEW_BUG, flags: [{ name: 'x' }] },
    });
    expect(flagless.body.code, flagless.text).not.toBe(32000);
    const numbers = await call(app, 'POST', '/rest/bug', { apiKey: admin, body: { ...NEW_BUG, product: 42 } });
    expect(numbers.body.code, numbers.text).toBe(106);
  });
});
