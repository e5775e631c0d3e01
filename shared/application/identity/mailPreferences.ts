import { flagText } from '../../domain/changeReport.ts';
import { type Caller, isLoggedIn } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { EVENT_NAMES, EXCEPTION_NAMES, RELATIONSHIP_NAMES } from '../../domain/notification/mailPreferenceNames.ts';
import {
  CHOSEN_RELATIONSHIPS,
  changeMailPreferences,
  MAIL_EVENTS,
  type MailEvent,
  type MailPreferencesChange,
} from '../../domain/notification/mailPreferences.ts';
import { errors } from '../../errors.ts';
import {
  changeWatch,
  loadMailSettings,
  loadWatchers,
  putMailSettings,
  type StoredMailSettings,
} from '../../storage/identity/mailSettingsStore.ts';
import {
  addUserUpdate,
  findUserIdByLogin,
  getUsers,
  loadUserWithMembership,
} from '../../storage/identity/userStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import { loadBugCatalog } from '../bug/bugContext.ts';
import { visibleBugs } from '../bug/bugVisibility.ts';

/**
 * The caller's own mail preferences (GET/PUT /rest/preferences/mail, a Tracker addition): what
 * Bugzilla's userprefs.cgi tab=email shows and saves. Bug mail on or off (the account's
 * `email_enabled`), the two flag mails, the relationship × event matrix with its two "but not
 * when" rows, the bugs ignored, and user watching. A person who never changed anything has
 * Bugzilla 5.2's defaults.
 */

/** A column of the matrix as the API shows it: each event's box, then the two exceptions. */
export type RelationshipView = Record<string, boolean>;

export interface MailPreferencesView {
  email_enabled: boolean;
  flag_requested_of_me: boolean;
  flag_i_requested: boolean;
  relationships: Record<string, RelationshipView>;
  ignored_bugs: number[];
  watched_users: string[];
  watchers: string[];
}

export interface ListChange<T> {
  add?: T[];
  remove?: T[];
}

/** The body of PUT /rest/preferences/mail, in the API's names (the handler's schema checks them). */
export interface MailPreferencesInput {
  email_enabled?: boolean;
  flag_requested_of_me?: boolean;
  flag_i_requested?: boolean;
  relationships?: Record<string, Record<string, boolean | undefined> | undefined>;
  ignored_bugs?: ListChange<string | number>;
  watched_users?: ListChange<string>;
}

/** Bugzilla bounds neither list; these keep one person's item small and one change inside a transaction. */
export const MAX_IGNORED_BUGS = 1000;
export const MAX_WATCHED_USERS = 50;

const RELATIONSHIP_BY_NAME = new Map(
  CHOSEN_RELATIONSHIPS.map((relationship) => [RELATIONSHIP_NAMES[relationship], relationship]),
);
const EVENT_BY_NAME = new Map(MAIL_EVENTS.map((event) => [EVENT_NAMES[event], event]));

async function loginsOf(ids: readonly number[]): Promise<string[]> {
  const users = await getUsers(ids);
  return users.map((user) => user.login).sort((a, b) => a.localeCompare(b));
}

async function viewOf(
  userId: number,
  emailEnabled: boolean,
  settings: StoredMailSettings,
): Promise<MailPreferencesView> {
  const { preferences } = settings;
  const watchers = (await loadWatchers([userId])).get(userId) ?? [];
  const [watchedUsers, watcherLogins] = await Promise.all([loginsOf(settings.watchedIds), loginsOf(watchers)]);
  return {
    email_enabled: emailEnabled,
    flag_requested_of_me: preferences.flagRequested,
    flag_i_requested: preferences.requestedFlag,
    relationships: Object.fromEntries(
      CHOSEN_RELATIONSHIPS.map((relationship) => {
        const column = preferences.relationships[relationship];
        return [
          RELATIONSHIP_NAMES[relationship],
          {
            ...Object.fromEntries(MAIL_EVENTS.map((event) => [EVENT_NAMES[event], column.events.has(event)])),
            [EXCEPTION_NAMES.unconfirmed]: !column.unconfirmed,
            [EXCEPTION_NAMES.ownChanges]: !column.ownChanges,
          },
        ];
      }),
    ),
    ignored_bugs: [...preferences.ignoredBugIds].sort((a, b) => a - b),
    watched_users: watchedUsers,
    watchers: watcherLogins,
  };
}

function requireUser(caller: Caller) {
  if (!isLoggedIn(caller)) throw errors.loginRequired();
  return caller.user;
}

/** GET /rest/preferences/mail. */
export async function describeMailPreferences(caller: Caller): Promise<MailPreferencesView> {
  const user = requireUser(caller);
  const settings = (await loadMailSettings([user.id])).get(user.id)!;
  return viewOf(user.id, user.emailEnabled, settings);
}

/** The matrix part of a request in the domain's terms; unknown names were refused by the schema already. */
function matrixChange(input: MailPreferencesInput): MailPreferencesChange['relationships'] {
  const change: NonNullable<MailPreferencesChange['relationships']> = {};
  for (const [name, boxes] of Object.entries(input.relationships ?? {})) {
    const relationship = RELATIONSHIP_BY_NAME.get(name);
    if (!relationship || !boxes) continue;
    const events: Partial<Record<MailEvent, boolean>> = {};
    let unconfirmed: boolean | undefined;
    let ownChanges: boolean | undefined;
    for (const [box, ticked] of Object.entries(boxes)) {
      if (ticked === undefined) continue;
      if (box === EXCEPTION_NAMES.unconfirmed) unconfirmed = !ticked;
      else if (box === EXCEPTION_NAMES.ownChanges) ownChanges = !ticked;
      else {
        const event = EVENT_BY_NAME.get(box);
        if (event) events[event] = ticked;
      }
    }
    change[relationship] = { events, unconfirmed, ownChanges };
  }
  return change;
}

/** Watched logins to ids: 51 for a login nobody has, as Bugzilla's login_to_id(…, THROW_ERROR). */
async function watchedIdsOf(logins: readonly string[], selfId: number): Promise<number[]> {
  const ids: number[] = [];
  for (const login of logins.map((entry) => entry.trim()).filter(Boolean)) {
    const id = await findUserIdByLogin(login);
    if (id === null) throw errors.notFoundByName('user', login);
    if (id === selfId) throw errors.invalidParameter('You cannot watch yourself: you already get your own mail.');
    ids.push(id);
  }
  return [...new Set(ids)];
}

/** PUT /rest/preferences/mail: changes what the body names, all of it or nothing; answers as GET does. */
export async function updateMailPreferences(caller: Caller, input: MailPreferencesInput): Promise<MailPreferencesView> {
  const user = requireUser(caller);
  // Bugs to ignore must exist and be visible (Bugzilla::Bug->check): 100, 101, 102 otherwise.
  const ignore = input.ignored_bugs?.add?.length
    ? (await visibleBugs(caller, input.ignored_bugs.add, await loadBugCatalog())).map(({ bug }) => bug.id)
    : [];
  const unignore = (input.ignored_bugs?.remove ?? []).map(Number).filter(Number.isSafeInteger);
  const startWatching = await watchedIdsOf(input.watched_users?.add ?? [], user.id);
  const stopWatching = await watchedIdsOf(input.watched_users?.remove ?? [], user.id);

  return retryOnConflict(async () => {
    const stored = (await loadMailSettings([user.id], { consistent: true })).get(user.id)!;
    const preferences = changeMailPreferences(stored.preferences, {
      relationships: matrixChange(input),
      flagRequested: input.flag_requested_of_me,
      requestedFlag: input.flag_i_requested,
      ignoreBugs: ignore,
      unignoreBugs: unignore,
    });
    if (preferences.ignoredBugIds.size > MAX_IGNORED_BUGS)
      throw errors.invalidParameter(`You can ignore at most ${MAX_IGNORED_BUGS} bugs.`);
    const watched = new Set(stored.watchedIds);
    for (const id of stopWatching) watched.delete(id);
    for (const id of startWatching) watched.add(id);
    if (watched.size > MAX_WATCHED_USERS)
      throw errors.invalidParameter(`You can watch at most ${MAX_WATCHED_USERS} people.`);

    const transaction = new WriteTransaction();
    const watchedIds = [...watched];
    putMailSettings(transaction, user.id, { preferences, watchedIds }, stored.rev);
    for (const id of watchedIds) if (!stored.watchedIds.includes(id)) changeWatch(transaction, user.id, id, true);
    for (const id of stored.watchedIds) if (!watched.has(id)) changeWatch(transaction, user.id, id, false);

    // Bug mail on or off is the account's own setting (Bugzilla's disable_mail), as PUT
    // /rest/preferences/account changes it: the same item, the same audit entry.
    let emailEnabled = user.emailEnabled;
    if (input.email_enabled !== undefined) {
      const record = await loadUserWithMembership(user.id, { consistent: true });
      if (!record) throw errors.notFoundById('user', user.id);
      emailEnabled = record.user.emailEnabled;
      if (input.email_enabled !== emailEnabled) {
        addUserUpdate(transaction, {
          userId: user.id,
          rev: record.rev,
          previousLogin: record.user.login,
          emailEnabled: input.email_enabled,
          addGroups: [],
          removeGroups: [],
          addBless: [],
          removeBless: [],
        });
        recordAudit(transaction, {
          auditClass: AUDIT_CLASS.user,
          objectId: user.id,
          userId: user.id,
          changes: { disable_mail: { removed: flagText(!emailEnabled), added: flagText(!input.email_enabled) } },
          at: new Date(),
        });
        emailEnabled = input.email_enabled;
      }
    }
    await transaction.commit();
    return viewOf(user.id, emailEnabled, { preferences, watchedIds, rev: stored.rev + 1 });
  });
}
