/**
 * What every compiled criterion shares: the three truth values a row can have, and everything a
 * search needs besides the index, gathered once by the application layer before compiling.
 */
import type { Classification, ProductRecord } from '../../catalog/catalog.ts';
import type { FieldValues } from '../../catalog/fieldValues.ts';
import type { Keyword } from '../../catalog/keywords.ts';
import type { GroupSummary } from '../../identity/caller.ts';
import type { SearchIndex } from '../index/searchIndex.ts';

/**
 * Three-valued logic: comment text is not in the index, so a criterion over it answers MAYBE in a
 * first pass and only the rows still undecided have their comments read for a second.
 */
export const FALSE = 0;
export const TRUE = 1;
export const MAYBE = 2;
export type Truth = 0 | 1 | 2;
/** One criterion (or tree) compiled into a test of one row of the index. */
export type RowTest = (slot: number) => Truth;

export const bool = (value: boolean): Truth => (value ? TRUE : FALSE);
export const always =
  (truth: Truth): RowTest =>
  () =>
    truth;

export function negated(test: RowTest): RowTest {
  return (slot) => {
    const value = test(slot);
    return value === MAYBE ? MAYBE : value === TRUE ? FALSE : TRUE;
  };
}

export interface SearchUser {
  id: number;
  login: string;
  realName: string;
}

/** Everything a search needs to know besides the index, gathered by the application layer. */
export interface SearchEnvironment {
  index: SearchIndex;
  /** 0 when logged out. */
  callerId: number;
  callerLogin: string;
  products: readonly ProductRecord[];
  classifications: readonly Classification[];
  /** The installation's statuses, priorities...: bugs match by their values' current names. */
  values: FieldValues;
  groups: readonly GroupSummary[];
  keywords: readonly Keyword[];
  flagTypes: ReadonlyArray<{ id: number; name: string }>;
  /** Users whose logins the criteria name exactly (lowercased login → id). */
  loginIds: ReadonlyMap<string, number>;
  /** Every user, when a criterion matches logins by pattern. */
  allUsers?: readonly SearchUser[];
  now: number;
  /** May read private comments (the insider group), so their words match too. */
  insider: boolean;
  /**
   * In the time-tracking group: may search by estimated_time, remaining_time, work_time and
   * deadline and by their changes (absent: not in it). Bugzilla removes those fields from search
   * for everyone else.
   */
  timeTracker?: boolean;
  /** Comments of the rows being decided in the second pass (absent in the first). */
  comments?: ReadonlyMap<number, ReadonlyArray<{ text: string; creatorId: number; count: number }>>;
}
