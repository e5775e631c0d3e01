import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Issue 22 #6: failed password logins are counted per account and client address, as Bugzilla
 * counts them, so a stranger's guesses cannot lock the owner (or the administrator) out. The
 * client address is the one API Gateway saw; the test emulator lets a call name it (`from`).
 */
let app: TestApp;
let counter = 0;

interface Account {
  id: number;
  login: string;
  password: string;
}

const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.20';

/** Parallel logins each hash a password (scrypt): on a busy machine a burst outlasts the default 30 s. */
const BURST_TIMEOUT = 120_000;

async function createAccount(name: string): Promise<Account> {
  const login = `${name}-${++counter}@tracker.test`;
  const password = `${name}-password`;
  const created = await call(app, 'POST', '/rest/user', { apiKey: app.admin.apiKey, body: { email: login, password } });
  expect(created.status).toBe(200);
  return { id: created.body.id, login, password };
}

const login = (account: Pick<Account, 'login'>, password: string, from: string, headers?: Record<string, string>) =>
  call(app, 'GET', '/rest/login', { query: { login: account.login, password }, from, headers });

/** Refused as every bad login is (300), with no token. */
function expectRefused(response: Awaited<ReturnType<typeof login>>): void {
  expect([response.status, response.body.code, response.body.token]).toEqual([401, 300, undefined]);
}

async function storedFailures(userId: number, source: string): Promise<unknown[] | undefined> {
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient, tableName } = await import('../../shared/storage/dynamoClient.ts');
  const { keys } = await import('../../shared/storage/keys.ts');
  const item = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.loginFailures(userId, source), ConsistentRead: true }),
  );
  return item.Item?.failures as unknown[] | undefined;
}

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('login lockout per account and client address', () => {
  it('locks an account only for the address the failures came from', async () => {
    const victim = await createAccount('victim');
    for (let attempt = 0; attempt < 5; attempt++) expectRefused(await login(victim, `guess-${attempt}`, ATTACKER));
    expectRefused(await login(victim, victim.password, ATTACKER));

    // The owner, elsewhere, still logs in with the right password...
    const owner = await login(victim, victim.password, OWNER);
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({ id: victim.id, token: expect.any(String) });
    // ...and that success clears nothing at the attacker's address (Bugzilla clears per address).
    expectRefused(await login(victim, victim.password, ATTACKER));
    expect(await storedFailures(victim.id, ATTACKER)).toHaveLength(5);
  });

  it('cannot lock the administrator out from a stranger address', async () => {
    const admin = { login: app.admin.login };
    for (let attempt = 0; attempt < 6; attempt++) expectRefused(await login(admin, `guess-${attempt}`, ATTACKER));
    expectRefused(await login(admin, app.admin.password, ATTACKER));
    expect((await login(admin, app.admin.password, '127.0.0.1')).status).toBe(200);
  });

  it(
    'still checks at most max_login_attempts passwords from one address however many arrive at once',
    async () => {
      const victim = await createAccount('burst');
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, index) => login(victim, `guess-${index}`, ATTACKER)),
      );
      for (const response of burst) expectRefused(response);
      expect(await storedFailures(victim.id, ATTACKER)).toHaveLength(5);

      // A second burst from there with the right password among the guesses gets nothing.
      const second = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          login(victim, index === 9 ? victim.password : `again-${index}`, ATTACKER),
        ),
      );
      for (const response of second) expectRefused(response);
      expect(await storedFailures(victim.id, ATTACKER)).toHaveLength(5);
      expect((await login(victim, victim.password, OWNER)).status).toBe(200);
    },
    BURST_TIMEOUT,
  );

  it(
    'counts a whole IPv6 /64 as one address, so rotating inside it gains no guesses',
    async () => {
      const victim = await createAccount('ipv6');
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, index) => login(victim, `guess-${index}`, `2001:db8:66:1::${index + 1}`)),
      );
      for (const response of burst) expectRefused(response);
      expect(await storedFailures(victim.id, '2001:db8:66:1::/64')).toHaveLength(5);
      expectRefused(await login(victim, victim.password, '2001:db8:66:1:ffff::abcd'));
      expect((await login(victim, victim.password, '2001:db8:66:2::1')).status).toBe(200);
    },
    BURST_TIMEOUT,
  );

  it('ignores X-Forwarded-For: a client cannot choose the address it is counted under', async () => {
    const victim = await createAccount('forwarded');
    for (let attempt = 0; attempt < 5; attempt++) {
      const forwarded = { 'X-Forwarded-For': `192.0.2.${attempt + 1}`, 'X-Real-IP': `192.0.2.${attempt + 1}` };
      expectRefused(await login(victim, `guess-${attempt}`, ATTACKER, forwarded));
    }
    expectRefused(await login(victim, victim.password, ATTACKER, { 'X-Forwarded-For': OWNER }));
    expect(await storedFailures(victim.id, ATTACKER)).toHaveLength(5);
  });

  it('applies to a password given on any route, not only /rest/login', async () => {
    const victim = await createAccount('anyroute');
    const whoami = (password: string, from: string) =>
      call(app, 'GET', '/rest/whoami', {
        headers: { 'X-Bugzilla-Login': victim.login, 'X-Bugzilla-Password': password },
        from,
      });
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await whoami(`guess-${attempt}`, ATTACKER)).body.code).toBe(300);
    expect((await whoami(victim.password, ATTACKER)).body.code).toBe(300);
    const owner = await whoami(victim.password, OWNER);
    expect([owner.status, owner.body.id]).toEqual([200, victim.id]);
  });
});
