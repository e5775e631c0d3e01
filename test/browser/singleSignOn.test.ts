import { afterAll, beforeAll, expect, it } from 'vitest';
import { CALLBACK_PATH } from '../../shared/domain/identity/singleSignOn.ts';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  startBrowserWorld,
} from '../support/browserApp.ts';
import { startTestIssuer, type TestIssuer, useTestIssuer } from '../support/openIdProvider.ts';

/**
 * Single sign-on in the web app: the login form's "Sign in with <issuer>" button takes the
 * browser to a real OpenID Connect issuer (oidc-provider on a loopback port) and back to
 * /oidc/callback, which signs the person in to their account and returns them where they were
 * going; a refusal shows Tracker's message and the way back to the login form.
 */
let world: BrowserWorld;
let issuer: TestIssuer;
let switchOff: () => void = () => undefined;

describeInBrowser('single sign-on in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
    const redirectUri = `${world.app.url}${CALLBACK_PATH}`;
    issuer = await startTestIssuer(redirectUri);
    switchOff = useTestIssuer(issuer, redirectUri);
  });
  afterAll(async () => {
    switchOff();
    await issuer?.close();
    await world?.close();
  });

  it('signs a person in through the issuer and takes them where they were going', async () => {
    const { reporter } = world.people;
    issuer.accounts.set('rita-sub', { email: reporter.login, email_verified: true, name: 'Rita at the issuer' });
    issuer.signInAs('rita-sub');
    const page = await world.open(undefined, '/login?return=%2Fquery.cgi');
    const button = page.getByRole('button', { name: 'Sign in with Test Issuer' });
    await button.waitFor();
    await checkPage(page, 'login-single-sign-on');
    await button.click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await loadedMain(page, /Search/);
    expect(new URL(page.url()).pathname).toBe('/query.cgi');
    await expect(page.locator('header').textContent()).resolves.toContain(reporter.login);
  });

  it("shows why the issuer's answer was refused, and the way back", async () => {
    issuer.accounts.set('unverified-sub', { email: 'nobody@tracker.test', email_verified: false });
    issuer.signInAs('unverified-sub');
    const page = await world.open(undefined, '/login');
    await page.getByRole('button', { name: 'Sign in with Test Issuer' }).click();
    await page.getByRole('heading', { name: 'Signing in' }).waitFor();
    await page.getByText('has not verified the e-mail address nobody@tracker.test').waitFor();
    expect(new URL(page.url()).pathname).toBe(CALLBACK_PATH);
    await checkPage(page, 'single-sign-on-refused');
    await page.getByRole('link', { name: 'Back to the login form' }).click();
    await page.getByRole('button', { name: 'Sign in with Test Issuer' }).waitFor();
    // Nobody was signed in.
    expect(await page.getByRole('button', { name: 'Log out' }).count()).toBe(0);
  });
});
