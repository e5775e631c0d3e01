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
  }, 300_000);
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

    // The account's history (editusers' "View Account History") lists the changes just made.
    const history = main.getByRole('table', { name: 'Account history' });
    await history.getByRole('cell', { name: 'Left the project.' }).waitFor();
    // (editbugs itself matches everyone by its regexp: only the bless right is a change.)
    await history.getByRole('row').filter({ hasText: 'Bless rights' }).filter({ hasText: 'editbugs' }).waitFor();
    await history.getByRole('cell', { name: 'Account created' }).waitFor();
    await history.getByRole('cell', { name: world.app.admin.login }).first().waitFor();
    await checkPage(page, 'admin-user-history');

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
  it('lets the administrator create a group and add a member', async () => {
    const page = await world.open('admin', '/editgroups.cgi');
    let main = await loadedMain(page, 'Groups');
    await main.getByRole('link', { name: 'insiders' }).waitFor();
    await checkPage(page, 'admin-groups');
    await main.getByRole('link', { name: 'Add a group' }).click();
    main = await loadedMain(page, 'Add a group');
    await main.getByLabel('Name').fill('qa-team');
    await main.getByLabel('Description').fill('Quality assurance');
    await submitAndSee(
      main.getByRole('button', { name: 'Create group' }),
      page.getByRole('heading', { name: 'Settings of qa-team' }),
    );
    main = await loadedMain(page, 'Edit a group');
    await main.getByRole('heading', { name: 'Members' }).waitFor();
    await main.getByLabel('Add a member (login)').fill(world.people.reporter.login);
    await submitAndSee(
      main.getByRole('button', { name: 'Add member' }),
      main.getByRole('cell', { name: world.people.reporter.login }),
    );
    await checkPage(page, 'admin-group-edit');
    const [group] = (
      await ok(
        call(world.app, 'GET', '/rest/group/qa-team', { apiKey: world.app.admin.apiKey, query: { membership: '1' } }),
      )
    ).groups;
    expect(group.is_bug_group).toBe(true);
    // The administrator is a member of every group (Bugzilla's admin), the reporter by hand.
    expect(group.membership.map((m: { name: string }) => m.name)).toContain(world.people.reporter.login);

    // Inheritance: qa-team includes the members of insiders, until it no longer does.
    const inheritance = main.getByRole('region', { name: 'Included groups' });
    await inheritance.getByText('qa-team includes no other group.').waitFor();
    await inheritance.getByLabel('Include the members of').selectOption('insiders');
    await submitAndSee(
      inheritance.getByRole('button', { name: 'Include the group' }),
      inheritance.getByRole('list', { name: 'Groups included in qa-team' }).getByText('insiders'),
    );
    await checkPage(page, 'admin-group-inheritance');
    const memberGroups = async () =>
      (await ok(call(world.app, 'GET', '/rest/group/qa-team', { apiKey: world.app.admin.apiKey }))).groups[0]
        .member_groups;
    expect(await memberGroups()).toEqual(['insiders']);
    await inheritance.getByRole('button', { name: 'Stop including insiders' }).click();
    const stop = main.getByRole('alertdialog', { name: 'Stop including insiders in qa-team?' });
    await submitAndSee(
      stop.getByRole('button', { name: 'Stop including the group' }),
      inheritance.getByText('qa-team includes no other group.'),
    );
    expect(await memberGroups()).toEqual([]);

    // A refused change shows Bugzilla's message: a second group of the same name.
    await page.goto('/editgroups.cgi?action=add');
    main = await loadedMain(page, 'Add a group');
    await main.getByLabel('Name').fill('qa-team');
    await main.getByLabel('Description').fill('Again');
    await main.getByRole('button', { name: 'Create group' }).click();
    await main
      .getByRole('alert')
      .filter({ hasText: 'The group was not created.' })
      .filter({ hasText: 'qa-team' })
      .waitFor();
  });

  it('lets the administrator create a keyword that a developer then puts on a bug', async () => {
    const page = await world.open('admin', '/editkeywords.cgi');
    let main = await loadedMain(page, 'Keywords');
    await main.getByRole('heading', { name: 'Add a keyword' }).waitFor();
    await main.getByLabel('Name').fill('crash');
    await main.getByLabel('Description').fill('The program stops');
    await submitAndSee(
      main.getByRole('button', { name: 'Add keyword' }),
      main.getByRole('rowheader', { name: 'crash' }),
    );
    await checkPage(page, 'admin-keywords');

    const dev = await world.open('developer', `/show_bug.cgi?id=${bug}`);
    const bugMain = await loadedMain(dev, `Bug ${bug} – Knob falls off when turned`);
    await bugMain.getByLabel('Keywords', { exact: true }).fill('crash');
    await submitAndSee(
      bugMain.getByRole('button', { name: 'Save changes' }),
      dev.getByText(`Changes to bug ${bug} saved.`),
    );
    const [stored] = (await ok(call(world.app, 'GET', `/rest/bug/${bug}`, { apiKey: world.app.admin.apiKey }))).bugs;
    expect(stored.keywords).toEqual(['crash']);

    // The keywords page counts it, and the count links to the bug.
    await page.reload();
    main = await loadedMain(page, 'Keywords');
    const row = main.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'crash' }) });
    await row.getByRole('link', { name: '1' }).click();
    await page
      .getByRole('link', { name: String(bug), exact: true })
      .first()
      .waitFor();
  });

  it('deletes an unused keyword after saying no bug carries it, and refuses one bugs carry', async () => {
    await ok(
      call(world.app, 'POST', '/rest/keyword', {
        apiKey: world.app.admin.apiKey,
        body: { name: 'unused', description: 'Never put on a bug' },
      }),
    );
    const page = await world.open('admin', '/editkeywords.cgi');
    const main = await loadedMain(page, 'Keywords');
    await main.getByRole('button', { name: 'Delete crash' }).click();
    let confirm = main.getByRole('alertdialog', { name: 'Delete crash?' });
    await confirm.getByText('1 bug carries crash', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete the keyword' }).click();
    await main.getByRole('alert').filter({ hasText: 'There are 1 bugs with the keyword crash!' }).waitFor();

    await main.getByRole('button', { name: 'Delete unused' }).click();
    confirm = main.getByRole('alertdialog', { name: 'Delete unused?' });
    await confirm.getByText('No bug carries unused', { exact: false }).waitFor();
    await checkPage(page, 'admin-keyword-delete');
    await submitAndSee(
      confirm.getByRole('button', { name: 'Delete the keyword' }),
      main.getByText('The keyword unused is deleted.'),
    );
    await main.getByRole('rowheader', { name: 'unused' }).waitFor({ state: 'detached' });
    const keywords = (await ok(call(world.app, 'GET', '/rest/keyword', { apiKey: world.app.admin.apiKey }))).keywords;
    expect(keywords.map((keyword: { name: string }) => keyword.name)).not.toContain('unused');
  });

  it('lets the administrator change a parameter, and a new bug takes the new default', async () => {
    const page = await world.open('admin', '/editparams.cgi?section=bugfields');
    const main = await loadedMain(page, 'Parameters');
    await main.getByRole('heading', { name: 'Bug fields' }).waitFor();
    await main.getByText('The severity of a new bug.').waitFor();
    await checkPage(page, 'admin-parameters');
    await main.getByLabel('defaultseverity').fill('nonsense');
    await main.getByRole('button', { name: 'Save changes' }).click();
    await main.getByRole('alert').filter({ hasText: 'Nothing was changed.' }).waitFor();
    await main.getByLabel('defaultseverity').fill('critical');
    await submitAndSee(main.getByRole('button', { name: 'Save changes' }), main.getByText('Saved: defaultseverity.'));

    const reporter = await world.open('reporter', '/enter_bug.cgi?product=Widgets');
    const form = await loadedMain(reporter, 'File a bug in Widgets');
    expect(await form.getByLabel('Severity', { exact: true }).inputValue()).toBe('critical');
  });

  it('shows someone outside the groups none of the groups, keywords or parameters controls', async () => {
    const page = await world.open('developer', '/editgroups.cgi');
    for (const [path, heading] of [
      ['/editgroups.cgi', 'Groups'],
      ['/editkeywords.cgi', 'Keywords'],
      ['/editparams.cgi', 'Parameters'],
    ] as const) {
      await page.goto(path);
      const main = await loadedMain(page, heading);
      await main.getByText('You are not allowed to use this page').waitFor();
      expect(await main.getByRole('button').count()).toBe(0);
      expect(await main.getByRole('textbox').count()).toBe(0);
    }
    const key = world.people.developer.apiKey;
    for (const [method, path, body] of [
      ['POST', '/rest/group', { name: 'mine', description: 'Mine' }],
      ['POST', '/rest/keyword', { name: 'mine', description: 'Mine' }],
      ['PUT', '/rest/parameters', { defaultseverity: 'minor' }],
      ['PUT', '/rest/group/insiders', { member_groups: { add: ['editbugs'] } }],
      ['GET', `/rest/user/${world.people.reporter.login}/activity`, undefined],
    ] as const) {
      const refused = await call(world.app, method, path, { apiKey: key, body });
      expect(refused.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(refused.body.error, `${method} ${path}`).toBe(true);
    }
  });
});
