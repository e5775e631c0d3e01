import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CALLBACK_PATH } from '../../shared/domain/identity/singleSignOn.ts';
import {
  browseToCallback,
  pkcePair,
  startTestIssuer,
  type TestIssuer,
  useTestIssuer,
} from '../support/openIdProvider.ts';
import { expectError, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Single sign-on (GET /rest/oidc, POST /rest/oidc/login and /rest/oidc/callback) against a real
 * OpenID Connect issuer, oidc-provider on a loopback port, through the real handlers: the flow as
 * the web app runs it (PKCE verifier and nonce kept by the browser), accounts matched by verified
 * e-mail or made when createemailregexp allows, and every refusal a Bugzilla-style error.
 */
let app: TestApp;
let issuer: TestIssuer;
let redirectUri: string;
const admin = () => app.admin.apiKey;

const switchOn = () => useTestIssuer(issuer, redirectUri);
const switchOff = () => switchOn()();

beforeAll(async () => {
  app = await startTestApp();
  redirectUri = `${app.url}${CALLBACK_PATH}`;
  issuer = await startTestIssuer(redirectUri);
});
afterAll(async () => {
  if (issuer) switchOff();
  await issuer?.close();
  await app?.close();
});
beforeEach(switchOn);

/** A started sign-in, as the web app keeps it: the issuer's address, and the browser's secrets. */
async function start() {
  const pkce = pkcePair();
  const started = await ok(call(app, 'POST', '/rest/oidc/login', { body: { code_challenge: pkce.challenge } }));
  return { ...started, verifier: pkce.verifier };
}

/** The person signs in at the issuer and comes back; the answer of POST /rest/oidc/callback. */
async function signIn(subject: string) {
  issuer.signInAs(subject);
  const started = await start();
  const back = await browseToCallback(started.authorization_url, redirectUri);
  const callback = {
    state: back.get('state'),
    code: back.get('code'),
    iss: back.get('iss') ?? undefined,
    code_verifier: started.verifier,
    nonce: started.nonce,
  };
  return { response: await call(app, 'POST', '/rest/oidc/callback', { body: callback }), callback, started };
}

const whoamiWithToken = (token: string) =>
  ok(call(app, 'GET', '/rest/whoami', { headers: { 'X-BUGZILLA-TOKEN': token } }));

describe('single sign-on', () => {
  it('tells the login form whether it is on, and with which issuer', async () => {
    expect(await ok(call(app, 'GET', '/rest/oidc'))).toEqual({ enabled: true, provider: 'Test Issuer' });
    switchOff();
    expect(await ok(call(app, 'GET', '/rest/oidc'))).toEqual({ enabled: false, provider: null });
    expectError(
      await call(app, 'POST', '/rest/oidc/login', { body: { code_challenge: pkcePair().challenge } }),
      32000,
      400,
    );
  });

  it('sends the browser to the issuer with state, nonce and the S256 challenge', async () => {
    const pkce = pkcePair();
    const started = await ok(call(app, 'POST', '/rest/oidc/login', { body: { code_challenge: pkce.challenge } }));
    const address = new URL(started.authorization_url);
    expect(address.origin).toBe(issuer.url);
    expect(Object.fromEntries(address.searchParams)).toMatchObject({
      client_id: issuer.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: started.state,
      nonce: started.nonce,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    expectError(await call(app, 'POST', '/rest/oidc/login', { body: { code_challenge: 'short' } }), 32000, 400);
    expectError(await call(app, 'POST', '/rest/oidc/login', { body: {} }), 50, 400);
  });

  it('signs a person in to the existing account with their verified address; passwords and API keys keep working', async () => {
    const aliceKey = await userWithKey(app, 'alice');
    await userWithKey(app, 'alicia');
    issuer.accounts.set('alice-sub', {
      email: 'Alice@Tracker.test',
      email_verified: true,
      name: 'Alice at the issuer',
    });
    const { response } = await signIn('alice-sub');
    expect(response.status, response.text).toBe(200);
    const me = await whoamiWithToken(response.body.token);
    expect(me).toMatchObject({ id: response.body.id, name: 'alice@tracker.test' });
    // The account is the one that was there: its real name is not the issuer's.
    expect(me.real_name).toBe('');
    expect(await ok(call(app, 'GET', '/rest/whoami', { apiKey: aliceKey }))).toMatchObject({ id: response.body.id });
    const byPassword = await ok(
      call(app, 'POST', '/rest/login', { body: { login: 'alice@tracker.test', password: 'alice-password' } }),
    );
    expect(byPassword.id).toBe(response.body.id);
    // The token ends at logout like any login token.
    await ok(call(app, 'GET', '/rest/logout', { query: { token: response.body.token } }));
    expectError(
      await call(app, 'GET', '/rest/whoami', { headers: { 'X-BUGZILLA-TOKEN': response.body.token } }),
      32000,
      400,
    );
  });

  it('refuses a replayed callback, and one finished by a browser without the verifier or nonce', async () => {
    issuer.accounts.set('replay-sub', { email: 'replay@tracker.test', email_verified: true });
    await userWithKey(app, 'replay');
    const first = await signIn('replay-sub');
    expect(first.response.status, first.response.text).toBe(200);
    // The same callback again (a reload, or someone who saw the address): the state is used up.
    expectError(await call(app, 'POST', '/rest/oidc/callback', { body: first.callback }), 307, 400);

    // Another browser holding the callback address but not the start's secrets gets nothing, and
    // its try uses the state up: the rightful browser must start again.
    issuer.signInAs('replay-sub');
    const started = await start();
    const back = await browseToCallback(started.authorization_url, redirectUri);
    const stolen = { state: back.get('state'), code: back.get('code'), iss: back.get('iss') };
    const wrongVerifier = { ...stolen, code_verifier: pkcePair().verifier, nonce: started.nonce };
    const refused = await call(app, 'POST', '/rest/oidc/callback', { body: wrongVerifier });
    expectError(refused, 307, 400);
    expect(refused.body.message).toMatch(/Start it again/);
    expectError(
      await call(app, 'POST', '/rest/oidc/callback', {
        body: { ...stolen, code_verifier: started.verifier, nonce: started.nonce },
      }),
      307,
      400,
    );

    // A wrong nonce is refused the same way.
    issuer.signInAs('replay-sub');
    const again = await start();
    const backAgain = await browseToCallback(again.authorization_url, redirectUri);
    expectError(
      await call(app, 'POST', '/rest/oidc/callback', {
        body: {
          state: backAgain.get('state'),
          code: backAgain.get('code'),
          iss: backAgain.get('iss'),
          code_verifier: again.verifier,
          nonce: 'not-the-nonce',
        },
      }),
      307,
      400,
    );
    // A state never started.
    expectError(
      await call(app, 'POST', '/rest/oidc/callback', {
        body: { state: 'made-up', code: 'x', code_verifier: again.verifier, nonce: 'n' },
      }),
      307,
      400,
    );
  });

  it('refuses an address the issuer has not verified', async () => {
    await userWithKey(app, 'unverified');
    issuer.accounts.set('unverified-sub', { email: 'unverified@tracker.test', email_verified: false });
    const { response } = await signIn('unverified-sub');
    expectError(response, 302, 401);
    expect(response.body.message).toContain('has not verified the e-mail address unverified@tracker.test');
    issuer.accounts.set('no-mail-sub', {});
    expectError((await signIn('no-mail-sub')).response, 302, 401);
  });

  it('keeps a disabled account out', async () => {
    await userWithKey(app, 'disabled');
    await ok(
      call(app, 'PUT', '/rest/user/disabled@tracker.test', {
        apiKey: admin(),
        body: { login_denied_text: 'Left the company.' },
      }),
    );
    issuer.accounts.set('disabled-sub', { email: 'disabled@tracker.test', email_verified: true });
    const { response } = await signIn('disabled-sub');
    expectError(response, 301, 401);
    expect(response.body.message).toContain('Left the company.');
  });

  it('creates an account for an unknown verified address only when createemailregexp allows it', async () => {
    await ok(
      call(app, 'PUT', '/rest/parameters', { apiKey: admin(), body: { createemailregexp: '@tracker\\.test$' } }),
    );
    issuer.accounts.set('outsider-sub', { email: 'outsider@elsewhere.example', email_verified: true });
    const refused = (await signIn('outsider-sub')).response;
    expectError(refused, 501, 400);
    expectError(await call(app, 'GET', '/rest/user/outsider@elsewhere.example', { apiKey: admin() }), 51, 404);

    issuer.accounts.set('newcomer-sub', { email: 'newcomer@tracker.test', email_verified: true, name: 'New Comer' });
    const created = (await signIn('newcomer-sub')).response;
    expect(created.status, created.text).toBe(200);
    expect(await whoamiWithToken(created.body.token)).toMatchObject({
      id: created.body.id,
      name: 'newcomer@tracker.test',
      real_name: 'New Comer',
    });
    // The second sign-in finds the same account.
    expect((await signIn('newcomer-sub')).response.body.id).toBe(created.body.id);
    // The new account has no password: only the issuer signs it in.
    expectError(
      await call(app, 'POST', '/rest/login', { body: { login: 'newcomer@tracker.test', password: 'newcomer' } }),
      300,
      401,
    );

    await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin(), body: { createemailregexp: '' } }));
    issuer.accounts.set('late-sub', { email: 'late@tracker.test', email_verified: true });
    expectError((await signIn('late-sub')).response, 501, 400);
  });
});
