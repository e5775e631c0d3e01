import { expect } from 'vitest';
import { type ApiResponse, call, type TestApp } from './testApp.ts';

/**
 * What most integration test files set up the same way: users with API keys, a bug to work on,
 * and the two shapes of answer (success, Bugzilla error) checked with the response text at hand.
 */
export async function userWithKey(
  app: TestApp,
  name: string,
  groups: string[] = [],
  password = `${name}-password`,
): Promise<string> {
  const admin = app.admin.apiKey;
  const id = (
    await call(app, 'POST', '/rest/user', { apiKey: admin, body: { email: `${name}@tracker.test`, password } })
  ).body.id;
  if (groups.length > 0)
    expect(
      (await call(app, 'PUT', `/rest/user/${id}`, { apiKey: admin, body: { groups: { add: groups } } })).status,
    ).toBe(200);
  return (await call(app, 'POST', `/rest/user/${id}/api_key`, { apiKey: admin, body: {} })).body.api_key;
}

export async function ok<T = any>(promise: Promise<ApiResponse<T>>): Promise<T> {
  const response = await promise;
  expect(response.status, response.text).toBe(200);
  return response.body;
}

export function expectError(response: ApiResponse, code: number, status: number): void {
  expect({ code: response.body?.code, status: response.status, error: response.body?.error }, response.text).toEqual({
    code,
    status,
    error: true,
  });
}

/** Files a bug in TestProduct with every required field; `overrides` change or add fields. */
export async function fileTestBug(app: TestApp, key: string, overrides: Record<string, unknown> = {}): Promise<number> {
  const body = {
    product: 'TestProduct',
    component: 'TestComponent',
    version: 'unspecified',
    summary: 'A bug',
    description: 'Steps.',
    op_sys: 'Linux',
    platform: 'PC',
    ...overrides,
  };
  return (await ok(call(app, 'POST', '/rest/bug', { apiKey: key, body }))).id;
}

/**
 * The two products the comment and attachment tests share: "Hidden", whose bugs are in the
 * mandatory group `secret` (so only its members see them), and "Locked", whose bugs everyone sees
 * but only the group `lockers` may edit. Each has a component `Core` and a version `1.0`; both
 * groups are created here.
 */
export async function createHiddenAndLockedProducts(app: TestApp): Promise<void> {
  const admin = app.admin.apiKey;
  await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'secret', description: 'Secret' } }));
  await ok(
    call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'lockers', description: 'May edit Locked bugs' } }),
  );
  for (const [name, controls] of [
    ['Hidden', [{ group: 'secret', entry: true, membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' }]],
    ['Locked', [{ group: 'lockers', canedit: true, membercontrol: 'NA', othercontrol: 'NA' }]],
  ] as const) {
    await ok(
      call(app, 'POST', '/rest/product', {
        apiKey: admin,
        body: { name, description: `${name} product`, version: '1.0', group_controls: controls },
      }),
    );
    await ok(
      call(app, 'POST', '/rest/component', {
        apiKey: admin,
        body: { product: name, name: 'Core', description: 'Core', default_assignee: app.admin.login },
      }),
    );
  }
}
