/**
 * An installation's own legal values survive an import (issue 17): a source whose priorities are
 * P1–P5 (added through the admin routes, P3 the default, the stock priorities disabled), served
 * from a process of its own, is imported into a fresh installation in this process. The target
 * then lists P1–P5 as its active priorities, keeps the imported bug's P2, and the real
 * python-bugzilla files a P1 bug there that reads back as P1 and is found by `priority=P1`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../local/import/runImport.ts';
import {
  type AppProcess,
  copyInstallation,
  freshStorage,
  startAppProcess,
  testAppStorage,
} from '../support/appProcess.ts';
import { DEBIAN_PYTHON } from '../support/python.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/** Debian's python3-bugzilla, unmodified (.ci/run installs it); without it that test is skipped. */
const hasClients = existsSync('/usr/bin/bugzilla') && existsSync(DEBIAN_PYTHON);

/** Files a P1 bug, reads it back and searches `priority=P1`, through python-bugzilla; prints JSON. */
const PYTHON_P1_BUG = `
import json, sys
import bugzilla
bz = bugzilla.Bugzilla(sys.argv[1], api_key=sys.argv[2])
created = bz.createbug(bz.build_createbug(
    product="TestProduct", component="TestComponent", version="unspecified", summary="Imported P1 bug",
    description="Filed by python-bugzilla", op_sys="Linux", platform="PC", priority="P1"))
bug = bz.getbug(created.id)
found = sorted(b.id for b in bz.query(bz.build_query(product="TestProduct", priority="P1")))
print(json.dumps({"id": bug.id, "priority": bug.priority, "found": found}))
`;

const PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'];
const STOCK_PRIORITIES = ['Highest', 'High', 'Normal', 'Low', 'Lowest', '---'];

let source: AppProcess;
let sourceApp: TestApp;
let target: TestApp;
let importedBug = 0;

beforeAll(async () => {
  const seeded = await startTestApp();
  const sourceKey = seeded.admin.apiKey;
  await seeded.close();
  const storage = freshStorage();
  await copyInstallation(testAppStorage(), storage);
  source = await startAppProcess(storage);
  sourceApp = { url: source.url, admin: { ...seeded.admin, apiKey: sourceKey }, close: async () => {} };

  // The source's own priorities, made through the admin routes of the process that serves it.
  const admin = sourceApp.admin.apiKey;
  for (const [position, name] of PRIORITIES.entries())
    await ok(
      call(sourceApp, 'POST', '/rest/field/bug/priority/values', {
        apiKey: admin,
        body: { name, sort_key: 10 * (position + 1) },
      }),
    );
  await ok(call(sourceApp, 'PUT', '/rest/parameters', { apiKey: admin, body: { defaultpriority: 'P3' } }));
  for (const name of STOCK_PRIORITIES)
    await ok(
      call(sourceApp, 'PUT', `/rest/field/bug/priority/values/${encodeURIComponent(name)}`, {
        apiKey: admin,
        body: { is_active: false },
      }),
    );
  importedBug = await fileTestBug(sourceApp, admin, { priority: 'P2', summary: 'Filed with P2 on the source' });

  // The target: a new installation whose administrator has the source administrator's login.
  target = await startTestApp();
  const report = await runImport({
    from: `${source.url}/rest`,
    apiKey: sourceKey,
    connections: 2,
    batchSize: 2,
    target: testAppStorage(),
  });
  expect(report).toMatchObject({ mode: 'fresh', interrupted: false });
});

afterAll(async () => {
  await target?.close();
  await source?.close();
});

describe('an import from an installation whose priorities are P1–P5', () => {
  it('lists P1–P5 as the active priorities, the stock ones inactive, P3 the default', async () => {
    const priority = (await ok(call(target, 'GET', '/rest/field/bug/priority'))).fields[0];
    const values = priority.values.map((value: { name: string; is_active?: boolean }) => [
      value.name,
      value.is_active ?? true,
    ]);
    expect(values).toEqual([
      ...PRIORITIES.map((name) => [name, true]),
      ...STOCK_PRIORITIES.map((name) => [name, false]),
    ]);
    expect((await ok(call(target, 'GET', '/rest/field/bug/priority/values'))).values).toEqual(PRIORITIES);
    const parameters = await ok(call(target, 'GET', '/rest/parameters', { apiKey: target.admin.apiKey }));
    expect(parameters.parameters.defaultpriority).toBe('P3');
  });

  it('keeps the imported bug’s P2, and finds it by it', async () => {
    const bug = (await ok(call(target, 'GET', `/rest/bug/${importedBug}`, { apiKey: target.admin.apiKey }))).bugs[0];
    expect(bug).toMatchObject({ id: importedBug, priority: 'P2' });
    const found = await ok(
      call(target, 'GET', '/rest/bug', {
        apiKey: target.admin.apiKey,
        query: { priority: 'P2', include_fields: 'id' },
      }),
    );
    expect(found.bugs).toEqual([{ id: importedBug }]);
  });

  it.skipIf(!hasClients)('takes a P1 bug from python-bugzilla, reads it back and finds it by priority=P1', async () => {
    // Asynchronous on purpose: the target answers from this same process.
    const { stdout } = await promisify(execFile)(
      DEBIAN_PYTHON,
      ['-c', PYTHON_P1_BUG, `${target.url}/rest`, target.admin.apiKey],
      { encoding: 'utf8', timeout: 60_000 },
    );
    const filed = JSON.parse(stdout);
    expect(filed).toEqual({ id: expect.any(Number), priority: 'P1', found: [filed.id] });
    const found = await ok(
      call(target, 'GET', '/rest/bug', {
        apiKey: target.admin.apiKey,
        query: { priority: 'P1', include_fields: 'id' },
      }),
    );
    expect(found.bugs).toEqual([{ id: filed.id }]);
  });
});
