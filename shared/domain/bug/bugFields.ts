import { RESOLUTIONS } from './bugWorkflow.ts';

/**
 * Bugzilla's built-in bug fields, as code: every field a stock Bugzilla 5.2 lists under
 * `GET /rest/field/bug` (same ids, names, display names, types and mandatory flags), then the
 * fields Harmony adds that Tracker's bugs carry (`bug_type`, `regressed_by`, `regresses`), and the
 * default legal values of the select fields. Built-in fields are not stored; administrators add
 * custom fields (`cf_*`, customFields.ts), whose ids start above CUSTOM_FIELD_ID_OFFSET. The
 * installation's legal values of the select fields are catalogue data (catalog/fieldValues.ts).
 */
export const FIELD_TYPE = {
  UNKNOWN: 0,
  FREETEXT: 1,
  SINGLE_SELECT: 2,
  MULTI_SELECT: 3,
  TEXTAREA: 4,
  DATETIME: 5,
  BUG_ID: 6,
  BUG_URLS: 7,
  KEYWORDS: 8,
  DATE: 9,
  INTEGER: 10,
} as const;

export type FieldType = (typeof FIELD_TYPE)[keyof typeof FIELD_TYPE];

export const isSelectType = (type: number): boolean =>
  type === FIELD_TYPE.SINGLE_SELECT || type === FIELD_TYPE.MULTI_SELECT;

/**
 * Where a built-in field's legal values come from: a fixed list, the workflow, the catalogue
 * (classifications; per-product components, versions, milestones), the keyword store, or nowhere.
 */
export type BuiltInValues =
  | 'none'
  | 'fixed'
  | 'workflow'
  | 'classifications'
  | 'products'
  | 'components'
  | 'versions'
  | 'milestones'
  | 'keywords';

export interface BuiltInField {
  readonly id: number;
  readonly name: string;
  readonly displayName: string;
  readonly type: FieldType;
  readonly isMandatory: boolean;
  readonly valueSource: BuiltInValues;
}

/** A legal value of a fixed list. */
export interface LegalValue {
  readonly name: string;
  readonly sortKey: number;
}

/** Names in display order, with Bugzilla's sort keys 100, 200, ... */
const fixedValues = (...names: string[]): readonly LegalValue[] =>
  Object.freeze(names.map((name, index) => ({ name, sortKey: (index + 1) * 100 })));

export const PRIORITIES = fixedValues('Highest', 'High', 'Normal', 'Low', 'Lowest', '---');
export const SEVERITIES = fixedValues('blocker', 'critical', 'major', 'normal', 'minor', 'trivial', 'enhancement');
export const OPERATING_SYSTEMS = fixedValues('All', 'Windows', 'Mac OS', 'Linux', 'Other');
export const PLATFORMS = fixedValues('All', 'PC', 'Macintosh', 'Other');
export const BUG_TYPES = fixedValues('defect', 'enhancement', 'task');
const RESOLUTION_VALUES = fixedValues(...RESOLUTIONS);

export const DEFAULT_PRIORITY = '---';
export const DEFAULT_SEVERITY = 'enhancement';
export const DEFAULT_BUG_TYPE = 'defect';

/**
 * The legal values a new installation starts with, by field name. An installation's own values
 * (administrators add, rename, sort and disable them) are catalogue data: catalog/fieldValues.ts.
 */
export const FIXED_VALUES: Readonly<
  Record<'rep_platform' | 'op_sys' | 'resolution' | 'bug_severity' | 'priority' | 'bug_type', readonly LegalValue[]>
> = Object.freeze({
  rep_platform: PLATFORMS,
  op_sys: OPERATING_SYSTEMS,
  resolution: RESOLUTION_VALUES,
  bug_severity: SEVERITIES,
  priority: PRIORITIES,
  bug_type: BUG_TYPES,
});

const field = (
  id: number,
  name: string,
  displayName: string,
  type: FieldType = FIELD_TYPE.UNKNOWN,
  options: { mandatory?: boolean; values?: BuiltInValues } = {},
): BuiltInField =>
  Object.freeze({
    id,
    name,
    displayName,
    type,
    isMandatory: options.mandatory ?? false,
    valueSource: options.values ?? 'none',
  });

const { SINGLE_SELECT, DATETIME, BUG_URLS, KEYWORDS } = FIELD_TYPE;

/** In id order. Harmony's extras follow 5.2's fields; Harmony types them 22 (its bug list type),
 * which the spec does not know, so they are typed like 5.2's `dependson` and `blocked`. */
export const BUILT_IN_FIELDS: readonly BuiltInField[] = Object.freeze([
  field(1, 'bug_id', 'Bug #'),
  field(2, 'short_desc', 'Summary', FIELD_TYPE.UNKNOWN, { mandatory: true }),
  field(3, 'classification', 'Classification', SINGLE_SELECT, { values: 'classifications' }),
  field(4, 'product', 'Product', SINGLE_SELECT, { mandatory: true, values: 'products' }),
  field(5, 'version', 'Version', FIELD_TYPE.UNKNOWN, { mandatory: true, values: 'versions' }),
  field(6, 'rep_platform', 'Platform', SINGLE_SELECT, { values: 'fixed' }),
  field(7, 'bug_file_loc', 'URL'),
  field(8, 'op_sys', 'OS/Version', SINGLE_SELECT, { values: 'fixed' }),
  field(9, 'bug_status', 'Status', SINGLE_SELECT, { values: 'workflow' }),
  field(10, 'status_whiteboard', 'Status Whiteboard'),
  field(11, 'keywords', 'Keywords', KEYWORDS, { values: 'keywords' }),
  field(12, 'resolution', 'Resolution', SINGLE_SELECT, { values: 'fixed' }),
  field(13, 'bug_severity', 'Severity', SINGLE_SELECT, { values: 'fixed' }),
  field(14, 'priority', 'Priority', SINGLE_SELECT, { values: 'fixed' }),
  field(15, 'component', 'Component', SINGLE_SELECT, { mandatory: true, values: 'components' }),
  field(16, 'assigned_to', 'AssignedTo'),
  field(17, 'reporter', 'ReportedBy'),
  field(18, 'qa_contact', 'QAContact'),
  field(19, 'assigned_to_realname', 'AssignedToName'),
  field(20, 'reporter_realname', 'ReportedByName'),
  field(21, 'qa_contact_realname', 'QAContactName'),
  field(22, 'cc', 'CC'),
  field(23, 'dependson', 'Depends on'),
  field(24, 'blocked', 'Blocks'),
  field(25, 'attachments.description', 'Attachment description'),
  field(26, 'attachments.filename', 'Attachment filename'),
  field(27, 'attachments.mimetype', 'Attachment mime type'),
  field(28, 'attachments.ispatch', 'Attachment is patch'),
  field(29, 'attachments.isobsolete', 'Attachment is obsolete'),
  field(30, 'attachments.isprivate', 'Attachment is private'),
  field(31, 'attachments.submitter', 'Attachment creator'),
  field(32, 'target_milestone', 'Target Milestone', FIELD_TYPE.UNKNOWN, { values: 'milestones' }),
  field(33, 'creation_ts', 'Creation date'),
  field(34, 'delta_ts', 'Last changed date'),
  field(35, 'longdesc', 'Comment'),
  field(36, 'longdescs.isprivate', 'Comment is private'),
  field(37, 'longdescs.count', 'Number of Comments'),
  field(38, 'alias', 'Alias'),
  field(39, 'everconfirmed', 'Ever Confirmed'),
  field(40, 'reporter_accessible', 'Reporter Accessible'),
  field(41, 'cclist_accessible', 'CC Accessible'),
  field(42, 'bug_group', 'Group'),
  field(43, 'estimated_time', 'Estimated Hours'),
  field(44, 'remaining_time', 'Remaining Hours'),
  field(45, 'deadline', 'Deadline', DATETIME),
  field(46, 'commenter', 'Commenter'),
  field(47, 'flagtypes.name', 'Flags'),
  field(48, 'requestees.login_name', 'Flag Requestee'),
  field(49, 'setters.login_name', 'Flag Setter'),
  field(50, 'work_time', 'Hours Worked'),
  field(51, 'percentage_complete', 'Percentage Complete'),
  field(52, 'content', 'Content'),
  field(53, 'attach_data.thedata', 'Attachment data'),
  field(54, 'owner_idle_time', 'Time Since Assignee Touched'),
  field(55, 'see_also', 'See Also', BUG_URLS),
  field(56, 'tag', 'Personal Tags', KEYWORDS),
  field(57, 'last_visit_ts', 'Last Visit', DATETIME),
  field(58, 'comment_tag', 'Comment Tag'),
  field(59, 'days_elapsed', 'Days since bug changed'),
  // Harmony's additions
  field(60, 'bug_type', 'Type', SINGLE_SELECT, { values: 'fixed' }),
  field(61, 'regressed_by', 'Regressed by'),
  field(62, 'regresses', 'Regressions'),
]);

/** Custom field ids are this plus a sequence number, so they never meet a built-in id. */
export const CUSTOM_FIELD_ID_OFFSET = 1000;

/** Fields whose values belong to a product: `value_field` is `product`, and Legal Values needs one. */
const PRODUCT_SPECIFIC_FIELDS: readonly string[] = Object.freeze(['component', 'version', 'target_milestone']);

export const isProductSpecific = (name: string): boolean => PRODUCT_SPECIFIC_FIELDS.includes(name);

export function findBuiltInField(idOrName: number | string): BuiltInField | undefined {
  return typeof idOrName === 'number'
    ? BUILT_IN_FIELDS.find((candidate) => candidate.id === idOrName)
    : BUILT_IN_FIELDS.find((candidate) => candidate.name === idOrName);
}

/**
 * The names bug calls use (`status`, `platform`, `summary`...) for the stored field names
 * (`bug_status`, `rep_platform`, `short_desc`...): Legal Values takes either, as Bugzilla does.
 */
const API_FIELD_NAMES: Readonly<Record<string, string>> = Object.freeze({
  id: 'bug_id',
  summary: 'short_desc',
  platform: 'rep_platform',
  url: 'bug_file_loc',
  status: 'bug_status',
  whiteboard: 'status_whiteboard',
  severity: 'bug_severity',
  type: 'bug_type',
  creator: 'reporter',
  depends_on: 'dependson',
  blocks: 'blocked',
  regressions: 'regresses',
  creation_time: 'creation_ts',
  last_change_time: 'delta_ts',
  is_confirmed: 'everconfirmed',
  is_creator_accessible: 'reporter_accessible',
  is_cc_accessible: 'cclist_accessible',
  groups: 'bug_group',
});

/** The stored name of a field named as bug calls name it; other names are returned unchanged. */
export const storedFieldName = (name: string): string => API_FIELD_NAMES[name] ?? name;

const STORED_FIELD_NAMES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(API_FIELD_NAMES).map(([api, stored]) => [stored, api])),
);

/** The name bug calls (and the history) use for a stored field name; other names are returned unchanged. */
export const apiFieldName = (name: string): string => STORED_FIELD_NAMES[name] ?? name;
