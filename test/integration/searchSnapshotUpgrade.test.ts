import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactSearchIndex } from '../../shared/application/search/searchCompactor.ts';
import { currentSearchState, dropSearchIndex, wholeIndex } from '../../shared/application/search/searchIndexHolder.ts';
import { isBinarySnapshot } from '../../shared/domain/search/snapshot/snapshotFormat.ts';
import { loadSnapshot } from '../../shared/storage/search/searchIndexStore.ts';
import { legacySnapshotOf } from '../support/legacySnapshot.ts';
import { storeSnapshotInTable } from '../support/tableSnapshot.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';
import { plainBug } from '../unit/support/bugFixtures.ts';

/**
 * An installation upgraded in place: its stored snapshot is the JSON that search instances wrote
 * before the binary form. A new instance reads it, and the compactor's next run replaces it with
 * a binary one that holds the same bugs. The bug below exists in the old snapshot only (not in the
 * change log), so finding it proves which snapshot the instance read.
 */

let app: TestApp;
const GHOST_ID = 900_001;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.close();
});

const ghostCount = async (): Promise<number> =>
  (
    await ok(
      call(app, 'GET', '/rest/bug', {
        apiKey: app.admin.apiKey,
        query: { summary: 'Kept only by the old snapshot', count_only: 1 },
      }),
    )
  ).bug_count;

describe('a JSON snapshot written before the binary form', () => {
  it('is read by a new instance, and the compactor rewrites it as a binary one', async () => {
    const filed = await fileTestBug(app, app.admin.apiKey, {
      summary: 'Filed before the upgrade',
    });
    const index = await wholeIndex(await currentSearchState());
    index.apply({
      bug: plainBug(GHOST_ID, { summary: 'Kept only by the old snapshot', productId: index.productId[0] ?? 1 }),
      rev: 1,
      words: ['ghostly'],
    });
    const generation = `legacy-${Date.now()}`;
    const data = await promisify(gzip)(Buffer.from(JSON.stringify(legacySnapshotOf(index)), 'utf8'));
    await storeSnapshotInTable(generation, [data], { highWater: index.highWater, bugCount: index.size }, false);
    dropSearchIndex();
    expect((await loadSnapshot())?.snapshot).not.toBeInstanceOf(Uint8Array);
    expect(await ghostCount()).toBe(1);
    // The old snapshot cannot say whether its columns give the bug back: its pages read the table.
    const old = (await currentSearchState()).index;
    expect(old.bugAt(old.slotOf(filed)!)).toBeUndefined();

    const pointer = await compactSearchIndex();
    expect(pointer?.generation).not.toBe(generation);
    const stored = await loadSnapshot();
    expect(stored?.snapshot).toBeInstanceOf(Uint8Array);
    expect(isBinarySnapshot(stored!.snapshot as Uint8Array)).toBe(true);
    dropSearchIndex();
    expect(await ghostCount()).toBe(1);
    // The compactor reread the bug, so pages show it from the index, as Get Bug shows it.
    const upgraded = (await currentSearchState()).index;
    const direct = (await ok(call(app, 'GET', `/rest/bug/${filed}`, { apiKey: app.admin.apiKey }))).bugs[0];
    expect(upgraded.bugAt(upgraded.slotOf(filed)!)).toMatchObject({
      id: filed,
      summary: 'Filed before the upgrade',
      creationTime: direct.creation_time,
      lastChangeTime: direct.last_change_time,
    });
    // The compactor writes the comment words apart from the core: a new instance reads them after it.
    const state = await currentSearchState();
    await state.partLoaded('words');
    const reloaded = state.index;
    const slot = reloaded.slotOf(GHOST_ID)!;
    const words: string[] = [];
    for (const word of reloaded.words.keys()) reloaded.words.forEach(word, (at) => at === slot && words.push(word));
    expect(words).toEqual(['ghostly']);
  });
});
