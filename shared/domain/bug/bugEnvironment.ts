import { errors } from '../../errors.ts';
import type { TrackerError } from '../../trackerError.ts';
import type { ProductRecord } from '../catalog/catalog.ts';
import type { CustomField } from '../catalog/customFields.ts';
import type { FieldValues } from '../catalog/fieldValues.ts';
import type { FlagType } from '../catalog/flagTypes.ts';
import type { Keyword } from '../catalog/keywords.ts';
import type { Caller, GroupSummary, UserAccount } from '../identity/caller.ts';
import type { Parameters } from '../instance/parameters.ts';

/**
 * Everything the bug rules consult besides the bugs themselves, loaded once per request by the
 * application layer: the catalogue, the caller, the users the request names, and the clock.
 */
export interface BugEnvironment {
  caller: Caller & { user: UserAccount };
  now: string;
  products: readonly ProductRecord[];
  enterableProductIds: ReadonlySet<number>;
  groups: readonly GroupSummary[];
  groupName(id: number): string | undefined;
  flagTypes: readonly FlagType[];
  customFields: readonly CustomField[];
  keywords: readonly Keyword[];
  parameters: Parameters;
  /** The installation's legal values of the built-in drop-downs and its workflow. */
  values: FieldValues;
  /** A user named by login in the request (resolved beforehand); undefined if there is none. */
  findUserId(login: string): number | undefined;
  /** Like findUserId, but an unknown login is Bugzilla's error for that field (51, or 504 for a new bug's CC). */
  userId(login: string, field: string, error?: UnknownUserError): number;
  loginOf(id: number | null): string;
  /**
   * A user the request involves, with their groups, for what depends on what they can see: a flag
   * requestee it names, or the reporter of a bug it marks a duplicate. Undefined when not loaded.
   */
  requestee(id: number): Caller | undefined;
  nextFlagId(): number;
}

/** The error an unknown login answers: notFound (51) as a rule, invalidUser (504) for a new bug's CC. */
export type UnknownUserError = 'notFound' | 'invalidUser';

export function unknownUser(login: string, field: string, error: UnknownUserError = 'notFound'): TrackerError {
  return errors[error](
    `There is no user named '${login}' (in ${field}). Either you misspelled it, or the person has not registered for a Tracker account.`,
  );
}
