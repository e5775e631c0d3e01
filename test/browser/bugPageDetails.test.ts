import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  startBrowserWorld,
  submitAndSee,
} from '../support/browserApp.ts';
import { ok } from '../support/testAccounts.ts';
import { call } from '../support/testApp.ts';

/**
 * The parts of the bug page and the bug list that keep a person's work safe or save them time:
 * a mid-air collision is shown and decided by the person, never overwritten in silence; comment
 * tags; the bug list's column choice is remembered; the list downloads as CSV with what it shows.
 */
let world: BrowserWorld;
let bug = 0;
const summary = 'Dragging a knob past its end wraps around';

async function bugFromApi(id: number): Promise<Record<string, any>> {
  return (await ok(call(world.app, 'GET', `/rest/bug/${id}`, { apiKey: world.app.admin.apiKey }))).bugs[0];
}

async function commentsFromApi(id: number): Promise<Array<Record<string, any>>> {
  const answer = await ok(call(world.app, 'GET', `/rest/bug/${id}/comment`, { apiKey: world.app.admin.apiKey }));
  return answer.bugs[String(id)].comments;
}

describeInBrowser('bug page details and bug list tools in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
    const admin = world.app.admin.apiKey;
    await ok(
      call(world.app, 'PUT', '/rest/parameters', { apiKey: admin, body: { comment_taggers_group: 'insiders' } }),
    );
    ({ id: bug } = await ok(
      call(world.app, 'POST', '/rest/bug', {
        apiKey: world.people.reporter.apiKey,
        body: {
          product: 'Widgets',
          component: 'Frontend',
          version: '1.0',
          summary,
          description: 'Turn the knob past 11 and it shows 0.',
          op_sys: 'Linux',
          platform: 'PC',
          whiteboard: 'knobs-wb',
        },
      }),
    ));
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });

  it('shows a mid-air collision, keeps the comment typed, and saves only when the person says so', async () => {
    const page = await world.open('developer', `/show_bug.cgi?id=${bug}`);
    const main = await loadedMain(page, `Bug ${bug} – ${summary}`);
    const myComment = 'Reproduced on the test rig, looking into it.';
    await main.getByLabel('Additional comment').fill(myComment);

    // Someone else changes the bug while the page is open.
    await ok(
      call(world.app, 'PUT', `/rest/bug/${bug}`, {
        apiKey: world.people.insider.apiKey,
        body: { priority: 'Highest', comment: { body: 'Raising this: customers hit it daily.' } },
      }),
    );

    await main.getByRole('button', { name: 'Save changes' }).click();
    const collision = main.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Mid-air collision' }) });
    await collision.waitFor();
    await collision.getByText('Raising this: customers hit it daily.').waitFor();
    // Nothing was saved, and what the person typed is still there.
    expect((await commentsFromApi(bug)).map((comment) => comment.text)).not.toContain(myComment);
    expect(await main.getByLabel('Additional comment').inputValue()).toBe(myComment);
    await checkPage(page, 'bug-mid-air-collision');

    // The collision notice is an alert itself: wait for the saved comment, not for no alert.
    await collision.getByRole('button', { name: 'Submit my changes anyway' }).click();
    await main.getByRole('article').filter({ hasText: myComment }).waitFor();
    const texts = (await commentsFromApi(bug)).map((comment) => comment.text);
    expect(texts).toContain(myComment);
    expect(texts).toContain('Raising this: customers hit it daily.');
    expect((await bugFromApi(bug)).priority).toBe('Highest');
  });

  it('lets a comment tagger tag a comment and take the tag off again', async () => {
    const page = await world.open('insider', `/show_bug.cgi?id=${bug}`);
    const main = await loadedMain(page, `Bug ${bug} – ${summary}`);
    const description = main.getByRole('article').filter({ hasText: 'Turn the knob past 11' });
    await description.getByLabel(/^New tag for/).fill('regression');
    await submitAndSee(
      description.getByRole('button', { name: 'Add tag' }),
      description.getByRole('list', { name: 'Comment tags' }).getByText('regression'),
    );
    const [first] = await commentsFromApi(bug);
    expect(first.tags).toEqual(['regression']);
    await checkPage(page, 'bug-comment-tags');

    await description.getByRole('button', { name: 'Remove tag regression' }).click();
    await description.getByRole('button', { name: 'Remove tag regression' }).waitFor({ state: 'detached' });
    expect((await commentsFromApi(bug))[0].tags).toEqual([]);
  });

  it('offers no tagging to someone outside the comment taggers group', async () => {
    const page = await world.open('developer', `/show_bug.cgi?id=${bug}`);
    const main = await loadedMain(page, `Bug ${bug} – ${summary}`);
    await main.getByRole('article').first().waitFor();
    // Comment tags only: the bug's personal tags (everyone's own) have an "Add tag" of their own.
    expect(await main.getByRole('article').getByRole('button', { name: 'Add tag' }).count()).toBe(0);
    expect(
      await main
        .getByRole('article')
        .getByLabel(/^New tag for/)
        .count(),
    ).toBe(0);
  });

  it('opens a bug again with the catalogue the tab kept, asks for the bug first, then shows what changed', async () => {
    const page = await world.open('developer', `/show_bug.cgi?id=${bug}`);
    await (await loadedMain(page, `Bug ${bug} – ${summary}`)).getByRole('button', { name: 'Save changes' }).waitFor();
    // An administrator adds a component while the page is open.
    await ok(
      call(world.app, 'POST', '/rest/component', {
        apiKey: world.app.admin.apiKey,
        body: { product: 'Widgets', name: 'Docs', description: 'The manual', default_assignee: world.app.admin.login },
      }),
    );
    // The first load's last reads (the catalogue read again once the bug came) must not count as
    // the reload's: on a busy machine they were still going out when the test reloaded.
    await page.waitForLoadState('networkidle');
    const asked: string[] = [];
    let reloaded = false;
    page.on('request', (request) => {
      if (request.isNavigationRequest()) reloaded = true;
      const { pathname } = new URL(request.url());
      if (reloaded && pathname.startsWith('/rest/')) asked.push(pathname);
    });
    await page.reload();
    const main = await loadedMain(page, `Bug ${bug} – ${summary}`);
    await main.getByRole('button', { name: 'Save changes' }).waitFor();
    // The bug's own requests went out first: the field definitions, rights, parameters and
    // products came from the tab's copy, to be read again afterwards.
    expect(asked.slice(0, 3).sort()).toEqual([
      `/rest/bug/${bug}`,
      `/rest/bug/${bug}/attachment`,
      `/rest/bug/${bug}/comment`,
    ]);
    // Read again, the catalogue shows the new component.
    await main.getByLabel('Component').locator('option', { hasText: 'Docs' }).waitFor({ state: 'attached' });
    expect(asked).toContain('/rest/product');
  });

  it('remembers the columns a person chooses for bug lists', async () => {
    const page = await world.open('reporter', '/buglist.cgi?product=Widgets');
    const main = await loadedMain(page, 'Bug list');
    const table = main.getByRole('table');
    await table.getByRole('link', { name: summary }).waitFor();
    expect(await table.getByRole('columnheader', { name: /Whiteboard/ }).count()).toBe(0);

    await main.getByText('Columns', { exact: true }).click();
    await main.getByRole('group', { name: 'Columns to show' }).getByLabel('Whiteboard').check();
    await table.getByRole('columnheader', { name: /Whiteboard/ }).waitFor();
    await table.getByRole('cell', { name: 'knobs-wb' }).waitFor();

    // Another list, after a reload: the same columns.
    await page.goto('/buglist.cgi?quicksearch=knob');
    const again = await loadedMain(page, 'Bug list');
    await again
      .getByRole('table')
      .getByRole('columnheader', { name: /Whiteboard/ })
      .waitFor();
    await checkPage(page, 'buglist-columns');
  });

  it('downloads the list as CSV with the columns it shows', async () => {
    const page = await world.open(
      'reporter',
      '/buglist.cgi?product=Widgets&columnlist=product,component,bug_status,short_desc',
    );
    const main = await loadedMain(page, 'Bug list');
    await main.getByRole('table').getByRole('link', { name: summary }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Download as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('bugs.csv');
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv[0]).toMatch(/^"?ID"?,"?Product"?,"?Component"?,"?Status"?,"?Summary"?$/);
    const row = csv.find((line) => line.startsWith(`${bug},`) || line.startsWith(`"${bug}",`));
    expect(row, csv.join('\n')).toMatch(new RegExp(`Widgets,"?Frontend"?,"?[A-Z]+"?,"?${summary}"?$`));
  });
});
