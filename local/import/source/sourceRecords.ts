/**
 * The records the source readers hand to the writer, and the zod schemas that make them from
 * what a source answers. One record shape whatever the source, so the writer never asks which
 * Bugzilla it reads:
 * - Bugzilla 5.2 sends booleans, its attachments and the spec's groups 0/1, older answers "0"/"1":
 *   all become booleans.
 * - What a source does not send is `null` (not a guessed default) where the writer must know the
 *   difference: 5.2 has no bug `type`, `duplicates`, `comment_count`, `regressed_by`; only
 *   Harmony/BMO and Tracker have comment `raw_text`; time tracking is absent outside its group.
 * - `alias` is a list in 5.0/5.2, a string or null in Harmony and Tracker: always a list here.
 * - Logins stay logins (the writer maps them to its own ids); `people` collects the ids and real
 *   names the source gave next to them (`*_detail`), which is all a non-administrator can learn.
 * - Custom fields (`cf_*`, Bugzilla's rule for their names) are kept in `custom` as sent.
 * Unknown keys are dropped: Harmony's Mozilla-only `mentors`, `votes`, ... have no place in Tracker.
 */
export * from './records/bugs.ts';
export * from './records/catalogue.ts';
export * from './records/fields.ts';
export * from './records/people.ts';
export { idSchema } from './records/wireValues.ts';
