import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  startBrowserWorld,
} from '../support/browserApp.ts';
import { fileTestBug } from '../support/testAccounts.ts';

/**
 * An anonymous visitor and a reporter find bugs: the home page, logging in, quicksearch, a
 * buglist.cgi address as Bugzilla writes them, and a bug's page.
 */
let world: BrowserWorld;
let bug: number;
const summary = 'Widget knob falls off when turned twice';

describeInBrowser('finding bugs in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
    bug = await fileTestBug(world.app, world.people.reporter.apiKey, {
      product: 'Widgets',
      component: 'Frontend',
      version: '1.0',
      summary,
      description: 'Turn the knob once: fine. Turn it again: it falls off.',
    });
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });

  it('shows an anonymous visitor the home page with quicksearch and a way to log in', async () => {
    const page = await world.open();
    const main = await loadedMain(page, 'Tracker');
    await main.getByLabel('Quick search').waitFor();
    await main.getByRole('link', { name: 'Log in' }).waitFor();
    await checkPage(page, 'home-anonymous');
  });

  it('logs a reporter in from the login page and back out', async () => {
    const page = await world.open(undefined, '/login');
    await loadedMain(page, 'Log in');
    await checkPage(page, 'login');
    await page.getByLabel('Login', { exact: true }).fill(world.people.reporter.login);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(world.people.reporter.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.getByText(world.people.reporter.login).first().waitFor();
    await page.goto('/');
    await loadedMain(page, 'Tracker');
    await checkPage(page, 'home-reporter');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
  });

  it('finds the bug by quicksearch and opens it', async () => {
    const page = await world.open();
    const main = await loadedMain(page, 'Tracker');
    await main.getByLabel('Quick search').fill('knob falls');
    await main.getByRole('button', { name: 'Quick search' }).click();
    const list = await loadedMain(page, 'Bug list');
    await list.getByRole('status').filter({ hasText: 'One bug found.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/buglist.cgi');
    expect(new URL(page.url()).searchParams.get('quicksearch')).toBe('knob falls');
    await checkPage(page, 'buglist');
    await list.getByRole('link', { name: summary }).click();
    const bugPage = await loadedMain(page, `Bug ${bug} – ${summary}`);
    await bugPage.getByText('Turn it again: it falls off.').waitFor();
    expect(page.url()).toBe(`${world.app.url}/show_bug.cgi?id=${bug}`);
    await checkPage(page, 'show-bug-anonymous');
  });

  it('opens a bug number typed into quicksearch straight away', async () => {
    const page = await world.open();
    await loadedMain(page, 'Tracker');
    await page.getByRole('main').getByLabel('Quick search').fill(String(bug));
    await page.getByRole('main').getByRole('button', { name: 'Quick search' }).click();
    await loadedMain(page, `Bug ${bug} – ${summary}`);
  });

  it('searches with the advanced search form, giving a buglist.cgi address', async () => {
    const page = await world.open(undefined, '/query.cgi');
    const form = (await loadedMain(page, 'Search for bugs')).getByRole('form', { name: 'Advanced search' });
    await form.getByLabel('Summary', { exact: true }).fill('knob');
    await form.getByLabel('Product', { exact: true }).selectOption(['Widgets']);
    await checkPage(page, 'query');
    await form.getByRole('button', { name: 'Search', exact: true }).click();
    const list = await loadedMain(page, 'Bug list');
    await list.getByRole('link', { name: summary }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/buglist.cgi');
    expect(new URL(page.url()).searchParams.getAll('product')).toEqual(['Widgets']);
  });

  it('answers a buglist.cgi address as Bugzilla writes it', async () => {
    const page = await world.open(
      undefined,
      `/buglist.cgi?product=Widgets&component=Frontend&bug_status=UNCONFIRMED&bug_status=CONFIRMED&f1=short_desc&o1=substring&v1=knob&order=bug_id%20DESC`,
    );
    const list = await loadedMain(page, 'Bug list');
    await list.getByRole('link', { name: summary }).waitFor();
    const none = await world.open(
      undefined,
      '/buglist.cgi?product=Widgets&f1=short_desc&o1=substring&v1=nothing-like-it',
    );
    await (await loadedMain(none, 'Bug list')).getByText('Zarro Boogs found.').waitFor();
  });
});
