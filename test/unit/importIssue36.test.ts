import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../local/import/cli.ts';
import { IdMaps } from '../../local/import/destination/idMaps.ts';
import { sameSource } from '../../local/import/destination/importMode.ts';
import { inferProductControls } from '../../local/import/destination/productControls.ts';
import { TargetWriter } from '../../local/import/destination/targetWriter.ts';
import { ReportBuilder, renderReport } from '../../local/import/report.ts';
import {
  BugzillaApiError,
  type BugzillaClient,
  createBugzillaClient,
  type ProductRecord,
  probeUnlistedIds,
  type RetryEvent,
} from '../../local/import/source/index.ts';
import { compareComments } from '../../local/import/verify/compareComments.ts';

/**
 * The importer's fixes of issue 36 that need no installation: product group controls inferred
 * from the bugs of a source that hides them, retries that last as long as the operator says and
 * show themselves, one source whatever loopback name it is reached by, and 5.x's blank line
 * before a duplicate notice.
 */

const product = (name: string, groupControls: ProductRecord['groupControls'] = null) =>
  ({ id: name.length, name, groupControls }) as unknown as ProductRecord;

describe('product group controls from a source that hides them', () => {
  it('makes a group that every bug of a product is in MANDATORY, and lists the call for each product', async () => {
    const ids = new IdMaps('defect');
    ids.addProduct('Secret', 6, null);
    ids.addProduct('Mixed', 5, null);
    ids.addGroup('vault', 20);
    ids.addGroup('team', 21);
    const report = new ReportBuilder();
    report.bugGroups('Secret', ['vault', 'team']);
    report.bugGroups('Secret', ['vault']);
    report.bugGroups('Mixed', ['team']);
    report.bugGroups('Mixed', []);
    report.bugGroups('Open', []);
    const listed = await inferProductControls(
      [product('Secret'), product('Mixed'), product('Open'), product('Tracked', [])],
      { ids, writer: new TargetWriter(true), report },
    );
    expect(listed).toEqual([
      {
        product: 'Secret',
        inferred: ['vault'],
        call: expect.stringMatching(
          /^PUT \/rest\/product\/Secret \{"group_controls":\[\{"group":"team",.*"membercontrol":"SHOWN","othercontrol":"NA".*\{"group":"vault",.*"membercontrol":"MANDATORY","othercontrol":"MANDATORY"/,
        ),
      },
      { product: 'Mixed', inferred: [], call: expect.stringContaining('"group":"team"') },
    ]);
  });

  it('says so in the report, with what an allow-partial run left out first', () => {
    const text = renderReport({
      source: { url: 's', kind: 'bugzilla-5.2', version: '5.2', account: null },
      target: 't',
      mode: 'fresh',
      dryRun: false,
      interrupted: false,
      checkpoint: 0,
      since: null,
      counts: {},
      bugsPerProduct: {},
      skipped: [],
      cleaned: [],
      usersWithoutPassword: 0,
      restrictedLeftOut: { count: 2, ranges: ['4-5'], groups: ['vault'] },
      productControls: [{ product: 'Secret', inferred: ['vault'], call: 'PUT /rest/product/Secret {}' }],
      hiddenBugs: { count: 0, ranges: [], groups: [] },
      overwrittenTargetEdits: [],
      tagChanged: [],
      missing: [],
      notExposed: [],
      warnings: [],
      phases: [],
      written: { items: 0, attachmentBytes: 0 },
    });
    expect(text.split('\n')[3]).toMatch(/^NOT IMPORTED: 2 bugs restricted to groups .*\(vault\): 4-5$/);
    expect(text).toMatch(
      /Secret: every bug is in vault, so that group was made MANDATORY[\s\S]*PUT \/rest\/product\/Secret/,
    );
  });
});

describe('a source that is down for a while', () => {
  it('is retried for as long as --retry-minutes says, each retry told', async () => {
    let calls = 0;
    const events: RetryEvent[] = [];
    const client = createBugzillaClient({
      baseUrl: 'http://source.invalid/rest',
      retries: 1,
      retryForMs: 400,
      backoffBaseMs: 20,
      backoffMaxMs: 40,
      onRetry: (event) => events.push(event),
      fetch: (async () => {
        calls++;
        if (calls < 8) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
        return new Response('{"version":"5.2"}', { status: 200 });
      }) as typeof fetch,
    });
    expect(await client.get('/version')).toEqual({ version: '5.2' });
    // Far more attempts than `retries` allows: the time bound decides.
    expect(events.length).toBe(7);
    expect(events[0]).toMatchObject({ path: '/version', reason: expect.stringMatching(/ECONNREFUSED/) });
    expect(parseArgs(['--from', 'http://s/rest', '--api-key', 'k', '--retry-minutes', '30'])).toMatchObject({
      retryMinutes: 30,
    });
  });
});

describe('the same source', () => {
  it('whatever loopback name, case, default port or trailing slash it is given with', () => {
    expect(sameSource('http://localhost:8090/rest', 'http://127.0.0.1:8090/rest/')).toBe(true);
    expect(sameSource('https://Bugs.Example.org:443/rest', 'https://bugs.example.org/rest')).toBe(true);
    expect(sameSource('http://127.0.0.1:8090/rest', 'http://127.0.0.1:8091/rest')).toBe(false);
    expect(sameSource('https://a.example.org/rest', 'https://b.example.org/rest')).toBe(false);
  });
});

describe('verification of a 5.x duplicate notice', () => {
  const comment = (text: string) =>
    ({
      id: 9,
      count: 1,
      creator: 'a',
      creationTime: 't',
      text,
      isPrivate: false,
      isMarkdown: false,
      tags: [],
    }) as never;
  it("takes 5.x's blank line before a notice without a comment as the same text, and nothing else", () => {
    const notice = '*** This bug has been marked as a duplicate of bug 5 ***';
    expect(compareComments([comment(`\n\n${notice}`)], [comment(notice)])).toEqual([]);
    expect(compareComments([comment(`Same.\n\n${notice}`)], [comment(notice)])).toHaveLength(1);
    expect(compareComments([comment('\n\nsomething else')], [comment('something else')])).toHaveLength(1);
  });
});

describe('bugs a 5.x search leaves out', () => {
  /** A 5.2 as Get Bug answers it: one id it cannot show fails the request, 101 or 102. */
  const fake52 = (visible: number[], hidden: number[]) => {
    const asked: number[][] = [];
    const client: BugzillaClient = {
      baseUrl: 'http://5.2/rest',
      connections: 4,
      stats: { requests: 0, retries: 0, bytes: 0 },
      get: async <T>(path: string, query: Record<string, unknown> = {}) => {
        const ids = [Number(path.split('/')[2]), ...((query.ids as number[] | undefined) ?? [])];
        asked.push(ids);
        for (const id of ids) {
          if (hidden.includes(id))
            throw new BugzillaApiError(102, `You are not authorized to access bug #${id}.`, 401, path);
          if (!visible.includes(id)) throw new BugzillaApiError(101, `Bug #${id} does not exist.`, 404, path);
        }
        return { bugs: ids.map((id) => ({ id })), faults: [] } as T;
      },
    };
    return { client, asked };
  };

  it('are reported by id: every id between the visible ones, and above the highest until a round finds none', async () => {
    const { client, asked } = fake52([1, 2, 5, 9], [3, 7, 12, 31]);
    const found = await probeUnlistedIds(client, [1, 2, 5, 9], { above: 10 });
    expect(found.faults.map((fault) => [fault.id, fault.code])).toEqual([
      [3, 102],
      [7, 102],
      [12, 102],
    ]);
    expect(found.unprobed).toBeNull();
    // One id a request (5.2 fails a request for its first bad id); 10..19 found 12, 20..29 none.
    expect(asked.every((ids) => ids.length === 1)).toBe(true);
    expect(asked.map(([id]) => id).sort((a, b) => a - b)).toEqual([
      3,
      4,
      6,
      7,
      8,
      ...Array.from({ length: 20 }, (_, i) => 10 + i),
    ]);
  });

  it('asks about at most the limit, and says which ids it did not ask about', async () => {
    const { client } = fake52([1, 500], [250]);
    const found = await probeUnlistedIds(client, [1, 500], { limit: 100 });
    expect(found.faults).toEqual([]);
    expect(found.unprobed).toEqual({ from: 102, to: 499 });
  });
});
