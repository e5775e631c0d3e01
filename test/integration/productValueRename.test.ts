/**
 * Renaming a version or a milestone reaches every bug that carries it, as Bugzilla's rename
 * (Bugzilla::Version->update, Bugzilla::Milestone->update) rewrites `bugs.version` and
 * `bugs.target_milestone` of the product: Get Bug and searches show the new name, the old name
 * is no legal value any more, and the history is left as it was (no row, no new last change time),
 * with the old names in the rows written before. Bugs keep ids, so this holds at any number of bugs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactSearchIndex } from '../../shared/application/search/searchCompactor.ts';
import { dropSearchIndex } from '../../shared/application/search/searchIndexHolder.ts';
import { nextSecond, useSteppableClock } from '../support/clock.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

let app: TestApp;
let admin: string;

const newBug = (overrides: Record<string, unknown>) => ({
  product: 'Renames',
  component: 'Core',
  summary: 'A bug with a version',
  description: 'Steps',
  op_sys: 'Linux',
  platform: 'PC',
  ...overrides,
});

async function fileBug(overrides: Record<string, unknown>): Promise<number> {
  const response = await call(app, 'POST', '/rest/bug', { apiKey: admin, body: newBug(overrides) });
  expect(response.body, JSON.stringify(response.body)).toHaveProperty('id');
  return response.body.id;
}

const getBug = async (id: number) =>
  (await call(app, 'GET', `/rest/bug/${id}`, { apiKey: admin })).body.bugs[0] as Record<string, unknown>;

const searchIds = async (query: Record<string, string>) => {
  const response = await call(app, 'GET', '/rest/bug', { apiKey: admin, query: { ...query, include_fields: 'id' } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.bugs as Array<{ id: number }>).map((bug) => bug.id).sort((a, b) => a - b);
};

const historyOf = async (id: number) =>
  (await call(app, 'GET', `/rest/bug/${id}/history`, { apiKey: admin })).body.bugs[0].history as Array<{
    changes: Array<{ field_name: string; removed: string; added: string }>;
  }>;

const rename = (kind: 'version' | 'milestone', product: string, from: string, to: string) =>
  call(app, 'PUT', `/rest/product/${product}/${kind}/${encodeURIComponent(from)}`, {
    apiKey: admin,
    body: { name: to },
  });

async function product(name: string, version: string, milestones: string[]) {
  const created = await call(app, 'POST', '/rest/product', {
    apiKey: admin,
    body: { name, description: name, version },
  });
  expect(created.body, JSON.stringify(created.body)).toHaveProperty('id');
  await call(app, 'POST', '/rest/component', {
    apiKey: admin,
    body: { product: name, name: 'Core', description: 'Core', default_assignee: app.admin.login },
  });
  for (const milestone of milestones)
    await call(app, 'POST', `/rest/product/${name}/milestone`, { apiKey: admin, body: { name: milestone } });
}

useSteppableClock();
beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await product('Renames', '1.0', ['M1', 'M2']);
  await call(app, 'POST', '/rest/product/Renames/version', { apiKey: admin, body: { name: '2.0' } });
  // Another product with a version and a milestone of the same names: a rename is per product.
  await product('Elsewhere', '1.0', ['M1']);
});
afterAll(async () => {
  await app?.close();
});

describe('renaming a version or a milestone', () => {
  let renamed: number;
  let untouched: number;
  let elsewhere: number;
  let before: Record<string, unknown>;

  beforeAll(async () => {
    // Filed in 2.0, then moved to 1.0: a history row written with the names of the time.
    renamed = await fileBug({ version: '2.0', target_milestone: 'M1' });
    nextSecond();
    await call(app, 'PUT', `/rest/bug/${renamed}`, { apiKey: admin, body: { version: '1.0' } });
    untouched = await fileBug({ version: '2.0', target_milestone: 'M2' });
    elsewhere = await fileBug({ product: 'Elsewhere', version: '1.0', target_milestone: 'M1' });
    before = await getBug(renamed);
    nextSecond();
    expect((await rename('version', 'Renames', '1.0', '1.5')).status).toBe(200);
    expect((await rename('milestone', 'Renames', 'M1', 'M1-final')).status).toBe(200);
  });

  it('shows the new names on every bug of the product, and no other product changes', async () => {
    expect(await getBug(renamed)).toMatchObject({ version: '1.5', target_milestone: 'M1-final' });
    expect(await getBug(untouched)).toMatchObject({ version: '2.0', target_milestone: 'M2' });
    expect(await getBug(elsewhere)).toMatchObject({ version: '1.0', target_milestone: 'M1' });
  });

  it('leaves the history and the last change time as they were, old names included, as Bugzilla does', async () => {
    expect((await getBug(renamed)).last_change_time).toBe(before.last_change_time);
    const changes = (await historyOf(renamed)).flatMap((entry) => entry.changes);
    expect(changes).toEqual([{ field_name: 'version', removed: '2.0', added: '1.0' }]);
  });

  it('finds the bugs by the new name, no longer by the old one, and by history under the old name', async () => {
    expect(await searchIds({ product: 'Renames', version: '1.5' })).toEqual([renamed]);
    expect(await searchIds({ product: 'Renames', version: '1.0' })).toEqual([]);
    expect(await searchIds({ version: '1.0' })).toEqual([elsewhere]);
    expect(await searchIds({ target_milestone: 'M1-final' })).toEqual([renamed]);
    expect(await searchIds({ product: 'Renames', target_milestone: 'M1' })).toEqual([]);
    expect(await searchIds({ f1: 'version', o1: 'substring', v1: '.5' })).toEqual([renamed]);
    expect(await searchIds({ quicksearch: 'ver:1.5' })).toEqual([renamed]);
    expect(await searchIds({ f1: 'version', o1: 'changedto', v1: '1.0' })).toEqual([renamed]);
    // A new search instance starts from a snapshot written after the rename.
    await compactSearchIndex();
    dropSearchIndex();
    expect(await searchIds({ version: '1.5' })).toEqual([renamed]);
    expect(await searchIds({ target_milestone: 'M1-final' })).toEqual([renamed]);
  });

  it('sorts by the names as they are now', async () => {
    const response = await call(app, 'GET', '/rest/bug', {
      apiKey: admin,
      query: { product: 'Renames', order: 'version DESC', include_fields: 'id,version' },
    });
    expect(response.body.bugs).toEqual([
      { id: untouched, version: '2.0' },
      { id: renamed, version: '1.5' },
    ]);
  });

  it('takes the old name out of the legal values and accepts the new one on bug writes', async () => {
    const [field] = (await call(app, 'GET', '/rest/field/bug/version', { apiKey: admin })).body.fields;
    const names = (field.values as Array<{ name: string; visibility_values: string[] }>)
      .filter((value) => value.visibility_values.includes('Renames'))
      .map((value) => value.name);
    expect(names.sort()).toEqual(['1.5', '2.0']);
    expect((await call(app, 'POST', '/rest/bug', { apiKey: admin, body: newBug({ version: '1.0' }) })).body.code).toBe(
      51,
    );
    const filed = await fileBug({ version: '1.5', target_milestone: 'm1-FINAL' });
    expect(await getBug(filed)).toMatchObject({ version: '1.5', target_milestone: 'M1-final' });
    // A later change of the bug keeps its version and writes no version row.
    nextSecond();
    await call(app, 'PUT', `/rest/bug/${renamed}`, { apiKey: admin, body: { priority: 'High' } });
    expect(await getBug(renamed)).toMatchObject({ version: '1.5', priority: 'High' });
    const changes = (await historyOf(renamed)).flatMap((entry) => entry.changes);
    expect(changes.filter((change) => change.field_name === 'version')).toHaveLength(1);
  });

  it("keeps the rule that the product's default milestone cannot be renamed", async () => {
    const refused = await rename('milestone', 'Renames', '---', 'Future');
    expect(refused.status).toBe(400);
    expect(await getBug(untouched)).toMatchObject({ target_milestone: 'M2' });
  });
});

describe('bugs stored with names, before bugs kept ids', () => {
  it('read as the value of that name, or of the value renamed from it', async () => {
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient, tableName } = await import('../../shared/storage/dynamoClient.ts');
    const id = await fileBug({ version: '2.0', target_milestone: 'M2' });
    // The item as the code before this change wrote it: names, no ids. Its version was renamed since.
    await call(app, 'POST', '/rest/product/Renames/version', { apiKey: admin, body: { name: '3.0' } });
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `BUG#${id}`, sk: 'BUG' },
        UpdateExpression: 'SET version = :version, targetMilestone = :milestone REMOVE versionId, targetMilestoneId',
        ExpressionAttributeValues: { ':version': '3.0', ':milestone': 'M2' },
      }),
    );
    expect((await rename('version', 'Renames', '3.0', '3.1')).status).toBe(200);
    expect(await getBug(id)).toMatchObject({ version: '3.1', target_milestone: 'M2' });
    // Its next write stores the ids.
    nextSecond();
    await call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body: { priority: 'Low' } });
    expect(await getBug(id)).toMatchObject({ version: '3.1', target_milestone: 'M2', priority: 'Low' });
    expect(await searchIds({ version: '3.1' })).toEqual([id]);
  });
});
