import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_TOOL_REQUEST_TIMEOUT_MS } from '../../local/bulkToolTimeouts.ts';
import { runImport } from '../../local/import/runImport.ts';
import { compactSearchIndex } from '../../shared/application/search/searchCompactor.ts';
import { currentSearchState } from '../../shared/application/search/searchIndexHolder.ts';
import { snapshotOf } from '../../shared/domain/search/snapshot/indexSnapshot.ts';
import { SDK_TIMEOUT_ENV } from '../../shared/storage/sdkTimeouts.ts';
import { loadSnapshotPointer, writeSnapshot } from '../../shared/storage/search/searchIndexStore.ts';
import {
  type AppProcess,
  copyInstallation,
  freshStorage,
  startAppProcess,
  testAppStorage,
} from '../support/appProcess.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * A search instance that was already warm when an import wrote its bugs (`tracker-import --stack`
 * while the stack serves): the import's bulk writes bypass the change log, so the instance learns
 * of them from the notice the importer appends with its snapshot, and reloads warm (same holder,
 * same bug copies) before answering. The compactor's snapshots carry no notice and cause no reload;
 * a compactor whose index is older than the current snapshot does not replace it.
 */

let source: AppProcess;
let sourceKey = '';
let target: TestApp;
const imported: number[] = [];

beforeAll(async () => {
  const seeded = await startTestApp();
  sourceKey = seeded.admin.apiKey;
  for (let n = 0; n < 5; n++) imported.push(await fileTestBug(seeded, sourceKey, { summary: `Imported gear ${n}` }));
  await seeded.close();
  const storage = freshStorage();
  await copyInstallation(testAppStorage(), storage);
  source = await startAppProcess(storage);
  target = await startTestApp();
});

afterAll(async () => {
  await target?.close();
  await source?.close();
});

// The importer is a bulk tool: it gets the bulk tools' longer storage attempt (bulkToolTimeouts.ts),
// set before the first client is made, as the import command sets it.
process.env[SDK_TIMEOUT_ENV.requestTimeoutMs] = String(BULK_TOOL_REQUEST_TIMEOUT_MS);

const importInto = (stopAfterBatches?: number) =>
  runImport({
    from: `${source.url}/rest`,
    apiKey: sourceKey,
    connections: 2,
    batchSize: 2,
    target: testAppStorage(),
    stopAfterBatches,
  });

const found = async (): Promise<number[]> =>
  (
    await ok(
      call(target, 'GET', '/rest/bug', {
        apiKey: target.admin.apiKey,
        query: { summary: 'Imported gear', include_fields: 'id' },
      }),
    )
  ).bugs.map((bug: { id: number }) => bug.id);

describe('a warm search instance and an import', () => {
  it('finds the bugs of an interrupted import and of its resumption at its next search, without a cold start', async () => {
    expect(await found()).toEqual([]);
    const warm = await currentSearchState();

    const first = await importInto(1);
    expect(first).toMatchObject({ interrupted: true });
    expect(await found()).toEqual(imported.slice(0, 2));
    const reloaded = await currentSearchState();
    expect(reloaded.index).not.toBe(warm.index);
    // A warm reload: what the instance keeps between searches stays.
    expect(reloaded.copies).toBe(warm.copies);
    expect(reloaded.rendered).toBe(warm.rendered);

    expect(await importInto()).toMatchObject({ mode: 'resume', interrupted: false });
    expect(await found()).toEqual(imported);
    // Written through the change log as ever: found the moment after it was written.
    const own = await fileTestBug(target, target.admin.apiKey, { summary: 'Imported gear of our own' });
    expect(await found()).toEqual([...imported, own]);
    // Two imports (bulk tools): on a loaded machine they take longer than a request-sized test.
  }, 180_000);

  it('does not reload for the compactor’s snapshot, which holds nothing the instance lacks', async () => {
    const before = await currentSearchState();
    const pointer = await compactSearchIndex();
    expect(pointer).not.toBeNull();
    expect(await found()).toHaveLength(imported.length + 1);
    const after = await currentSearchState();
    expect(after.index).toBe(before.index);
    expect(after.basis.generation).toBe(pointer?.generation);
    // The next compaction builds on it.
    expect(await compactSearchIndex()).not.toBeNull();
    expect((await currentSearchState()).index).toBe(before.index);
  });

  it('keeps a compactor from replacing a snapshot written after its index was loaded', async () => {
    const current = await loadSnapshotPointer();
    const state = await currentSearchState();
    const stale = await writeSnapshot(snapshotOf(state.index), { basis: 'an-older-generation' });
    expect(stale).toBeNull();
    expect((await loadSnapshotPointer())?.generation).toBe(current?.generation);
  });
});
