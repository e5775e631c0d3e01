import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { PROJECT_ROOT } from '../../local/webBuild.ts';
import { ok } from './testAccounts.ts';
import { call, startTestApp, type TestApp } from './testApp.ts';

/**
 * The browser tests' harness (test/browser/): the test app (real handlers on the real local
 * engines) serving the built web app, one headless Chromium per test file, an installation with
 * the people of issue 39's scenarios, and what every page is checked for (axe-core: no serious or
 * critical violation; no script error or refused resource) before its screenshot is kept in
 * docs/screenshots/.
 *
 * Steps wait for what a person would see (a heading, a row, a message), never for a time: on a
 * busy two-core machine a page may take seconds, so each wait gets a generous bound instead.
 */

/** Debian's Chromium (`apt-get install chromium`), or the one named by TRACKER_CHROMIUM. */
export const CHROMIUM_PATH = [process.env.TRACKER_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => Boolean(path && existsSync(path)),
);

/**
 * `describe` when Chromium is here, a skipped one with the reason otherwise. CI must run them:
 * there a missing Chromium fails (.ci/run installs it).
 */
export function describeInBrowser(name: string, body: () => void): void {
  if (CHROMIUM_PATH) {
    describe(name, { timeout: TEST_TIMEOUT }, body);
    return;
  }
  if (process.env.CI) throw new Error('No Chromium at /usr/bin/chromium: .ci/run should have installed it');
  console.warn(
    `${name}: skipped, no Chromium found (install Debian's: apt-get install chromium, or set TRACKER_CHROMIUM)`,
  );
  describe.skip(name, body);
}

/** How long one step may wait for what it expects to see (a busy machine, a cold handler). */
export const STEP_TIMEOUT = 60_000;
/** How long one scenario (a dozen steps, several windows) may take on a busy two-core machine. */
export const TEST_TIMEOUT = 400_000;

/**
 * docs/screenshots/ when asked (`TRACKER_SCREENSHOTS=docs`, to refresh docs/web.md's pictures);
 * otherwise a scratch directory, so that a test run leaves the working tree as it found it.
 */
export const SCREENSHOT_DIR =
  process.env.TRACKER_SCREENSHOTS === 'docs'
    ? join(PROJECT_ROOT, 'docs', 'screenshots')
    : join(tmpdir(), 'tracker-screenshots');

export type Role = 'reporter' | 'developer' | 'insider' | 'admin' | 'outsider';

export interface Person {
  login: string;
  password: string;
  realName: string;
  apiKey: string;
}

export interface BrowserWorld {
  app: TestApp;
  browser: Browser;
  people: Record<Role, Person>;
  /**
   * A new browser window (its own session storage) for someone, already logged in with a fresh
   * login token as the login page would leave it; anonymous without one. The login page itself is
   * walked by the tests that use logIn().
   */
  open(role?: Role, path?: string): Promise<Page>;
  close(): Promise<void>;
}

/**
 * The installation every scenario starts from: product Widgets (components Frontend and Backend)
 * that everyone sees, product Vault whose bugs are in the mandatory group `secret`, a `review`
 * flag type that editbugs members grant, and the people:
 * - reporter: a plain account that files bugs;
 * - developer: editbugs and canconfirm;
 * - insider: in the insider group (`insiders`, so private comments and attachments), in `secret`
 *   (so Vault), and editbugs;
 * - admin: the installation's administrator;
 * - outsider: a plain account that must never see anything private.
 */
export async function startBrowserWorld(): Promise<BrowserWorld> {
  // Built once for the project by test/support/browserGlobalSetup.ts.
  const app = await startTestApp({ webDir: inject('webDir') });
  const admin = app.admin.apiKey;
  const api = (method: string, path: string, body?: unknown) => ok(call(app, method, path, { apiKey: admin, body }));

  await api('POST', '/rest/group', { name: 'insiders', description: 'Insiders' });
  await api('POST', '/rest/group', { name: 'secret', description: 'Security-sensitive' });
  await api('PUT', '/rest/parameters', { insidergroup: 'insiders' });
  await api('POST', '/rest/product', { name: 'Widgets', description: 'Things with knobs', version: '1.0' });
  await api('POST', '/rest/product', {
    name: 'Vault',
    description: 'Security issues',
    version: '1.0',
    group_controls: [{ group: 'secret', entry: true, membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' }],
  });
  for (const [product, component] of [
    ['Widgets', 'Frontend'],
    ['Widgets', 'Backend'],
    ['Vault', 'Core'],
  ]) {
    await api('POST', '/rest/component', {
      product,
      name: component,
      description: `${component} of ${product}`,
      default_assignee: app.admin.login,
    });
  }
  await api('POST', '/rest/flag_type', {
    name: 'review',
    description: 'Code review',
    inclusions: ['Widgets'],
    grant_group: 'editbugs',
  });

  const person = async (name: string, realName: string, groups: string[]): Promise<Person> => {
    const login = `${name}@tracker.test`;
    const password = `${name}-Secret-9`;
    const { id } = await api('POST', '/rest/user', { email: login, password, full_name: realName });
    if (groups.length > 0) await api('PUT', `/rest/user/${id}`, { groups: { add: groups } });
    const { api_key } = await api('POST', `/rest/user/${id}/api_key`, {});
    return { login, password, realName, apiKey: api_key };
  };
  const people: Record<Role, Person> = {
    reporter: await person('rita', 'Rita Reporter', []),
    developer: await person('dev', 'Dev Eloper', ['editbugs', 'canconfirm']),
    insider: await person('ines', 'Ines Insider', ['insiders', 'secret', 'editbugs', 'canconfirm']),
    admin: { login: app.admin.login, password: app.admin.password, realName: 'Administrator', apiKey: admin },
    outsider: await person('otto', 'Otto Outsider', []),
  };

  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      // As root (CI) Chromium's sandbox cannot start; the pages are our own.
      '--no-sandbox',
      '--disable-dev-shm-usage',
      // Headless Chromium 156 still builds each window's address-bar popup, a web page of its own
      // in a renderer of its own (chrome://omnibox-popup.top-chrome/): it doubled the cost of
      // every window the tests open, and no test has an address bar to type into.
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ],
  });
  const contexts: BrowserContext[] = [];
  return {
    app,
    browser,
    people,
    async open(role, path = '/') {
      const context = await browser.newContext({
        baseURL: app.url,
        viewport: { width: 1280, height: 900 },
        locale: 'en-US',
        timezoneId: 'UTC',
        reducedMotion: 'reduce',
        acceptDownloads: true,
      });
      contexts.push(context);
      context.setDefaultTimeout(STEP_TIMEOUT);
      context.setDefaultNavigationTimeout(STEP_TIMEOUT);
      if (role) await context.addInitScript(seedSession, await sessionOf(app, people[role]));
      const page = await context.newPage();
      watchForFaults(page);
      await page.goto(path);
      return page;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await app.close();
    },
  };
}

/**
 * What the web app keeps in a tab's sessionStorage after a password login (web/src/state/session.ts),
 * with a new login token from the API: walking the login page for every window cost each browser
 * file seconds per test on a busy machine and proved nothing the login tests do not.
 */
async function sessionOf(app: TestApp, person: Person) {
  const { token } = await ok(
    call(app, 'GET', '/rest/login', { query: { login: person.login, password: person.password } }),
  );
  const me = await ok(call(app, 'GET', '/rest/whoami', { headers: { 'X-BUGZILLA-TOKEN': token } }));
  return {
    login: me.name as string,
    userId: Number(me.id),
    realName: me.real_name as string | undefined,
    token: token as string,
  };
}

interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * Runs in every document of the window before its scripts: puts the session in place once per tab,
 * so that a later logout in the tab stays a logout.
 */
function seedSession(value: { login: string }): void {
  const { sessionStorage } = globalThis as unknown as { sessionStorage: TabStorage };
  try {
    if (sessionStorage.getItem('tracker.test.seeded')) return;
    sessionStorage.setItem('tracker.test.seeded', '1');
    sessionStorage.setItem('tracker.session', JSON.stringify(value));
  } catch {
    // A document without storage (about:blank): nothing to seed.
  }
}

/** Logs in through the login page, as a person does, and waits until the header says so. */
export async function logIn(page: Page, person: Person): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Login', { exact: true }).fill(person.login);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

const faults = new WeakMap<Page, string[]>();

/** Script errors and what the page's Content-Security-Policy refused: a page must cause neither. */
function watchForFaults(page: Page): void {
  const seen: string[] = [];
  faults.set(page, seen);
  page.on('pageerror', (error) => seen.push(`script error: ${error.message}`));
  // TRACKER_BROWSER_DEBUG=1: every change the page sends to the API, and its answer.
  if (process.env.TRACKER_BROWSER_DEBUG) {
    page.on('response', async (response) => {
      const request = response.request();
      if (request.method() === 'GET') return;
      const body = await response.text().catch(() => '');
      console.log(`${request.method()} ${request.url()} ${request.postData() ?? ''} -> ${response.status()} ${body}`);
    });
  }
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(text)) seen.push(`refused: ${text}`);
  });
}

/**
 * What every page is checked for once it shows what it should: no serious or critical axe-core
 * violation, no script error or refused resource so far; then its screenshot is kept as
 * docs/screenshots/<name>.png (docs/web.md shows them).
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  expect(faults.get(page) ?? [], `faults on ${page.url()}`).toEqual([]);
  // Legacy mode runs axe-core in the page itself. The default opens a blank window per check to
  // gather frames' results, which cost more than the check; the app has no frames to gather.
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const grave = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join('; ')})`,
    );
  expect(grave, `accessibility of ${name} (${page.url()})`).toEqual([]);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/**
 * Clicks a button that sends something, then waits for what should show; an error the page
 * shows instead (role alert) fails at once with its text rather than after the timeout.
 */
export async function submitAndSee(button: Locator, expected: Locator): Promise<void> {
  const page = button.page();
  await button.click();
  const alert = page.getByRole('alert').filter({ hasText: /\S/ });
  const outcome = await Promise.race([
    expected
      .first()
      .waitFor()
      .then(() => 'shown' as const)
      .catch(async (error) => {
        // TRACKER_BROWSER_DEBUG=1: what the page showed instead.
        if (process.env.TRACKER_BROWSER_DEBUG) console.log(await page.getByRole('main').ariaSnapshot());
        throw error;
      }),
    alert
      .first()
      .waitFor()
      .then(() => 'alert' as const),
  ]);
  if (outcome === 'alert') throw new Error(`the page says: ${((await alert.first().textContent()) ?? '').trim()}`);
}

/** The page's main content, once it has its first heading (the page is loaded). */
export async function loadedMain(page: Page, heading: string | RegExp): Promise<Locator> {
  try {
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  } catch (error) {
    const shown = await page
      .getByRole('main')
      .ariaSnapshot({ timeout: 5_000 })
      .catch(() => '(nothing)');
    throw new Error(`${page.url()} has no heading ${heading}; it shows:\n${shown}`, { cause: error });
  }
  return page.getByRole('main');
}
