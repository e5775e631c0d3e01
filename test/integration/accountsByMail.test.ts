import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invite } from '../../local/invite/cli.ts';
import { TOKEN_LIFETIME_MS } from '../../shared/domain/identity/accountTokens.ts';
import { type AccountMailbox, accountMailbox } from '../support/accountMail.ts';
import { advanceClock, useSteppableClock } from '../support/clock.ts';
import { jsonRpc, xmlRpc } from '../support/rpcCalls.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Accounts by mail end to end (issue 40): sign-up, a forgotten password, an e-mail change and the
 * invitation after an import, each through the local outbox as a person would: the request, the
 * mail, the link's token, the page's request. A token works once; a wrong, used, cancelled or
 * lapsed one does nothing; the answers never say which addresses have an account.
 */
useSteppableClock();

let app: TestApp;
let mailbox: AccountMailbox;
const URLBASE = 'http://tracker.test/';

const admin = () => ({ apiKey: app.admin.apiKey });
const setParameters = (parameters: Record<string, string>) =>
  call(app, 'PUT', '/rest/parameters', { ...admin(), body: parameters });

/** The one token of `action` in the newest mail to an address. */
function mailedToken(address: string, purpose: string, action: string): string {
  const mails = mailbox.to(address, purpose);
  expect(mails, `a ${purpose} mail to ${address}`).toHaveLength(1);
  const link = mails[0]!.links.find((entry) => entry.action === action);
  expect(link?.url.startsWith(`${URLBASE}token.cgi?t=`)).toBe(true);
  return link!.token;
}

const logIn = (login: string, password: string) => call(app, 'POST', '/rest/login', { body: { login, password } });

beforeAll(async () => {
  app = await startTestApp();
  mailbox = accountMailbox();
  const set = await setParameters({ mail_delivery_method: 'Test', urlbase: URLBASE });
  expect(set.status).toBe(200);
});

afterAll(async () => {
  mailbox?.close();
  await app?.close();
});

describe('sign-up (User.offer_account_by_email)', () => {
  it('mails a link whose token creates the account once, with the chosen password and name', async () => {
    const offered = await call(app, 'POST', '/rest/account/offer_account_by_email', {
      body: { email: 'newcomer@tracker.test' },
      from: '198.51.100.1',
    });
    expect(offered.status).toBe(200);
    expect(offered.body).toEqual({});
    const mail = mailbox.to('newcomer@tracker.test', 'new')[0]!;
    expect(mail.headers.subject).toBe('Tracker: confirm account creation');
    expect(mail.headers['x-bugzilla-type']).toBe('admin');
    const token = mailedToken('newcomer@tracker.test', 'new', 'request_new_account');
    expect(mail.links.map((link) => link.action)).toEqual(['request_new_account', 'cancel_new_account']);

    const described = await call(app, 'POST', '/rest/account/token', { body: { mail_token: token } });
    expect(described.body).toMatchObject({ kind: 'account', login: 'newcomer@tracker.test' });

    const created = await call(app, 'POST', '/rest/account/create', {
      body: { mail_token: token, password: 'chosen-password-1', full_name: 'New Comer' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ login: 'newcomer@tracker.test' });
    expect((await logIn('newcomer@tracker.test', 'chosen-password-1')).status).toBe(200);
    const user = await call(app, 'GET', `/rest/user/${created.body.id}`, admin());
    expect(user.body.users[0]).toMatchObject({ name: 'newcomer@tracker.test', real_name: 'New Comer' });

    // Used once: the same token, a made-up one and garbage all do nothing, with one answer.
    for (const again of [token, `${token.slice(0, -4)}AAAA`, 'not a token']) {
      const reused = await call(app, 'POST', '/rest/account/create', {
        body: { mail_token: again, password: 'other-pw-2' },
      });
      expect(reused.status).toBe(400);
      expect(reused.body.message).toBe('The token you submitted does not exist, has expired, or has been canceled.');
    }
    expect((await logIn('newcomer@tracker.test', 'other-pw-2')).status).not.toBe(200);
  });

  it('answers a taken address exactly as a free one, and mails its owner a notice instead of a token', async () => {
    const free = await call(app, 'POST', '/rest/account/offer_account_by_email', {
      body: { email: 'free-address@tracker.test' },
      from: '198.51.100.2',
    });
    const taken = await call(app, 'POST', '/rest/account/offer_account_by_email', {
      body: { email: app.admin.login },
      from: '198.51.100.2',
    });
    expect([taken.status, taken.text]).toEqual([free.status, free.text]);
    const notice = mailbox.to(app.admin.login, 'exists');
    expect(notice).toHaveLength(1);
    expect(notice[0]!.links).toEqual([]);
    expect(notice[0]!.body).toContain(`${URLBASE}token.cgi?a=reqpw`);
  });

  it('allows one request per address every ten minutes, whether or not it has an account (5.2: 32000)', async () => {
    for (const email of ['free-address@tracker.test', app.admin.login]) {
      const again = await call(app, 'POST', '/rest/account/offer_account_by_email', {
        body: { email },
        from: '198.51.100.3',
      });
      expect(again.body).toMatchObject({ error: true, code: 32000 });
      expect(again.body.message).toBe(
        'You have requested an account token too recently to request another. Please wait 10 minutes then try again.',
      );
    }
  });

  it('refuses addresses createemailregexp does not match, and everything when it is empty (501, as 5.2)', async () => {
    await setParameters({ createemailregexp: '@allowed\\.test$' });
    const restricted = await call(app, 'POST', '/rest/account/offer_account_by_email', {
      body: { email: 'someone@elsewhere.test' },
    });
    expect(restricted.body).toMatchObject({ code: 501 });
    expect(restricted.body.message).toContain('User account creation has been restricted.');
    await setParameters({ createemailregexp: '' });
    const disabled = await call(app, 'POST', '/rest/account/offer_account_by_email', {
      body: { email: 'someone@allowed.test' },
    });
    expect(disabled.body).toMatchObject({ code: 501 });
    expect(disabled.body.message).toContain('User account creation has been disabled.');
    await setParameters({ createemailregexp: '.*' });
  });

  it('is User.offer_account_by_email over XML-RPC and JSON-RPC, answered with nothing as 5.2 does', async () => {
    const answer = await xmlRpc(app, 'User.offer_account_by_email', { email: 'by-xmlrpc@tracker.test' });
    expect(answer.fault).toBeUndefined();
    expect([null, '']).toContain(answer.result);
    expect(mailbox.to('by-xmlrpc@tracker.test', 'new')).toHaveLength(1);
    const missing = await xmlRpc(app, 'User.offer_account_by_email', {});
    expect(missing.fault).toEqual({
      code: 50,
      message: 'The function requires a email argument, and that argument was not set.',
    });
    const json = await jsonRpc(app, 'User.offer_account_by_email', { email: 'by-jsonrpc@tracker.test' });
    expect(json).toEqual({ result: null });
  });

  it('lets the address cancel the request from the mail', async () => {
    const token = mailedToken('by-xmlrpc@tracker.test', 'new', 'cancel_new_account');
    expect((await call(app, 'POST', '/rest/account/token/cancel', { body: { mail_token: token } })).status).toBe(200);
    const created = await call(app, 'POST', '/rest/account/create', {
      body: { mail_token: token, password: 'pw-after-cancel' },
    });
    expect(created.body).toMatchObject({ error: true, code: 32000 });
  });
});

describe('forgotten password', () => {
  it('answers a known and an unknown login alike, and mails only the account', async () => {
    const known = await call(app, 'POST', '/rest/account/password_reset', {
      body: { email: 'newcomer@tracker.test' },
      from: '198.51.100.4',
    });
    const unknown = await call(app, 'POST', '/rest/account/password_reset', {
      body: { email: 'nobody-here@tracker.test' },
      from: '198.51.100.4',
    });
    expect(known.status).toBe(200);
    expect([unknown.status, unknown.text]).toEqual([known.status, known.text]);
    expect(mailbox.to('nobody-here@tracker.test')).toEqual([]);
    const mail = mailbox.to('newcomer@tracker.test', 'password')[0]!;
    expect(mail.headers.subject).toBe('Tracker Change Password Request');
    expect(mail.body).toContain('The request originated from 198.51.100.4.');
    // Both again within ten minutes: the same refusal for both.
    const knownAgain = await call(app, 'POST', '/rest/account/password_reset', {
      body: { email: 'newcomer@tracker.test' },
      from: '198.51.100.5',
    });
    const unknownAgain = await call(app, 'POST', '/rest/account/password_reset', {
      body: { email: 'nobody-here@tracker.test' },
      from: '198.51.100.5',
    });
    expect(knownAgain.body).toMatchObject({ code: 32000 });
    expect([unknownAgain.status, unknownAgain.text]).toEqual([knownAgain.status, knownAgain.text]);
  });

  it('sets the password with the mailed token once, and ends the sessions the old password opened', async () => {
    const session = await logIn('newcomer@tracker.test', 'chosen-password-1');
    const token = mailedToken('newcomer@tracker.test', 'password', 'cfmpw');
    const set = await call(app, 'POST', '/rest/account/password', {
      body: { mail_token: token, password: 'reset-password-2' },
    });
    expect(set.status).toBe(200);
    expect((await logIn('newcomer@tracker.test', 'reset-password-2')).status).toBe(200);
    expect((await logIn('newcomer@tracker.test', 'chosen-password-1')).status).not.toBe(200);
    const whoami = await call(app, 'GET', '/rest/whoami', { query: { token: session.body.token } });
    expect(whoami.status).not.toBe(200);
    const reused = await call(app, 'POST', '/rest/account/password', {
      body: { mail_token: token, password: 'stolen-pw-3' },
    });
    expect(reused.body).toMatchObject({ code: 32000 });
    expect((await logIn('newcomer@tracker.test', 'stolen-pw-3')).status).not.toBe(200);
  });

  it('limits a burst from one client, whichever addresses it names', async () => {
    const answers = [];
    for (let index = 0; index < 12; index++) {
      answers.push(
        await call(app, 'POST', '/rest/account/password_reset', {
          body: { email: `burst-${index}@tracker.test` },
          from: '203.0.113.9',
        }),
      );
    }
    expect(answers.slice(0, 10).every((answer) => answer.status === 200)).toBe(true);
    for (const refused of answers.slice(10)) {
      expect(refused.body).toMatchObject({ error: true, code: 32000 });
      expect(refused.body.message).toContain('Too many account mails were requested from your address.');
    }
    // Another client is not held back by that one.
    const other = await call(app, 'POST', '/rest/account/password_reset', {
      body: { email: 'burst-0-other@tracker.test' },
      from: '203.0.113.10',
    });
    expect(other.status).toBe(200);
  });
});

describe('change of e-mail address (allowemailchange)', () => {
  let apiKey: string;
  let userId: number;

  beforeAll(async () => {
    const created = await call(app, 'POST', '/rest/user', {
      ...admin(),
      body: { email: 'mover@tracker.test', password: 'mover-password-1' },
    });
    userId = created.body.id;
    apiKey = (await call(app, 'POST', `/rest/user/${userId}/api_key`, { ...admin(), body: {} })).body.api_key;
  });

  it('takes the current password, as userprefs.cgi does, and mails nothing without it', async () => {
    const without = await call(app, 'PUT', '/rest/preferences/account', {
      apiKey,
      body: { email: 'moved@tracker.test' },
    });
    expect(without.body).toMatchObject({ error: true, message: expect.stringMatching(/current_password/) });
    const wrong = await call(app, 'PUT', '/rest/preferences/account', {
      apiKey,
      body: { email: 'moved@tracker.test', current_password: 'not-the-password' },
    });
    expect(wrong.body).toMatchObject({ error: true, code: 300 });
    expect(mailbox.to('moved@tracker.test', 'email-new')).toEqual([]);
    expect(mailbox.to('mover@tracker.test', 'email-old')).toEqual([]);
  });

  it('mails the new address a confirmation and the old one a cancel link, and changes nothing yet', async () => {
    const asked = await call(app, 'PUT', '/rest/preferences/account', {
      apiKey,
      body: { email: 'moved@tracker.test', current_password: 'mover-password-1' },
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ email_change_pending: 'moved@tracker.test', changes: {} });
    const user = await call(app, 'GET', `/rest/user/${userId}`, admin());
    expect(user.body.users[0].name).toBe('mover@tracker.test');
    expect(mailbox.to('moved@tracker.test', 'email-new')[0]!.links.map((link) => link.action)).toEqual([
      'cfmem',
      'cxlem',
    ]);
    expect(mailbox.to('mover@tracker.test', 'email-old')[0]!.links.map((link) => link.action)).toEqual(['cxlem']);
  });

  it('changes the login when the new address confirms, once; the old address can still undo it', async () => {
    const confirm = mailedToken('moved@tracker.test', 'email-new', 'cfmem');
    const confirmed = await call(app, 'POST', '/rest/account/email', { body: { mail_token: confirm } });
    expect(confirmed.body).toMatchObject({ id: userId, login: 'moved@tracker.test' });
    expect((await logIn('moved@tracker.test', 'mover-password-1')).status).toBe(200);
    expect((await call(app, 'POST', '/rest/account/email', { body: { mail_token: confirm } })).body).toMatchObject({
      code: 32000,
    });

    const cancel = mailedToken('mover@tracker.test', 'email-old', 'cxlem');
    expect((await call(app, 'POST', '/rest/account/token/cancel', { body: { mail_token: cancel } })).status).toBe(200);
    const user = await call(app, 'GET', `/rest/user/${userId}`, admin());
    expect(user.body.users[0].name).toBe('mover@tracker.test');
  });

  it('is refused while allowemailchange is off', async () => {
    await setParameters({ allowemailchange: '0' });
    const refused = await call(app, 'PUT', '/rest/preferences/account', {
      apiKey,
      body: { email: 'elsewhere@tracker.test', current_password: 'mover-password-1' },
    });
    expect(refused.body).toMatchObject({ error: true, code: 304 });
    await setParameters({ allowemailchange: '1' });
  });
});

describe('invitations after an import', () => {
  it('mails every enabled account without a password a set-password link, once', async () => {
    for (const name of ['imported-a', 'imported-b']) {
      const created = await call(app, 'POST', '/rest/user', {
        ...admin(),
        body: { email: `${name}@tracker.test`, full_name: `Imported ${name.slice(-1).toUpperCase()}` },
      });
      expect(created.status).toBe(200);
    }
    const disabled = await call(app, 'POST', '/rest/user', {
      ...admin(),
      body: { email: 'imported-off@tracker.test' },
    });
    await call(app, 'PUT', `/rest/user/${disabled.body.id}`, { ...admin(), body: { login_denied_text: 'left' } });

    const dry = await call(app, 'POST', '/rest/account/invitations', { ...admin(), body: { dry_run: true } });
    expect(dry.body).toMatchObject({ dry_run: true, invited: 0 });
    expect(dry.body.logins.sort()).toEqual(['imported-a@tracker.test', 'imported-b@tracker.test']);
    expect(mailbox.to('imported-a@tracker.test')).toEqual([]);

    const run = await call(app, 'POST', '/rest/account/invitations', { ...admin(), body: {} });
    expect(run.body).toMatchObject({ candidates: 2, invited: 2, skipped: 0, remaining: 0 });
    expect(mailbox.to('imported-off@tracker.test')).toEqual([]);
    const again = await call(app, 'POST', '/rest/account/invitations', { ...admin(), body: {} });
    expect(again.body).toMatchObject({ candidates: 2, invited: 0, skipped: 2 });

    const mail = mailbox.to('imported-a@tracker.test', 'invitation')[0]!;
    expect(mail.body).toContain('Hello Imported A,');
    const token = mailedToken('imported-a@tracker.test', 'invitation', 'cfmpw');
    expect(
      (await call(app, 'POST', '/rest/account/password', { body: { mail_token: token, password: 'first-pw-1' } }))
        .status,
    ).toBe(200);
    expect((await logIn('imported-a@tracker.test', 'first-pw-1')).status).toBe(200);
  });

  it('is one command, `npm run invite`, with progress, that can be run again', async () => {
    for (const name of ['imported-c', 'imported-d', 'imported-e'])
      await call(app, 'POST', '/rest/user', { ...admin(), body: { email: `${name}@tracker.test` } });
    const output: string[] = [];
    const code = await invite(['--url', app.url, '--api-key', app.admin.apiKey], (text) => output.push(text));
    expect(code).toBe(0);
    expect(output.join('')).toContain('invited 3, already invited 1, of 4 accounts without a password');
    expect(mailbox.to('imported-e@tracker.test', 'invitation')).toHaveLength(1);
    output.length = 0;
    expect(await invite(['--url', app.url, '--api-key', app.admin.apiKey], (text) => output.push(text))).toBe(0);
    expect(output.join('')).toContain('Done: 0 invited now, 4 held an invitation already.');
    expect(mailbox.to('imported-e@tracker.test', 'invitation')).toHaveLength(1);
    output.length = 0;
    expect(await invite(['--help'], (text) => output.push(text))).toBe(0);
    expect(output.join('')).toContain('Usage: npm run invite');
  });

  it('is for editusers only', async () => {
    const anonymous = await call(app, 'POST', '/rest/account/invitations', { body: {} });
    expect(anonymous.body).toMatchObject({ error: true });
    expect(anonymous.status).not.toBe(200);
  });
});

describe('lapsed tokens', () => {
  it('do nothing once their three days are over', async () => {
    const offered = await call(app, 'POST', '/rest/account/offer_account_by_email', {
      body: { email: 'slow-reader@tracker.test' },
      from: '198.51.100.7',
    });
    expect(offered.status).toBe(200);
    const token = mailedToken('slow-reader@tracker.test', 'new', 'request_new_account');
    advanceClock(TOKEN_LIFETIME_MS + 1000);
    const created = await call(app, 'POST', '/rest/account/create', {
      body: { mail_token: token, password: 'too-late-1' },
    });
    expect(created.body).toMatchObject({
      code: 32000,
      message: 'The token you submitted does not exist, has expired, or has been canceled.',
    });
    const user = await call(app, 'GET', '/rest/user', { ...admin(), query: { names: 'slow-reader@tracker.test' } });
    expect(user.body.users ?? []).toEqual([]);
  });
});
