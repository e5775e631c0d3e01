import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AccountMailbox, accountMailbox } from '../support/accountMail.ts';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  logIn,
  type Person,
  startBrowserWorld,
  submitAndSee,
} from '../support/browserApp.ts';
import { ok } from '../support/testAccounts.ts';
import { call } from '../support/testApp.ts';

/**
 * Accounts by mail in the web app (issue 40), as a person meets them: the login page's "Create a
 * new account" and "Forgot your password?" links, the mail kept in the local outbox
 * (TRACKER_LOCAL_OUTBOX, as under `npm start`), its link opened in the browser (token.cgi), the
 * password chosen there and then used on the login form; and a new e-mail address asked for on
 * the preferences page, which changes the login only once the mailed link is opened.
 */
let world: BrowserWorld;
let mailbox: AccountMailbox;

const admin = (method: string, path: string, body?: unknown) =>
  ok(call(world.app, method, path, { apiKey: world.people.admin.apiKey, body }));

/** The one link of `action` in the one mail of `purpose` to an address: what the person clicks. */
function mailedLink(address: string, purpose: string, action: string): string {
  const mails = mailbox.to(address, purpose);
  expect(mails, `one ${purpose} mail to ${address}`).toHaveLength(1);
  const link = mails[0]!.links.find((entry) => entry.action === action);
  expect(link?.url.startsWith(`${world.app.url}/token.cgi?t=`), `a ${action} link to this tracker`).toBe(true);
  return link!.url;
}

/** Whether the API takes this login and password (a login token), as the login form sends them. */
const passwordWorks = async (login: string, password: string) =>
  (await call(world.app, 'POST', '/rest/login', { body: { login, password } })).status === 200;

/** The login form refuses a login and password with its message, and nobody is logged in. */
async function refusedOnLoginForm(page: Page, login: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Login', { exact: true }).fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: /\S/ }).first().waitFor();
  expect(await page.getByRole('button', { name: 'Log out' }).count()).toBe(0);
}

describeInBrowser('accounts by mail in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
    mailbox = accountMailbox();
    // What an administrator sets to switch sign-up on (docs/operations.md "Accounts by mail").
    await admin('PUT', '/rest/parameters', {
      mail_delivery_method: 'Test',
      urlbase: `${world.app.url}/`,
      createemailregexp: '@tracker\\.test$',
      allowemailchange: '1',
    });
  });
  afterAll(async () => {
    mailbox?.close();
    await world?.close();
  });

  it('signs a visitor up from the login page: the mailed link, a name and password, then logging in', async () => {
    const page = await world.open(undefined, '/login');
    await page.getByRole('link', { name: 'Create a new account' }).click();
    const main = await loadedMain(page, 'Create a new account');
    await checkPage(page, 'create-account');
    // An address createemailregexp does not match: the API's refusal, and nothing mailed.
    await main.getByLabel('Email address').fill('someone@elsewhere.test');
    await main.getByRole('button', { name: 'Send' }).click();
    await main.getByRole('alert').filter({ hasText: 'User account creation has been restricted.' }).waitFor();
    expect(mailbox.to('someone@elsewhere.test')).toHaveLength(0);
    await main.getByLabel('Email address').fill('newcomer@tracker.test');
    await submitAndSee(
      main.getByRole('button', { name: 'Send' }),
      main.getByRole('status').filter({ hasText: 'A confirmation email has been sent to newcomer@tracker.test' }),
    );
    const told = (await main.getByRole('status').textContent()) ?? '';

    // An address that has an account is told the very same thing (its owner gets a notice).
    const taken = await world.open(undefined, '/createaccount.cgi');
    const takenMain = await loadedMain(taken, 'Create a new account');
    await takenMain.getByLabel('Email address').fill(world.people.reporter.login);
    await submitAndSee(takenMain.getByRole('button', { name: 'Send' }), takenMain.getByRole('status'));
    const toldTaken = (await takenMain.getByRole('status').textContent()) ?? '';
    expect(toldTaken.replace(world.people.reporter.login, 'ADDRESS')).toBe(
      told.replace('newcomer@tracker.test', 'ADDRESS'),
    );
    expect(mailbox.to(world.people.reporter.login, 'exists')).toHaveLength(1);
    expect(mailbox.to(world.people.reporter.login, 'new')).toHaveLength(0);

    // The mailed link, opened in the browser as from a mail client.
    const link = mailedLink('newcomer@tracker.test', 'new', 'request_new_account');
    const mailed = await world.open(undefined, link);
    const form = await loadedMain(mailed, 'Create a new account');
    await form.getByText('Account: newcomer@tracker.test').waitFor();
    await form.getByLabel('Real name (optional)').fill('New Comer');
    await form.getByLabel('Password', { exact: true }).fill('Chosen-Secret-42');
    await form.getByLabel('Confirm password').fill('Chosen-Secret-42');
    await checkPage(mailed, 'create-account-password');
    await submitAndSee(
      form.getByRole('button', { name: 'Create' }),
      form.getByText('The user account newcomer@tracker.test has been created successfully.'),
    );
    await form.getByRole('link', { name: 'Log in' }).click();
    const newcomer: Person = {
      login: 'newcomer@tracker.test',
      password: 'Chosen-Secret-42',
      realName: 'New Comer',
      apiKey: '',
    };
    await logIn(mailed, newcomer);
    await expect(mailed.locator('header').textContent()).resolves.toContain('newcomer@tracker.test');
    const user = await ok(
      call(world.app, 'GET', '/rest/user', { apiKey: world.people.admin.apiKey, query: { names: newcomer.login } }),
    );
    expect(user.users[0]).toMatchObject({ name: newcomer.login, real_name: 'New Comer' });

    // The same link again: refused with the page's message, and no second account or password.
    const again = await world.open(undefined, link);
    const refused = await loadedMain(again, 'Create a new account');
    await refused
      .getByRole('alert')
      .filter({ hasText: 'The token you submitted does not exist, has expired, or has been canceled.' })
      .waitFor();
    expect(await refused.getByLabel('Password', { exact: true }).count()).toBe(0);
    await refused.getByRole('link', { name: 'create an account' }).waitFor();
    await checkPage(again, 'create-account-link-used');
  });

  it('sets a new password from the login page\'s "Forgot your password?" and the mailed link', async () => {
    const forgetful = world.people.outsider;
    const page = await world.open(undefined, '/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    const main = await loadedMain(page, 'Forgot your password?');
    await checkPage(page, 'forgot-password');
    await main.getByLabel('Login').fill(forgetful.login);
    await submitAndSee(
      main.getByRole('button', { name: 'Reset Password' }),
      main.getByRole('status').filter({ hasText: 'If an account has that login' }),
    );

    const link = mailedLink(forgetful.login, 'password', 'cfmpw');
    const mailed = await world.open(undefined, link);
    const form = await loadedMain(mailed, 'Choose a new password');
    await form.getByText(`Account: ${forgetful.login}`).waitFor();
    await form.getByLabel('Password', { exact: true }).fill('Brand-New-Secret-7');
    await form.getByLabel('Confirm password').fill('Brand-New-Secret-7');
    await checkPage(mailed, 'reset-password');
    // Two different passwords: the page says so and sends nothing.
    await form.getByLabel('Confirm password').fill('Brand-New-Secret-8');
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByRole('alert').filter({ hasText: 'The two passwords you entered did not match.' }).waitFor();
    await form.getByLabel('Confirm password').fill('Brand-New-Secret-7');
    await submitAndSee(
      form.getByRole('button', { name: 'Submit' }),
      form.getByText(`The password of ${forgetful.login} has been changed.`),
    );

    await logIn(mailed, { ...forgetful, password: 'Brand-New-Secret-7' });
    await refusedOnLoginForm(await world.open(), forgetful.login, forgetful.password);
    expect(await passwordWorks(forgetful.login, forgetful.password)).toBe(false);
  });

  it('changes the login from the preferences page only once the mailed link is opened', async () => {
    const mover: Person = {
      login: 'mover@tracker.test',
      password: 'Mover-Secret-5',
      realName: 'Mo Ver',
      apiKey: '',
    };
    const { id } = await admin('POST', '/rest/user', {
      email: mover.login,
      password: mover.password,
      full_name: mover.realName,
    });
    const page = await world.open();
    await logIn(page, mover);
    await page.goto('/userprefs.cgi?tab=account');
    const main = await loadedMain(page, 'Preferences');
    const address = main.getByLabel('New email address');
    await address.fill('moved@tracker.test');
    await main.getByLabel('Current password').fill(mover.password);
    await checkPage(page, 'prefs-account-email-change');
    await submitAndSee(
      main.getByRole('button', { name: 'Save account' }),
      page.getByText('A link to confirm moved@tracker.test has been mailed there'),
    );
    // Nothing changed yet: the old login still works, the new one is nobody's.
    expect(await passwordWorks(mover.login, mover.password)).toBe(true);
    expect(await passwordWorks('moved@tracker.test', mover.password)).toBe(false);
    expect(mailbox.to(mover.login, 'email-old')).toHaveLength(1);

    const link = mailedLink('moved@tracker.test', 'email-new', 'cfmem');
    const mailed = await world.open(undefined, link);
    const confirm = await loadedMain(mailed, 'Confirm your new email address');
    await confirm.getByText('Your login will become moved@tracker.test.').waitFor();
    await checkPage(mailed, 'confirm-email-change');
    await submitAndSee(
      confirm.getByRole('button', { name: 'Confirm the change' }),
      confirm.getByText('Your login has been changed to moved@tracker.test.'),
    );
    const user = await ok(call(world.app, 'GET', `/rest/user/${id}`, { apiKey: world.people.admin.apiKey }));
    expect(user.users[0].name).toBe('moved@tracker.test');
    expect(await passwordWorks('moved@tracker.test', mover.password)).toBe(true);
    expect(await passwordWorks(mover.login, mover.password)).toBe(false);

    // The old address's link cancels the change, and puts the old login back.
    const cancelLink = mailedLink(mover.login, 'email-old', 'cxlem');
    const cancelling = await world.open(undefined, cancelLink);
    const cancel = await loadedMain(cancelling, 'Cancel a request');
    await cancel.getByText('The request to change the email address to moved@tracker.test will be canceled').waitFor();
    await checkPage(cancelling, 'cancel-email-change');
    await submitAndSee(
      cancel.getByRole('button', { name: 'Cancel the request' }),
      cancel.getByText('The request has been canceled.'),
    );
    const back = await ok(call(world.app, 'GET', `/rest/user/${id}`, { apiKey: world.people.admin.apiKey }));
    expect(back.users[0].name).toBe(mover.login);
    expect(await passwordWorks(mover.login, mover.password)).toBe(true);
  });
});
