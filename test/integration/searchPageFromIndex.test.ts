import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactSearchIndex } from '../../shared/application/search/searchCompactor.ts';
import {
  currentSearchState,
  dropSearchIndex,
  searchIndexStats,
  wholeIndex,
} from '../../shared/application/search/searchIndexHolder.ts';
import { type SeededInstallation, seedInstallation } from '../support/seededInstallation.ts';
import { ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * A search page is rendered from the search index's columns, without reading its bugs' items
 * (indexedBugs.ts), even by an instance that keeps nothing between searches. Whatever it shows
 * must be exactly what Get Bug, which reads the table, shows the same viewer: for bugs with every
 * field set (flags, private attachments and comments, custom fields, tags, time tracking), from a
 * warm index, and from a new instance that read the snapshot.
 */
let app: TestApp;
let seeded: SeededInstallation;

/** The DynamoDB operations the in-process handlers send while `run` runs, with their key counts. */
async function operationsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const onRequest = (message: unknown) => {
    const target = (message as { request: ClientRequest }).request.getHeader('x-amz-target');
    if (typeof target === 'string' && target.startsWith('DynamoDB_')) sent.push(target.split('.')[1]!);
  };
  subscribe('http.client.request.start', onRequest);
  try {
    await run();
  } finally {
    unsubscribe('http.client.request.start', onRequest);
  }
  return sent;
}

beforeAll(async () => {
  app = await startTestApp();
  seeded = await seedInstallation(app, { fillers: 3 });
  process.env.TRACKER_SEARCH_KEEP = 'off';
});

afterAll(async () => {
  delete process.env.TRACKER_SEARCH_KEEP;
  dropSearchIndex();
  await app?.close();
});

const viewers = () =>
  [
    ['admin', app.admin.apiKey],
    ['plain', seeded.plainKey],
    ['anonymous', undefined],
  ] as const;

const EVERY_BUG = { f1: 'bug_id', o1: 'greaterthan', v1: '0' };

async function expectPagesAsGetBug(label: string): Promise<void> {
  for (const [who, apiKey] of viewers()) {
    for (const fields of [
      undefined,
      '_all',
      '_default,flags,tags,comment_count,cf_browser,cf_notes',
      // The cheap extras a page computes only when asked, and details shared between bugs.
      '_default,counts,triage_owner,triage_owner_detail,filed_via',
      'id,assigned_to_detail.email,creator_detail,cc_detail.real_name,counts.cc,tags',
    ]) {
      const query = fields ? { include_fields: fields } : {};
      const page = await ok(call(app, 'GET', '/rest/bug', { apiKey, query: { ...EVERY_BUG, ...query } }));
      const ids = page.bugs.map((bug: { id: number }) => bug.id);
      expect(ids, `${label}: ${who} sees the seeded bugs`).toContain(seeded.second);
      expect(ids.includes(seeded.hiddenBug), `${label}: ${who} and the hidden bug`).toBe(who === 'admin');
      const direct = await ok(
        call(app, 'GET', `/rest/bug/${ids[0]}`, { apiKey, query: { ids: ids.slice(1), ...query } }),
      );
      expect(page.bugs, `${label}: ${who}, ${fields ?? 'default fields'}`).toEqual(direct.bugs);
    }
  }
}

describe('a search page rendered from the index', () => {
  it('reads no bug items, even with nothing kept between searches', async () => {
    await ok(call(app, 'GET', '/rest/bug', { apiKey: app.admin.apiKey, query: { product: 'Widget' } }));
    // The snapshot's parts are read from the second search on: in, they are not this page's reads.
    await wholeIndex(await currentSearchState());
    const sent = await operationsDuring(async () => {
      const page = await ok(call(app, 'GET', '/rest/bug', { apiKey: app.admin.apiKey, query: { product: 'Widget' } }));
      expect(page.bugs.map((bug: { id: number }) => bug.id)).toContain(seeded.first);
    });
    // The caller and the catalogue stamp (one BatchGetItem) and the change log (Query): with
    // nothing kept, a page read from the table would add a BatchGetItem of its bugs.
    expect(sent.filter((operation) => operation === 'BatchGetItem')).toHaveLength(1);
    expect(sent.filter((operation) => operation !== 'BatchGetItem' && operation !== 'Query')).toEqual([]);
  });

  it('shows every viewer each bug exactly as Get Bug does, every field set', async () => {
    await expectPagesAsGetBug('warm index');
  });

  it('shows a change made since, and the same after a new instance reads the snapshot', async () => {
    const key = app.admin.apiKey;
    await ok(
      call(app, 'PUT', `/rest/bug/${seeded.first}`, {
        apiKey: key,
        body: {
          whiteboard: '[changed since]',
          deadline: '2031-02-28',
          cc: { add: ['dev@tracker.test'] },
          flags: [{ name: 'needinfo', status: '?', requestee: 'qa-lead@tracker.test' }],
        },
      }),
    );
    await ok(
      call(app, 'PUT', `/rest/bug/attachment/${seeded.attachments.patch}`, {
        apiKey: key,
        body: { is_private: true },
      }),
    );
    await expectPagesAsGetBug('after changes');
    await compactSearchIndex();
    dropSearchIndex();
    await expectPagesAsGetBug('new instance');
  });

  it('reads the snapshot parts from a new instance’s second search on, not beside its first', async () => {
    await compactSearchIndex();
    dropSearchIndex();
    // The first search's prefetch and its handler both wait for the load: neither starts the parts.
    const [first] = await Promise.all([currentSearchState(), currentSearchState()]);
    expect(first.index.missingParts.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(searchIndexStats()?.partMs).toEqual({});
    expect(first.index.missingParts.length).toBeGreaterThan(0);
    // The next search starts them; the whole index is there once they are in.
    await currentSearchState();
    expect((await wholeIndex(first)).missingParts).toEqual([]);
    expect(Object.keys(searchIndexStats()?.partMs ?? {}).sort()).toEqual(['history', 'trigrams', 'words']);
  });
});
