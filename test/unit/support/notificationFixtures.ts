import type { Bug, HistoryChange } from '../../../shared/domain/bug/bug.ts';
import type { FlagType } from '../../../shared/domain/catalog/flagTypes.ts';
import type { Caller, UserAccount } from '../../../shared/domain/identity/caller.ts';
import { DEFAULT_PARAMETERS, type Parameters } from '../../../shared/domain/instance/parameters.ts';
import type {
  AttachmentChange,
  AttachmentFacts,
  BugChange,
  ChangeComment,
  NotificationNames,
} from '../../../shared/domain/notification/bugChange.ts';
import type { ChangeMailContext } from '../../../shared/domain/notification/changeMail.ts';
import {
  changeMailPreferences,
  DEFAULT_MAIL_PREFERENCES,
  type MailPreferencesChange,
} from '../../../shared/domain/notification/mailPreferences.ts';
import type { MailUser } from '../../../shared/domain/notification/mailRecipients.ts';
import { plainBug } from './bugFixtures.ts';

/**
 * A small installation for the notification rules: people in every role a bug mail knows, an
 * insider group, a secret bug group, flag types with and without a CC list, and a builder for
 * committed changes.
 */
export const PEOPLE = {
  admin: 1,
  reporter: 2,
  assignee: 3,
  qa: 4,
  cc: 5,
  changer: 6,
  outsider: 7,
  disabled: 8,
  mailOff: 9,
  insider: 10,
  newAssignee: 11,
  watcher: 12,
  secretKeeper: 13,
} as const;
export type Person = keyof typeof PEOPLE;

export const INSIDER_GROUP = 'insiders';
export const SECRET_GROUP_ID = 20;

const GROUPS_OF: Partial<Record<Person, string[]>> = {
  admin: ['admin', 'editbugs', INSIDER_GROUP, 'secret'],
  changer: ['editbugs'],
  insider: [INSIDER_GROUP],
  secretKeeper: ['secret'],
};

export const loginOf = (person: Person) => `${person.toLowerCase()}@example.com`;
export const personOf = (id: number): Person => (Object.keys(PEOPLE) as Person[]).find((name) => PEOPLE[name] === id)!;

export function account(person: Person): UserAccount {
  return {
    id: PEOPLE[person],
    login: loginOf(person),
    realName: person === 'outsider' ? '' : `${person[0]!.toUpperCase()}${person.slice(1)} Person`,
    disabledText: person === 'disabled' ? 'Left the project' : '',
    emailEnabled: person !== 'mailOff',
  };
}

export const callerOf = (person: Person): Caller & { user: UserAccount } => ({
  user: account(person),
  groups: new Set(GROUPS_OF[person] ?? []),
  blessGroups: new Set(),
});

export const PARAMETERS: Parameters = {
  ...DEFAULT_PARAMETERS,
  urlbase: 'https://bugs.example.com/',
  mailfrom: 'bugzilla-daemon',
  mail_delivery_method: 'Test',
  insidergroup: INSIDER_GROUP,
};

export const names: NotificationNames = {
  product: (id) => (id === 1 ? 'Widgets' : `Product${id}`),
  component: (id) => (id === 1 ? 'Frobnicator' : `Component${id}`),
  version: () => 'unspecified',
  milestone: () => '---',
  login: (id) => (id === null ? '' : loginOf(personOf(id))),
  keyword: (id) => `kw${id}`,
  group: (id) => (id === SECRET_GROUP_ID ? 'secret' : `group${id}`),
  flagType: (id) => (id === 1 ? 'review' : id === 2 ? 'needinfo' : `flag${id}`),
  classification: () => 'Unclassified',
  user: (id) => account(personOf(id)),
};

export const groupName = (id: number) => names.group(id);

export const FLAG_TYPES: Readonly<Record<number, Pick<FlagType, 'ccList'>>> = {
  1: { ccList: '' },
  2: { ccList: 'triage@lists.example.com, watcher@example.com' },
};

/** The same change of every relationship's column (a person's preferences all along the matrix). */
export const everyRelationship = (
  column: NonNullable<MailPreferencesChange['relationships']>['CC'],
): MailPreferencesChange['relationships'] => ({ AssignedTo: column, Reporter: column, QAcontact: column, CC: column });

/**
 * A context whose people use Bugzilla's default preferences unless `preferences` says otherwise,
 * and watch whom `watches` says (watcher → the people they watch).
 */
export function mailContext(
  options: {
    parameters?: Partial<Parameters>;
    preferences?: Partial<Record<Person, MailPreferencesChange>>;
    watches?: Partial<Record<Person, Person[]>>;
  } = {},
): ChangeMailContext {
  const base = { ...PARAMETERS, ...options.parameters } as Parameters;
  const mailUser = (person: Person): MailUser => {
    const own = options.preferences?.[person];
    return own
      ? { caller: callerOf(person), preferences: changeMailPreferences(DEFAULT_MAIL_PREFERENCES, own) }
      : { caller: callerOf(person) };
  };
  return {
    parameters: base,
    names,
    groupName,
    directory: {
      user: (id) => (personOf(id) ? mailUser(personOf(id)) : undefined),
      userByLogin: (login) => {
        const person = (Object.keys(PEOPLE) as Person[]).find((name) => loginOf(name) === login.toLowerCase());
        return person ? mailUser(person) : undefined;
      },
      watchersOf: (id) =>
        (Object.entries(options.watches ?? {}) as Array<[Person, Person[]]>)
          .filter(([, watched]) => watched.some((person) => PEOPLE[person] === id))
          .map(([watcher]) => PEOPLE[watcher]),
    },
    flagType: (id) => FLAG_TYPES[id],
  };
}

/** The bug every test starts from: reporter, assignee, QA contact and one CC, public, NEW. */
export const baseBug = (overrides: Partial<Bug> = {}): Bug =>
  plainBug(42, {
    summary: 'Frobnicator drops every second frame',
    status: 'NEW',
    reporterId: PEOPLE.reporter,
    assigneeId: PEOPLE.assignee,
    qaContactId: PEOPLE.qa,
    ccIds: [PEOPLE.cc],
    commentCount: 3,
    ...overrides,
  });

let commentIds = 500;

export function comment(overrides: Partial<ChangeComment> = {}): ChangeComment {
  commentIds += 1;
  return {
    id: commentIds,
    bugId: 42,
    count: 3,
    creatorId: PEOPLE.changer,
    rawText: 'I can reproduce this on every build.',
    isPrivate: false,
    isMarkdown: false,
    workTime: 0,
    creationTime: '2025-03-04T05:06:07Z',
    ...overrides,
  };
}

export function attachment(overrides: Partial<AttachmentFacts> = {}): AttachmentFacts {
  return {
    id: 7,
    fileName: 'trace.txt',
    summary: 'Stack trace of the crash',
    contentType: 'text/plain',
    size: 1234,
    isPatch: false,
    isPrivate: false,
    isObsolete: false,
    creatorId: PEOPLE.changer,
    creationTime: '2025-03-04T05:06:07Z',
    flags: [],
    ...overrides,
  };
}

/** A change of the base bug by the changer at 2025-03-04 05:06:07 UTC, revision 8. */
export function changeOf(
  before: Bug | null,
  after: Bug,
  parts: {
    changes?: readonly HistoryChange[];
    comments?: readonly ChangeComment[];
    attachments?: readonly AttachmentChange[];
    whoId?: number;
    revision?: number;
  } = {},
): BugChange {
  return {
    revision: parts.revision ?? (before === null ? 1 : 8),
    whoId: parts.whoId ?? PEOPLE.changer,
    when: '2025-03-04T05:06:07Z',
    before,
    after: { ...after, lastChangeTime: '2025-03-04T05:06:07Z' },
    changes: parts.changes ?? [],
    comments: parts.comments ?? [],
    attachments: parts.attachments ?? [],
  };
}
