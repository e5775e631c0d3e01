import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  startBrowserWorld,
  submitAndSee,
} from '../support/browserApp.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call } from '../support/testApp.ts';

/**
 * The administration pages for people and settings (issue 42): users, groups, keywords and
 * parameters, walked by the administrator and by someone without the groups they need, who sees
 * none of their controls and whose direct API calls are refused.
 */
let world: BrowserWorld;
let bug = 0;

describeInBrowser('administering users, groups, keywords and parameters in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
    bug = await fileTestBug(world.app, world.people.reporter.apiKey, {
      product: 'Widgets',
      component: 'Frontend',
      version: '1.0',
      summary: 'Knob falls off when turned',
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('lets the administrator create a user, and disable them so that their login is refused', async () => {
    const page = await world.open('admin', '/admin.cgi');
    let main = await loadedMain(page, 'Administration');
    await main.getByRole('link', { name: 'Users' }).first().waitFor();
    await checkPage(page, 'admin-index');

    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Users' }).click();
    main = await loadedMain(page, 'Users');
    await main.getByRole('link', { name: 'Add a new user' }).click();
    main = await loadedMain(page, 'Add a user');
    await main.getByLabel('Login (email address)').fill('newbie@tracker.test');
    await main.getByLabel('Real name').fill('Nina Newbie');
    await main.getByLabel('Password').fill('Newbie-Secret-42');
    await submitAndSee(
      main.getByRole('button', { name: 'Create user' }),
      page.getByRole('heading', { name: 'Account of newbie@tracker.test' }),
    );
    main = await loadedMain(page, 'Edit a user');

    // The new user can log in (through the API, as any client would).
    const login = (password: string) =>
      call(world.app, 'POST', '/rest/login', { body: { login: 'newbie@tracker.test', password } });
    expect((await login('Newbie-Secret-42')).status).toBe(200);

    // Make them a member of editbugs and let them bless it.
    await main.getByRole('checkbox', { name: 'Member of editbugs' }).check();
    await main.getByRole('checkbox', { name: 'May bless editbugs' }).check();
    await submitAndSee(main.getByRole('button', { name: 'Save the groups' }), main.getByText('The groups are saved.'));
    const [stored] = (
      await ok(call(world.app, 'GET', '/rest/user/newbie@tracker.test', { apiKey: world.app.admin.apiKey }))
    ).users;
    expect(stored.groups.map((g: { name: string }) => g.name)).toContain('editbugs');
    expect(stored.bless_groups.map((g: { name: string }) => g.name)).toEqual(['editbugs']);

    // Disabling says what it does before it is done.
    await main.getByLabel('Disable text').fill('Left the project.');
    await main.getByRole('button', { name: 'Save the account' }).click();
    const confirm = main.getByRole('alertdialog', { name: 'Disable newbie@tracker.test?' });
    await confirm.getByText('will no longer be able to log in').waitFor();
    await checkPage(page, 'admin-user-disable');
    await submitAndSee(
      confirm.getByRole('button', { name: 'Disable the account' }),
      main.getByText('The account is saved.'),
    );
    const refused = await login('Newbie-Secret-42');
    expect(refused.status).not.toBe(200);
    expect(JSON.stringify(refused.body)).toContain('Left the project.');

    // The list of users shows them disabled; the login page refuses them with the text.
    await page.goto('/editusers.cgi?matchstr=newbie&include_disabled=1');
    main = await loadedMain(page, 'Users');
    await main.getByRole('cell', { name: 'Disabled: Left the project.' }).waitFor();
    await checkPage(page, 'admin-users');

    const theirs = await world.open(undefined, '/login');
    await theirs.getByLabel('Login', { exact: true }).fill('newbie@tracker.test');
    await theirs.getByLabel('Password', { exact: true }).fill('Newbie-Secret-42');
    await theirs.getByRole('button', { name: 'Log in', exact: true }).click();
    await theirs.getByRole('alert').filter({ hasText: 'Left the project.' }).waitFor();
  });

  it('shows someone outside editusers none of the users page, and the API refuses them', async () => {
    const page = await world.open('developer', '/editusers.cgi');
    const main = await loadedMain(page, 'Users');
    await main.getByText('You are not allowed to use this page').waitFor();
    expect(await main.getByRole('button').count()).toBe(0);
    expect(await main.getByRole('textbox').count()).toBe(0);
    await page.goto('/admin.cgi');
    const index = await loadedMain(page, 'Administration');
    await index.getByRole('link', { name: 'Tabular report' }).first().waitFor();
    expect(await index.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    await checkPage(page, 'admin-index-developer');

    const key = world.people.developer.apiKey;
    const create = await call(world.app, 'POST', '/rest/user', {
      apiKey: key,
      body: { email: 'x@tracker.test', password: 'Whatever-Secret-1' },
    });
    expect(create.status).toBe(401);
    expect(create.body.message).toContain('not authorized to add new users');
    const refused = await call(world.app, 'PUT', `/rest/user/${world.people.reporter.login}`, {
      apiKey: key,
      body: { login_denied_text: 'gone' },
    });
    expect(refused.status).toBe(401);
  });
});

export { bug };
