import { flagText } from '../../domain/changeReport.ts';
import { checkEmail, checkPassword, checkRealName } from '../../domain/identity/accounts.ts';
import { type Caller, effectiveGroups, type GroupSummary, inGroup, isLoggedIn } from '../../domain/identity/caller.ts';
import { hashPassword } from '../../domain/identity/credentials.ts';
import { type MembershipRequest, planMembership } from '../../domain/identity/groupMembership.ts';
import { regexpMembershipChanges } from '../../domain/identity/groupRegexps.ts';
import { bitmapHas } from '../../domain/identity/userIdBitmap.ts';
import { userView } from '../../domain/identity/userView.ts';
import { AUDIT_CLASS, type AuditEntry } from '../../domain/instance/audit.ts';
import { toStorageTime } from '../../domain/time.ts';
import { errors } from '../../errors.ts';
import { currentStamp } from '../../storage/catalog/catalogCache.ts';
import { allocateId } from '../../storage/counterStore.ts';
import { addRegexpJoin, addRegexpMembersUpdate, listGroups } from '../../storage/identity/groupStore.ts';
import {
  addUserUpdate,
  findUserIdByLogin,
  getUserRecords,
  listAllUserRecords,
  loadUserWithMembership,
  putNewUser,
  type UserRecord,
} from '../../storage/identity/userStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';

/** Users: lookup with the spec's visibility tiers, creation and updates (editusers). */

export interface UserQuery {
  ids?: number[];
  names?: string[];
  match?: string[];
  limit?: number;
  group_ids?: number[];
  groups?: string[];
  include_disabled?: boolean;
}

const unknownUser = (name: string) =>
  errors.notFound(
    `There is no user named '${name}'. Either you mis-typed the name or that user has not yet registered for a Tracker account.`,
  );

async function userIdsByName(names: readonly string[]): Promise<number[]> {
  return Promise.all(
    names.map(async (name) => {
      const id = await findUserIdByLogin(name);
      if (id === null) throw unknownUser(name);
      return id;
    }),
  );
}

/** Bugzilla's user matching: real name or login contains the string; disabled users only when asked, or on an exact login. */
function matchUsers(
  all: readonly UserRecord[],
  strings: readonly string[],
  limit: number,
  includeDisabled: boolean,
): UserRecord[] {
  const matched: UserRecord[] = [];
  for (const raw of strings) {
    const needle = raw.toLowerCase();
    if (needle === '') continue;
    const found = all.filter(({ user }) => {
      const exact = user.login.toLowerCase() === needle;
      if (user.disabledText && !includeDisabled && !exact) return false;
      return exact || user.login.toLowerCase().includes(needle) || user.realName.toLowerCase().includes(needle);
    });
    matched.push(...found.slice(0, limit));
  }
  return matched;
}

const withGroups = (records: readonly UserRecord[], groups: readonly GroupSummary[]) =>
  records.map(({ user, membership }) => ({
    user,
    groups: effectiveGroups(user, membership, groups),
    blessGroups: groups.filter((group) => membership.canBless.includes(group.id)),
  }));

export async function findUsers(caller: Caller, query: UserQuery): Promise<{ users: Record<string, unknown>[] }> {
  const ids = query.ids ?? [];
  const names = query.names ?? [];
  const match = query.match ?? [];
  if (ids.length === 0 && names.length === 0 && match.length === 0) {
    throw errors.missingParameter(
      'The function requires that you set one of the following parameters: ids, names, match',
    );
  }
  if (!isLoggedIn(caller) && (ids.length > 0 || match.length > 0)) {
    throw errors.userAccessDenied(
      'Logged-out users cannot use the "ids" or "match" arguments to this function to access any user information.',
    );
  }
  const groups = await listGroups();
  const filterGroups = [
    ...(query.group_ids ?? []).map((id) => groups.find((group) => group.id === id) ?? id),
    ...(query.groups ?? []).map((name) => groups.find((group) => group.name === name) ?? name),
  ].map((group) => {
    if (typeof group !== 'object' || !inGroup(caller, group.name)) {
      throw errors.invalidGroupName(
        `The group you specified, ${typeof group === 'object' ? group.name : group}, is not valid here.`,
      );
    }
    return group.id;
  });

  const parameters = await loadParameters();
  const systemLimit = Number(parameters.maxusermatches) || 1000;
  const limit = query.limit && query.limit > 0 ? Math.min(query.limit, systemLimit) : systemLimit;

  const [byId, byNameIds, matched] = await Promise.all([
    getUserRecords(ids.filter((id) => id > 0)),
    userIdsByName(names),
    match.length > 0
      ? listAllUserRecords().then((all) => matchUsers(all, match, limit, query.include_disabled === true))
      : Promise.resolve([]),
  ]);
  const byName = await getUserRecords(byNameIds);
  const seen = new Set<number>();
  const records = [...byId, ...byName, ...matched].filter(
    (record) => !seen.has(record.user.id) && seen.add(record.user.id),
  );

  const subjects = withGroups(records, groups).filter(
    (subject) => filterGroups.length === 0 || subject.groups.some((group) => filterGroups.includes(group.id)),
  );
  return { users: subjects.map((subject) => userView(caller, subject)) };
}

const changeOf = (removed: string, added: string) => ({ removed, added });
/**
 * What a write on behalf of a mailed token adds (accountsByMail.ts): the token is spent in the
 * same transaction, and the audit names the account itself when nobody is logged in.
 */
export interface WriteAlongside {
  actorId?: number;
  within?: (transaction: WriteTransaction) => void;
}

export async function createUser(
  caller: Caller,
  input: { email: string; full_name?: string; password?: string },
  alongside: WriteAlongside = {},
): Promise<{ id: number }> {
  const parameters = await loadParameters();
  const login = checkEmail(input.email, parameters);
  const realName = checkRealName(input.full_name);
  const password = checkPassword(input.password);
  if ((await findUserIdByLogin(login)) !== null) throw errors.accountExists(login);
  const id = await allocateId('user');
  const now = new Date();
  const passwordHash = password === undefined ? undefined : await hashPassword(password);
  await retryOnConflict(async () => {
    const transaction = new WriteTransaction();
    putNewUser(transaction, { id, login, realName, passwordHash, createdAt: toStorageTime(now) });
    await addRegexpMemberships(transaction, id, login);
    alongside.within?.(transaction);
    recordAudit(transaction, {
      auditClass: AUDIT_CLASS.user,
      objectId: id,
      userId: alongside.actorId ?? caller.user?.id ?? id,
      changes: { __create__: changeOf('', login) },
      at: now,
    });
    await transaction.commit();
  });
  return { id };
}

/**
 * Puts a new or renamed user in (or out of) the regexp groups their login matches (or no longer
 * matches). The transaction lands only if no group was created or changed its regexp since the
 * groups were read (the stamp's `groups`): a regexp changed meanwhile would have been derived
 * without this login. Not on the catalogue's `version`, which every other user joining a regexp
 * group moves (editbugs matches everyone): users created at once would invalidate each other.
 */
async function addRegexpMemberships(transaction: WriteTransaction, userId: number, login: string): Promise<void> {
  const [stamp, groups] = await Promise.all([currentStamp(), listGroups()]);
  transaction.requireStamp({ groups: stamp.groups });
  for (const { group, regexpMembers } of regexpMembershipChanges(groups, userId, login)) {
    if (bitmapHas(regexpMembers, userId)) addRegexpJoin(transaction, group, userId);
    else addRegexpMembersUpdate(transaction, group, regexpMembers);
  }
}

/**
 * What a password change reports as its new value: the text Bugzilla 5.2 answers with its default
 * password_crypto, kept so clients comparing against 5.2 see the same. Tracker's hash is scrypt
 * (credentials.ts); the text says a hash was stored, and nothing about the password.
 */
const PASSWORD_CHANGE_MARK = 'hashed_with_SHA-256';

export interface UserChanges {
  full_name?: string;
  email?: string;
  password?: string;
  email_enabled?: boolean;
  login_denied_text?: string;
  password_change_required?: boolean;
  groups?: MembershipRequest;
  bless_groups?: MembershipRequest;
}

/**
 * Updates every named user in one transaction: either all of them change or none does. A new
 * e-mail or a disabled account ends that user's login tokens.
 */
export function updateUsers(
  caller: Caller,
  targets: { ids: number[]; names: string[] },
  changes: UserChanges,
  alongside: WriteAlongside = {},
) {
  // Read, check and write again from the start when another request changed one of the users in
  // between: each answered change is then the one stored (no lost group removals).
  return retryOnConflict(() => updateUsersOnce(caller, targets, changes, alongside));
}

async function updateUsersOnce(
  caller: Caller,
  targets: { ids: number[]; names: string[] },
  changes: UserChanges,
  alongside: WriteAlongside,
) {
  const userIds = [...new Set([...targets.ids, ...(await userIdsByName(targets.names))])];
  if (userIds.length === 0) throw errors.idsOrNamesRequired();
  if (changes.email !== undefined && userIds.length > 1) {
    throw errors.invalidParameter('You can only change the e-mail address of one user at a time.');
  }
  const parameters = await loadParameters();
  const groups = await listGroups();
  const now = new Date();
  const transaction = new WriteTransaction();
  const results: Array<{ id: number; changes: Record<string, { removed: string; added: string }> }> = [];

  for (const userId of userIds) {
    const record = await loadUserWithMembership(userId, { consistent: true });
    if (!record) throw errors.notFoundById('user', userId);
    const { user, membership } = record;
    const reported: Record<string, { removed: string; added: string }> = {};
    const update: Parameters<typeof addUserUpdate>[1] = {
      userId,
      rev: record.rev,
      previousLogin: user.login,
      addGroups: [],
      removeGroups: [],
      addBless: [],
      removeBless: [],
    };

    if (changes.full_name !== undefined) {
      const realName = checkRealName(changes.full_name);
      if (realName !== user.realName) {
        update.realName = realName;
        reported.full_name = changeOf(user.realName, realName);
      }
    }
    if (changes.email !== undefined) {
      const login = checkEmail(changes.email, parameters);
      if (login !== user.login) {
        const owner = await findUserIdByLogin(login);
        if (owner !== null && owner !== userId) throw errors.accountExists(login);
        update.login = login;
        update.tokensNotBefore = now.getTime();
        await addRegexpMemberships(transaction, userId, login);
        reported.email = changeOf(user.login, login);
      }
    }
    if (changes.password !== undefined) {
      const password = checkPassword(changes.password);
      if (password === undefined) throw errors.passwordTooShort('The new password must not be blank.');
      update.passwordHash = await hashPassword(password);
      update.passwordChangeRequired = changes.password_change_required ?? false;
      // As Bugzilla does, a new password logs the user out everywhere: their login tokens die
      // (API keys are separate credentials and stay).
      update.tokensNotBefore = now.getTime();
      // Reported as Bugzilla 5.2 reports it: its column, with nothing of the old password (which
      // Bugzilla does not read) and only the algorithm of the new one's hash (_sanitize_audit_log).
      reported.cryptpassword = changeOf('', PASSWORD_CHANGE_MARK);
    }
    if (
      changes.password_change_required !== undefined &&
      changes.password_change_required !== (user.passwordChangeRequired ?? false)
    ) {
      update.passwordChangeRequired = changes.password_change_required;
      reported.password_change_required = changeOf(
        flagText(user.passwordChangeRequired ?? false),
        flagText(changes.password_change_required),
      );
    }
    if (changes.email_enabled !== undefined && changes.email_enabled !== user.emailEnabled) {
      update.emailEnabled = changes.email_enabled;
      // Bugzilla keeps the inverse, disable_mail, and reports that column.
      reported.disable_mail = changeOf(flagText(!user.emailEnabled), flagText(!changes.email_enabled));
    }
    if (changes.login_denied_text !== undefined) {
      const text = changes.login_denied_text.trim();
      if (text !== user.disabledText) {
        update.disabledText = text;
        if (text !== '') update.tokensNotBefore = now.getTime();
        reported.login_denied_text = changeOf(user.disabledText, text);
        // Bugzilla keeps is_enabled beside the text and reports it when disabling or enabling.
        if ((user.disabledText === '') !== (text === ''))
          reported.is_enabled = changeOf(flagText(user.disabledText === ''), flagText(text === ''));
      }
    }
    for (const kind of ['groups', 'bless_groups'] as const) {
      const request = changes[kind];
      if (!request) continue;
      const current = kind === 'groups' ? membership.memberOf : membership.canBless;
      const plan = planMembership(caller, current, request, groups, kind);
      if (kind === 'groups') {
        update.addGroups = plan.added.map((group) => group.id);
        update.removeGroups = plan.removed.map((group) => group.id);
        update.memberOf = plan.final;
      } else {
        update.addBless = plan.added.map((group) => group.id);
        update.removeBless = plan.removed.map((group) => group.id);
        update.canBless = plan.final;
      }
      if (plan.added.length > 0 || plan.removed.length > 0) {
        reported[kind] = changeOf(
          plan.removed.map((group) => group.name).join(', '),
          plan.added.map((group) => group.name).join(', '),
        );
      }
    }

    if (Object.keys(reported).length > 0) {
      addUserUpdate(transaction, update);
      const audit: AuditEntry = {
        auditClass: AUDIT_CLASS.user,
        objectId: userId,
        userId: alongside.actorId ?? caller.user?.id ?? userId,
        changes: reported,
        at: now,
      };
      recordAudit(transaction, audit);
    }
    results.push({ id: userId, changes: reported });
  }
  alongside.within?.(transaction);
  await transaction.commit();
  return { users: results };
}
