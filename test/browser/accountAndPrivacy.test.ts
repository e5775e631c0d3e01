import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  logIn,
  type Role,
  startBrowserWorld,
  submitAndSee,
} from '../support/browserApp.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call } from '../support/testApp.ts';

/**
 * API keys and authentication delegation (auth.cgi) through the web app, and what an outsider and
 * an anonymous visitor never see on any page: a bug in a group they are not in, a private
 * attachment, a private comment.
 */
let world: BrowserWorld;
let publicBug = 0;
let secretBug = 0;
let privateAttachment = 0;
const secretSummary = 'Session cookie readable by other tenants';
const privateAttachmentSummary = 'Exploit proof of concept';
const privateComment = 'The exploit works against the production cluster too.';

/** The site that asks for a key through auth.cgi: it records where the browser was sent. */
let callbackSite: Server;
let callbackUrl = '';
const callbacks: URL[] = [];

const whoami = async (apiKey: string) => (await ok(call(world.app, 'GET', '/rest/whoami', { apiKey }))).name as string;

describeInBrowser('accounts and privacy in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
    const { insider } = world.people;
    publicBug = await fileTestBug(world.app, world.people.reporter.apiKey, {
      product: 'Widgets',
      component: 'Frontend',
      version: '1.0',
      summary: 'Login page slow on mobile',
    });
    secretBug = await fileTestBug(world.app, insider.apiKey, {
      product: 'Vault',
      component: 'Core',
      version: '1.0',
      summary: secretSummary,
      description: 'Any tenant can read the cookie.',
    });
    privateAttachment = (
      await ok(
        call(world.app, 'POST', `/rest/bug/${publicBug}/attachment`, {
          apiKey: insider.apiKey,
          body: {
            ids: [publicBug],
            data: Buffer.from('curl -H "Cookie: ..." https://example.invalid/').toString('base64'),
            file_name: 'poc.sh',
            summary: privateAttachmentSummary,
            content_type: 'text/plain',
            is_private: true,
          },
        }),
      )
    ).ids[0];
    await ok(
      call(world.app, 'POST', `/rest/bug/${publicBug}/comment`, {
        apiKey: insider.apiKey,
        body: { comment: privateComment, is_private: true },
      }),
    );
    callbackSite = createServer((request, response) => {
      callbacks.push(new URL(request.url ?? '/', 'http://127.0.0.1'));
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><html lang="en"><title>Build bot</title><h1>Build bot is connected</h1></html>');
    });
    await new Promise<void>((resolve) => callbackSite.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(callbackSite.address() as AddressInfo).port}/tracker/callback`;
  }, 300_000);
  afterAll(async () => {
    await world?.close();
    callbackSite?.close();
  });

  it('lets a developer create an API key that then works', async () => {
    const page = await world.open('developer', '/userprefs.cgi?tab=apikey');
    const main = await loadedMain(page, 'Preferences');
    await main.getByLabel('Description of the new key', { exact: true }).fill('Nightly triage script');
    const shown = main.getByRole('status').filter({ hasText: 'Your new API key' });
    await submitAndSee(main.getByRole('button', { name: 'Create API key' }), shown);
    const key = ((await shown.getByRole('code').textContent()) ?? '').trim();
    expect(key).toMatch(/^\S{20,}$/);
    await main.getByRole('cell', { name: 'Nightly triage script' }).first().waitFor();
    await checkPage(page, 'prefs-apikey');
    expect(await whoami(key)).toBe(world.people.developer.login);
  });

  it('completes an authentication delegation for a visitor who logs in on the way', async () => {
    const address = `/auth.cgi?callback=${encodeURIComponent(callbackUrl)}&description=${encodeURIComponent('Build bot')}`;
    const page = await world.open(undefined, address);
    const main = await loadedMain(page, 'Authentication delegation request');
    await main.getByLabel('Login', { exact: true }).fill(world.people.reporter.login);
    await main.getByLabel('Password', { exact: true }).fill(world.people.reporter.password);
    await main.getByRole('button', { name: 'Log in', exact: true }).click();
    await main.getByRole('button', { name: 'Accept' }).waitFor();
    await main.getByText('Build bot', { exact: true }).waitFor();
    await checkPage(page, 'auth-delegation');
    await main.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('heading', { name: 'Build bot is connected' }).waitFor();
    const arrived = callbacks.find((url) => url.pathname === '/tracker/callback')!;
    expect(arrived.searchParams.get('client_api_login')).toBe(world.people.reporter.login);
    expect(await whoami(arrived.searchParams.get('client_api_key')!)).toBe(world.people.reporter.login);
  });

  it('refuses a delegation whose callback is not https', async () => {
    const page = await world.open(
      'reporter',
      `/auth.cgi?callback=${encodeURIComponent('http://client.example/cb')}&description=Sneaky`,
    );
    const main = await loadedMain(page, 'Authentication delegation');
    await main
      .getByRole('alert')
      .getByText(/only https/)
      .waitFor();
    expect(await main.getByRole('button', { name: 'Accept' }).count()).toBe(0);
  });

  it("keeps nothing of one person's catalogue for the next one to log in in the same window", async () => {
    const page = await world.open('insider', '/enter_bug.cgi');
    await (await loadedMain(page, 'File a bug: choose a product')).getByRole('link', { name: 'Vault' }).waitFor();
    await page.goto(`/show_bug.cgi?id=${publicBug}`);
    await (await loadedMain(page, /^Bug \d+ – Login page slow on mobile/))
      .getByRole('button', { name: 'Save changes' })
      .waitFor();
    // What the tab keeps of the catalogue between page loads (web/src/state/keptCatalog.ts).
    const kept = () =>
      page.evaluate<string>(
        "Object.entries(sessionStorage).filter(([key]) => key.startsWith('tracker.catalog.')).map(([, value]) => value).join(' ')",
      );
    const { login } = world.people.insider;
    expect(await kept()).toContain(login);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).waitFor();
    expect(await kept()).not.toContain(login);

    await logIn(page, world.people.outsider);
    await page.goto('/enter_bug.cgi');
    const products = await loadedMain(page, 'File a bug: choose a product');
    await products.getByRole('link', { name: 'Widgets' }).waitFor();
    expect(await products.getByRole('link', { name: 'Vault' }).count()).toBe(0);
    await page.goto(`/show_bug.cgi?id=${publicBug}`);
    const bugPage = await loadedMain(page, /^Bug \d+ – Login page slow on mobile/);
    await bugPage.getByLabel('Additional comment').waitFor();
    // The insider's rights are not the outsider's: no private comment offered.
    expect(await bugPage.getByLabel(/private/i).count()).toBe(0);
    expect(await kept()).not.toContain(login);
    await page.context().close();
  });

  it('shows the insider the secret bug, the private attachment and the private comment', async () => {
    const page = await world.open('insider', `/show_bug.cgi?id=${secretBug}`);
    await loadedMain(page, `Bug ${secretBug} – ${secretSummary}`);
    await page.goto(`/show_bug.cgi?id=${publicBug}`);
    const main = await loadedMain(page, `Bug ${publicBug} – Login page slow on mobile`);
    await main.getByRole('link', { name: privateAttachmentSummary }).waitFor();
    await main.getByText(privateComment).waitFor();
    await page.goto(`/attachment.cgi?id=${privateAttachment}`);
    await loadedMain(page, `Attachment ${privateAttachment}: ${privateAttachmentSummary}`);
    await checkPage(page, 'attachment');
    await page.goto(`/buglist.cgi?product=Vault`);
    await (await loadedMain(page, 'Bug list')).getByRole('link', { name: secretSummary }).waitFor();
  });

  for (const role of ['outsider', undefined] as Array<Role | undefined>) {
    const who = role ?? 'anonymous visitor';
    it(`never shows an ${who} the secret bug, the private attachment or the private comment`, async () => {
      const page = await world.open(role, `/show_bug.cgi?id=${secretBug}`);
      const denied = await loadedMain(page, `Bug ${secretBug}`);
      await denied.getByRole('alert').waitFor();
      if (!role) await checkPage(page, 'show-bug-denied');
      expect(await page.getByText(secretSummary).count()).toBe(0);

      await page.goto(`/show_bug.cgi?id=${publicBug}`);
      const bugPage = await loadedMain(page, `Bug ${publicBug} – Login page slow on mobile`);
      await bugPage.getByRole('heading', { name: /^Comments/ }).waitFor();
      expect(await page.getByText(privateAttachmentSummary).count()).toBe(0);
      expect(await page.getByText(privateComment).count()).toBe(0);
      expect(await bugPage.getByRole('heading', { name: 'Attachments (0)' }).count()).toBe(1);

      await page.goto(`/attachment.cgi?id=${privateAttachment}`);
      const attachment = await loadedMain(page, `Attachment ${privateAttachment}`);
      await attachment.getByRole('alert').waitFor();
      expect(await page.getByText(privateAttachmentSummary).count()).toBe(0);

      for (const address of [
        `/buglist.cgi?quicksearch=${encodeURIComponent('cookie tenants')}`,
        '/buglist.cgi?product=Vault',
        `/buglist.cgi?f1=short_desc&o1=substring&v1=Session`,
      ]) {
        await page.goto(address);
        const list = await loadedMain(page, 'Bug list');
        await list.getByText('Zarro Boogs found.').waitFor();
        expect(await page.getByText(secretSummary).count()).toBe(0);
      }
      await page.goto(`/buglist.cgi?quicksearch=${encodeURIComponent('Login page')}`);
      const found = await loadedMain(page, 'Bug list');
      await found.getByRole('link', { name: 'Login page slow on mobile' }).waitFor();

      await page.goto('/');
      await loadedMain(page, 'Tracker');
      if (role) await page.getByRole('heading', { name: 'My requests' }).waitFor();
      expect(await page.getByText(secretSummary).count()).toBe(0);
      await page.context().close();
    });
  }
});
