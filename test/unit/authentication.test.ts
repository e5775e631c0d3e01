import { beforeAll, describe, expect, it } from 'vitest';
import {
  authenticate,
  CREDENTIAL_PARAMS,
  type Credentials,
  extractCredentials,
} from '../../shared/domain/identity/authentication.ts';
import { ANONYMOUS, type Caller } from '../../shared/domain/identity/caller.ts';
import { secretDigest } from '../../shared/domain/identity/credentials.ts';
import { TrackerError } from '../../shared/trackerError.ts';
import { failureKey, InMemoryDirectory } from './support/inMemoryDirectory.ts';

describe('CREDENTIAL_PARAMS', () => {
  it('lists every parameter that carries an API key, a token, a login or a password', () => {
    expect([...CREDENTIAL_PARAMS].sort()).toEqual(
      [
        'Tracker_api_key',
        'api_key',
        'Bugzilla_api_key',
        'token',
        'Tracker_token',
        'Bugzilla_token',
        'Tracker_login',
        'Tracker_password',
        'login',
        'password',
        'Bugzilla_login',
        'Bugzilla_password',
      ].sort(),
    );
  });
});

describe('extractCredentials', () => {
  it('returns null when the request carries no credential', () => {
    expect(extractCredentials({ accept: 'application/json' }, { ids: '1' })).toBeNull();
  });

  it.each([
    [{ 'x-tracker-api-key': 'K' }, {}],
    [{ 'x-bugzilla-api-key': 'K' }, {}],
    [{ authorization: 'Bearer K' }, {}],
    [{ authorization: 'bearer   K' }, {}],
    [{}, { Tracker_api_key: 'K' }],
    [{}, { api_key: 'K' }],
    [{}, { Bugzilla_api_key: 'K' }],
  ])('reads an API key from headers %j / params %j', (headers, params) => {
    expect(extractCredentials(headers, params)).toEqual({ kind: 'apiKey', key: 'K' });
  });

  it.each([
    [{}, { token: 'T' }],
    [{}, { Tracker_token: 'T' }],
    [{}, { Bugzilla_token: 'T' }],
    [{ 'x-tracker-token': 'T' }, {}],
    [{ 'x-bugzilla-token': 'T' }, {}],
  ])('reads a login token from headers %j / params %j', (headers, params) => {
    expect(extractCredentials(headers, params)).toEqual({ kind: 'token', token: 'T' });
  });

  it.each([
    [{}, { Tracker_login: 'u@x.org', Tracker_password: 'pw' }],
    [{}, { login: 'u@x.org', password: 'pw' }],
    [{}, { Bugzilla_login: 'u@x.org', Bugzilla_password: 'pw' }],
    [{ 'x-tracker-login': 'u@x.org', 'x-tracker-password': 'pw' }, {}],
    [{ 'x-bugzilla-login': 'u@x.org', 'x-bugzilla-password': 'pw' }, {}],
  ])('reads a login and password from headers %j / params %j', (headers, params) => {
    expect(extractCredentials(headers, params)).toEqual({ kind: 'password', login: 'u@x.org', password: 'pw' });
  });

  it('reads a login without a password as an empty password', () => {
    expect(extractCredentials({}, { login: 'u@x.org' })).toEqual({ kind: 'password', login: 'u@x.org', password: '' });
  });

  it('ignores empty values and other Authorization schemes', () => {
    expect(
      extractCredentials({ 'x-tracker-api-key': '', authorization: 'Basic dTpw' }, { api_key: '', token: '' }),
    ).toBeNull();
  });

  it('takes the first value of a repeated parameter', () => {
    expect(extractCredentials({}, { api_key: ['first', 'second'] })).toEqual({ kind: 'apiKey', key: 'first' });
  });

  describe('precedence', () => {
    const everything = {
      headers: {
        'x-tracker-api-key': 'header-key',
        'x-bugzilla-api-key': 'bugzilla-header-key',
        authorization: 'Bearer bearer-key',
        'x-tracker-token': 'header-token',
        'x-tracker-login': 'header@x.org',
        'x-tracker-password': 'header-pw',
      } as Record<string, string | undefined>,
      params: {
        api_key: 'param-key',
        token: 'param-token',
        login: 'param@x.org',
        password: 'param-pw',
      } as Record<string, unknown>,
    };

    /** Removes credentials one by one, from the strongest, and records what is extracted each time. */
    it('is API-key headers, Bearer, API-key params, token params, token headers, login params, login headers', () => {
      const headers = { ...everything.headers };
      const params = { ...everything.params };
      const seen: Array<Credentials | null> = [];
      const removals: Array<() => void> = [
        () => delete headers['x-tracker-api-key'],
        () => delete headers['x-bugzilla-api-key'],
        () => delete headers.authorization,
        () => delete params.api_key,
        () => delete params.token,
        () => delete headers['x-tracker-token'],
        () => delete params.login,
        () => delete headers['x-tracker-login'],
      ];
      for (const remove of removals) {
        seen.push(extractCredentials(headers, params));
        remove();
      }
      seen.push(extractCredentials(headers, params));
      expect(seen).toEqual([
        { kind: 'apiKey', key: 'header-key' },
        { kind: 'apiKey', key: 'bugzilla-header-key' },
        { kind: 'apiKey', key: 'bearer-key' },
        { kind: 'apiKey', key: 'param-key' },
        { kind: 'token', token: 'param-token' },
        { kind: 'token', token: 'header-token' },
        { kind: 'password', login: 'param@x.org', password: 'param-pw' },
        { kind: 'password', login: 'header@x.org', password: 'header-pw' },
        null,
      ]);
    });

    it('prefers the Tracker_ parameter names over the plain ones, and those over the Bugzilla_ aliases', () => {
      expect(extractCredentials({}, { Bugzilla_api_key: 'b', api_key: 'a', Tracker_api_key: 't' })).toEqual({
        kind: 'apiKey',
        key: 't',
      });
      expect(extractCredentials({}, { Bugzilla_token: 'b', token: 'a' })).toEqual({ kind: 'token', token: 'a' });
      expect(
        extractCredentials({}, { Bugzilla_login: 'b', Bugzilla_password: 'bp', login: 'a', password: 'ap' }),
      ).toEqual({
        kind: 'password',
        login: 'a',
        password: 'ap',
      });
    });
  });
});

describe('authenticate', () => {
  const NOW = new Date('2025-06-01T12:00:00Z');
  /** The client addresses requests come from (documentation ranges). */
  const HOME = '192.0.2.10';
  const AWAY = '198.51.100.7';
  const directory = new InMemoryDirectory()
    .addGroup(1, 'admin')
    .addGroup(2, 'editbugs')
    .addGroup(3, 'staff', '@example\\.com$');

  beforeAll(async () => {
    await directory.addUser(10, 'jane@example.com', { groups: ['editbugs'] });
    await directory.addUser(11, 'gone@example.org', { disabledText: 'Left the project.' });
    directory
      .addApiKey('jane-key', 10)
      .addApiKey('revoked-key', 10, { revoked: true })
      .addApiKey('disabled-key', 11)
      .addApiKey('orphan-key', 999)
      .addToken('10-valid', 10, new Date(NOW.getTime() + 3_600_000))
      .addToken('10-expired', 10, new Date(NOW.getTime() - 1000))
      .addToken('10-expiring-now', 10, NOW);
  });

  async function errorOf(credentials: Credentials, dir = directory, from = HOME): Promise<TrackerError> {
    const error = await authenticate(credentials, dir, NOW, from).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TrackerError);
    return error as TrackerError;
  }

  const expectJane = (caller: Caller) => {
    expect(caller.user?.id).toBe(10);
    expect([...caller.groups].sort()).toEqual(['editbugs', 'staff']);
  };

  it('answers ANONYMOUS without credentials', async () => {
    expect(await authenticate(null, directory, NOW, HOME)).toBe(ANONYMOUS);
  });

  describe('with an API key', () => {
    it('returns the key owner with their groups', async () => {
      expectJane(await authenticate({ kind: 'apiKey', key: 'jane-key' }, directory, NOW, HOME));
    });

    it.each(['revoked-key', 'no-such-key', 'orphan-key'])('refuses %s with code 306', async (key) => {
      const error = await errorOf({ kind: 'apiKey', key });
      expect(error.code).toBe(306);
      expect(error.message).toContain('The API key you specified is invalid');
    });

    it("refuses a disabled user's key with code 301 and the reason", async () => {
      const error = await errorOf({ kind: 'apiKey', key: 'disabled-key' });
      expect(error).toMatchObject({ code: 301, httpStatus: 401 });
      expect(error.message).toContain('Left the project.');
    });
  });

  describe('recording the last use of an API key', () => {
    const keyDirectory = async (lastUsedAt: string | null) => {
      const dir = new InMemoryDirectory();
      await dir.addUser(1, 'a@x.org');
      return dir.addApiKey('k', 1, { lastUsedAt });
    };

    it('records the first use', async () => {
      const dir = await keyDirectory(null);
      await authenticate({ kind: 'apiKey', key: 'k' }, dir, NOW, HOME);
      expect(dir.markedUsed).toEqual([{ digest: secretDigest('k'), at: NOW.toISOString() }]);
    });

    it('records a use when the last one is older than a minute', async () => {
      const dir = await keyDirectory(new Date(NOW.getTime() - 61_000).toISOString());
      await authenticate({ kind: 'apiKey', key: 'k' }, dir, NOW, HOME);
      expect(dir.markedUsed).toHaveLength(1);
    });

    it('does not record a use within a minute of the last one', async () => {
      const dir = await keyDirectory(new Date(NOW.getTime() - 30_000).toISOString());
      await authenticate({ kind: 'apiKey', key: 'k' }, dir, NOW, HOME);
      expect(dir.markedUsed).toEqual([]);
    });

    it('still authenticates when recording the use fails', async () => {
      const dir = await keyDirectory(null);
      dir.markApiKeyUsed = () => Promise.reject(new Error('throttled'));
      expect((await authenticate({ kind: 'apiKey', key: 'k' }, dir, NOW, HOME)).user?.id).toBe(1);
    });
  });

  describe('with a login token', () => {
    it('returns the token owner', async () => {
      expectJane(await authenticate({ kind: 'token', token: '10-valid' }, directory, NOW, HOME));
    });

    it.each(['10-expired', '10-expiring-now', '10-unknown'])('refuses %s with code 32000', async (token) => {
      const error = await errorOf({ kind: 'token', token });
      expect(error).toMatchObject({ code: 32000, httpStatus: 400 });
      expect(error.message).toContain('invalid or has expired');
    });

    it("refuses a token issued before the user's tokensNotBefore", async () => {
      const dir = new InMemoryDirectory();
      await dir.addUser(1, 'a@x.org', { tokensNotBefore: NOW.getTime() - 1000 });
      dir.addToken('old', 1, new Date(NOW.getTime() + 3_600_000), new Date(NOW.getTime() - 2000));
      dir.addToken('new', 1, new Date(NOW.getTime() + 3_600_000), new Date(NOW.getTime() - 500));
      expect((await errorOf({ kind: 'token', token: 'old' }, dir)).code).toBe(32000);
      expect((await authenticate({ kind: 'token', token: 'new' }, dir, NOW, HOME)).user?.id).toBe(1);
    });

    it("refuses a disabled user's token with code 301", async () => {
      const dir = new InMemoryDirectory();
      await dir.addUser(1, 'a@x.org', { disabledText: 'Spammer.' });
      dir.addToken('t', 1, new Date(NOW.getTime() + 3_600_000));
      expect((await errorOf({ kind: 'token', token: 't' }, dir)).code).toBe(301);
    });
  });

  describe('with a login and password', () => {
    const userDirectory = async (options: Parameters<InMemoryDirectory['addUser']>[2] = {}) => {
      const dir = new InMemoryDirectory().addGroup(2, 'editbugs');
      await dir.addUser(1, 'jane@example.com', { password: 'correct horse', groups: ['editbugs'], ...options });
      return dir;
    };
    const login = (password: string, userLogin = 'jane@example.com'): Credentials => ({
      kind: 'password',
      login: userLogin,
      password,
    });

    it('returns the user when the password is right', async () => {
      const caller = await authenticate(login('correct horse'), await userDirectory(), NOW, HOME);
      expect(caller.user?.id).toBe(1);
      expect([...caller.groups]).toEqual(['editbugs']);
    });

    it('refuses a wrong password and an unknown user alike, with code 300', async () => {
      const dir = await userDirectory();
      const wrong = await errorOf(login('wrong'), dir);
      const unknown = await errorOf(login('correct horse', 'nobody@example.com'), dir);
      expect(wrong).toMatchObject({ code: 300, httpStatus: 401 });
      expect(unknown).toMatchObject({ code: 300, message: wrong.message });
    });

    it('makes an unknown login do the work of a known one (a decoy claim) without recording anything', async () => {
      const dir = await userDirectory();
      await errorOf(login('whatever', 'nobody@example.com'), dir);
      expect(dir.decoyClaims).toBe(1);
      expect(dir.failures.size).toBe(0);
      await errorOf(login('wrong'), dir);
      expect(dir.decoyClaims).toBe(1);
      expect(dir.failures.get(failureKey(1, HOME))).toHaveLength(1);
    });

    it('refuses a user without a password', async () => {
      const dir = new InMemoryDirectory();
      await dir.addUser(1, 'nopw@x.org');
      expect((await errorOf(login('', 'nopw@x.org'), dir)).code).toBe(300);
    });

    it('refuses a disabled user with the right password with code 301', async () => {
      const error = await errorOf(login('correct horse'), await userDirectory({ disabledText: 'Left the project.' }));
      expect(error.code).toBe(301);
      expect(error.message).toContain('Left the project.');
    });

    it('refuses a user who must change their password with code 305', async () => {
      expect((await errorOf(login('correct horse'), await userDirectory({ passwordChangeRequired: true }))).code).toBe(
        305,
      );
    });

    it('records failures and clears them after a successful login', async () => {
      const dir = await userDirectory();
      await errorOf(login('wrong'), dir);
      expect(dir.failures.get(failureKey(1, HOME))).toEqual([NOW.getTime()]);
      await authenticate(login('correct horse'), dir, NOW, HOME);
      expect(dir.failures.has(failureKey(1, HOME))).toBe(false);
    });

    it('keeps only failures inside the lockout window when it records a new one', async () => {
      const dir = await userDirectory();
      dir.failures.set(failureKey(1, HOME), [NOW.getTime() - 45 * 60_000, NOW.getTime() - 10_000]);
      await errorOf(login('wrong'), dir);
      expect(dir.failures.get(failureKey(1, HOME))).toEqual([NOW.getTime() - 10_000, NOW.getTime()]);
    });

    it('locks the account for an address after max_login_attempts recent failures from it, even with the right password', async () => {
      const dir = await userDirectory();
      dir.maxAttempts = 2;
      dir.failures.set(failureKey(1, HOME), [NOW.getTime() - 60_000, NOW.getTime() - 30_000]);
      const error = await errorOf(login('correct horse'), dir);
      // Answered exactly as a wrong password or an unknown login, so a lock reveals no account.
      expect(error.code).toBe(300);
      expect(error.message).toBe((await errorOf(login('x', 'nobody@example.com'), dir)).message);
      expect(dir.failures.get(failureKey(1, HOME))).toHaveLength(2);
      // Failures older than the 30-minute window no longer count.
      dir.failures.set(failureKey(1, HOME), [NOW.getTime() - 31 * 60_000, NOW.getTime() - 30_000]);
      expect((await authenticate(login('correct horse'), dir, NOW, HOME)).user?.id).toBe(1);
    });

    it("does not let failures from one address lock the account's owner out at another (issue 22 #6)", async () => {
      const dir = await userDirectory();
      for (let attempt = 0; attempt < dir.maxAttempts + 3; attempt++) {
        expect((await errorOf(login(`guess-${attempt}`), dir, AWAY)).code).toBe(300);
      }
      // Locked from the attacker's address, even for the right password...
      expect((await errorOf(login('correct horse'), dir, AWAY)).code).toBe(300);
      expect(dir.failures.get(failureKey(1, AWAY))).toHaveLength(dir.maxAttempts);
      // ...but the owner logs in from elsewhere, and that success leaves the attacker's count alone.
      expect((await authenticate(login('correct horse'), dir, NOW, HOME)).user?.id).toBe(1);
      expect(dir.failures.get(failureKey(1, AWAY))).toHaveLength(dir.maxAttempts);
      expect((await errorOf(login('correct horse'), dir, AWAY)).code).toBe(300);
    });

    it('counts every address of an IPv6 /64 as one, and an IPv4-mapped address as its IPv4 address', async () => {
      const dir = await userDirectory();
      dir.maxAttempts = 2;
      await errorOf(login('a'), dir, '2001:db8:1:2::1');
      await errorOf(login('b'), dir, '2001:db8:1:2:ffff:ffff:ffff:ffff');
      expect((await errorOf(login('correct horse'), dir, '2001:0db8:0001:0002:abcd::9')).code).toBe(300);
      expect((await authenticate(login('correct horse'), dir, NOW, '2001:db8:1:3::1')).user?.id).toBe(1);
      await errorOf(login('c'), dir, '::ffff:192.0.2.99');
      await errorOf(login('d'), dir, '192.0.2.99');
      expect((await errorOf(login('correct horse'), dir, '192.0.2.99')).code).toBe(300);
    });
  });
});
