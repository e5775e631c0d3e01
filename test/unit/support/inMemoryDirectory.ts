import type { IdentityDirectory } from '../../../shared/domain/identity/authentication.ts';
import type { GroupSummary, Membership, UserAccount } from '../../../shared/domain/identity/caller.ts';
import { hashPassword, secretDigest } from '../../../shared/domain/identity/credentials.ts';
import { regexpMembershipChanges, regexpMembersOf } from '../../../shared/domain/identity/groupRegexps.ts';
import { claimSlot } from '../../../shared/domain/identity/loginThrottle.ts';

export const failureKey = (userId: number, source: string): string => `${userId} from ${source}`;

/**
 * An in-memory IdentityDirectory for unit tests: users, groups, API keys, login tokens and failed
 * logins, stored as the real store keeps them (secrets by digest, passwords hashed), plus a record
 * of the `markApiKeyUsed` calls.
 */
export class InMemoryDirectory implements IdentityDirectory {
  readonly users = new Map<number, { user: UserAccount; membership: Membership }>();
  readonly groups: GroupSummary[] = [];
  readonly apiKeys = new Map<string, { userId: number; revoked: boolean; lastUsedAt: string | null }>();
  readonly tokens = new Map<string, { userId: number; expiresAt: number; createdAt: number }>();
  /** Failed logins by `failureKey(userId, source)`, as the store keeps one item per account and address. */
  readonly failures = new Map<string, number[]>();
  readonly markedUsed: Array<{ digest: string; at: string }> = [];
  maxAttempts = 5;

  /** Regexp members are derived as the real store derives them: here, over the users added so far and those added later. */
  addGroup(id: number, name: string, userRegexp = ''): this {
    const users = [...this.users.values()].map(({ user }) => user);
    this.groups.push({
      id,
      name,
      description: name,
      isActive: true,
      isBugGroup: false,
      userRegexp,
      regexpMembers: regexpMembersOf(userRegexp, users),
    });
    return this;
  }

  async addUser(
    id: number,
    login: string,
    options: { password?: string; groups?: string[] } & Partial<
      Pick<UserAccount, 'disabledText' | 'passwordChangeRequired' | 'tokensNotBefore'>
    > = {},
  ): Promise<UserAccount> {
    const { password, groups, ...account } = options;
    const user: UserAccount = {
      id,
      login,
      realName: login.split('@')[0],
      disabledText: '',
      emailEnabled: true,
      passwordHash: password === undefined ? undefined : await hashPassword(password),
      ...account,
    };
    const memberOf = (groups ?? []).map((name) => {
      const group = this.groups.find((candidate) => candidate.name === name);
      if (!group) throw new Error(`no group ${name}`);
      return group.id;
    });
    this.users.set(id, { user, membership: { memberOf, canBless: [] } });
    for (const { group, regexpMembers } of regexpMembershipChanges(this.groups, id, login))
      group.regexpMembers = regexpMembers;
    return user;
  }

  addApiKey(key: string, userId: number, options: { revoked?: boolean; lastUsedAt?: string | null } = {}): this {
    this.apiKeys.set(secretDigest(key), {
      userId,
      revoked: options.revoked ?? false,
      lastUsedAt: options.lastUsedAt ?? null,
    });
    return this;
  }

  /** `expiresAt` is stored in epoch seconds (DynamoDB TTL), `createdAt` in epoch milliseconds. */
  addToken(
    token: string,
    userId: number,
    expiresAt: Date,
    createdAt = new Date(expiresAt.getTime() - 86_400_000),
  ): this {
    this.tokens.set(secretDigest(token), {
      userId,
      expiresAt: Math.floor(expiresAt.getTime() / 1000),
      createdAt: createdAt.getTime(),
    });
    return this;
  }

  async findApiKey(digest: string) {
    const key = this.apiKeys.get(digest);
    return key ? { ...key } : null;
  }

  async markApiKeyUsed(digest: string, at: string): Promise<void> {
    this.markedUsed.push({ digest, at });
    const key = this.apiKeys.get(digest);
    if (key) key.lastUsedAt = at;
  }

  async findLoginToken(digest: string) {
    const token = this.tokens.get(digest);
    return token ? { ...token } : null;
  }

  /** Like the DynamoDB store: the list is rewritten with the recent failures and this attempt. */
  async claimLoginAttempt(userId: number, source: string, now: number, maxAttempts: number): Promise<boolean> {
    const claimed = claimSlot(this.failures.get(failureKey(userId, source)) ?? [], maxAttempts, now);
    if (claimed) this.failures.set(failureKey(userId, source), claimed);
    return claimed !== null;
  }

  decoyClaims = 0;

  async decoyLoginAttempt(_source: string): Promise<void> {
    this.decoyClaims++;
  }

  async clearLoginFailures(userId: number, source: string): Promise<void> {
    this.failures.delete(failureKey(userId, source));
  }

  async maxLoginAttempts(): Promise<number> {
    return this.maxAttempts;
  }

  async findUserIdByLogin(login: string): Promise<number | null> {
    for (const [id, record] of this.users) if (record.user.login.toLowerCase() === login.toLowerCase()) return id;
    return null;
  }

  async loadUserWithMembership(userId: number) {
    return this.users.get(userId) ?? null;
  }

  async listGroups(): Promise<GroupSummary[]> {
    return [...this.groups];
  }
}
