/**
 * The XML-RPC type of a response member that JSON cannot tell: JSON has no dates, no binary and
 * no integer-valued doubles, so the REST answer's time text, attachment base64 and time-tracking
 * hours are typed by the name of the member holding them, as Bugzilla's WebService modules type
 * them explicitly. The table is every `$self->type('dateTime' | 'double' | 'base64', ...)` call in
 * Bugzilla 5.2's Bugzilla/WebService/*.pm (`git grep "type('dateTime'"`, and so on):
 *
 * - dateTime: Bug.pm (comments: `time`, `creation_time`; history: `when`; bugs: `creation_time`,
 *   `last_change_time` and date/time custom fields; Bug.update and Bug.update_attachment:
 *   `last_change_time`; attachments: `creation_time`, `last_change_time`; flags: `creation_date`,
 *   `modification_date`), BugUserLastVisit.pm (`last_visit_ts`), Bugzilla.pm (`db_time`,
 *   `web_time`, `web_time_utc`, `last_audit_time`).
 * - double: Bug.pm's `estimated_time`, `remaining_time`, `actual_time` (decimal(7,2) columns,
 *   which Bugzilla prints with two decimals: `<double>0.00</double>`). Nothing else is a double
 *   in 5.2's answers (`work_time` is only an input).
 * - base64: Bug.pm's attachment `data`.
 *
 * `deadline` is none of these: Bug.pm sends it as `type('string', ...)` (`YYYY-MM-DD`), and so does
 * Tracker. Everything else takes its type from its JSON value (xmlRpcResponse.ts).
 */
export type XmlRpcHintedType = 'dateTime.iso8601' | 'double' | 'base64';

const DATE_TIME_MEMBERS: ReadonlySet<string> = new Set([
  'creation_time',
  'last_change_time',
  'time',
  'when',
  'creation_date',
  'modification_date',
  'last_visit_ts',
  'db_time',
  'web_time',
  'web_time_utc',
  'last_audit_time',
]);

const TIME_TRACKING_MEMBERS: ReadonlySet<string> = new Set(['estimated_time', 'remaining_time', 'actual_time']);

const BASE64_MEMBERS: ReadonlySet<string> = new Set(['data']);

/** The REST API's time text (tracker-rest-api.md, "datetime"): `2026-11-24T21:48:24Z`. */
export const REST_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/**
 * Custom fields are named `cf_...`, and only date and date/time ones hold REST time text; a
 * free-text custom field holding exactly such a text is sent as a time too, which a client reads
 * back as the same instant.
 */
const CUSTOM_FIELD = /^cf_/;

/**
 * The type a member's value is sent as, or undefined when its JSON type decides. A hint applies
 * only to a value of the right JSON type: a time member that is not REST time text stays a string.
 */
export function xmlRpcTypeHint(member: string | undefined, value: unknown): XmlRpcHintedType | undefined {
  if (member === undefined) return undefined;
  if (typeof value === 'string') {
    if ((DATE_TIME_MEMBERS.has(member) || CUSTOM_FIELD.test(member)) && REST_DATE_TIME.test(value))
      return 'dateTime.iso8601';
    if (BASE64_MEMBERS.has(member)) return 'base64';
    return undefined;
  }
  if (typeof value === 'number' && TIME_TRACKING_MEMBERS.has(member)) return 'double';
  return undefined;
}
