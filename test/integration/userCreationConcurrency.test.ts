import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Many accounts created at once, as a provisioning script (or bench/seedCatalogue.ts) does: every
 * creation is independent of the others, so none may give up with 32000 ("try again"), and each
 * must still land in every regexp group its login matches, including editbugs (`.*`), which every
 * new user joins, and a group whose regexp changes while the accounts are being created.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const IN_FLIGHT = 16;

/** Runs `work` for every index, `IN_FLIGHT` at a time. */
async function pooled<T>(count: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await work(index);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return results;
}

/**
 * A 503 says the local engine was too busy (a loaded CI machine), and the request is sent again as
 * a client honouring Retry-After would; a lost race (32000) is not retried. A creation that timed
 * out may have been saved meanwhile (its 503 says so), so when the account exists on the next
 * attempt, the client looks it up instead of failing, as a provisioning script must.
 */
/** An idempotent request (setting a group's regexp) is simply sent again after a 503. */
async function retryingBusy(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    if (response.status !== 503 || attempt === 5) return response;
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}

async function createUser(email: string): Promise<ApiResponse> {
  let unsure = false;
  for (let attempt = 1; ; attempt++) {
    // No password: scrypt would make this a CPU test, and it is about concurrent writes.
    const response = await call(app, 'POST', '/rest/user', {
      apiKey: app.admin.apiKey,
      body: { email, full_name: email },
    });
    if (unsure && /already an account/.test(String(response.body?.message))) {
      const found = await call(app, 'GET', '/rest/user', { apiKey: app.admin.apiKey, query: { names: email } });
      return { ...found, body: { id: found.body.users?.[0]?.id } };
    }
    if (response.status !== 503 || attempt === 5) return response;
    unsure ||= /may have been saved/.test(String(response.body?.message));
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}

const membersOf = async (group: string): Promise<number[]> => {
  const response = await call(app, 'GET', `/rest/group/${group}`, {
    apiKey: app.admin.apiKey,
    query: { membership: '1' },
  });
  expect(response.status, response.text).toBe(200);
  return (response.body.groups[0].membership as Array<{ id: number }>).map((user) => user.id);
};

const idsOf = (responses: ApiResponse[]) => {
  for (const response of responses) expect(response.status, response.text).toBe(200);
  return responses.map((response) => response.body.id as number);
};

describe('creating users concurrently', () => {
  it(`creates 40 users, ${IN_FLIGHT} at a time, each once and in every regexp group it matches`, async () => {
    const group = await call(app, 'POST', '/rest/group', {
      apiKey: app.admin.apiKey,
      body: { name: 'crowd', description: 'Crowd', user_regexp: '^crowd-' },
    });
    expect(group.status, group.text).toBe(200);
    const emails = Array.from(
      { length: 40 },
      (_, index) => `${index % 2 === 0 ? 'crowd' : 'loner'}-${index}@tracker.test`,
    );
    const ids = idsOf(await pooled(emails.length, (index) => createUser(emails[index])));
    expect(new Set(ids).size).toBe(ids.length);

    const matching = ids.filter((_, index) => index % 2 === 0).sort((a, b) => a - b);
    // Admins are members of every group.
    const crowd = (await membersOf('crowd')).filter((id) => id !== app.admin.id).sort((a, b) => a - b);
    expect(crowd).toEqual(matching);
    const editbugs = new Set(await membersOf('editbugs'));
    expect(ids.filter((id) => !editbugs.has(id))).toEqual([]);
  });

  it('misses no user created while a regexp changes among concurrent creations', async () => {
    const group = await call(app, 'POST', '/rest/group', {
      apiKey: app.admin.apiKey,
      body: { name: 'runners', description: 'Runners' },
    });
    expect(group.status, group.text).toBe(200);
    const emails = Array.from({ length: 32 }, (_, index) => `${index % 2 === 0 ? 'run' : 'sit'}-${index}@tracker.test`);
    const [responses, changed] = await Promise.all([
      pooled(emails.length, (index) => createUser(emails[index])),
      // Once some creations are under way.
      new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        retryingBusy(() =>
          call(app, 'PUT', '/rest/group/runners', { apiKey: app.admin.apiKey, body: { user_regexp: '^run-' } }),
        ),
      ),
    ]);
    expect(changed.status, changed.text).toBe(200);
    const ids = idsOf(responses);
    const matching = ids.filter((_, index) => index % 2 === 0).sort((a, b) => a - b);
    const runners = (await membersOf('runners')).filter((id) => id !== app.admin.id).sort((a, b) => a - b);
    expect(runners).toEqual(matching);
  });
});
