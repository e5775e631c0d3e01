import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportRefusal } from '../../local/import/importErrors.ts';
import { renderReport } from '../../local/import/report.ts';
import { type ImportOptions, runImport } from '../../local/import/runImport.ts';
import { type BugzillaClient, createBugzillaClient, SourceRequestError } from '../../local/import/source/index.ts';
import {
  type AppProcess,
  copyInstallation,
  freshStorage,
  startAppProcess,
  testAppStorage,
} from '../support/appProcess.ts';
import { seedInstallation } from '../support/seededInstallation.ts';
import { fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * What an import must never do to data (issue 36), against a Tracker source served from a
 * process of its own: publish a bug whose groups could not be imported (--allow-partial), take a
 * target with products or groups of its own for a new one, overwrite what was created on the
 * target since the last run, leave a permanently partial installation (--since on a new
 * target), open the target for a refused source, or end a failing source with a stack trace
 * instead of a report and a checkpoint to resume from.
 */

let source: AppProcess;
let sourceKey = '';
let partnerKey = '';
let target: TestApp;
let hiddenBug = 0;
let bugs: number[] = [];
/** The source under another address (another port): what a moved source looks like. */
let forwarder: { url: string; close(): Promise<void> };

async function startForwarder(to: string): Promise<typeof forwarder> {
  const server = createServer((request, response) => {
    const upstream = httpRequest(
      `${to}${request.url}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const importInto = (options: Partial<ImportOptions> = {}) =>
  runImport({
    from: `${source.url}/rest`,
    apiKey: sourceKey,
    connections: 4,
    target: testAppStorage(),
    ...options,
  });

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as ImportRefusal,
  );

async function freshTarget(): Promise<void> {
  await target?.close();
  target = await startTestApp();
}

const anonymousStatus = async (id: number) => (await call(target, 'GET', `/rest/bug/${id}`)).status;

beforeAll(async () => {
  const seededApp = await startTestApp();
  const seeded = await seedInstallation(seededApp, { fillers: 2 });
  bugs = seeded.bugs;
  hiddenBug = seeded.hiddenBug;
  sourceKey = seededApp.admin.apiKey;
  // In the group `secret`, so it sees the hidden bug, but it may not list groups.
  partnerKey = await userWithKey(seededApp, 'partner', ['secret']);
  await seededApp.close();
  const storage = freshStorage();
  await copyInstallation(testAppStorage(), storage);
  source = await startAppProcess(storage);
  forwarder = await startForwarder(source.url);
  target = await startTestApp();
});

afterAll(async () => {
  await target?.close();
  await forwarder?.close();
  await source?.close();
});

describe('a refused source', () => {
  it('never opens the target (no new installation is created for it)', async () => {
    let opened = false;
    let prepared = false;
    const open = async () => {
      opened = true;
      return testAppStorage();
    };
    const prepare = async () => {
      prepared = true;
    };
    const notBugzilla = await refusal(
      importInto({ from: `${source.url}/nothing`, target: open, prepareTarget: prepare }),
    );
    expect(notBugzilla).toBeInstanceOf(ImportRefusal);
    const notAdmin = await refusal(importInto({ apiKey: partnerKey, target: open, prepareTarget: prepare }));
    expect(notAdmin).toMatchObject({ reason: 'not-admin' });
    expect({ opened, prepared }).toEqual({ opened: false, prepared: false });
  });
});

describe('--allow-partial', () => {
  it('leaves out a bug whose groups could not be imported, and says so, instead of publishing it', async () => {
    await freshTarget();
    const report = await importInto({ apiKey: partnerKey, allowPartial: true });
    expect(report.restrictedLeftOut).toEqual({ count: 1, ranges: [String(hiddenBug)], groups: ['secret'] });
    expect(renderReport(report)).toMatch(
      new RegExp(`NOT IMPORTED: 1 bugs restricted to groups .*secret.*: ${hiddenBug}`),
    );
    expect(await anonymousStatus(hiddenBug)).not.toBe(200);
    const asAdmin = await call(target, 'GET', `/rest/bug/${hiddenBug}`, { apiKey: target.admin.apiKey });
    expect(asAdmin.status).not.toBe(200);
    // The others came.
    expect(await anonymousStatus(bugs[0])).toBe(200);
  });
});

describe('a target with objects of its own', () => {
  it('is refused when it holds a product or a group of its own, though no bug', async () => {
    await freshTarget();
    await ok(
      call(target, 'POST', '/rest/product', {
        apiKey: target.admin.apiKey,
        body: { name: 'Local', description: 'Ours', version: '1.0' },
      }),
    );
    const product = await refusal(importInto());
    expect(product).toMatchObject({ reason: 'target-has-objects', message: expect.stringMatching(/products 2/) });
    await freshTarget();
    await ok(
      call(target, 'POST', '/rest/group', {
        apiKey: target.admin.apiKey,
        body: { name: 'locals', description: 'Ours' },
      }),
    );
    const group = await refusal(importInto());
    expect(group).toMatchObject({ reason: 'target-has-objects', message: expect.stringMatching(/groups \d+/) });
    // Nothing was imported.
    expect(await anonymousStatus(bugs[0])).toBe(404);
  });

  it('refuses --since into a target without a finished import', async () => {
    await freshTarget();
    const since = await refusal(importInto({ since: '2000-01-01T00:00:00Z' }));
    expect(since).toMatchObject({ reason: 'since-without-import' });
    expect(await anonymousStatus(bugs[0])).toBe(404);
  });
});

describe('a source that fails in the middle of the bugs', () => {
  it('ends with a report, the error and a checkpoint, and a rerun resumes', async () => {
    await freshTarget();
    let failing = true;
    const flaky = (settings: { baseUrl: string; apiKey: string; connections: number }): BugzillaClient => {
      const inner = createBugzillaClient({ ...settings, retries: 0 });
      return {
        baseUrl: inner.baseUrl,
        connections: inner.connections,
        stats: inner.stats,
        get: <T>(path: string, ...rest: Parameters<BugzillaClient['get']> extends [string, ...infer R] ? R : never) => {
          if (failing && path === `/bug/${bugs[2]}/comment`)
            return Promise.reject(new SourceRequestError('network', path, 'network error: ECONNREFUSED', 7));
          return inner.get<T>(path, ...rest);
        },
      };
    };
    // Two bugs a batch, so that a checkpoint falls between the second bug and the third.
    const stopped = await importInto({ client: flaky, batchSize: 2 });
    expect(stopped).toMatchObject({ interrupted: true, error: expect.stringMatching(/ECONNREFUSED/) });
    expect(stopped.checkpoint).toBeGreaterThanOrEqual(bugs[1]);
    expect(stopped.checkpoint).toBeLessThan(bugs[2]);
    expect(renderReport(stopped)).toMatch(
      /Stopped by an error: .*ECONNREFUSED[\s\S]*run the same command again to resume/,
    );
    failing = false;
    const resumed = await importInto({ client: flaky, batchSize: 2 });
    expect(resumed).toMatchObject({ mode: 'resume', interrupted: false });
    expect(resumed.error).toBeUndefined();
    expect(await anonymousStatus(bugs.at(-1)!)).toBe(200);
  });
});

describe('after a finished import', () => {
  it('takes the source at localhost for the one at 127.0.0.1, and another URL only with --same-source-as', async () => {
    // The previous test finished an import into this target.
    const other = `${source.url.replace('127.0.0.1', 'localhost')}/rest`;
    expect(await importInto({ from: other })).toMatchObject({ mode: 'update', interrupted: false });
    const moved = `${source.url}/rest/`;
    expect(await importInto({ from: moved })).toMatchObject({ mode: 'update' });
    const renamed = `${forwarder.url}/rest`;
    expect(await refusal(importInto({ from: renamed }))).toMatchObject({ reason: 'other-source' });
    expect(await importInto({ from: renamed, sameSourceAs: `${source.url}/rest` })).toMatchObject({
      mode: 'update',
    });
  });

  it('refuses an update once bugs or comments were created on the target', async () => {
    await ok(
      call(target, 'POST', `/rest/bug/${bugs[0]}/comment`, {
        apiKey: target.admin.apiKey,
        body: { comment: 'Written on the target' },
      }),
    );
    const own = await fileTestBug(target, target.admin.apiKey, { summary: 'Filed on the target' });
    // The import now names the source at its new address.
    const refused = await refusal(importInto({ from: `${forwarder.url}/rest` }));
    expect(refused).toMatchObject({
      reason: 'target-changed',
      message: expect.stringMatching(new RegExp(`bugs ${own}\\b.*comments \\d+`)),
    });
    expect((await call(target, 'GET', `/rest/bug/${own}`, { apiKey: target.admin.apiKey })).status).toBe(200);
  });
});

/** The source's REST API as its administrator. */
async function onSource<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${source.url}/rest${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-BUGZILLA-API-KEY': sourceKey },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as any;
  if (!response.ok || answer?.error) throw new Error(`${method} ${path}: ${JSON.stringify(answer)}`);
  return answer as T;
}

const summaryOnTarget = async (id: number) =>
  (await ok(call(target, 'GET', `/rest/bug/${id}`, { apiKey: target.admin.apiKey }))).bugs[0].summary;

describe('an update after changes on both sides (issue 36)', () => {
  it('refuses to overwrite an imported bug changed on the target, and names it; --overwrite-target-edits takes the source', async () => {
    await freshTarget();
    expect(await importInto()).toMatchObject({ mode: 'fresh', interrupted: false });
    const [edited, untouched] = [bugs[0], bugs[4]];
    await ok(
      call(target, 'PUT', `/rest/bug/${edited}`, {
        apiKey: target.admin.apiKey,
        body: { summary: 'Renamed on the target' },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await onSource('PUT', `/bug/${edited}`, { summary: 'Renamed on the source' });
    await onSource('PUT', `/bug/${untouched}`, { summary: 'Also renamed on the source' });
    const refused = await refusal(importInto());
    expect(refused).toMatchObject({
      reason: 'target-edited',
      message: expect.stringContaining(`changed on the target: ${edited}.`),
    });
    // Refused before anything was written.
    expect(await summaryOnTarget(edited)).toBe('Renamed on the target');
    expect(await summaryOnTarget(untouched)).not.toBe('Also renamed on the source');

    const forced = await importInto({ overwriteTargetEdits: true });
    expect(forced).toMatchObject({ mode: 'update', interrupted: false, overwrittenTargetEdits: [String(edited)] });
    expect(renderReport(forced)).toMatch(new RegExp(`OVERWRITTEN: .*--overwrite-target-edits\\): ${edited}\\n`));
    expect(await summaryOnTarget(edited)).toBe('Renamed on the source');
    expect(await summaryOnTarget(untouched)).toBe('Also renamed on the source');
    // What the import wrote is its own again: the next update is not refused.
    await onSource('PUT', `/bug/${edited}`, { summary: 'Renamed on the source again' });
    expect(await importInto()).toMatchObject({ mode: 'update', overwrittenTargetEdits: [] });
  });

  it("brings comment and personal tags changed on the source, which move no bug's last_change_time", async () => {
    // The target holds the finished import of the previous test.
    const bug = bugs[1];
    const lastChange = async () => (await onSource('GET', `/bug/${bug}`)).bugs[0].last_change_time;
    const before = await lastChange();
    const comment = (await onSource('GET', `/bug/${bug}/comment`)).bugs[bug].comments[0].id as number;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await onSource('PUT', `/bug/comment/${comment}/tags`, { add: ['sweep'] });
    await onSource('PUT', `/bug/${bug}/tags`, { tags: { add: ['mine'] } });
    expect(await lastChange()).toBe(before);

    const tagsOnTarget = async () => {
      const comments = (await ok(call(target, 'GET', `/rest/bug/${bug}/comment`, { apiKey: target.admin.apiKey })))
        .bugs[bug].comments;
      const found = (
        await ok(
          call(target, 'GET', `/rest/bug/${bug}`, { apiKey: target.admin.apiKey, query: { include_fields: 'tags' } }),
        )
      ).bugs[0];
      return { comment: comments.find((entry: { id: number }) => entry.id === comment).tags, personal: found.tags };
    };
    const added = await importInto();
    expect(added).toMatchObject({ mode: 'update', interrupted: false, tagChanged: [String(bug)] });
    expect(await tagsOnTarget()).toEqual({ comment: ['sweep'], personal: ['mine'] });

    // Taken off again: the source no longer finds the bug tagged; the import remembers it was.
    await onSource('PUT', `/bug/comment/${comment}/tags`, { remove: ['sweep'] });
    await onSource('PUT', `/bug/${bug}/tags`, { tags: { remove: ['mine'] } });
    const removed = await importInto();
    expect(removed.tagChanged).toEqual([String(bug)]);
    expect(await tagsOnTarget()).toEqual({ comment: [], personal: [] });
    // Nothing changed since: nothing is brought again.
    expect((await importInto()).tagChanged).toEqual([]);
  });
});
