import type { Locator } from 'playwright-core';
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
 * A bug's life through the web app, each step by the person who does it in a real project: the
 * reporter files it with an attachment and asks for review, the developer takes it through the
 * workflow and grants the review, the insider comments privately (which the others never see),
 * the developer marks another bug a duplicate of it, and the administrator changes several bugs at
 * once. Each test goes on from the one before.
 */
let world: BrowserWorld;
let bug = 0;
const summary = 'Saving a widget with an empty name loses it';
const secretNote = 'Root cause is in the token check, see the internal audit.';

/** A comment on the page by what it says (its number depends on the comments before it). */
const commentSaying = (scope: Locator, text: string) => scope.getByRole('article').filter({ hasText: text });

const bugHeading = (id: number, text: string) => `Bug ${id} – ${text}`;

async function bugFromApi(id: number): Promise<Record<string, any>> {
  return (await ok(call(world.app, 'GET', `/rest/bug/${id}`, { apiKey: world.app.admin.apiKey }))).bugs[0];
}

describeInBrowser('working on bugs in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });

  it('lets the reporter file a bug with an attachment', async () => {
    const page = await world.open('reporter', '/enter_bug.cgi');
    await loadedMain(page, 'File a bug: choose a product');
    await checkPage(page, 'enter-bug-products');
    await page.getByRole('main').getByRole('link', { name: 'Widgets', exact: true }).click();
    const form = await loadedMain(page, 'File a bug in Widgets');
    await form.getByLabel('Component', { exact: true }).selectOption('Backend');
    await form.getByLabel('Summary', { exact: true }).fill(summary);
    await form
      .getByLabel('Description', { exact: true })
      .fill('Open a widget, clear its name, press Save: the widget is gone from the list.');
    await form.getByLabel('File (or drop one here)').setInputFiles({
      name: 'save.log',
      mimeType: 'text/plain',
      buffer: Buffer.from('12:00:01 save widget 7 name=""\n12:00:01 deleted widget 7\n'),
    });
    await form.getByLabel('Attachment description', { exact: true }).fill('Log of the lost save');
    await checkPage(page, 'enter-bug');
    await form.getByRole('button', { name: 'Submit bug' }).click();
    await page.waitForURL(/\/show_bug\.cgi\?id=\d+$/);
    bug = Number(new URL(page.url()).searchParams.get('id'));
    const main = await loadedMain(page, bugHeading(bug, summary));
    await main.getByRole('link', { name: 'Log of the lost save' }).waitFor();
    const filed = await bugFromApi(bug);
    expect(filed).toMatchObject({ product: 'Widgets', component: 'Backend', creator: world.people.reporter.login });
    const attachments = (
      await ok(call(world.app, 'GET', `/rest/bug/${bug}/attachment`, { apiKey: world.app.admin.apiKey }))
    ).bugs[bug];
    expect(attachments.map((a: any) => [a.summary, a.file_name, a.content_type])).toEqual([
      ['Log of the lost save', 'save.log', 'text/plain'],
    ]);
  });

  it('lets the reporter comment and ask the developer for review', async () => {
    const page = await world.open('reporter', `/show_bug.cgi?id=${bug}`);
    const main = await loadedMain(page, bugHeading(bug, summary));
    await main.getByLabel('review (new)', { exact: true }).selectOption('?');
    await main.getByLabel('Ask review of', { exact: true }).fill(world.people.developer.login);
    await main.getByLabel('Additional comment', { exact: true }).fill('It happens with every widget I tried.');
    await submitAndSee(
      main.getByRole('button', { name: 'Save changes' }),
      commentSaying(main, 'It happens with every widget I tried.'),
    );
    await main.getByLabel('review', { exact: true }).waitFor();
    expect(await main.getByLabel('review', { exact: true }).inputValue()).toBe('?');
    await checkPage(page, 'show-bug-reporter');
    expect((await bugFromApi(bug)).flags).toMatchObject([
      { name: 'review', status: '?', requestee: world.people.developer.login, setter: world.people.reporter.login },
    ]);
  });

  it('shows the developer the request, and lets them grant it and move the bug through the workflow', async () => {
    const page = await world.open('developer', '/');
    const home = await loadedMain(page, 'Tracker');
    await home.getByRole('link', { name: summary }).first().waitFor();
    await checkPage(page, 'home-developer');
    await home.getByRole('link', { name: summary }).first().click();
    const main = await loadedMain(page, bugHeading(bug, summary));
    await main.getByLabel('review', { exact: true }).selectOption('+');
    await main.getByLabel('Status', { exact: true }).selectOption('IN_PROGRESS');
    await main.getByLabel('Additional comment', { exact: true }).fill('Confirmed; the empty name fails validation.');
    await submitAndSee(
      main.getByRole('button', { name: 'Save changes' }),
      commentSaying(main, 'Confirmed; the empty name fails validation.'),
    );
    expect(await bugFromApi(bug)).toMatchObject({
      status: 'IN_PROGRESS',
      flags: [{ name: 'review', status: '+', setter: world.people.developer.login }],
    });
    await checkPage(page, 'show-bug-developer');

    await main.getByLabel('Status', { exact: true }).selectOption('RESOLVED');
    await main.getByLabel('Resolution', { exact: true }).selectOption('FIXED');
    await main.getByLabel('Additional comment', { exact: true }).fill('Fixed: an empty name is refused now.');
    await submitAndSee(
      main.getByRole('button', { name: 'Save changes' }),
      commentSaying(main, 'Fixed: an empty name is refused now.'),
    );
    expect(await bugFromApi(bug)).toMatchObject({ status: 'RESOLVED', resolution: 'FIXED' });

    await main.getByLabel('Status', { exact: true }).selectOption('VERIFIED');
    await main.getByLabel('Additional comment', { exact: true }).fill('Verified on the nightly build.');
    await submitAndSee(
      main.getByRole('button', { name: 'Save changes' }),
      commentSaying(main, 'Verified on the nightly build.'),
    );
    expect(await bugFromApi(bug)).toMatchObject({ status: 'VERIFIED', resolution: 'FIXED' });
    await main.getByRole('button', { name: 'Show history' }).click();
    await main.getByRole('cell', { name: 'VERIFIED' }).first().waitFor();
  });

  it('lets the insider comment privately, and nobody else sees that comment', async () => {
    const page = await world.open('insider', `/show_bug.cgi?id=${bug}`);
    const main = await loadedMain(page, bugHeading(bug, summary));
    await main.getByLabel('Additional comment', { exact: true }).fill(secretNote);
    await main.getByLabel('Make the comment private').check();
    const comment = commentSaying(main, secretNote);
    await submitAndSee(main.getByRole('button', { name: 'Save changes' }), comment.getByText(secretNote));
    await comment.getByText('Private', { exact: true }).waitFor();
    await checkPage(page, 'show-bug-insider');
    const visibleComments = (await main.getByRole('article').count()) - 1;
    for (const role of ['developer', 'reporter', 'outsider', undefined] as const) {
      const other = await world.open(role, `/show_bug.cgi?id=${bug}`);
      const seen = await loadedMain(other, bugHeading(bug, summary));
      await commentSaying(seen, 'Verified on the nightly build.').waitFor();
      expect(await seen.getByText(secretNote).count(), `${role ?? 'anonymous'} sees the private comment`).toBe(0);
      expect(await seen.getByRole('article').count()).toBe(visibleComments);
      await other.context().close();
    }
  });

  it('lets the developer mark another bug a duplicate of it', async () => {
    const other = await fileTestBug(world.app, world.people.outsider.apiKey, {
      product: 'Widgets',
      component: 'Frontend',
      version: '1.0',
      summary: 'Widget vanishes after saving',
    });
    const page = await world.open('developer', `/show_bug.cgi?id=${other}`);
    const main = await loadedMain(page, bugHeading(other, 'Widget vanishes after saving'));
    await main.getByLabel('Status', { exact: true }).selectOption('RESOLVED');
    await main.getByLabel('Resolution', { exact: true }).selectOption('DUPLICATE');
    await main.getByLabel('Duplicate of bug', { exact: true }).fill(String(bug));
    await submitAndSee(
      main.getByRole('button', { name: 'Save changes' }),
      main.getByRole('link', { name: `bug ${bug}`, exact: true }).first(),
    );
    expect(await bugFromApi(other)).toMatchObject({ status: 'RESOLVED', resolution: 'DUPLICATE', dupe_of: bug });
    await checkPage(page, 'show-bug-duplicate');
    await page.goto(`/show_bug.cgi?id=${bug}`);
    const original = await loadedMain(page, bugHeading(bug, summary));
    await original
      .getByRole('region', { name: 'Duplicates (1)' })
      .getByRole('link', { name: `Bug ${other}`, exact: true })
      .waitFor();
  });

  it('lets the administrator change several bugs at once from a bug list', async () => {
    const batch = [];
    for (const letter of ['A', 'B', 'C'])
      batch.push(
        await fileTestBug(world.app, world.people.reporter.apiKey, {
          product: 'Widgets',
          component: 'Frontend',
          version: '1.0',
          summary: `Triage batch item ${letter}`,
        }),
      );
    const page = await world.open('admin', '/buglist.cgi?quicksearch=Triage%20batch&order=bug_id');
    const list = await loadedMain(page, 'Bug list');
    await list.getByText('3 bugs found.').waitFor();
    await list.getByRole('button', { name: 'Change several bugs at once' }).click();
    await list.getByRole('checkbox', { name: `Select bug ${batch[0]}` }).check();
    await list.getByRole('checkbox', { name: `Select bug ${batch[2]}` }).check();
    const form = list.getByRole('form', { name: 'Change several bugs at once' });
    await form.getByText('2 bugs selected.').waitFor();
    await form.getByLabel('Priority', { exact: true }).selectOption('High');
    await form.getByLabel('Comment', { exact: true }).fill('Triaged together.');
    await checkPage(page, 'buglist-change-several');
    await form.getByRole('button', { name: 'Commit changes to 2 bugs' }).click();
    for (const id of [batch[0], batch[2]]) {
      const bugPage = await world.open('admin', `/show_bug.cgi?id=${id}`);
      const main = await loadedMain(bugPage, new RegExp(`^Bug ${id} – Triage batch item`));
      await commentSaying(main, 'Triaged together.').waitFor();
      expect(await main.getByLabel('Priority', { exact: true }).inputValue()).toBe('High');
      await bugPage.context().close();
    }
    expect((await bugFromApi(batch[1]!)).priority).not.toBe('High');
  });
});
