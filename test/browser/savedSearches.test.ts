import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  startBrowserWorld,
  submitAndSee,
} from '../support/browserApp.ts';
import { fileTestBug } from '../support/testAccounts.ts';

/**
 * Saved searches in the web app: a developer saves a bug list's search, runs it again from the
 * home page, shares it with editbugs; a colleague in editbugs runs it; the developer forgets it.
 */
let world: BrowserWorld;
let bug: number;

describeInBrowser('saved searches in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
    bug = await fileTestBug(world.app, world.people.reporter.apiKey, {
      product: 'Widgets',
      component: 'Frontend',
      version: '1.0',
      summary: 'Sprocket squeaks at night',
    });
    await fileTestBug(world.app, world.people.reporter.apiKey, {
      product: 'Widgets',
      component: 'Backend',
      version: '1.0',
      summary: 'Cog rattles',
    });
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });

  it('saves a bug list under a name, reruns it from the home page, shares and forgets it', async () => {
    const page = await world.open('developer', '/buglist.cgi?quicksearch=sprocket');
    const list = await loadedMain(page, 'Bug list');
    await list.getByRole('status').filter({ hasText: 'One bug found.' }).waitFor();
    await list.getByLabel('Name of the search').fill('Noisy sprockets');
    await submitAndSee(
      list.getByRole('button', { name: 'Save this search' }),
      list.getByRole('status').filter({ hasText: 'Saved as Noisy sprockets.' }),
    );

    await page.goto('/');
    const home = await loadedMain(page, 'Tracker');
    const saved = home.getByRole('region', { name: 'Saved searches' });
    await saved.getByRole('link', { name: 'Noisy sprockets' }).waitFor();
    await checkPage(page, 'home-saved-searches');
    await saved.getByRole('link', { name: 'Noisy sprockets' }).click();
    const rerun = await loadedMain(page, 'Bug list');
    await rerun.getByText('Saved search: “Noisy sprockets”').waitFor();
    await rerun.getByRole('status').filter({ hasText: 'One bug found.' }).waitFor();
    await rerun.getByRole('link', { name: 'Sprocket squeaks at night' }).waitFor();
    expect(new URL(page.url()).searchParams.get('namedcmd')).toBe('Noisy sprockets');
    await checkPage(page, 'buglist-saved-search');

    // Shared with editbugs, by keyboard: the select, then the button.
    await page.goto('/');
    const again = (await loadedMain(page, 'Tracker')).getByRole('region', { name: 'Saved searches' });
    await again.getByLabel('Share Noisy sprockets with').selectOption('editbugs');
    await again.getByRole('button', { name: 'Share', exact: true }).press('Enter');
    await again.getByText('(shared with editbugs)').waitFor();

    // A colleague in editbugs finds it on their home page and runs it.
    const colleague = await world.open('insider', '/');
    const theirs = (await loadedMain(colleague, 'Tracker')).getByRole('region', { name: 'Saved searches' });
    await expect
      .poll(
        async () => {
          await colleague.reload();
          await loadedMain(colleague, 'Tracker');
          return theirs.getByRole('link', { name: 'Noisy sprockets' }).count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await theirs.getByText('(shared by dev@tracker.test)').waitFor();
    await theirs.getByRole('link', { name: 'Noisy sprockets' }).click();
    const shared = await loadedMain(colleague, 'Bug list');
    await shared.getByRole('link', { name: 'Sprocket squeaks at night' }).waitFor();
    expect(new URL(colleague.url()).searchParams.get('sharer_id')).toMatch(/^\d+$/);
    expect(bug).toBeGreaterThan(0);

    // Forgotten: gone from the list.
    await again.getByRole('button', { name: 'Forget Noisy sprockets' }).click();
    await again.getByText('No saved searches yet').waitFor();
  });
});
