import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserWorld,
  checkPage,
  describeInBrowser,
  loadedMain,
  startBrowserWorld,
} from '../support/browserApp.ts';
import { nextDays, useSteppableClock } from '../support/clock.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call } from '../support/testApp.ts';

/**
 * The reports (issue 42) on a small seeded installation whose bugs changed over three days: the
 * tabular report's counts equal the searches its links stand for, the chart's points equal what
 * the bugs' history says, and the dependency tree shows the relations.
 */
let world: BrowserWorld;
const bugs: Record<'a' | 'b' | 'c' | 'd' | 'vault', number> = { a: 0, b: 0, c: 0, d: 0, vault: 0 };
let firstDay = '';

useSteppableClock();

describeInBrowser('reports in the web app', () => {
  beforeAll(async () => {
    world = await startBrowserWorld();
    const admin = world.app.admin.apiKey;
    const file = (component: string, summary: string, extra: Record<string, unknown> = {}) =>
      fileTestBug(world.app, admin, { product: 'Widgets', component, version: '1.0', summary, ...extra });
    const change = (id: number, body: Record<string, unknown>) =>
      ok(call(world.app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body }));
    // Day 1: three Widgets bugs and one Vault bug are filed.
    bugs.a = await file('Frontend', 'Dial sticks');
    bugs.b = await file('Backend', 'Slow save');
    bugs.c = await file('Frontend', 'Knob label cut off', { depends_on: [bugs.a] });
    bugs.vault = await fileTestBug(world.app, admin, {
      product: 'Vault',
      component: 'Core',
      version: '1.0',
      summary: 'Lock bypass',
    });
    firstDay = (await ok(call(world.app, 'GET', `/rest/bug/${bugs.a}`, { apiKey: admin }))).bugs[0].creation_time;
    // Day 2: a is fixed, d is filed and depends on b and c.
    nextDays(1);
    await change(bugs.a, { status: 'RESOLVED', resolution: 'FIXED' });
    bugs.d = await file('Backend', 'Release 2.0', { depends_on: [bugs.b, bugs.c] });
    // Day 3: b is closed as invalid.
    nextDays(1);
    await change(bugs.b, { status: 'RESOLVED', resolution: 'INVALID' });
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });

  it('counts bugs by product and status, each count equal to the search it links to', async () => {
    const page = await world.open('admin', '/report.cgi');
    let main = await loadedMain(page, 'Tabular report');
    await main.getByLabel('Rows (vertical axis)').selectOption('product');
    await main.getByLabel('Columns (horizontal axis)').selectOption('bug_status');
    await main.getByRole('button', { name: 'Generate report' }).click();
    main = await loadedMain(page, 'Tabular report');
    const table = main.getByRole('table', { name: 'Bugs by Product' });
    await table.waitFor();
    await checkPage(page, 'report-table');

    const links = await table.getByRole('link').all();
    const seen: Record<string, number> = {};
    for (const link of links) {
      const count = Number(await link.textContent());
      const href = (await link.getAttribute('href'))!;
      const query = Object.fromEntries([...new URL(href, 'http://x').searchParams].map(([k, v]) => [k, v])) as Record<
        string,
        string
      >;
      const searched = await ok(
        call(world.app, 'GET', '/rest/bug', { apiKey: world.app.admin.apiKey, query: { ...query, count_only: '1' } }),
      );
      expect(searched.bug_count, href).toBe(count);
      seen[(await link.getAttribute('aria-label'))!] = count;
    }
    expect(seen['2 bugs: Widgets, RESOLVED']).toBe(2);
    expect(seen['2 bugs: Widgets, CONFIRMED'] ?? seen['2 bugs: Widgets, NEW']).toBe(2);
    expect(seen['5 bugs in all']).toBe(5);

    // A count opens its bug list.
    await table.getByRole('link', { name: '2 bugs: Widgets, RESOLVED' }).click();
    await page
      .getByRole('link', { name: String(bugs.a), exact: true })
      .first()
      .waitFor();
    await page
      .getByRole('link', { name: String(bugs.b), exact: true })
      .first()
      .waitFor();
  });

  it("charts a product's open bugs per day as the bugs' history has them", async () => {
    const page = await world.open('admin', '/chart.cgi');
    let main = await loadedMain(page, 'Open bugs over time');
    await main.getByLabel('Product').selectOption('Widgets');
    await main.getByRole('button', { name: 'Draw the chart' }).click();
    main = await loadedMain(page, 'Open bugs over time: Widgets');
    const table = main.getByRole('table', { name: /Open bugs of Widgets/ });
    await table.waitFor();
    await main
      .getByRole('img', { name: /Line chart of the open bugs of Widgets/ })
      .locator('canvas')
      .waitFor();
    await checkPage(page, 'report-chart');

    const rows = await table.locator('tbody tr').all();
    const shown = await Promise.all(
      rows.map(async (row) => [await row.locator('th').textContent(), Number(await row.locator('td').textContent())]),
    );
    // What the history says, day by day: replay each bug's status changes from the API.
    const admin = world.app.admin.apiKey;
    const widgetBugs = [bugs.a, bugs.b, bugs.c, bugs.d];
    const lives = await Promise.all(
      widgetBugs.map(async (id) => {
        const [bug] = (await ok(call(world.app, 'GET', `/rest/bug/${id}`, { apiKey: admin }))).bugs;
        const [{ history }] = (await ok(call(world.app, 'GET', `/rest/bug/${id}/history`, { apiKey: admin }))).bugs;
        const closedOn = history
          .filter((h: any) => h.changes.some((c: any) => c.field_name === 'status' && c.added === 'RESOLVED'))
          .map((h: any) => h.when.slice(0, 10))[0] as string | undefined;
        return { filedOn: bug.creation_time.slice(0, 10) as string, closedOn };
      }),
    );
    const day = (offset: number) => new Date(Date.parse(firstDay) + offset * 86_400_000).toISOString().slice(0, 10);
    const expected = [0, 1, 2].map((offset) => {
      const d = day(offset);
      return [d, lives.filter((l) => l.filedOn <= d && !(l.closedOn && l.closedOn <= d)).length];
    });
    expect(shown).toEqual(expected);
    expect(expected.map(([, n]) => n)).toEqual([3, 3, 2]);
  });

  it('shows the dependency tree of a bug', async () => {
    const page = await world.open('reporter', `/showdependencytree.cgi?id=${bugs.d}`);
    const main = await loadedMain(page, `Dependency tree of bug ${bugs.d}`);
    const depends = main.getByRole('region', { name: `Bug ${bugs.d} depends on` });
    await depends.getByRole('link', { name: `Bug ${bugs.a}` }).waitFor();
    const top = depends.locator(':scope > ul > li');
    expect(await top.count()).toBe(2);
    // a sits below c, which d depends on.
    await depends
      .getByRole('listitem')
      .filter({ hasText: 'Knob label cut off' })
      .getByRole('link', { name: `Bug ${bugs.a}` })
      .waitFor();
    await main
      .getByRole('region', { name: `Bug ${bugs.d} blocks` })
      .getByText('It blocks no bugs.')
      .waitFor();
    await checkPage(page, 'report-dependency-tree');
    await main.getByRole('link', { name: 'Hide resolved bugs' }).click();
    await main.getByRole('link', { name: 'Show resolved bugs' }).waitFor();
    expect(await depends.getByRole('link', { name: `Bug ${bugs.a}` }).count()).toBe(0);
  });
});
