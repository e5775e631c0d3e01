import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AttachmentRecord,
  type BugBundle,
  type BugRecord,
  type BugzillaClient,
  createBugzillaClient,
  highestBugId,
  probeSource,
  readAttachments,
  readBugBundles,
  readBugIds,
  readClassifications,
  readFields,
  readFlagTypes,
  readGroups,
  readKeywords,
  readProducts,
  readUsers,
  type SourceProbe,
  type UserRecord,
  workflowOf,
} from '../../local/import/source/index.ts';
import { type SeededInstallation, seedInstallation } from '../support/seededInstallation.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The importer's source side against a real Tracker: the probe recognises it, and every reader
 * gives back exactly what was created over the API (catalogue, users, groups, and bugs with every
 * field, comments, attachment bodies byte for byte, history). A bug in a group the account is
 * not in is reported by id, not skipped.
 */

let app: TestApp;
let source: BugzillaClient;
let probe: SourceProbe;
const admin = () => app.admin.apiKey;
let seeded: SeededInstallation;

beforeAll(async () => {
  app = await startTestApp();
  seeded = await seedInstallation(app);
  source = createBugzillaClient({ baseUrl: `${app.url}/rest`, apiKey: admin(), connections: 4 });
  probe = await probeSource(source);
});
afterAll(async () => {
  await app?.close();
});

describe('the probe', () => {
  it('recognises Tracker, its administrator, and that nothing will be missing', () => {
    expect(probe).toMatchObject({
      kind: 'tracker',
      version: '5.2',
      keyTransport: 'header',
      account: { id: app.admin.id, login: app.admin.login },
      capabilities: {
        admin: true,
        editusers: true,
        creategroups: true,
        tweakparams: true,
        editcomponents: true,
        insider: true,
        timetracking: true,
      },
    });
    expect(Object.keys(probe.extensions)).toEqual(['Tracker', 'FieldValues', 'OpenAPI']);
    // Tracker's administrators are in every group, bug groups included, so they see every bug.
    expect(probe.hiddenBugGroups).toEqual([]);
    expect(probe.missing).toEqual([]);
  });

  it('says the key is wrong, and what is missing for a plain user', async () => {
    const bad = await probeSource(createBugzillaClient({ baseUrl: `${app.url}/rest`, apiKey: 'x'.repeat(40) })).catch(
      (caught) => caught,
    );
    expect(bad).toMatchObject({ reason: 'bad-key', message: expect.stringMatching(/not valid.*306/) });
    const plain = await probeSource(createBugzillaClient({ baseUrl: `${app.url}/rest`, apiKey: seeded.plainKey }));
    expect(plain.capabilities).toMatchObject({ admin: false, editusers: false, insider: null, timetracking: null });
    expect(plain.hiddenBugGroups).toBeNull();
    expect(plain.missing.join('\n')).toMatch(/not in the admin group[\s\S]*editusers[\s\S]*private comments/);
  });
});

describe('the catalogue readers', () => {
  it('read fields, the workflow, classifications, keywords and custom fields', async () => {
    const fields = await readFields(source);
    const browser = fields.find((field) => field.name === 'cf_browser')!;
    expect(browser).toMatchObject({ isCustom: true, type: 2, displayName: 'Browser' });
    expect(browser.values.map((value) => value.name)).toEqual(expect.arrayContaining(['Firefox', 'Chrome']));
    const workflow = workflowOf(fields);
    expect(workflow.initial?.map((to) => to.name)).toEqual(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS']);
    expect(workflow.statuses.map((status) => [status.name, status.isOpen])).toEqual([
      ['UNCONFIRMED', true],
      ['CONFIRMED', true],
      ['IN_PROGRESS', true],
      ['RESOLVED', false],
      ['VERIFIED', false],
    ]);
    expect(await readClassifications(source, fields)).toContainEqual({
      id: expect.any(Number),
      name: 'Hardware',
      description: 'Things you can touch',
      sortKey: 7,
    });
    expect(await readKeywords(source, fields)).toEqual([
      { id: expect.any(Number), name: 'regression', description: 'It used to work', isActive: true },
    ]);
  });

  it('read products with components, versions, milestones, group controls and flag types', async () => {
    const products = await readProducts(source);
    const widget = products.find((product) => product.name === 'Widget')!;
    expect(widget).toMatchObject({
      description: 'Widgets & gadgets',
      classification: 'Hardware',
      hasUnconfirmed: false,
      defaultMilestone: 'M1',
      isActive: true,
      groupControls: [],
    });
    expect(widget.versions.map((value) => [value.name, value.sortKey, value.isActive])).toEqual([
      ['1.0', 0, true],
      ['2.0', 2, true],
    ]);
    expect(widget.milestones.map((value) => [value.name, value.isActive])).toEqual([
      ['---', true],
      ['M1', true],
      ['M2', false],
    ]);
    expect(
      widget.components.map((component) => [component.name, component.defaultAssignee, component.defaultQaContact]),
    ).toEqual([
      ['Gears', 'dev@tracker.test', 'qa-lead@tracker.test'],
      ['Springs', app.admin.login, null],
    ]);
    const hidden = products.find((product) => product.name === 'Hidden')!;
    expect(hidden.groupControls).toEqual([
      {
        group: 'secret',
        entry: true,
        memberControl: 'MANDATORY',
        otherControl: 'MANDATORY',
        canEdit: false,
        editComponents: false,
        editBugs: false,
        canConfirm: false,
      },
    ]);

    const flagTypes = await readFlagTypes(source, products);
    expect(flagTypes.map((type) => [type.name, type.targetType, type.appliesTo])).toEqual([
      ['review', 'attachment', [{ product: 'Widget', component: 'Gears' }]],
      [
        'needinfo',
        'bug',
        [
          { product: 'Widget', component: 'Gears' },
          { product: 'Widget', component: 'Springs' },
        ],
      ],
    ]);
    expect(flagTypes[1]).toMatchObject({ sortKey: 3, isMultiplicable: true, isRequesteeble: true, isActive: true });
  });

  it('read groups with their members and users by id, disabled ones included', async () => {
    const groups = await readGroups(source);
    expect(groups.find((group) => group.name === 'testers')).toEqual({
      id: expect.any(Number),
      name: 'testers',
      description: 'Test team',
      isActive: true,
      isBugGroup: true,
      userRegexp: '^qa-.*@tracker\\.test$',
      // dev is a member by hand, qa-lead by the regular expression, the administrator as such.
      members: [
        { id: app.admin.id, login: app.admin.login },
        { id: seeded.users.dev, login: 'dev@tracker.test' },
        { id: seeded.users['qa-lead'], login: 'qa-lead@tracker.test' },
      ],
    });

    const users: UserRecord[] = [];
    for await (const batch of readUsers(source, { batchSize: 3, stopAfterEmptyBatches: 2 })) users.push(...batch.users);
    const listed = await ok(
      call(app, 'GET', '/rest/user', { apiKey: admin(), query: { match: 'tracker.test', include_disabled: 1 } }),
    );
    expect(users.map((user) => user.login).sort()).toEqual(listed.users.map((user: any) => user.name).sort());
    expect(users.find((user) => user.id === seeded.users.gone)).toMatchObject({
      login: 'gone@tracker.test',
      realName: 'gone person',
      canLogin: false,
      loginDeniedText: 'Left the company',
      emailEnabled: true,
    });
    expect(users.find((user) => user.id === seeded.users.dev)!.groups!.map((group) => group.name)).toEqual(
      expect.arrayContaining(['editbugs', 'testers', 'bz_canusewhines']),
    );
  });
});

describe('the bug readers', () => {
  let bundles: BugBundle[];
  let bugs: Map<number, BugRecord>;
  beforeAll(async () => {
    const last = await highestBugId(source);
    expect(last).toBe(seeded.bugs.at(-1));
    bundles = [];
    for await (const bundle of readBugBundles(source, { from: 1, to: last + 2 }, { batchSize: 2 }))
      bundles.push(bundle);
    bugs = new Map(bundles.flatMap((bundle) => bundle.bugs).map((bug) => [bug.id, bug]));
  });

  it('read every bug, and name the missing ids', () => {
    expect([...bugs.keys()]).toEqual(seeded.bugs);
    expect(bundles.flatMap((bundle) => bundle.faults)).toEqual([]);
    expect(bundles.flatMap((bundle) => bundle.missing)).toEqual([seeded.bugs.at(-1)! + 1, seeded.bugs.at(-1)! + 2]);
  });

  it('name the bugs an account may not see, by id, without failing the batch', async () => {
    const plain = createBugzillaClient({ baseUrl: `${app.url}/rest`, apiKey: seeded.plainKey, keyTransport: 'header' });
    const batch = await readBugIds(plain, [seeded.bugs[0], seeded.hiddenBug]);
    expect(batch.bugs.map((bug) => bug.id)).toEqual([seeded.bugs[0]]);
    expect(batch.faults).toEqual([{ id: seeded.hiddenBug, code: 102, message: expect.any(String) }]);
    expect(batch.missing).toEqual([]);
  });

  it('give every field the API gives, under its record name', async () => {
    for (const bug of bugs.values()) {
      const wire = (
        await ok(
          call(app, 'GET', `/rest/bug/${bug.id}`, {
            apiKey: admin(),
            query: { include_fields: '_all', exclude_fields: 'comments,history,attachments,description' },
          }),
        )
      ).bugs[0];
      expect(bug).toEqual(recordOf(wire));
    }
    expect(bugs.get(seeded.bugs[0])).toMatchObject({
      alias: ['grinding'],
      status: 'IN_PROGRESS',
      priority: 'Highest',
      type: 'defect',
      targetMilestone: 'M1',
      keywords: ['regression'],
      deadline: '2030-01-31',
      estimatedTime: 6.5,
      remainingTime: 1.5, // 3, less the 1.5 hours worked since
      actualTime: 1.5,
      blocks: [seeded.bugs[1]],
      duplicates: [seeded.bugs[2]],
      tags: ['later', 'mine'],
      custom: { cf_browser: 'Firefox', cf_notes: 'Only on Mondays' },
      flags: [expect.objectContaining({ name: 'needinfo', status: '?', requestee: 'dev@tracker.test' })],
    });
    expect(bugs.get(seeded.bugs[2])).toMatchObject({
      status: 'RESOLVED',
      resolution: 'DUPLICATE',
      dupeOf: seeded.bugs[0],
    });
  });

  it('give comments, attachments with their bodies, and history as the API does', async () => {
    for (const bundle of bundles)
      for (const bug of bundle.bugs) {
        const comments = (await ok(call(app, 'GET', `/rest/bug/${bug.id}/comment`, { apiKey: admin() }))).bugs[bug.id]
          .comments;
        expect(bundle.comments.get(bug.id)!.map(({ kind: _kind, extraData: _extra, ...comment }) => comment)).toEqual(
          comments.map(commentOf),
        );
        const history = (await ok(call(app, 'GET', `/rest/bug/${bug.id}/history`, { apiKey: admin() }))).bugs[0]
          .history;
        expect(bundle.history.get(bug.id)).toEqual(history.map(historyOf));
        const attachments = (await ok(call(app, 'GET', `/rest/bug/${bug.id}/attachment`, { apiKey: admin() }))).bugs[
          bug.id
        ];
        expect(bundle.attachments.get(bug.id)).toEqual(attachments.map(attachmentOf));
      }
    const first = bundles.flatMap((bundle) => [...bundle.comments.entries()]).find(([id]) => id === seeded.bugs[0])![1];
    expect(first.map((comment) => [comment.kind, comment.rawText, comment.isPrivate, comment.isMarkdown])).toEqual([
      ['normal', 'Steps:\n1. turn\n2. listen', false, false],
      ['normal', 'Working on it, **really**.', false, true],
      ['normal', 'Insiders only', true, false],
      ['attachment_created', 'Here is a fix', false, false],
      ['attachment_created', '', true, false],
      ['attachment_updated', 'Superseded', false, false],
      ['has_dupe', '', false, false],
    ]);
    expect(first[2].tags).toEqual(['needinfo', 'spam']);
    const bodies = bundles.flatMap((bundle) => [...bundle.attachments.values()].flat());
    expect(new Map(bodies.map((attachment) => [attachment.id, attachment.data]))).toEqual(seeded.bodies);
    expect(bodies.map((attachment) => [attachment.fileName, attachment.isObsolete, attachment.isPrivate])).toEqual([
      ['oil.patch', true, false],
      ['screenshot.png', false, true],
    ]);
    expect(bodies[0].flags).toEqual([expect.objectContaining({ name: 'review', requestee: 'dev@tracker.test' })]);
  });

  it('split a body read Tracker finds too large for one answer', async () => {
    // Together above the 6,150,000 base64 bytes one Lambda answer carries; each alone below.
    await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin(), body: { maxattachmentsize: 2500 } }));
    const bug = await fileTestBug(app, admin());
    const big = [Buffer.alloc(2_400_000, 'a'), Buffer.alloc(2_400_000, 'b')];
    for (const [index, body] of big.entries())
      await ok(
        call(app, 'POST', `/rest/bug/${bug}/attachment`, {
          apiKey: admin(),
          body: {
            file_name: `big${index}.txt`,
            summary: 'Big',
            content_type: 'text/plain',
            data: body.toString('base64'),
          },
        }),
      );
    const together = await call(app, 'GET', `/rest/bug/${bug}/attachment`, { apiKey: admin() });
    expect(together.body.code).toBe(600);
    const read = (await readAttachments(source, [bug], { bodyBudgetBytes: 10_000_000 })).get(bug)!;
    // Buffer.equals: vitest's element-by-element comparison of megabytes takes seconds.
    expect(read.map((attachment, index) => attachment.data?.equals(big[index]))).toEqual([true, true]);
  });
});

// The API's objects as the records should carry them: Bugzilla's names in camelCase, with the
// differences sourceRecords.ts makes (alias a list, "" logins null, custom fields apart).
const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const NOT_CARRIED = new Set(['update_token', 'counts', 'triage_owner', 'triage_owner_detail']);
const DETAILS = ['assigned_to_detail', 'creator_detail', 'qa_contact_detail', 'cc_detail'];

function flagOf(flag: any) {
  return {
    id: flag.id,
    name: flag.name,
    typeId: flag.type_id,
    status: flag.status,
    setter: flag.setter,
    requestee: flag.requestee ?? null,
    creationDate: flag.creation_date,
    modificationDate: flag.modification_date,
  };
}

function recordOf(wire: Record<string, any>): BugRecord {
  const record: Record<string, unknown> = { custom: {}, people: [] };
  const people = new Map<number, unknown>();
  for (const [name, value] of Object.entries(wire)) {
    if (NOT_CARRIED.has(name)) continue;
    if (DETAILS.includes(name)) {
      for (const person of [value].flat())
        people.set(person.id, { id: person.id, login: person.name, realName: person.real_name });
    } else if (name.startsWith('cf_')) (record.custom as Record<string, unknown>)[name] = value;
    else if (name === 'alias') record.alias = value === null ? [] : [value];
    else if (name === 'qa_contact') record.qaContact = value || null;
    else if (name === 'flags') record.flags = value.map(flagOf);
    else record[camel(name)] = value;
  }
  record.people = [...people.values()].sort((a: any, b: any) => a.id - b.id);
  return record as unknown as BugRecord;
}

function commentOf(wire: any) {
  return {
    id: wire.id,
    bugId: wire.bug_id,
    count: wire.count,
    text: wire.text,
    rawText: wire.raw_text,
    creator: wire.creator,
    creationTime: wire.creation_time,
    isPrivate: wire.is_private,
    isMarkdown: wire.is_markdown,
    tags: wire.tags,
    attachmentId: wire.attachment_id,
  };
}

function historyOf(entry: any) {
  return {
    when: entry.when,
    who: entry.who,
    changes: entry.changes.map((change: any) => ({
      fieldName: change.field_name,
      removed: change.removed,
      added: change.added,
      attachmentId: change.attachment_id ?? null,
      commentId: change.comment_id ?? null,
      commentCount: change.comment_count ?? null,
    })),
  };
}

function attachmentOf(wire: any): AttachmentRecord {
  return {
    id: wire.id,
    bugId: wire.bug_id,
    fileName: wire.file_name,
    summary: wire.summary,
    contentType: wire.content_type,
    isPrivate: wire.is_private,
    isObsolete: wire.is_obsolete,
    isPatch: wire.is_patch,
    creator: wire.creator,
    creationTime: wire.creation_time,
    lastChangeTime: wire.last_change_time,
    size: wire.size,
    flags: wire.flags.map(flagOf),
    data: Buffer.from(wire.data, 'base64'),
  };
}
