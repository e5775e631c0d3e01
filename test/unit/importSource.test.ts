import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { bugBundles } from '../../local/import/destination/bugRanges.ts';
import {
  attachmentSchema,
  BugzillaApiError,
  type BugzillaClientOptions,
  bugHistorySchema,
  bugSchema,
  commentSchema,
  createBugzillaClient,
  fieldSchema,
  groupSchema,
  highestBugId,
  probeSource,
  productSchema,
  readAttachments,
  readBugBundles,
  readBugIds,
  readBugs,
  readClassifications,
  readComments,
  readFields,
  readFlagTypes,
  readGroups,
  readHistory,
  readKeywords,
  readProducts,
  readUsers,
  recoverComment,
  SourceProbeError,
  SourceRequestError,
  userSchema,
  workflowOf,
} from '../../local/import/source/index.ts';
import { kindOf } from '../../local/import/source/sourceProbe.ts';
import type { ImportState } from '../../shared/storage/instance/importStateStore.ts';
import { fixture, RECORDED_KEY, type RecordedBugzilla, startRecordedBugzilla } from './support/recordedBugzilla.ts';

/**
 * The importer's source side against what real Bugzilla servers answered (test/fixtures): the
 * recorded Bugzilla 5.2 and Harmony answers parse into records, the probe and every reader work
 * against a recorded 5.2 served over HTTP, and the client survives what a busy source does
 * (429 with Retry-After, a 500, a request that never answers) and stops at what it must not retry.
 */

let bugzilla: RecordedBugzilla;
beforeAll(async () => {
  bugzilla = await startRecordedBugzilla();
});
afterAll(() => bugzilla.close());

const client = (options: Partial<BugzillaClientOptions> = {}) =>
  createBugzillaClient({ baseUrl: bugzilla.url, apiKey: RECORDED_KEY, backoffBaseMs: 10, ...options });

describe('recorded answers parse into records', () => {
  it.each([
    ['bugzilla-5.2/bug-all-fields.json', 'bugs', bugSchema],
    ['bugzilla-5.2/bug-all-fields-after.json', 'bugs', bugSchema],
    ['harmony/bug-all-fields.json', 'bugs', bugSchema],
    ['bugzilla-5.2/field-bug.json', 'fields', fieldSchema],
    ['harmony/field-bug.json', 'fields', fieldSchema],
    ['bugzilla-5.2/field-bug-status.json', 'fields', fieldSchema],
    ['bugzilla-5.2/field-priority.json', 'fields', fieldSchema],
    ['bugzilla-5.2/products-accessible.json', 'products', productSchema],
    ['bugzilla-5.2/product.json', 'products', productSchema],
    ['bugzilla-5.2/user-by-id.json', 'users', userSchema],
    ['bugzilla-5.2/users-match.json', 'users', userSchema],
    ['bugzilla-5.2/groups-membership.json', 'groups', groupSchema],
    ['bugzilla-5.2/bug-history.json', 'bugs', bugHistorySchema],
    ['bugzilla-5.2/bug-history-after.json', 'bugs', bugHistorySchema],
    ['bugzilla-5.2/bug-history-duplicate.json', 'bugs', bugHistorySchema],
  ] as const)('%s', (file, key, schema) => {
    const records = z.array(schema as z.ZodType).parse(fixture(file)[key]);
    expect(records.length).toBeGreaterThan(0);
  });

  it('comments, attachments and Harmony bugs with their inline comments', () => {
    for (const file of ['bugzilla-5.2/bug-comments.json', 'bugzilla-5.2/comments-after.json'])
      for (const bug of Object.values<any>(fixture(file).bugs)) z.array(commentSchema).parse(bug.comments);
    z.array(attachmentSchema).parse(fixture('bugzilla-5.2/attachments-of-bug.json').bugs['1204']);
    const harmony = fixture('harmony/bug-all-fields.json').bugs[0];
    expect(
      z
        .array(commentSchema)
        .parse(harmony.comments)
        .map((comment) => comment.rawText),
    ).toEqual(['Steps.', 'Working.']);
  });

  it("evens out the sources' differences", () => {
    const [harmony] = z.array(bugSchema).parse(fixture('harmony/bug-all-fields.json').bugs);
    const [stock] = z.array(bugSchema).parse(fixture('bugzilla-5.2/bug-all-fields.json').bugs);
    // Harmony: alias null, a type, comment_count, duplicates; 5.2: alias [], none of the others.
    expect(harmony).toMatchObject({ alias: [], type: 'defect', commentCount: 2, duplicates: [], regressedBy: [] });
    expect(harmony.custom).toEqual({ cf_last_resolved: null, cf_user_story: '' });
    expect(stock).toMatchObject({ alias: [], type: null, commentCount: null, duplicates: null, regressedBy: null });
    expect(stock.custom).toEqual({});
    // 5.2 attachments say 0/1; records say booleans.
    const [attachment] = z.array(attachmentSchema).parse(fixture('bugzilla-5.2/attachments-of-bug.json').bugs['1204']);
    expect(attachment).toMatchObject({ isObsolete: true, isPatch: true, isPrivate: false, data: null, size: 26 });
    // The workflow: 5.2 lists the statuses a new bug may take; Harmony does not.
    const status = (file: string) =>
      z
        .array(fieldSchema)
        .parse(fixture(file).fields)
        .find((field) => field.name === 'bug_status')!;
    expect(status('bugzilla-5.2/field-bug.json').initialStatuses?.map((to) => to.name)).toEqual([
      'UNCONFIRMED',
      'CONFIRMED',
      'IN_PROGRESS',
    ]);
    expect(status('harmony/field-bug.json').initialStatuses).toBeNull();
    expect(status('harmony/field-bug.json').values.map((value) => [value.name, value.isOpen])).toEqual([
      ['UNCONFIRMED', true],
      ['CONFIRMED', true],
      ['IN_PROGRESS', true],
      ['RESOLVED', false],
      ['VERIFIED', false],
    ]);
  });

  it('tells the kinds of source apart by version and extensions', () => {
    expect(kindOf('5.2', {})).toBe('bugzilla-5.2');
    expect(kindOf('5.0.4.1', {})).toBe('bugzilla-5.0');
    expect(kindOf('5.1.2', {})).toBe('bugzilla-5.2');
    expect(kindOf('20200805.1', {})).toBe('harmony');
    expect(kindOf('5.2', { BMO: '1.0' })).toBe('harmony');
    expect(kindOf('5.2', { Tracker: '0.1.0' })).toBe('tracker');
    expect(kindOf('4.4.14', {})).toBeNull();
  });

  it("recovers what the author wrote from Bugzilla's composed comment text", () => {
    expect(recoverComment('Created attachment 1\nProposed fix v1\n\nHere is a patch', 1)).toEqual({
      kind: 'attachment_created',
      extraData: 1,
      rawText: 'Here is a patch',
    });
    expect(recoverComment('Created attachment 7\nA file', 7)).toEqual({
      kind: 'attachment_created',
      extraData: 7,
      rawText: '',
    });
    expect(recoverComment('Comment on attachment 1\nProposed fix v1\n\nobsoleting', 1)).toMatchObject({
      kind: 'attachment_updated',
      rawText: 'obsoleting',
    });
    expect(recoverComment('Same.\n\n*** This bug has been marked as a duplicate of bug 12 ***', null)).toEqual({
      kind: 'dupe_of',
      extraData: 12,
      rawText: 'Same.',
    });
    expect(recoverComment('*** Bug 1206 has been marked as a duplicate of this bug. ***', null)).toEqual({
      kind: 'has_dupe',
      extraData: 1206,
      rawText: '',
    });
    // Wording about another attachment than the comment's is what the author wrote.
    expect(recoverComment('Created attachment 2\nnot this one', 1).kind).toBe('normal');
  });
});

describe('the probe against a recorded Bugzilla 5.2', () => {
  it('finds Bugzilla 5.2, the administrator behind the key, and nothing missing', async () => {
    const probe = await probeSource(client());
    expect(probe).toMatchObject({
      kind: 'bugzilla-5.2',
      version: '5.2',
      extensions: {},
      keyTransport: 'query',
      account: { id: 1, login: 'admin@example.com' },
      capabilities: {
        admin: true,
        editusers: true,
        creategroups: true,
        tweakparams: true,
        insider: true,
        timetracking: true,
      },
      hiddenBugGroups: [],
      missing: [],
    });
    expect(probe.account!.groups).toContain('importers');
    expect(probe.notExposed.join('\n')).toMatch(/group controls/);
  });

  it('says so when the key is wrong (306)', async () => {
    const error = await probeSource(client({ apiKey: 'not-the-key' })).catch((caught) => caught);
    expect(error).toBeInstanceOf(SourceProbeError);
    expect(error).toMatchObject({ reason: 'bad-key' });
    expect(error.message).toMatch(/API key is not valid.*306/);
    expect(error.message).not.toContain('not-the-key');
  });

  it('says so when 5.2 gets the key only as a header, which it ignores', async () => {
    const error = await probeSource(client({ keyTransport: 'header' })).catch((caught) => caught);
    expect(error).toMatchObject({ reason: 'bad-key', message: expect.stringMatching(/none was given/) });
  });

  it('says when the URL is not a Bugzilla (an HTML page)', async () => {
    bugzilla.inject('/rest/version', 'html');
    const error = await probeSource(client()).catch((caught) => caught);
    expect(error).toMatchObject({ reason: 'not-bugzilla', message: expect.stringMatching(/not a Bugzilla REST API/) });
  });

  it('says when the source cannot be reached', async () => {
    const port = await closedPort();
    const error = await probeSource(
      createBugzillaClient({ baseUrl: `http://127.0.0.1:${port}/rest`, retries: 1, backoffBaseMs: 5 }),
    ).catch((caught) => caught);
    expect(error).toMatchObject({ reason: 'unreachable' });
  });
});

describe('the readers against a recorded Bugzilla 5.2', () => {
  it('read the catalogue: fields and workflow, products, classifications, keywords, flag types, groups', async () => {
    const source = client();
    const fields = await readFields(source);
    const workflow = workflowOf(fields);
    expect(workflow.initial?.map((to) => to.name)).toEqual(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS']);
    expect(workflow.statuses.find((status) => status.name === 'RESOLVED')).toMatchObject({
      isOpen: false,
      canChangeTo: [
        { name: 'UNCONFIRMED', commentRequired: false },
        { name: 'CONFIRMED', commentRequired: false },
        { name: 'VERIFIED', commentRequired: false },
      ],
    });
    expect(fields.find((field) => field.name === 'priority')!.values.map((value) => value.name)).toEqual([
      'Highest',
      'High',
      'Normal',
      'Low',
      'Lowest',
      '---',
    ]);

    const products = await readProducts(source);
    expect(products).toHaveLength(1);
    expect(products[0]).toMatchObject({
      id: 1,
      name: 'TestProduct',
      classification: 'Unclassified',
      defaultMilestone: '---',
      hasUnconfirmed: true,
      versions: [{ id: 1, name: 'unspecified', sortKey: 0, isActive: true }],
      milestones: [{ id: 1, name: '---', sortKey: 0, isActive: true }],
      groupControls: null,
    });
    expect(products[0].components[0]).toMatchObject({
      name: 'TestComponent',
      defaultAssignee: 'admin@example.com',
      defaultQaContact: null,
      isActive: true,
    });

    expect(await readClassifications(source, fields)).toEqual([
      { id: 1, name: 'Unclassified', description: 'Not assigned to any classification', sortKey: 0 },
    ]);
    // 5.2 has no keyword route: the field's values (none on this installation) stand in.
    expect(await readKeywords(source, fields)).toEqual([]);
    expect(bugzilla.requests).toContain('/rest/keyword');

    const flagTypes = await readFlagTypes(source, products);
    expect(flagTypes).toEqual([
      expect.objectContaining({
        id: 1,
        name: 'review',
        targetType: 'attachment',
        sortKey: 1,
        isRequestable: true,
        ccList: '',
        appliesTo: [{ product: 'TestProduct', component: 'TestComponent' }],
      }),
      expect.objectContaining({ id: 2, name: 'needinfo', targetType: 'bug', isMultiplicable: true }),
    ]);

    const groups = await readGroups(source);
    expect(groups.find((group) => group.name === 'importers')).toEqual({
      id: 15,
      name: 'importers',
      description: 'Group for reference captures',
      isActive: true,
      isBugGroup: true,
      userRegexp: '',
      members: [
        { id: 1, login: 'admin@example.com' },
        { id: 3, login: 'member@example.com' },
      ],
    });
  });

  it('read users by id ranges, leaving out ids that name nobody', async () => {
    const batches = [];
    for await (const batch of readUsers(client(), { to: 5, batchSize: 2 })) batches.push(batch);
    expect(batches.map((batch) => [batch.range, batch.users.map((user) => user.id)])).toEqual([
      [{ from: 1, to: 2 }, [1]],
      [{ from: 3, to: 4 }, [3]],
      [{ from: 5, to: 5 }, []],
    ]);
    expect(batches[1].users[0]).toEqual({
      id: 3,
      login: 'member@example.com',
      email: 'member@example.com',
      realName: 'Group Member',
      canLogin: true,
      emailEnabled: true,
      loginDeniedText: '',
      groups: [
        { id: 11, name: 'bz_canusewhines' },
        { id: 8, name: 'editbugs' },
        { id: 15, name: 'importers' },
      ],
    });
    // Open-ended: stops after enough empty batches.
    const open = [];
    for await (const batch of readUsers(client(), { batchSize: 10, stopAfterEmptyBatches: 2 })) open.push(batch);
    expect(open.map((batch) => batch.range.from)).toEqual([1, 11, 21]);
  });

  it('read bugs in batches, accounting for missing and hidden ids', async () => {
    const source = client();
    expect(await highestBugId(source)).toBe(1204);
    const batch = await readBugIds(source, [1204, 1205, 1206]);
    expect(batch.missing).toEqual([1206]);
    expect(batch.faults).toEqual([{ id: 1205, code: 102, message: 'You are not authorized to access bug #1205.' }]);
    expect(batch.bugs).toHaveLength(1);
    expect(batch.bugs[0]).toMatchObject({
      id: 1204,
      alias: [],
      status: 'IN_PROGRESS',
      product: 'SkAlpha_x10001',
      assignedTo: 'sk_dev_x10001@example.com',
      qaContact: 'sk_qa_x10001@example.com',
      cc: ['admin@example.com', 'dev@example.com'],
      deadline: '2027-01-31',
      estimatedTime: 4.5,
      remainingTime: 1.5,
      actualTime: 1.5,
      dependsOn: [1205],
      seeAlso: ['https://bugs.example.org/show_bug.cgi?id=7'],
      flags: [
        {
          id: 1,
          name: 'needinfo',
          typeId: 2,
          status: '?',
          setter: 'admin@example.com',
          requestee: 'dev@example.com',
          creationDate: '2026-11-23T02:40:33Z',
          modificationDate: '2026-11-23T02:40:33Z',
        },
      ],
    });
    expect(batch.bugs[0].people).toContainEqual({
      id: 3,
      login: 'sk_dev_x10001@example.com',
      realName: 'Dana Developer',
    });
    // 5.2 fails the whole batch for one unreadable id: it is split until each such id stands alone.
    expect(bugzilla.requests).toContainEqual(
      expect.stringMatching(/^\/rest\/bug\/1204\?ids=1205&ids=1206&permissive=1&include_fields=_all/),
    );
    expect(bugzilla.requests).toContainEqual(expect.stringMatching(/^\/rest\/bug\/1205\?permissive=1/));
  });

  it('read comments, attachments with bodies, and history, by bug', async () => {
    const source = client();
    const comments = (await readComments(source, [1, 1204])).get(1204)!;
    expect(comments.map((comment) => [comment.count, comment.kind, comment.extraData, comment.rawText])).toEqual([
      [0, 'normal', null, 'Steps:\n1. open\n2. resize'],
      [1, 'normal', null, 'Working on it.'],
      [2, 'has_dupe', 1206, ''],
      [3, 'normal', null, 'A private note'],
      [4, 'attachment_created', 1, 'Here is a patch'],
      [5, 'attachment_updated', 1, 'obsoleting'],
    ]);
    expect(comments[1].tags).toEqual(['needinfo', 'spam']);
    expect(comments[3]).toMatchObject({ id: 2305, isPrivate: true, creator: 'admin@example.com' });

    const [attachment] = (await readAttachments(source, [1204])).get(1204)!;
    expect(attachment).toMatchObject({ id: 1, fileName: 'fix.patch', isObsolete: true, size: 26 });
    expect(attachment.data?.toString()).toBe('diff --git a/x b/x\n+hello\n');
    expect(bugzilla.requests.slice(-2)).toEqual([
      '/rest/bug/1204/attachment?exclude_fields=data',
      '/rest/bug/attachment/1',
    ]);

    const history = await readHistory(source, [1, 1204]);
    expect(history.get(1)).toHaveLength(fixture('bugzilla-5.2/bug-history.json').bugs[0].history.length);
    expect(history.get(1204)![1].changes).toContainEqual({
      fieldName: 'attachments.isobsolete',
      removed: '0',
      added: '1',
      attachmentId: 1,
      commentId: null,
      commentCount: null,
    });
  });

  it('plan a 5.2 import from the ids its search finds, never reading past the highest (issue 36)', async () => {
    const from = bugzilla.requests.length;
    const state = { checkpoint: 0, lastBugId: 0 } as ImportState;
    const plan = await bugBundles(client(), { mode: 'fresh', state: null, since: null }, state, 100);
    const bundles = [];
    for await (const { bundle } of plan.bundles) bundles.push(bundle);
    expect(plan).toMatchObject({ total: 2, lastBugId: 1204, byRange: true });
    expect(bundles.map((bundle) => [bundle.range, bundle.bugs.map((bug) => bug.id)])).toEqual([
      [{ from: 1, to: 1204 }, [1, 1204]],
    ]);
    // Get Bug is asked only for ids that exist: 5.2 would fail a batch holding any other.
    const read = bugzilla.requests.slice(from).filter((request) => /^\/rest\/bug\/\d+\?/.test(request));
    expect(read).toEqual([expect.stringMatching(/^\/rest\/bug\/1\?ids=1204&permissive=1/)]);
  });

  it('stream bugs alone by id range, batch by batch', async () => {
    const batches = [];
    for await (const batch of readBugs(client(), { from: 1198, to: 1207 }, { batchSize: 4 })) batches.push(batch);
    expect(
      batches.map((batch) => [batch.range, batch.bugs.map((bug) => bug.id), batch.faults.map((f) => f.id)]),
    ).toEqual([
      [{ from: 1198, to: 1201 }, [], []],
      [{ from: 1202, to: 1205 }, [1204], [1205]],
      [{ from: 1206, to: 1207 }, [], []],
    ]);
  });

  it('read bundles of everything about a range of bugs, in id order', async () => {
    const bundles = [];
    for await (const bundle of readBugBundles(client(), { from: 1, to: 1210 }, { batchSize: 500 }))
      bundles.push(bundle);
    expect(bundles.map((bundle) => [bundle.range, bundle.bugs.map((bug) => bug.id)])).toEqual([
      [{ from: 1, to: 500 }, [1]],
      [{ from: 501, to: 1000 }, []],
      [{ from: 1001, to: 1210 }, [1204]],
    ]);
    expect(bundles[2].faults.map((fault) => fault.id)).toEqual([1205]);
    expect(bundles[2].missing).toHaveLength(1210 - 1001 + 1 - 2);
    expect(bundles[0].comments.get(1)).toHaveLength(3);
    expect(bundles[2].attachments.get(1204)![0].data).not.toBeNull();
    expect(bundles[2].history.get(1204)).toHaveLength(2);
  });
});

describe('the client under a busy or broken source', () => {
  it('waits as long as Retry-After says after a 429, then succeeds', async () => {
    const retries: number[] = [];
    bugzilla.inject('/rest/field/bug', '429');
    const started = Date.now();
    const fields = await readFields(client({ onRetry: (event) => retries.push(event.delayMs) }));
    expect(fields.length).toBeGreaterThan(0);
    expect(retries).toEqual([1000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries a 500 with backoff', async () => {
    bugzilla.inject('/rest/product', '500', 2);
    const source = client();
    expect(await readProducts(source)).toHaveLength(1);
    expect(source.stats).toMatchObject({ requests: 3, retries: 2 });
  });

  it('gives up a request that does not answer in time, and tries again', async () => {
    bugzilla.inject('/rest/group', 'hang');
    const reasons: string[] = [];
    const groups = await readGroups(client({ timeoutMs: 300, onRetry: (event) => reasons.push(event.reason) }));
    expect(groups).toHaveLength(2);
    expect(reasons).toEqual(['no complete answer within 300 ms']);
  });

  it('stops after its retries with a typed error naming the path, never the key', async () => {
    bugzilla.inject('/rest/product', '500', 3);
    const error = await readProducts(client({ retries: 2 })).catch((caught) => caught);
    expect(error).toBeInstanceOf(SourceRequestError);
    expect(error).toMatchObject({ failure: 'http', httpStatus: 500, attempts: 3 });
    expect(error.message).toBe('/product: HTTP 500 (after 3 attempts)');
  });

  it("does not retry Bugzilla's own errors", async () => {
    const source = client();
    const error = await source.get('/bug/999').catch((caught) => caught);
    expect(error).toBeInstanceOf(BugzillaApiError);
    expect(error).toMatchObject({ code: 101, httpStatus: 404 });
    expect(source.stats.requests).toBe(1);
  });

  it('bounds the requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      most = Math.max(most, ++inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    const source = client({ connections: 3, fetch: counting });
    await Promise.all(Array.from({ length: 12 }, () => source.get('/version')));
    expect(most).toBe(3);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
