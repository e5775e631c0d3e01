import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  type Role,
  startBrowserWorld,
  submitAndSee,
} from '../support/browserApp.ts';
import { ok, userWithKey } from '../support/testAccounts.ts';
import { call } from '../support/testApp.ts';

/**
 * The catalogue's admin pages (issue 42) walked by the administrator: a product with components,
 * versions, milestones and group controls, then a bug filed into it; a status added to the
 * workflow and a bug moved through it; a flag type created and requested on the bug; a custom
 * field. Then the same pages for people who lack the groups: no controls, and the API refuses
 * the calls the controls would make. Each test goes on from the one before.
 */
let world: BrowserWorld;
let bug = 0;
const product = 'Gears';
const summary = 'Cog slips under load';

async function api(method: string, path: string, body?: unknown) {
  return ok(call(world.app, method, path, { apiKey: world.app.admin.apiKey, body }));
}
const bugFromApi = async (id: number) => (await api('GET', `/rest/bug/${id}`)).bugs[0];
async function productFromApi() {
  const query = { names: product, include_fields: '_all' };
  return (await ok(call(world.app, 'GET', '/rest/product', { apiKey: world.app.admin.apiKey, query }))).products[0];
}

/** A status line or message with this text. */
const said = (main: Locator, text: string | RegExp) => main.getByRole('status').filter({ hasText: text });

async function adminPage(role: Role | undefined, path: string, heading: string | RegExp): Promise<[Page, Locator]> {
  const page = await world.open(role, path);
  return [page, await loadedMain(page, heading)];
}

describeInBrowser('administering products, fields and flag types in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });

  it('lets the administrator create a product with components, versions and milestones', async () => {
    const [page, main] = await adminPage('admin', '/editproducts.cgi', 'Products');
    await main.getByLabel('Product name', { exact: true }).fill(product);
    await main.getByLabel('Product description', { exact: true }).fill('Gearboxes and their parts');
    await main.getByLabel('First version', { exact: true }).fill('1.0');
    await submitAndSee(
      main.getByRole('button', { name: 'Add product' }),
      said(main, `The product ${product} was created.`),
    );
    await main.getByRole('link', { name: product, exact: true }).waitFor();
    await checkPage(page, 'admin-products');

    await main.getByRole('link', { name: product, exact: true }).click();
    await loadedMain(page, `Product ${product}`);
    const add = main.getByRole('form', { name: 'Add a component' });
    await add.getByLabel('Component name', { exact: true }).fill('Cogs');
    await add.getByLabel('Component description', { exact: true }).fill('Toothed wheels');
    await add.getByLabel('Default assignee', { exact: true }).fill(world.people.developer.login);
    await add.getByLabel('Default QA contact', { exact: true }).fill(world.people.insider.login);
    await add.getByLabel('Initial CC', { exact: true }).fill(world.people.outsider.login);
    await add.getByLabel('Triage owner', { exact: true }).fill(world.people.developer.login);
    await submitAndSee(add.getByRole('button', { name: 'Add component' }), said(main, 'The component Cogs was added.'));
    await main.getByRole('rowheader', { name: 'Cogs', exact: true }).waitFor();

    const versions = main.getByRole('form', { name: 'Add a version' });
    await versions.getByLabel('New version', { exact: true }).fill('2.0');
    await submitAndSee(versions.getByRole('button', { name: 'Add version' }), said(main, 'The version 2.0 was added.'));
    const milestones = main.getByRole('form', { name: 'Add a milestone' });
    await milestones.getByLabel('New milestone', { exact: true }).fill('M1');
    await milestones.getByLabel('Sort key of the new milestone', { exact: true }).fill('10');
    await submitAndSee(
      milestones.getByRole('button', { name: 'Add milestone' }),
      said(main, 'The milestone M1 was added.'),
    );
    await main.getByRole('rowheader', { name: 'M1', exact: true }).waitFor();

    const stored = await productFromApi();
    expect(stored.components).toMatchObject([
      {
        name: 'Cogs',
        default_assigned_to: world.people.developer.login,
        default_qa_contact: world.people.insider.login,
        triage_owner: world.people.developer.login,
      },
    ]);
    expect(stored.versions.map((v: { name: string }) => v.name)).toEqual(['1.0', '2.0']);
    expect(stored.milestones.map((m: { name: string; sort_key: number }) => [m.name, m.sort_key])).toEqual([
      ['---', 0],
      ['M1', 10],
    ]);
  });

  it('creates a classification and moves the product into it', async () => {
    const [page, main] = await adminPage('admin', '/editclassifications.cgi', 'Classifications');
    await main.getByLabel('Classification name', { exact: true }).fill('Machinery');
    await main.getByLabel('Classification description', { exact: true }).fill('Things that turn');
    await submitAndSee(
      main.getByRole('button', { name: 'Add classification' }),
      main.getByRole('heading', { name: 'Machinery', exact: true }),
    );
    const [, productMain] = await adminPage('admin', `/editproducts.cgi?product=${product}`, `Product ${product}`);
    const details = productMain.getByRole('region', { name: 'Details' });
    await details.getByLabel('Classification', { exact: true }).fill('Machinery');
    await submitAndSee(
      details.getByRole('button', { name: 'Save product' }),
      said(productMain, `The product ${product} was saved.`),
    );
    expect((await productFromApi()).classification).toBe('Machinery');
    await page.reload();
    await loadedMain(page, 'Classifications');
    await main.getByRole('region', { name: 'Machinery' }).getByRole('link', { name: product, exact: true }).waitFor();
    await checkPage(page, 'admin-classifications');
  });

  it('sets a group control in the SHOWN/NA/MANDATORY matrix, then removes it after saying what it affects', async () => {
    const [page, main] = await adminPage('admin', `/editproducts.cgi?product=${product}`, `Product ${product}`);
    const matrix = main.getByRole('form', { name: 'Group controls' });
    await matrix.getByLabel('MemberControl for secret', { exact: true }).selectOption('SHOWN');
    await matrix.getByLabel('OtherControl for secret', { exact: true }).selectOption('NA');
    await submitAndSee(
      matrix.getByRole('button', { name: 'Save group controls' }),
      said(main, 'The group controls were saved.'),
    );
    expect((await productFromApi()).group_controls).toMatchObject([
      { group: 'secret', membercontrol: 'SHOWN', othercontrol: 'NA', entry: false },
    ]);
    await checkPage(page, 'admin-product');

    // Others may not have a stronger control than members: Tracker's refusal is shown as it is.
    await matrix.getByLabel('OtherControl for secret', { exact: true }).selectOption('MANDATORY');
    await matrix.getByRole('button', { name: 'Save group controls' }).click();
    await main.getByRole('alert').filter({ hasText: 'Others cannot have a stronger control than members.' }).waitFor();

    await matrix.getByLabel('MemberControl for secret', { exact: true }).selectOption('NA');
    await matrix.getByLabel('OtherControl for secret', { exact: true }).selectOption('NA');
    await matrix.getByRole('button', { name: 'Save group controls' }).click();
    const confirm = main.getByRole('alertdialog', { name: `Remove the control of secret on ${product}?` });
    await confirm.getByText(`0 bugs of ${product} are in secret.`, { exact: false }).waitFor();
    await submitAndSee(
      confirm.getByRole('button', { name: 'Remove the control' }),
      said(main, 'The group controls were saved.'),
    );
    expect((await productFromApi()).group_controls).toEqual([]);
  });

  it('files a bug into the new product with the component’s defaults', async () => {
    const page = await world.open('reporter', `/enter_bug.cgi?product=${product}`);
    const form = await loadedMain(page, `File a bug in ${product}`);
    await form.getByLabel('Component', { exact: true }).selectOption('Cogs');
    await form.getByLabel('Version', { exact: true }).selectOption('2.0');
    await form.getByLabel('Summary', { exact: true }).fill(summary);
    await form.getByLabel('Description', { exact: true }).fill('At full torque the cog slips a tooth.');
    await form.getByRole('button', { name: 'Submit bug' }).click();
    await page.waitForURL(/\/show_bug\.cgi\?id=\d+$/);
    bug = Number(new URL(page.url()).searchParams.get('id'));
    expect(await bugFromApi(bug)).toMatchObject({
      product,
      component: 'Cogs',
      version: '2.0',
      assigned_to: world.people.developer.login,
      qa_contact: world.people.insider.login,
      cc: expect.arrayContaining([world.people.outsider.login]),
    });
  });

  it('says how many bugs a component holds before deleting it, and shows the refusal', async () => {
    const [, main] = await adminPage('admin', `/editproducts.cgi?product=${product}`, `Product ${product}`);
    await main.getByRole('button', { name: 'Delete component Cogs' }).click();
    const confirm = main.getByRole('alertdialog', { name: 'Delete the component Cogs?' });
    await confirm.getByText('1 bug is in this component', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete Cogs' }).click();
    await main.getByRole('alert').filter({ hasText: /Cogs/ }).waitFor();
    expect((await productFromApi()).components.map((c: { name: string }) => c.name)).toEqual(['Cogs']);
  });

  it('deletes an unused version after saying no bug has it, and refuses to delete a product with bugs', async () => {
    const [page, main] = await adminPage('admin', `/editproducts.cgi?product=${product}`, `Product ${product}`);
    await main.getByRole('button', { name: 'Delete version 1.0' }).click();
    let confirm = main.getByRole('alertdialog', { name: 'Delete the version 1.0?' });
    await confirm.getByText('No bug has version 1.0', { exact: false }).waitFor();
    await submitAndSee(confirm.getByRole('button', { name: 'Delete 1.0' }), said(main, 'The version 1.0 was deleted.'));
    expect((await productFromApi()).versions.map((v: { name: string }) => v.name)).toEqual(['2.0']);

    await main.getByRole('button', { name: `Delete ${product}` }).click();
    confirm = main.getByRole('alertdialog', { name: `Delete the product ${product}?` });
    await confirm.getByText(`1 bug is in ${product}`, { exact: false }).waitFor();
    await checkPage(page, 'admin-product-delete');
    await confirm.getByRole('button', { name: `Delete ${product} for good` }).click();
    await main.getByRole('alert').filter({ hasText: 'There are 1 bugs entered for this product!' }).waitFor();
    expect(await productFromApi()).toMatchObject({ name: product });
  });

  it('adds a status, puts it in the workflow with a comment required, and moves the bug through it', async () => {
    const [valuesPage, values] = await adminPage('admin', '/editvalues.cgi?field=bug_status', /^Values of Status/);
    const add = values.getByRole('form', { name: 'Add a value' });
    await add.getByLabel('New value', { exact: true }).fill('IN_REVIEW');
    await add.getByLabel('Sort key of the new value', { exact: true }).fill('450');
    await submitAndSee(add.getByRole('button', { name: 'Add value' }), said(values, 'The value IN_REVIEW was added.'));
    await values.getByRole('rowheader', { name: 'IN_REVIEW', exact: true }).waitFor();
    await checkPage(valuesPage, 'admin-field-values');

    const [page, main] = await adminPage('admin', '/editworkflow.cgi', 'Status workflow');
    const matrix = main.getByRole('form', { name: 'Status workflow' });
    await matrix.getByLabel('From IN_PROGRESS to IN_REVIEW', { exact: true }).check();
    await matrix.getByLabel('From IN_REVIEW to RESOLVED', { exact: true }).check();
    await matrix.getByLabel('Comment required from IN_REVIEW to RESOLVED', { exact: true }).check();
    await matrix.getByText('2 unsaved changes', { exact: false }).waitFor();
    await checkPage(page, 'admin-workflow');
    await submitAndSee(matrix.getByRole('button', { name: 'Save workflow' }), said(main, 'The workflow was saved'));
    const statuses = (await api('GET', '/rest/field/bug/bug_status')).fields[0].values;
    const review = statuses.find((v: { name: string }) => v.name === 'IN_REVIEW');
    expect(review.can_change_to).toEqual([{ name: 'RESOLVED', comment_required: true }]);

    const bugPage = await world.open('developer', `/show_bug.cgi?id=${bug}`);
    const heading = `Bug ${bug} – ${summary}`;
    let bugMain = await loadedMain(bugPage, heading);
    for (const status of ['IN_PROGRESS', 'IN_REVIEW']) {
      await bugMain.getByLabel('Status', { exact: true }).selectOption(status);
      await bugMain.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(async () => (await bugFromApi(bug)).status, { timeout: 60_000 }).toBe(status);
      // A fresh page, so that nothing the save re-renders races the next choice.
      await bugPage.reload();
      bugMain = await loadedMain(bugPage, heading);
      await expect.poll(() => bugMain.getByLabel('Status', { exact: true }).inputValue()).toBe(status);
    }
    await bugMain.getByLabel('Status', { exact: true }).selectOption('RESOLVED');
    await bugMain.getByLabel('Resolution', { exact: true }).selectOption('FIXED');
    await bugMain.getByText('This change of status needs a comment.').waitFor();
    await bugMain.getByRole('button', { name: 'Save changes' }).click();
    // The move needs a comment: it is refused, and the page says so.
    await bugMain
      .getByRole('alert')
      .filter({ hasText: /comment/i })
      .waitFor();
    expect((await bugFromApi(bug)).status).toBe('IN_REVIEW');
    await bugMain.getByLabel('Additional comment', { exact: true }).fill('Reviewed: the new cog holds.');
    await bugMain.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await bugFromApi(bug)).status, { timeout: 60_000 }).toBe('RESOLVED');
  });

  it('says how many bugs have a value before disabling it, and shows Tracker’s refusal', async () => {
    const [page, main] = await adminPage('admin', '/editvalues.cgi?field=bug_severity', /^Values of Severity/);
    await main.getByRole('button', { name: 'Disable value enhancement' }).click();
    let confirm = main.getByRole('alertdialog', { name: 'Disable the value enhancement?' });
    // The bug filed above has the default severity.
    await confirm.getByText(/^[1-9]\d* bugs? ha(s|ve) value enhancement/).waitFor();
    await checkPage(page, 'admin-disable-value');
    await confirm.getByRole('button', { name: 'Disable enhancement' }).click();
    // enhancement is the defaultseverity parameter's value: refused, as Bugzilla refuses it.
    await main.getByRole('alert').filter({ hasText: 'defaultseverity' }).waitFor();

    await main.getByRole('button', { name: 'Disable value trivial' }).click();
    confirm = main.getByRole('alertdialog', { name: 'Disable the value trivial?' });
    await confirm.getByText('0 bugs have value trivial', { exact: false }).waitFor();
    // (The refusal above is still shown until this click clears it: wait for the outcome itself.)
    await confirm.getByRole('button', { name: 'Disable trivial' }).click();
    await said(main, 'The value trivial is disabled.').waitFor();
    await main.getByRole('button', { name: 'Enable value trivial' }).waitFor();
    const severities = (await api('GET', '/rest/field/bug/bug_severity')).fields[0].values;
    const activity = (name: string) => severities.find((v: { name: string }) => v.name === name).is_active;
    expect([activity('enhancement'), activity('trivial')]).toEqual([undefined, false]);
  });

  it('creates a flag type that the reporter then requests on the bug', async () => {
    const [page, main] = await adminPage('admin', '/editflagtypes.cgi', 'Flag types');
    await main.getByRole('link', { name: 'Create a flag type' }).click();
    await loadedMain(page, 'New flag type');
    await main.getByLabel('Flag name', { exact: true }).fill('qa');
    await main.getByLabel('Flag description', { exact: true }).fill('QA sign-off');
    await main.getByLabel('Applies to', { exact: true }).fill(product);
    await main.getByLabel('Grant group', { exact: true }).fill('editbugs');
    await main.getByLabel('Multiplicable (may be set more than once on a bug)').uncheck();
    await checkPage(page, 'admin-flagtype-edit');
    await main.getByRole('button', { name: 'Create flag type' }).click();
    await loadedMain(page, 'Flag types');
    await main.getByRole('link', { name: 'qa', exact: true }).waitFor();
    await checkPage(page, 'admin-flagtypes');
    const created = (await api('GET', '/rest/flag_type')).flag_types.find((t: { name: string }) => t.name === 'qa');
    expect(created).toMatchObject({
      target_type: 'bug',
      is_multiplicable: false,
      grant_group_name: 'editbugs',
      inclusions: { [product]: ['__Any__'] },
    });

    const bugPage = await world.open('reporter', `/show_bug.cgi?id=${bug}`);
    const bugMain = await loadedMain(bugPage, `Bug ${bug} – ${summary}`);
    await bugMain.getByLabel('qa (new)', { exact: true }).selectOption('?');
    await bugMain.getByLabel('Ask qa of', { exact: true }).fill(world.people.developer.login);
    await bugMain.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(async () => (await bugFromApi(bug)).flags, { timeout: 60_000 })
      .toMatchObject([{ name: 'qa', status: '?', requestee: world.people.developer.login }]);
  });

  it('adds a custom field', async () => {
    const [page, main] = await adminPage('admin', '/editfields.cgi', 'Custom fields');
    await main.getByLabel('Field name', { exact: true }).fill('cf_gear_ratio');
    await main.getByLabel('Field description', { exact: true }).fill('Gear ratio');
    await submitAndSee(
      main.getByRole('button', { name: 'Add field' }),
      said(main, 'The field cf_gear_ratio was created.'),
    );
    await main.getByRole('heading', { name: /Gear ratio/ }).waitFor();
    await checkPage(page, 'admin-custom-fields');
    const fields = (await api('GET', '/rest/field/bug/cf_gear_ratio')).fields;
    expect(fields[0]).toMatchObject({ name: 'cf_gear_ratio', display_name: 'Gear ratio', type: 1, is_custom: true });
  });

  it('shows a product administrator only their product, without its group controls', async () => {
    await api('POST', '/rest/group', { name: 'gearsmiths', description: 'Gear smiths', isactive: true });
    await api('PUT', `/rest/product/${product}`, {
      group_controls: [{ group: 'gearsmiths', membercontrol: 'NA', othercontrol: 'NA', editcomponents: true }],
    });
    const smith = await userWithKey(world.app, 'smith', ['gearsmiths'], 'smith-Secret-9');
    expect(smith).toBeTruthy();
    const page = await world.open(undefined, '/login');
    await page.getByLabel('Login', { exact: true }).fill('smith@tracker.test');
    await page.getByLabel('Password', { exact: true }).fill('smith-Secret-9');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    // Per-product rights open the administration menu too.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).click();
    await loadedMain(page, 'Administration');
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Products' }).click();
    const main = await loadedMain(page, 'Products');
    await main.getByRole('link', { name: product, exact: true }).waitFor();
    expect(await main.getByRole('link', { name: 'Widgets', exact: true }).count()).toBe(0);
    expect(await main.getByRole('button', { name: 'Add product' }).count()).toBe(0);
    await main.getByRole('link', { name: product, exact: true }).click();
    await loadedMain(page, `Product ${product}`);
    const versions = main.getByRole('form', { name: 'Add a version' });
    await versions.getByLabel('New version', { exact: true }).fill('3.0');
    await submitAndSee(versions.getByRole('button', { name: 'Add version' }), said(main, 'The version 3.0 was added.'));
    expect(await main.getByRole('form', { name: 'Group controls' }).count()).toBe(0);
  });

  it('shows someone without the groups none of these controls, and the API refuses the calls', async () => {
    const pages: [string, string][] = [
      ['/editproducts.cgi', 'Products'],
      [`/editproducts.cgi?product=${product}`, `Product ${product}`],
      ['/editflagtypes.cgi', 'Flag types'],
      ['/editvalues.cgi?field=bug_status', 'Values of Status'],
      ['/editworkflow.cgi', 'Status workflow'],
      ['/editfields.cgi', 'Custom fields'],
    ];
    for (const [path, heading] of pages) {
      const [page, main] = await adminPage('developer', path, heading);
      await main.getByRole('alert').filter({ hasText: 'You are not allowed to use this page.' }).waitFor();
      expect(await main.getByRole('button').count(), path).toBe(0);
      expect(await main.getByRole('textbox').count(), path).toBe(0);
      expect(await main.getByRole('checkbox').count(), path).toBe(0);
      if (path === '/editworkflow.cgi') await checkPage(page, 'admin-denied');
      await page.context().close();
    }

    const key = world.people.developer.apiKey;
    const refused = async (method: string, path: string, body?: unknown) => {
      const answer = await call(world.app, method, path, { apiKey: key, body });
      expect(answer.body?.error, `${method} ${path}: ${answer.text}`).toBe(true);
    };
    await refused('POST', '/rest/product', { name: 'Rogue', description: 'No', version: '1' });
    await refused('PUT', `/rest/product/${product}`, { description: 'Changed' });
    await refused('PUT', `/rest/product/${product}`, {
      group_controls: [{ group: 'secret', membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' }],
    });
    await refused('POST', '/rest/component', {
      product,
      name: 'Rogue',
      description: 'No',
      default_assignee: world.people.developer.login,
    });
    await refused('DELETE', `/rest/component/${product}/Cogs`);
    await refused('POST', `/rest/product/${product}/version`, { name: '9.9' });
    await refused('PUT', `/rest/product/${product}/milestone/M1`, { is_active: false });
    await refused('GET', '/rest/flag_type');
    await refused('POST', '/rest/flag_type', { name: 'rogue', description: 'No' });
    await refused('POST', '/rest/field/bug/bug_status/values', { name: 'ROGUE' });
    await refused('PUT', '/rest/field/bug/bug_severity/values/minor', { is_active: false });
    await refused('PUT', '/rest/field/bug/bug_status/workflow', { add: [{ from: 'RESOLVED', to: 'IN_REVIEW' }] });
    await refused('POST', '/rest/field/bug', { name: 'cf_rogue', display_name: 'Rogue', type: 1 });
  });
});
