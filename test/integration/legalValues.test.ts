/**
 * The installation's own legal values and workflow (Tracker's FieldValues extension: Bugzilla's
 * editvalues.cgi and editworkflow.cgi as routes). An installation that uses P1–P5 and a status of
 * its own is served end to end: bugs are filed, changed, found, ordered and quicksearched by its
 * values; a rename reaches every bug at once; python-bugzilla files a P1 bug. An installation
 * whose values were never stored behaves as it always did.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogKeys } from '../../shared/storage/keys.ts';
import { WriteTransaction } from '../../shared/storage/transaction.ts';
import { DEBIAN_PYTHON } from '../support/python.ts';
import { expectError, fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
});
afterAll(() => app?.close());

const addValue = (field: string, body: Record<string, unknown>, key = admin) =>
  call(app, 'POST', `/rest/field/bug/${field}/values`, { apiKey: key, body });
const editValue = (field: string, value: string, body: Record<string, unknown>) =>
  call(app, 'PUT', `/rest/field/bug/${field}/values/${encodeURIComponent(value)}`, { apiKey: admin, body });
const editWorkflow = (body: Record<string, unknown>) =>
  call(app, 'PUT', '/rest/field/bug/bug_status/workflow', { apiKey: admin, body });
const field = async (name: string) =>
  (await ok(call(app, 'GET', `/rest/field/bug/${name}`))).fields[0] as {
    values: Array<{
      name: string | null;
      sort_key: number;
      is_active?: boolean;
      is_open?: boolean;
      can_change_to?: Array<{ name: string; comment_required: boolean }>;
    }>;
  };
const getBug = async (id: number) => (await ok(call(app, 'GET', `/rest/bug/${id}`, { apiKey: admin }))).bugs[0];
const search = async (query: Record<string, string | string[]>) =>
  (await ok(call(app, 'GET', '/rest/bug', { apiKey: admin, query: { include_fields: 'id', ...query } }))).bugs.map(
    (bug: { id: number }) => bug.id,
  ) as number[];
const update = (id: number, body: Record<string, unknown>) =>
  call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body });

/** Debian's python3-bugzilla, unmodified (.ci/run installs it); without it that test is skipped. */
const hasClients = existsSync('/usr/bin/bugzilla') && existsSync(DEBIAN_PYTHON);
const pythonScript = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pythonBugzillaPriorities.py');

describe('an installation whose values were never stored', () => {
  it('has the default values and workflow (the values in code), as before values were data', async () => {
    const before = await ok(call(app, 'GET', '/rest/field/bug', { query: { names: ['priority', 'bug_status'] } }));
    // Drop what the bootstrap stored, as an installation from before has none.
    const transaction = new WriteTransaction();
    for (const name of ['bug_status', 'resolution', 'priority', 'bug_severity', 'rep_platform', 'op_sys', 'bug_type'])
      transaction.delete(catalogKeys.fieldValues(name));
    transaction.delete(catalogKeys.workflow());
    await transaction.commit();
    const after = await ok(call(app, 'GET', '/rest/field/bug', { query: { names: ['priority', 'bug_status'] } }));
    expect(after).toEqual(before);
    const priority = after.fields.find((entry: { name: string }) => entry.name === 'priority');
    expect(priority.values.map((value: { name: string }) => value.name)).toEqual([
      'Highest',
      'High',
      'Normal',
      'Low',
      'Lowest',
      '---',
    ]);
    const id = await fileTestBug(app, admin, { priority: 'High' });
    expect((await getBug(id)).priority).toBe('High');
  });

  it('lists the FieldValues extension', async () => {
    const { extensions } = await ok(call(app, 'GET', '/rest/extensions'));
    expect(Object.keys(extensions).sort()).toEqual(['FieldValues', 'OpenAPI', 'Tracker']);
  });
});

describe('priorities P1–P5', () => {
  const ids: Record<string, number> = {};

  it('are added, made the default, and the old priorities disabled', async () => {
    for (const [position, name] of ['P1', 'P2', 'P3', 'P4', 'P5'].entries())
      expect(await ok(addValue('priority', { name, sort_key: 10 * (position + 1) }))).toEqual({
        field: 'priority',
        name,
      });
    expect(
      (await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { defaultpriority: 'P3' } }))).changes,
    ).toEqual({ defaultpriority: { removed: '---', added: 'P3' } });
    for (const name of ['Highest', 'High', 'Normal', 'Low', 'Lowest', '---'])
      expect((await ok(editValue('priority', name, { is_active: false }))).values[0].changes).toEqual({
        is_active: { removed: '1', added: '0' },
      });
    const values = (await field('priority')).values;
    expect(values.map((value) => [value.name, value.sort_key, value.is_active ?? true])).toEqual([
      ['P1', 10, true],
      ['P2', 20, true],
      ['P3', 30, true],
      ['P4', 40, true],
      ['P5', 50, true],
      ['Highest', 100, false],
      ['High', 200, false],
      ['Normal', 300, false],
      ['Low', 400, false],
      ['Lowest', 500, false],
      ['---', 600, false],
    ]);
    expect((await ok(call(app, 'GET', '/rest/field/bug/priority/values'))).values).toEqual([
      'P1',
      'P2',
      'P3',
      'P4',
      'P5',
    ]);
  });

  it('refuses what Bugzilla refuses', async () => {
    expectError(await editValue('priority', 'P3', { is_active: false }), 32000, 400);
    expectError(await addValue('priority', { name: 'p1' }), 32000, 400);
    expectError(await editValue('priority', 'P9', { sort_key: 1 }), 51, 404);
    expectError(
      await call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { defaultpriority: 'High' } }),
      32000,
      400,
    );
    const plain = await userWithKey(app, 'plain-values', ['editcomponents', 'tweakparams']);
    expectError(await addValue('priority', { name: 'P6' }, plain), 304, 401);
    expectError(await addValue('component', { name: 'Gears' }), 32000, 400);
    expectError(await addValue('cf_nothing', { name: 'x' }), 51, 404);
  });

  it('file bugs with P1 (and the default P3), never a disabled priority', async () => {
    for (const priority of ['P2', 'P5', 'P1', 'P4']) ids[priority] = await fileTestBug(app, admin, { priority });
    expect((await getBug(ids.P1)).priority).toBe('P1');
    expect((await getBug(await fileTestBug(app, admin))).priority).toBe('P3');
    expectError(
      await call(app, 'POST', '/rest/bug', { apiKey: admin, body: { ...testBug(), priority: 'Highest' } }),
      32000,
      400,
    );
  });

  it('are searched, ordered by their sort keys and quicksearched as P1', async () => {
    expect(await search({ priority: 'P1' })).toEqual([ids.P1]);
    expect(await search({ priority: ['P2', 'P4'] })).toEqual([ids.P2, ids.P4].sort((a, b) => a - b));
    const ordered = await search({ priority: ['P1', 'P2', 'P4', 'P5'], order: 'priority,bug_id' });
    expect(ordered).toEqual([ids.P1, ids.P2, ids.P4, ids.P5]);
    expect(await search({ priority: ['P1', 'P2', 'P4', 'P5'], order: 'priority DESC,bug_id' })).toEqual([
      ids.P5,
      ids.P4,
      ids.P2,
      ids.P1,
    ]);
    expect(await search({ quicksearch: 'P1' })).toEqual([ids.P1]);
    expect(await search({ quicksearch: 'P4-5' })).toEqual([ids.P5, ids.P4].sort((a, b) => a - b));
  });

  it.skipIf(!hasClients)('are what python-bugzilla files, changes and finds bugs with', async () => {
    // Asynchronous on purpose: the API answers from this same process.
    const { stdout } = await promisify(execFile)(DEBIAN_PYTHON, [pythonScript, `${app.url}/rest`, admin], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const results = JSON.parse(stdout);
    expect(results).toEqual({
      created: { id: expect.any(Number), priority: 'P1' },
      changes: { priority: { removed: 'P1', added: 'P2' } },
      updated: 'P2',
      found: expect.arrayContaining([results.created.id]),
    });
  });

  it('follow a rename on every bug at once, without history or a new last change time', async () => {
    const before = await getBug(ids.P1);
    expect(await ok(editValue('priority', 'P1', { name: 'Urgent' }))).toEqual({
      values: [{ field: 'priority', name: 'Urgent', changes: { name: { removed: 'P1', added: 'Urgent' } } }],
    });
    const after = await getBug(ids.P1);
    expect(after.priority).toBe('Urgent');
    expect(after.last_change_time).toBe(before.last_change_time);
    expect(await search({ priority: 'Urgent' })).toEqual([ids.P1]);
    expect(await search({ priority: 'P1' })).toEqual([]);
    // Quicksearch P1 is now the first priority by position, Urgent (and, as ever, the word P1 in
    // summaries and comments: python-bugzilla's "Python P1 bug" below).
    const quick = await search({ quicksearch: 'P1' });
    expect(quick).toContain(ids.P1);
    expect(quick).not.toContain(ids.P2);
    // A change of another field keeps the priority as it is now, and records no priority change.
    const changed = await ok(update(ids.P1, { summary: 'Renamed priority' }));
    expect(changed.bugs[0].changes).not.toHaveProperty('priority');
    expect((await getBug(ids.P1)).priority).toBe('Urgent');
    // The default follows its value's rename (Bugzilla's SetParam).
    await ok(editValue('priority', 'P3', { name: 'Medium' }));
    const parameters = await ok(call(app, 'GET', '/rest/parameters', { apiKey: admin }));
    expect(parameters.parameters.defaultpriority).toBe('Medium');
    expect((await getBug(await fileTestBug(app, admin))).priority).toBe('Medium');
  });
});

const testBug = () => ({
  product: 'TestProduct',
  component: 'TestComponent',
  version: 'unspecified',
  summary: 'A bug',
  description: 'Steps.',
  op_sys: 'Linux',
  platform: 'PC',
});

describe('a status of its own', () => {
  let bug: number;

  it('is added with its moves, comment required for one of them', async () => {
    expect(await ok(addValue('status', { name: 'IN_REVIEW', sort_key: 350 }))).toEqual({
      field: 'bug_status',
      name: 'IN_REVIEW',
    });
    const workflow = await ok(
      editWorkflow({
        add: [
          { from: 'IN_PROGRESS', to: 'IN_REVIEW' },
          { from: 'IN_REVIEW', to: 'IN_PROGRESS' },
          { from: 'IN_REVIEW', to: 'VERIFIED', comment_required: true },
        ],
        remove: [{ from: 'IN_PROGRESS', to: 'CONFIRMED' }],
      }),
    );
    expect(workflow.changes).toEqual({
      added: [
        { from: 'IN_PROGRESS', to: 'IN_REVIEW', comment_required: false },
        { from: 'IN_REVIEW', to: 'IN_PROGRESS', comment_required: false },
        { from: 'IN_REVIEW', to: 'VERIFIED', comment_required: true },
      ],
      removed: [{ from: 'IN_PROGRESS', to: 'CONFIRMED', comment_required: false }],
    });
    const statuses = (await field('bug_status')).values;
    const review = statuses.find((value) => value.name === 'IN_REVIEW')!;
    expect(review).toMatchObject({ is_open: true, sort_key: 350 });
    // The new status reaches the duplicates' status at once (Bugzilla's add_missing_bug_status_transitions).
    expect(review.can_change_to).toEqual([
      { name: 'IN_PROGRESS', comment_required: false },
      { name: 'RESOLVED', comment_required: false },
      { name: 'VERIFIED', comment_required: true },
    ]);
    expect(statuses.find((value) => value.name === 'IN_PROGRESS')!.can_change_to!.map((move) => move.name)).toEqual([
      'IN_REVIEW',
      'RESOLVED',
    ]);
    expectError(await editWorkflow({ add: [{ from: null, to: 'VERIFIED' }] }), 32000, 400);
    expectError(await editValue('status', 'UNCONFIRMED', { name: 'TRIAGE' }), 32000, 400);
    expectError(await editValue('status', 'RESOLVED', { is_active: false }), 32000, 400);
  });

  it('takes a bug through it, asking for the comment the workflow requires', async () => {
    bug = await fileTestBug(app, admin);
    await ok(update(bug, { status: 'IN_PROGRESS' }));
    expectError(await update(bug, { status: 'CONFIRMED' }), 123, 400);
    expect((await ok(update(bug, { status: 'in_review' }))).bugs[0].changes.status).toEqual({
      removed: 'IN_PROGRESS',
      added: 'IN_REVIEW',
    });
    const open = await getBug(bug);
    expect(open).toMatchObject({ status: 'IN_REVIEW', is_open: true, resolution: '' });
    expect(await search({ status: 'IN_REVIEW' })).toEqual([bug]);
    expect(await search({ quicksearch: 'IN_REVIEW' })).toEqual([bug]);
    expect(await search({ id: String(bug), bug_status: 'OPEN' })).toEqual([bug]);
    const refused = await update(bug, { status: 'VERIFIED', resolution: 'FIXED' });
    expectError(refused, 32000, 400);
    expect(refused.body.message).toBe(
      'You have to specify a comment when changing the status of a bug from IN_REVIEW to VERIFIED.',
    );
    await ok(update(bug, { status: 'VERIFIED', resolution: 'FIXED', comment: { body: 'Reviewed.' } }));
    expect(await getBug(bug)).toMatchObject({ status: 'VERIFIED', resolution: 'FIXED', is_open: false });
  });

  it('follows its rename on every bug, and its moves too', async () => {
    const other = await fileTestBug(app, admin);
    await ok(update(other, { status: 'IN_PROGRESS' }));
    await ok(update(other, { status: 'IN_REVIEW' }));
    await ok(editValue('bug_status', 'IN_REVIEW', { name: 'REVIEW' }));
    expect((await getBug(other)).status).toBe('REVIEW');
    expect(await search({ status: 'REVIEW' })).toEqual([other]);
    expect(await search({ status: 'IN_REVIEW' })).toEqual([]);
    expect((await ok(update(other, { status: 'IN_PROGRESS' }))).bugs[0].changes.status).toEqual({
      removed: 'REVIEW',
      added: 'IN_PROGRESS',
    });
    const statuses = (await field('bug_status')).values;
    expect(statuses.find((value) => value.name === 'IN_PROGRESS')!.can_change_to!.map((move) => move.name)).toEqual([
      'REVIEW',
      'RESOLVED',
    ]);
  });
});

describe('editing values at the same time', () => {
  it('keeps every one of several parallel additions and edits (each retried on the catalogue it read)', async () => {
    const names = ['Sev-A', 'Sev-B', 'Sev-C', 'Sev-D', 'Sev-E'];
    const answers = await Promise.all([
      ...names.map((name, index) => addValue('bug_severity', { name, sort_key: 1000 + index })),
      editValue('bug_severity', 'trivial', { sort_key: 999 }),
    ]);
    for (const answer of answers) expect(answer.status).toBe(200);
    const severities = (await field('bug_severity')).values;
    for (const name of names) expect(severities.map((value) => value.name)).toContain(name);
    expect(severities.find((value) => value.name === 'trivial')!.sort_key).toBe(999);
  });
});
