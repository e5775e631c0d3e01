import type { Bug } from '../../domain/bug/bug.ts';
import { storedFieldName } from '../../domain/bug/bugFields.ts';
import { callerFor, type UserAccount } from '../../domain/identity/caller.ts';
import type { Parameters } from '../../domain/instance/parameters.ts';
import type { BugChange, NotificationNames } from '../../domain/notification/bugChange.ts';
import type { ChangeMailContext } from '../../domain/notification/changeMail.ts';
import type { MailUser } from '../../domain/notification/mailRecipients.ts';
import { loadBugs } from '../../storage/bug/bugStore.ts';
import { loadMailSettings, loadWatchers } from '../../storage/identity/mailSettingsStore.ts';
import { findUserIdByLogin, getUserRecords } from '../../storage/identity/userStore.ts';
import { bugNames, loadBugCatalog } from '../bug/bugContext.ts';
import { classificationNameIn, groupNameIn } from '../catalog/catalogContext.ts';

/**
 * Everything the mail and event rules ask about a batch of changes, read once for the batch:
 * the catalogue (names, groups, flag types, parameters), every person the changes concern with
 * their groups, the global watchers and flag types' CC lists by login, and the bugs a dependency
 * change names, and each person's mail preferences with whoever watches them (and those
 * watchers' own preferences: a watcher is mailed by their own, in the watched one's shoes).
 */
export interface NotificationContext {
  parameters: Parameters;
  names: NotificationNames;
  mail: ChangeMailContext;
}

const ccLogins = (ccList: string) => ccList.split(/[,\s]+/).filter(Boolean);

/** Every person a change may name or mail: roles before and after, flags, comments, attachments, the changer. */
function userIdsOf(change: BugChange): number[] {
  const ids = new Set<number>([change.whoId]);
  for (const bug of [change.before, change.after]) {
    if (!bug) continue;
    ids.add(bug.reporterId);
    ids.add(bug.assigneeId);
    if (bug.qaContactId !== null) ids.add(bug.qaContactId);
    for (const id of bug.ccIds) ids.add(id);
  }
  const flags = [
    ...(change.before?.flags ?? []),
    ...change.after.flags,
    ...change.attachments.flatMap(({ before, after }) => [...(before?.flags ?? []), ...after.flags]),
  ];
  for (const flag of flags) {
    ids.add(flag.setterId);
    if (flag.requesteeId !== null) ids.add(flag.requesteeId);
  }
  for (const comment of change.comments) ids.add(comment.creatorId);
  for (const { after } of change.attachments) ids.add(after.creatorId);
  return [...ids];
}

/** The bugs a dependency change names (the mail lists those its reader may see). */
function referencedBugIds(change: BugChange): number[] {
  return change.changes
    .filter((entry) => ['dependson', 'blocked'].includes(storedFieldName(entry.field_name)))
    .flatMap((entry) => `${entry.removed},${entry.added}`.split(/[\s,]+/))
    .filter((id) => /^\d+$/.test(id))
    .map(Number);
}

export async function loadNotificationContext(changes: readonly BugChange[]): Promise<NotificationContext> {
  const bugCatalog = await loadBugCatalog();
  const { catalog } = bugCatalog;
  const { parameters } = catalog;
  const flagTypeIds = new Set(
    changes
      .flatMap((change) => [
        ...(change.before?.flags ?? []),
        ...change.after.flags,
        ...change.attachments.flatMap(({ before, after }) => [...(before?.flags ?? []), ...after.flags]),
      ])
      .map((flag) => flag.typeId),
  );
  const logins = [
    ...ccLogins(parameters.globalwatchers ?? ''),
    ...catalog.flagTypes.filter((type) => flagTypeIds.has(type.id)).flatMap((type) => ccLogins(type.ccList)),
  ].map((login) => login.toLowerCase());
  const uniqueLogins = [...new Set(logins)];
  const [loginIds, referenced] = await Promise.all([
    Promise.all(uniqueLogins.map((login) => findUserIdByLogin(login))),
    loadBugs([...new Set(changes.flatMap(referencedBugIds))]),
  ]);
  const idOfLogin = new Map<string, number>();
  uniqueLogins.forEach((login, index) => {
    const id = loginIds[index];
    if (id !== null && id !== undefined) idOfLogin.set(login, id);
  });
  const involved = [...new Set([...changes.flatMap(userIdsOf), ...idOfLogin.values()])];
  const watchers = await loadWatchers(involved);
  const ids = [...new Set([...involved, ...[...watchers.values()].flat()])];
  const [records, settings] = await Promise.all([getUserRecords(ids), loadMailSettings(ids)]);
  const mailUsers = new Map<number, MailUser>(
    records.map((record) => [
      record.user.id,
      {
        caller: { ...callerFor(record.user, record.membership, catalog.groups), user: record.user },
        preferences: settings.get(record.user.id)?.preferences,
      },
    ]),
  );
  const accounts = new Map<number, UserAccount>(records.map((record) => [record.user.id, record.user]));
  for (const record of records) idOfLogin.set(record.user.login.toLowerCase(), record.user.id);

  const base = bugNames(bugCatalog, accounts);
  const names: NotificationNames = {
    ...base,
    classification: classificationNameIn(catalog),
    user: (id) => accounts.get(id),
  };
  const referencedBugs = new Map<number, Bug>([...referenced].map(([id, stored]) => [id, stored.bug]));
  return {
    parameters,
    names,
    mail: {
      parameters,
      names,
      groupName: groupNameIn(catalog),
      customFieldLabel: (name) => bugCatalog.customFields.find((field) => field.name === name)?.displayName,
      referencedBug: (id) => referencedBugs.get(id),
      directory: {
        user: (id) => mailUsers.get(id),
        userByLogin: (login) => {
          const id = idOfLogin.get(login.trim().toLowerCase());
          return id === undefined ? undefined : mailUsers.get(id);
        },
        watchersOf: (id) => watchers.get(id) ?? [],
      },
      flagType: (id) => catalog.flagTypes.find((type) => type.id === id),
    },
  };
}
