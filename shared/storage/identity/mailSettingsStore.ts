/**
 * A person's mail preferences and user watching (docs/data-model.md): one `MAILPREFS` item in
 * the person's partition (the matrix, the ignored bugs, whom they watch), and one `WATCHERS`
 * item in each watched person's partition, a number set of who watches them, which the bug
 * mail publisher reads by the people a change concerns. Both change in one transaction; the
 * set is changed with ADD and DELETE, so two people starting to watch one person at once both
 * land.
 */
import {
  CHOSEN_RELATIONSHIPS,
  type ChosenRelationship,
  DEFAULT_MAIL_PREFERENCES,
  MAIL_EVENTS,
  type MailEvent,
  type MailPreferences,
  type RelationshipMail,
} from '../../domain/notification/mailPreferences.ts';
import { keys } from '../keys.ts';
import { batchGetAll } from '../tableReads.ts';
import { RevisionConflict, type WriteTransaction } from '../transaction.ts';

export interface StoredMailSettings {
  preferences: MailPreferences;
  /** The people this person watches, by id. */
  watchedIds: number[];
  /** The item's revision when read; 0 when there is none yet (Bugzilla's defaults). */
  rev: number;
}

const DEFAULT_SETTINGS: StoredMailSettings = { preferences: DEFAULT_MAIL_PREFERENCES, watchedIds: [], rev: 0 };

const numbers = (value: unknown): number[] =>
  value instanceof Set || Array.isArray(value) ? [...value].map(Number).filter(Number.isSafeInteger) : [];

function relationshipOf(stored: unknown, fallback: RelationshipMail): RelationshipMail {
  if (!stored || typeof stored !== 'object') return fallback;
  const entry = stored as Record<string, unknown>;
  const events = Array.isArray(entry.events)
    ? entry.events.filter((event): event is MailEvent => MAIL_EVENTS.includes(event as MailEvent))
    : [...fallback.events];
  return {
    events: new Set(events),
    unconfirmed: typeof entry.unconfirmed === 'boolean' ? entry.unconfirmed : fallback.unconfirmed,
    ownChanges: typeof entry.ownChanges === 'boolean' ? entry.ownChanges : fallback.ownChanges,
  };
}

function toSettings(item: Record<string, unknown>): StoredMailSettings {
  const stored = (item.relationships ?? {}) as Record<string, unknown>;
  const relationships = Object.fromEntries(
    CHOSEN_RELATIONSHIPS.map((relationship) => [
      relationship,
      relationshipOf(stored[relationship], DEFAULT_MAIL_PREFERENCES.relationships[relationship]),
    ]),
  ) as Record<ChosenRelationship, RelationshipMail>;
  return {
    preferences: {
      relationships,
      flagRequested: item.flagRequested !== false,
      requestedFlag: item.requestedFlag !== false,
      ignoredBugIds: new Set(numbers(item.ignoredBugIds)),
    },
    watchedIds: numbers(item.watchedIds),
    rev: Number(item.rev ?? 0),
  };
}

/** Each person's settings by id; Bugzilla's defaults (revision 0) for those who never changed them. */
export async function loadMailSettings(
  userIds: readonly number[],
  options: { consistent?: boolean } = {},
): Promise<Map<number, StoredMailSettings>> {
  const unique = [...new Set(userIds)];
  const items = await batchGetAll(unique.map(keys.mailSettings), options);
  const found = new Map(items.map((item) => [Number(item.userId), toSettings(item)]));
  return new Map(unique.map((id) => [id, found.get(id) ?? DEFAULT_SETTINGS]));
}

/** Who watches each of these people, by the watched person's id (only those someone watches). */
export async function loadWatchers(userIds: readonly number[]): Promise<Map<number, number[]>> {
  const items = await batchGetAll([...new Set(userIds)].map(keys.watchers));
  return new Map(
    items.map((item) => [Number(item.userId), numbers(item.ids)] as const).filter(([, ids]) => ids.length > 0),
  );
}

/** Writes a person's settings whole, if nobody changed them since they were read at `rev`. */
export function putMailSettings(
  transaction: WriteTransaction,
  userId: number,
  settings: Omit<StoredMailSettings, 'rev'>,
  rev: number,
): void {
  const { preferences } = settings;
  const item = {
    ...keys.mailSettings(userId),
    type: 'mailSettings',
    userId,
    relationships: Object.fromEntries(
      CHOSEN_RELATIONSHIPS.map((relationship) => {
        const entry = preferences.relationships[relationship];
        return [
          relationship,
          {
            events: MAIL_EVENTS.filter((event) => entry.events.has(event)),
            unconfirmed: entry.unconfirmed,
            ownChanges: entry.ownChanges,
          },
        ];
      }),
    ),
    flagRequested: preferences.flagRequested,
    requestedFlag: preferences.requestedFlag,
    ignoredBugIds: [...preferences.ignoredBugIds].sort((a, b) => a - b),
    watchedIds: [...settings.watchedIds].sort((a, b) => a - b),
  };
  if (rev > 0) transaction.putAtRevision(item, rev);
  else
    transaction.put(
      { ...item, rev: 1 },
      {
        condition: 'attribute_not_exists(pk)',
        onConditionFailed: () => new RevisionConflict(keys.mailSettings(userId)),
      },
    );
}

/** `watcherId` starts or stops watching `watchedId` (the watched person's set of watchers). */
export function changeWatch(
  transaction: WriteTransaction,
  watcherId: number,
  watchedId: number,
  watching: boolean,
): void {
  transaction.update(keys.watchers(watchedId), {
    expression: watching ? 'SET #type = :type, userId = :userId ADD ids :ids' : 'DELETE ids :ids',
    names: watching ? { '#type': 'type' } : undefined,
    values: watching
      ? { ':type': 'watchers', ':userId': watchedId, ':ids': new Set([watcherId]) }
      : { ':ids': new Set([watcherId]) },
  });
}
