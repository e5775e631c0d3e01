import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSecond, useSteppableClock } from '../support/clock.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

let app: TestApp;
useSteppableClock();
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('instance information', () => {
  it('reports the Bugzilla API version and Tracker as an extension', async () => {
    expect((await call(app, 'GET', '/rest/version')).body).toEqual({ version: '5.2' });
    const extensions = await call(app, 'GET', '/rest/extensions');
    expect(extensions.body.extensions.Tracker.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('reports UTC', async () => {
    expect((await call(app, 'GET', '/rest/timezone')).body).toEqual({ timezone: '+0000' });
    const before = Math.floor(Date.now() / 1000) * 1000;
    const { body } = await call(app, 'GET', '/rest/time');
    const after = Date.now();
    expect(body).toMatchObject({ tz_name: 'UTC', tz_short_name: 'UTC', tz_offset: '+0000' });
    expect(body.db_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(body.web_time).toBe(body.web_time_utc);
    // The server's clock, read while the call ran (to the second).
    expect(Date.parse(body.db_time)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(body.db_time)).toBeLessThanOrEqual(after);
  });

  it('requires a login for the job queue status', async () => {
    const anonymous = await call(app, 'GET', '/rest/jobqueue_status');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: true, code: 410 });
    const admin = await call(app, 'GET', '/rest/jobqueue_status', { apiKey: app.admin.apiKey });
    expect(admin.body).toEqual({ total: 0, errors: 0 });
  });
});

describe('authentication forms', () => {
  // The job queue status needs a login, so a 200 proves the credential was accepted.
  const forms: Array<[string, () => Parameters<typeof call>[3]]> = [
    ['X-TRACKER-API-KEY header', () => ({ headers: { 'X-TRACKER-API-KEY': app.admin.apiKey } })],
    ['X-BUGZILLA-API-KEY header', () => ({ headers: { 'X-BUGZILLA-API-KEY': app.admin.apiKey } })],
    ['Authorization: Bearer', () => ({ headers: { Authorization: `Bearer ${app.admin.apiKey}` } })],
    ['Tracker_api_key parameter', () => ({ query: { Tracker_api_key: app.admin.apiKey } })],
    ['api_key parameter', () => ({ query: { api_key: app.admin.apiKey } })],
    ['Bugzilla_api_key parameter', () => ({ query: { Bugzilla_api_key: app.admin.apiKey } })],
    [
      'Tracker_login and Tracker_password',
      () => ({ query: { Tracker_login: app.admin.login, Tracker_password: app.admin.password } }),
    ],
    ['login and password', () => ({ query: { login: app.admin.login, password: app.admin.password } })],
    [
      'Bugzilla_login and Bugzilla_password',
      () => ({ query: { Bugzilla_login: app.admin.login, Bugzilla_password: app.admin.password } }),
    ],
    [
      'X-TRACKER-LOGIN and X-TRACKER-PASSWORD',
      () => ({ headers: { 'X-TRACKER-LOGIN': app.admin.login, 'X-TRACKER-PASSWORD': app.admin.password } }),
    ],
    [
      'X-BUGZILLA-LOGIN and X-BUGZILLA-PASSWORD',
      () => ({ headers: { 'X-BUGZILLA-LOGIN': app.admin.login, 'X-BUGZILLA-PASSWORD': app.admin.password } }),
    ],
    ['an API key in a PUT body', () => ({ body: { Bugzilla_api_key: app.admin.apiKey } })],
  ];

  for (const [name, options] of forms) {
    it(`accepts ${name}`, async () => {
      const method = name.includes('PUT') ? 'PUT' : 'GET';
      const path = method === 'PUT' ? '/rest/parameters' : '/rest/jobqueue_status';
      const response = await call(app, method, path, {
        ...options(),
        ...(method === 'PUT' ? { body: { ...(options()!.body as object), mailfrom: 'x@tracker.test' } } : {}),
      });
      expect(response.status).toBe(200);
    });
  }

  it('answers a wrong API key with 306, not as anonymous', async () => {
    for (const options of [
      { apiKey: 'wrong-key' },
      { query: { Bugzilla_api_key: 'wrong-key' } },
      { headers: { Authorization: 'Bearer wrong-key' } },
    ]) {
      const response = await call(app, 'GET', '/rest/version', options);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: true, code: 306, message: expect.stringMatching(/API key/) });
    }
  });

  it('answers a wrong password with 300 and HTTP 401, whether or not the account exists', async () => {
    for (const login of [app.admin.login, 'nobody@tracker.test']) {
      const response = await call(app, 'GET', '/rest/version', {
        query: { Bugzilla_login: login, Bugzilla_password: 'wrong' },
      });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({
        code: 300,
        message: expect.stringMatching(/^The username or password you entered is not valid\./),
      });
    }
  });

  it('answers an unknown token with a 32000-family error', async () => {
    const response = await call(app, 'GET', '/rest/version', { query: { Bugzilla_token: '1-notatoken' } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(32000);
  });

  it('never echoes credentials', async () => {
    const response = await call(app, 'GET', '/rest/parameters', { query: { Bugzilla_api_key: app.admin.apiKey } });
    expect(response.text).not.toContain(app.admin.apiKey);
  });
});

describe('parameters', () => {
  it('shows a logged-out caller only maintainer and requirelogin', async () => {
    const { body } = await call(app, 'GET', '/rest/parameters');
    expect(body).toEqual({ parameters: { maintainer: app.admin.login, requirelogin: '0' } });
  });

  it('shows a tweakparams member every parameter', async () => {
    const { body } = await call(app, 'GET', '/rest/parameters', { apiKey: app.admin.apiKey });
    expect(body.parameters).toMatchObject({
      maintainer: app.admin.login,
      max_search_results: '10000',
      emailregexp: expect.any(String),
      insidergroup: 'admin',
    });
  });

  it('refuses changes from a logged-out caller with 410', async () => {
    const response = await call(app, 'PUT', '/rest/parameters', { body: { maintainer: 'x@tracker.test' } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(410);
  });

  it('reports changes as removed/added, with booleans as "1"/"0", and skips no-ops', async () => {
    const response = await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { useclassification: true, usetargetmilestone: '1' },
    });
    expect(response.body).toEqual({ changes: { useclassification: { removed: '0', added: '1' } } });
    const after = await call(app, 'GET', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      query: { include_fields: 'useclassification' },
    });
    expect(after.body.parameters).toEqual({ useclassification: '1' });
  });

  it('answers every one of several concurrent changes to the same item without a server error', async () => {
    const values = Array.from({ length: 8 }, (_, index) => `concurrent-${index}@tracker.test`);
    const responses = await Promise.all(
      values.map((mailfrom) => call(app, 'PUT', '/rest/parameters', { apiKey: app.admin.apiKey, body: { mailfrom } })),
    );
    expect(responses.map((response) => response.status)).toEqual(values.map(() => 200));
    const after = await call(app, 'GET', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      query: { include_fields: 'mailfrom' },
    });
    expect(values).toContain(after.body.parameters.mailfrom);
  });

  it('changes nothing when one of several values is invalid', async () => {
    const response = await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { mailfrom: 'changed@tracker.test', no_such_parameter: '1' },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/no_such_parameter/);
    const after = await call(app, 'GET', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      query: { include_fields: 'mailfrom' },
    });
    expect(after.body.parameters.mailfrom).not.toBe('changed@tracker.test');
  });
});

describe('requirelogin', () => {
  it('closes everything but the login-exempt calls to logged-out callers', async () => {
    await call(app, 'PUT', '/rest/parameters', { apiKey: app.admin.apiKey, body: { requirelogin: true } });
    try {
      const product = await call(app, 'GET', '/rest/product/TestProduct');
      expect(product.status).toBe(401);
      expect(product.body.code).toBe(410);
      expect((await call(app, 'GET', '/rest/field/bug/bug_status')).body.code).toBe(410);
      for (const path of ['/rest/version', '/rest/timezone', '/rest/extensions', '/rest/time']) {
        expect((await call(app, 'GET', path)).status, path).toBe(200);
      }
      expect((await call(app, 'GET', '/rest/parameters')).body.parameters).toEqual({
        maintainer: app.admin.login,
        requirelogin: '1',
      });
      expect(
        (await call(app, 'GET', '/rest/login', { query: { login: app.admin.login, password: app.admin.password } }))
          .status,
      ).toBe(200);
      expect((await call(app, 'GET', '/rest/product/TestProduct', { apiKey: app.admin.apiKey })).status).toBe(200);
    } finally {
      await call(app, 'PUT', '/rest/parameters', { apiKey: app.admin.apiKey, body: { requirelogin: false } });
    }
    expect((await call(app, 'GET', '/rest/product/TestProduct')).status).toBe(200);
  });
});

describe('last_audit_time', () => {
  it('reports the latest change, optionally for some classes only', async () => {
    const initial = await call(app, 'GET', '/rest/last_audit_time');
    expect(initial.body.last_audit_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const groups = await call(app, 'GET', '/rest/last_audit_time', { query: { class: 'Tracker::Group' } });
    expect(groups.body.last_audit_time).toMatch(/Z$/);

    nextSecond();
    await call(app, 'PUT', '/rest/parameters', {
      apiKey: app.admin.apiKey,
      body: { mailfrom: `audit-${Date.now()}@tracker.test` },
    });
    const config = await call(app, 'GET', '/rest/last_audit_time', { query: { class: ['Tracker::Config'] } });
    const groupsAfter = await call(app, 'GET', '/rest/last_audit_time', { query: { class: 'Bugzilla::Group' } });
    expect(config.body.last_audit_time > groups.body.last_audit_time).toBe(true);
    expect(groupsAfter.body.last_audit_time).toBe(groups.body.last_audit_time);
  });

  it('answers null for a class without entries, and refuses a malformed class name', async () => {
    expect((await call(app, 'GET', '/rest/last_audit_time', { query: { class: 'Tracker::Nothing' } })).body).toEqual({
      last_audit_time: null,
    });
    const bad = await call(app, 'GET', '/rest/last_audit_time', { query: { class: 'DROP TABLE' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/class/);
  });
});
