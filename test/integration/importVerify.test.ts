import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BugzillaClient, createBugzillaClient } from '../../local/import/source/index.ts';
import { renderVerification, type VerifyResult, verifyImport } from '../../local/import/verify/index.ts';
import { bodyKeyOf, putBody } from '../../shared/storage/bug/attachmentBodies.ts';
import { ENV } from '../../shared/storage/tableSchema.ts';
import {
  type AppProcess,
  copyInstallation,
  freshStorage,
  startAppProcess,
  testAppStorage,
} from '../support/appProcess.ts';
import { seedInstallation } from '../support/seededInstallation.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Import verification against two real installations: the source is a seeded Tracker, the
 * target an exact copy of its table and bucket served from a process of its own (what a perfect
 * import gives). Verification finds nothing between them; then one field, one comment's
 * privacy, one attachment body and one flag change on the target, and it finds exactly those
 * (with what the change itself records: a new last_change_time and history entry), each on the
 * bug it was made on.
 */

let app: TestApp;
let copy: AppProcess;
let source: BugzillaClient;
let target: BugzillaClient;
const bugs = { rich: 0, plain: 0, field: 0, comment: 0, body: 0, flag: 0 };
const seeded = {
  publicComment: 0,
  bodyAttachment: 0,
  needinfo: 0,
  bodyBytes: Buffer.alloc(0),
};

beforeAll(async () => {
  app = await startTestApp();
  const key = app.admin.apiKey;
  const post = (path: string, body: unknown) => ok(call(app, 'POST', path, { apiKey: key, body }));

  // The importer's usual installation: every field, private comments and attachments, a hidden bug.
  const installation = await seedInstallation(app);
  bugs.rich = installation.first;
  bugs.plain = installation.second;
  const widget = { product: 'Widget', component: 'Gears', version: '1.0' };

  // One bug for each change made on the target below.
  bugs.field = await fileTestBug(app, key, { ...widget, summary: 'Field to change' });
  bugs.comment = await fileTestBug(app, key, { ...widget, summary: 'Comment to hide' });
  seeded.publicComment = (await post(`/rest/bug/${bugs.comment}/comment`, { comment: 'Public for now' })).id;
  bugs.body = await fileTestBug(app, key, { ...widget, summary: 'Body to swap' });
  seeded.bodyBytes = Buffer.from('the original body\n');
  seeded.bodyAttachment = (
    await post(`/rest/bug/${bugs.body}/attachment`, {
      file_name: 'notes.txt',
      summary: 'Notes',
      content_type: 'text/plain',
      data: seeded.bodyBytes.toString('base64'),
    })
  ).ids[0];
  bugs.flag = await fileTestBug(app, key, {
    ...widget,
    summary: 'Flag to grant',
    flags: [{ name: 'needinfo', status: '?', requestee: 'qa-lead@tracker.test' }],
  });
  seeded.needinfo = (await ok(call(app, 'GET', `/rest/bug/${bugs.flag}`, { apiKey: key }))).bugs[0].flags[0].id;

  const copied = freshStorage();
  await copyInstallation(testAppStorage(), copied);
  copy = await startAppProcess(copied);
  source = createBugzillaClient({ baseUrl: `${app.url}/rest`, apiKey: key, connections: 4 });
  target = createBugzillaClient({ baseUrl: `${copy.url}/rest`, apiKey: key, connections: 4 });
});

afterAll(async () => {
  await copy?.close();
  await app?.close();
});

const targetCall = (method: string, path: string, body?: unknown) =>
  ok(call({ ...app, url: copy.url }, method, path, { apiKey: app.admin.apiKey, body }));

/** Each bug's differences as `kind field` lines, the values left out. */
const summary = (result: VerifyResult) =>
  Object.fromEntries(
    result.bugs.map((bug) => [bug.id, bug.differences.map((difference) => `${difference.kind} ${difference.field}`)]),
  );

describe('verifying an import', () => {
  it('finds nothing between an installation and an exact copy of it', async () => {
    const progress: number[] = [];
    const result = await verifyImport({
      source,
      target,
      connections: 3,
      batchSize: 2,
      onProgress: ({ done }) => progress.push(done),
    });
    expect(result.bugs, renderVerification(result)).toEqual([]);
    expect(result).toMatchObject({
      mode: 'all',
      checked: bugs.flag,
      compared: bugs.flag,
      absent: 0,
      unreadable: [],
      equal: true,
      notes: [],
    });
    // Everything was there to compare, private comments and attachments included.
    expect(result.totals.compared.comments).toBeGreaterThanOrEqual(12);
    expect(result.totals.compared.attachments).toBe(3);
    expect(result.totals.compared.flags).toBe(3);
    // The seeding's changes fall in one or two seconds, and one user's changes in one second are one entry.
    expect(result.totals.compared.historyEntries).toBeGreaterThanOrEqual(1);
    expect(progress.at(-1)).toBe(bugs.flag);
    expect(renderVerification(result)).toContain('No differences');
  });

  it('finds exactly a changed field, comment privacy, attachment body and flag', async () => {
    await targetCall('PUT', `/rest/bug/${bugs.field}`, { priority: 'Lowest' });
    await targetCall('PUT', `/rest/bug/${bugs.comment}`, { comment_is_private: { [seeded.publicComment]: true } });
    await targetCall('PUT', `/rest/bug/${bugs.flag}`, { flags: [{ id: seeded.needinfo, status: '+' }] });
    // Bodies cannot change over the API: a body of the same length goes straight into the
    // target's bucket, so only the checksum can tell.
    const swapped = Buffer.from('a different  body\n');
    expect(swapped.length).toBe(seeded.bodyBytes.length);
    const { bodyAttachment } = seeded;
    const bucket = process.env[ENV.bucket];
    process.env[ENV.bucket] = copy.storage.bucket;
    try {
      await putBody(
        bodyKeyOf(bugs.body, bodyAttachment),
        swapped,
        'text/plain',
        createHash('sha256').update(swapped).digest('hex'),
      );
    } finally {
      process.env[ENV.bucket] = bucket;
    }

    const result = await verifyImport({ source, target });
    expect(summary(result), renderVerification(result)).toEqual({
      [bugs.field]: ['bug last_change_time', 'bug priority', 'history entry'],
      [bugs.comment]: ['bug last_change_time', 'comment is_private', 'history entry'],
      [bugs.body]: ['attachment sha256'],
      [bugs.flag]: ['bug last_change_time', 'flag bug flag needinfo', 'history entry'],
    });
    const all = result.bugs.flatMap((bug) => bug.differences);
    expect(all).toContainEqual({ kind: 'bug', id: bugs.field, field: 'priority', source: '---', target: 'Lowest' });
    expect(all).toContainEqual({
      kind: 'comment',
      id: seeded.publicComment,
      field: 'is_private',
      source: false,
      target: true,
    });
    expect(all).toContainEqual({
      kind: 'attachment',
      id: bodyAttachment,
      field: 'sha256',
      source: createHash('sha256').update(seeded.bodyBytes).digest('hex'),
      target: createHash('sha256').update(swapped).digest('hex'),
    });
    expect(all).toContainEqual({
      kind: 'flag',
      id: bugs.flag,
      field: 'bug flag needinfo',
      source: { status: '?', setter: app.admin.login, requestee: 'qa-lead@tracker.test' },
      target: { status: '+', setter: app.admin.login, requestee: null },
    });
    expect(result.equal).toBe(false);
    const text = renderVerification(result, { perBug: 1 });
    expect(text).toContain(`Bug ${bugs.field}:`);
    expect(text).toMatch(/… and \d+ more differences/);
  });

  it('checks the listed ids or a sample, and finds a bug only the target has', async () => {
    const listed = await verifyImport({ source, target, ids: [bugs.rich, bugs.plain, bugs.body] });
    expect(summary(listed)).toEqual({ [bugs.body]: ['attachment sha256'] });
    expect(listed).toMatchObject({ mode: 'ids', checked: 3, compared: 3 });

    const sample = await verifyImport({ source, target, sample: 3, random: () => 0 });
    expect(sample).toMatchObject({ mode: 'sample', checked: 3, compared: 3 });

    const extra = await fileTestBug({ ...app, url: copy.url }, app.admin.apiKey, { summary: 'Only on the target' });
    const all = await verifyImport({ source, target });
    expect(all.checked).toBe(extra);
    expect(all.bugs.find((bug) => bug.id === extra)?.differences).toEqual([
      { kind: 'bug', id: extra, field: 'bug', source: false, target: true },
    ]);
  });
});
