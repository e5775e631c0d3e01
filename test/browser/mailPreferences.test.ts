import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  startBrowserWorld,
} from '../support/browserApp.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call } from '../support/testApp.ts';

/**
 * Preferences → Email preferences (userprefs.cgi?tab=email): Bugzilla's matrix of checkboxes,
 * each reachable and labelled by its role and event, saved from the keyboard; an ignored bug.
 */
let world: BrowserWorld;
let bug = 0;

const mailPreferences = (apiKey: string) => ok(call(world.app, 'GET', '/rest/preferences/mail', { apiKey }));

describeInBrowser('email preferences in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
    bug = await fileTestBug(world.app, world.people.reporter.apiKey, {
      product: 'Widgets',
      component: 'Frontend',
      version: '1.0',
      summary: 'Noisy bug',
    });
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });

  it('changes a box of the matrix from the keyboard and ignores a bug', async () => {
    const { developer } = world.people;
    const page = await world.open('developer', '/userprefs.cgi?tab=email');
    const main = await loadedMain(page, 'Preferences');
    const box = main.getByRole('checkbox', { name: 'CCed: New comments are added' });
    await expect(box.isChecked()).resolves.toBe(true);
    await expect(main.getByRole('checkbox', { name: 'Reporter: The CC field changes' }).isChecked()).resolves.toBe(
      true,
    );
    await expect(main.getByRole('checkbox', { name: 'CCed: The change was made by me' }).isChecked()).resolves.toBe(
      true,
    );
    await checkPage(page, 'prefs-email');
    await box.focus();
    await page.keyboard.press('Space');
    await main.getByRole('button', { name: 'Save email preferences' }).press('Enter');
    await page.getByText('Email preferences saved.').first().waitFor();
    expect((await mailPreferences(developer.apiKey)).relationships.cc.comment).toBe(false);

    await main.getByLabel('Add bugs (ids or aliases, comma separated)').fill(String(bug));
    await main.getByRole('button', { name: 'Ignore', exact: true }).click();
    await main.getByRole('button', { name: `Stop ignoring bug ${bug}` }).waitFor();
    expect((await mailPreferences(developer.apiKey)).ignored_bugs).toEqual([bug]);
  });
});
