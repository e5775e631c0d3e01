/**
 * The requests `npm run bench` measures: each scenario's request, the statuses that count as
 * right, a check of one answer before the load, and autocannon options that vary the requests.
 */
import type autocannon from 'autocannon';
import { benchBug, LARGE_ATTACHMENT, type Seeded } from './benchSeed.ts';
import { ADMIN, USER_COUNT, USER_PASSWORD } from './benchSettings.ts';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  /** The probe's request body (a login for POST scenarios that give none). */
  probeBody?: (seeded: Seeded) => unknown;
  /** The probe's path, when the scenario rotates over several. */
  probePath?: (seeded: Seeded) => string;
  path: string;
  auth: 'anonymous' | 'API key' | 'password';
  /** Statuses that are the right answer; anything else is reported. */
  expected: number[];
  /** One call before the load, to check the answer is the intended one. */
  check: (body: any) => string | undefined;
  options: (baseUrl: string, users: Seeded['users'], seeded: Seeded) => Partial<autocannon.Options>;
}

/** Autocannon requests that walk round robin over the seeded bugs. */
function rotatingBugRequests(
  seeded: Seeded,
  method: string,
  path: (id: number) => string,
  body?: (counter: number) => unknown,
) {
  let next = 0;
  return {
    requests: [
      {
        method,
        headers: { ...apiKeyHeader, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        setupRequest: (request: any) => {
          const counter = next++;
          const id = seeded.bugIds[counter % seeded.bugIds.length]!;
          return { ...request, path: path(id), ...(body ? { body: JSON.stringify(body(counter)) } : {}) };
        },
      },
    ],
  } as Partial<autocannon.Options>;
}

const apiKeyHeader = { 'X-BUGZILLA-API-KEY': ADMIN.apiKey };

const ALL_SCENARIOS: Scenario[] = [
  {
    name: 'version',
    method: 'GET',
    path: '/rest/version',
    auth: 'anonymous',
    expected: [200],
    check: (body) => (typeof body?.version === 'string' ? undefined : 'no version in the answer'),
    options: () => ({}),
  },
  {
    name: 'whoami',
    method: 'GET',
    path: '/rest/whoami',
    auth: 'API key',
    expected: [200],
    check: (body) => (body?.name === ADMIN.login ? undefined : `whoami answered ${JSON.stringify(body)}`),
    options: () => ({ headers: apiKeyHeader }),
  },
  {
    name: 'parameters',
    method: 'GET',
    path: '/rest/parameters',
    auth: 'API key',
    expected: [200],
    check: (body) =>
      body?.parameters && Object.keys(body.parameters).length > 10
        ? undefined
        : 'too few parameters for an administrator',
    options: () => ({ headers: apiKeyHeader }),
  },
  {
    name: 'product',
    method: 'GET',
    path: '/rest/product/TestProduct',
    auth: 'anonymous',
    expected: [200],
    check: (body) =>
      body?.products?.[0]?.components?.length >= 8 ? undefined : 'TestProduct has fewer components than seeded',
    options: () => ({}),
  },
  {
    name: 'user match',
    method: 'GET',
    path: '/rest/user?match=user',
    auth: 'API key',
    expected: [200],
    check: (body) =>
      body?.users?.length >= Math.min(USER_COUNT, 10)
        ? undefined
        : `match=user found ${body?.users?.length ?? 0} users`,
    options: () => ({ headers: apiKeyHeader }),
  },
  {
    name: 'fields',
    method: 'GET',
    path: '/rest/field/bug',
    auth: 'anonymous',
    expected: [200],
    check: (body) => (body?.fields?.length > 10 ? undefined : 'too few fields'),
    options: () => ({}),
  },
  {
    name: 'login',
    method: 'POST',
    path: '/rest/login',
    auth: 'password',
    expected: [200],
    check: (body) => (typeof body?.token === 'string' ? undefined : 'no token in the answer'),
    options: (_baseUrl, users) => {
      let next = 0;
      return {
        requests: [
          {
            method: 'POST',
            path: '/rest/login',
            headers: { 'Content-Type': 'application/json' },
            // Each request logs in a different seeded user, round robin.
            setupRequest: (request: any) => ({
              ...request,
              body: JSON.stringify({ login: users[next++ % users.length]!.login, password: USER_PASSWORD }),
            }),
          },
        ],
      };
    },
  },
  {
    name: 'get bug',
    method: 'GET',
    path: '/rest/bug/{id}',
    probePath: (seeded) => `/rest/bug/${seeded.bugIds[1]}`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      body?.bugs?.[0]?.cc?.length >= 2 ? undefined : `GET bug answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (_baseUrl, _users, seeded) => rotatingBugRequests(seeded, 'GET', (id) => `/rest/bug/${id}`),
  },
  {
    name: 'bug history',
    method: 'GET',
    path: '/rest/bug/{id}/history',
    probePath: (seeded) => `/rest/bug/${seeded.bugIds[1]}/history`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      body?.bugs?.[0]?.history?.length >= 1 ? undefined : `history answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (_baseUrl, _users, seeded) => rotatingBugRequests(seeded, 'GET', (id) => `/rest/bug/${id}/history`),
  },
  {
    name: 'bug comments (50)',
    method: 'GET',
    path: '/rest/bug/{id}/comment',
    probePath: (seeded) => `/rest/bug/${seeded.chattyBugId}/comment`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      Object.values(body?.bugs ?? {}).some((bug: any) => bug.comments?.length === 50)
        ? undefined
        : `comments answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (baseUrl, _users, seeded) => ({
      url: `${baseUrl}/rest/bug/${seeded.chattyBugId}/comment`,
      headers: apiKeyHeader,
    }),
  },
  {
    name: 'attachment metadata',
    method: 'GET',
    path: '/rest/bug/{id}/attachment?exclude_fields=data',
    probePath: (seeded) => `/rest/bug/${seeded.attachmentBugId}/attachment?exclude_fields=data`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      Object.values(body?.bugs ?? {}).some((list: any) => list.length === 5 && !('data' in list[0]))
        ? undefined
        : `attachments answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (baseUrl, _users, seeded) => ({
      url: `${baseUrl}/rest/bug/${seeded.attachmentBugId}/attachment?exclude_fields=data`,
      headers: apiKeyHeader,
    }),
  },
  {
    name: 'download 1000 KB attachment',
    method: 'GET',
    path: '/rest/bug/attachment/{id}',
    probePath: (seeded) => `/rest/bug/attachment/${seeded.largeAttachmentId}`,
    auth: 'API key',
    expected: [200],
    check: (body) =>
      Object.values(body?.attachments ?? {}).some((attachment: any) => attachment.data === LARGE_ATTACHMENT)
        ? undefined
        : `download answered ${JSON.stringify(body).slice(0, 200)}`,
    options: (baseUrl, _users, seeded) => ({
      url: `${baseUrl}/rest/bug/attachment/${seeded.largeAttachmentId}`,
      headers: apiKeyHeader,
    }),
  },
  {
    name: 'upload 1000 KB attachment',
    method: 'POST',
    path: '/rest/bug/{id}/attachment',
    probePath: (seeded) => `/rest/bug/${seeded.bugIds[10]}/attachment`,
    probeBody: () => ({
      data: LARGE_ATTACHMENT,
      file_name: 'upload.bin',
      summary: 'Bench upload',
      content_type: 'application/octet-stream',
    }),
    auth: 'API key',
    expected: [200],
    check: (body) =>
      Array.isArray(body?.ids) && body.ids.length === 1
        ? undefined
        : `upload answered ${JSON.stringify(body).slice(0, 200)}`,
    // Away from the bugs the read scenarios use, so their answers stay as seeded.
    options: (_baseUrl, _users, seeded) =>
      rotatingBugRequests(
        { ...seeded, bugIds: seeded.bugIds.slice(10) },
        'POST',
        (id) => `/rest/bug/${id}/attachment`,
        () => ({
          data: LARGE_ATTACHMENT,
          file_name: 'upload.bin',
          summary: 'Bench upload',
          content_type: 'application/octet-stream',
        }),
      ),
  },
  {
    name: 'create bug',
    method: 'POST',
    path: '/rest/bug',
    probeBody: () => ({ ...benchBug(0), product: 'TestProduct', component: 'TestComponent', version: 'unspecified' }),
    auth: 'API key',
    expected: [200],
    check: (body) =>
      typeof body?.id === 'number' ? undefined : `create answered ${JSON.stringify(body).slice(0, 200)}`,
    options: () => {
      let next = 0;
      return {
        requests: [
          {
            method: 'POST',
            headers: { ...apiKeyHeader, 'Content-Type': 'application/json' },
            setupRequest: (request: any) => ({
              ...request,
              body: JSON.stringify({
                ...benchBug(next++),
                product: 'TestProduct',
                component: 'TestComponent',
                version: 'unspecified',
                cc: ['user01@bench.test'],
              }),
            }),
          },
        ],
      };
    },
  },
  {
    name: 'update bug',
    method: 'PUT',
    path: '/rest/bug/{id}',
    probePath: (seeded) => `/rest/bug/${seeded.bugIds[2]}`,
    probeBody: () => ({ whiteboard: 'probe' }),
    auth: 'API key',
    expected: [200],
    check: (body) => (body?.bugs?.[0]?.changes ? undefined : `update answered ${JSON.stringify(body).slice(0, 200)}`),
    options: (_baseUrl, _users, seeded) =>
      rotatingBugRequests(
        seeded,
        'PUT',
        (id) => `/rest/bug/${id}`,
        (counter) => ({ whiteboard: `load ${counter}`, priority: counter % 2 ? 'High' : 'Low' }),
      ),
  },
];

/**
 * BENCH_ONLY=name,name runs those scenarios alone, for a quick look while working (with
 * BENCH_OUTPUT pointing elsewhere: the report of a partial run is not the project's table).
 */
export function selectScenarios(): Scenario[] {
  const only = process.env.BENCH_ONLY?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (only && !process.env.BENCH_OUTPUT)
    throw new Error('BENCH_ONLY needs BENCH_OUTPUT: a partial run must not replace docs/benchmarks.md');
  return only ? ALL_SCENARIOS.filter((scenario) => only.includes(scenario.name)) : ALL_SCENARIOS;
}
