import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_PYTHON } from '../support/python.ts';
import { ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Quicksearch through the real python-bugzilla (Debian's python3-bugzilla, unmodified):
 * build_query(quicksearch=...) and url_to_query() of a buglist.cgi link, then query(), for the
 * forms of Bugzilla 5.2's quicksearch language. Skipped when python-bugzilla is not installed.
 */
const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'pythonBugzillaQuicksearch.py');
const hasClient = existsSync(DEBIAN_PYTHON) && existsSync('/usr/lib/python3/dist-packages/bugzilla');

let app: TestApp;
const bug: Record<string, number> = {};

async function file(name: string, fields: Record<string, unknown>): Promise<void> {
  const body = {
    product: 'Appliances',
    component: 'Counter',
    version: 'unspecified',
    op_sys: 'Linux',
    platform: 'PC',
    description: fields.summary,
    ...fields,
  };
  bug[name] = (await ok(call(app, 'POST', '/rest/bug', { apiKey: app.admin.apiKey, body }))).id;
}

/** Each quicksearch's answer through python-bugzilla: bug names found, or the error it raised. */
async function pythonQuicksearch(queries: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    DEBIAN_PYTHON,
    [script, `${app.url}/rest`, app.admin.apiKey, JSON.stringify(queries)],
    { encoding: 'utf8', timeout: 60_000 },
  );
  const names = Object.fromEntries(Object.entries(bug).map(([name, id]) => [id, name]));
  const answers: Record<string, unknown> = JSON.parse(stdout);
  return Object.fromEntries(
    Object.entries(answers).map(([query, answer]) => [
      query,
      Array.isArray(answer) ? answer.map((id: number) => names[id] ?? `#${id}`).sort() : answer,
    ]),
  );
}

beforeAll(async () => {
  if (!hasClient) return;
  app = await startTestApp();
  const admin = app.admin.apiKey;
  await ok(
    call(app, 'POST', '/rest/product', {
      apiKey: admin,
      body: { name: 'Appliances', description: 'Appliances', version: 'unspecified' },
    }),
  );
  await ok(
    call(app, 'POST', '/rest/component', {
      apiKey: admin,
      body: { product: 'Appliances', name: 'Counter', description: 'Counter', default_assignee: app.admin.login },
    }),
  );
  await file('whistle', {
    summary: 'Kettle whistles too loudly',
    priority: 'Highest',
    url: 'https://kettle.example.org/spec',
    whiteboard: '[sound]',
  });
  await file('lid', { summary: 'Kettle lid sticks', priority: 'High' });
  // An alias: 5.2 finds a bug with a negated plain word (`-kettle`) only when it has an alias without the word.
  await file('toaster', { summary: 'Toaster burns bread', priority: 'Normal', alias: 'crumbs' });
  await file('fridge', { summary: 'Fridge hums at night', priority: 'Low' });
  const change = (name: string, body: Record<string, unknown>) =>
    ok(call(app, 'PUT', `/rest/bug/${bug[name]}`, { apiKey: admin, body }));
  await change('lid', { status: 'RESOLVED', resolution: 'FIXED', comment: { body: 'Descaled and fixed' } });
  await change('fridge', { status: 'RESOLVED', resolution: 'WONTFIX' });
});
afterAll(async () => {
  await app?.close();
});

describe.skipIf(!hasClient)('quicksearch through python-bugzilla', () => {
  it('build_query(quicksearch=) and url_to_query() find what Bugzilla 5.2 finds', async () => {
    expect(
      await pythonQuicksearch([
        'kettle',
        'ALL kettle',
        'FIXED',
        'WONT',
        'priority:High',
        'ALL priority:High',
        'ALL priority=High',
        'P1',
        'kettle.example.org',
        '-kettle',
        'kettle OR toaster',
        'ALL "lid sticks"',
        'sw:sound',
        'ALL descaled',
        `${bug.lid},${bug.fridge}`,
        'nosuchfield:x',
        '"kettle',
      ]),
    ).toEqual({
      kettle: ['whistle'],
      'ALL kettle': ['lid', 'whistle'],
      FIXED: ['lid'],
      WONT: ['fridge'],
      'priority:High': ['whistle'],
      'ALL priority:High': ['lid', 'whistle'],
      'ALL priority=High': ['lid'],
      P1: ['whistle'],
      'kettle.example.org': ['whistle'],
      '-kettle': ['toaster'],
      'kettle OR toaster': ['toaster', 'whistle'],
      'ALL "lid sticks"': ['lid'],
      'sw:sound': ['whistle'],
      'ALL descaled': ['lid'],
      [`${bug.lid},${bug.fridge}`]: ['fridge', 'lid'],
      // python-bugzilla raises requests' HTTPError on Tracker's 400 (32000), as on Bugzilla's.
      'nosuchfield:x': { http: 400 },
      '"kettle': { http: 400 },
    });
  });
});
