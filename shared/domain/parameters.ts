import { regexpProblem } from './safeRegexp.ts';
import { TrackerError } from '../trackerError.ts';
import type { Caller } from './caller.ts';
import { inGroup, isLoggedIn } from './caller.ts';
import { flagText } from './changeReport.ts';

/**
 * Configuration parameters: Bugzilla 5.2's defaults (observed on a fresh installation), who may
 * see which, and the rules an administrator's change must follow. Values are strings on the wire,
 * as in Bugzilla.
 */
export type Parameters = Record<string, string>;

export const DEFAULT_PARAMETERS: Readonly<Parameters> = Object.freeze({
  allow_attachment_deletion: '0',
  allow_attachment_display: '0',
  allowbugdeletion: '0',
  allowemailchange: '1',
  allowuserdeletion: '0',
  announcehtml: '',
  attachment_base: '',
  chartgroup: 'editbugs',
  collapsed_comment_tags: 'obsolete, spam',
  comment_taggers_group: 'admin',
  commentonchange_resolution: '0',
  commentonduplicate: '0',
  confirmuniqueusermatch: '1',
  cookiepath: '/',
  createemailregexp: '.*',
  debug_group: 'admin',
  default_bug_type: 'defect',
  default_search_limit: '500',
  defaultopsys: '',
  defaultplatform: '',
  defaultpriority: '---',
  defaultseverity: 'enhancement',
  duplicate_or_move_bug_status: 'RESOLVED',
  emailregexp: "^[\\w\\.\\+\\-=']+@[\\w\\.\\-]+\\.[\\w\\-]+$",
  emailregexpdesc: "A legal address must contain exactly one '@', and at least one '.' after the @.",
  emailsuffix: '',
  globalwatchers: '',
  insidergroup: 'admin',
  last_visit_keep_days: '10',
  letsubmitterchoosemilestone: '1',
  letsubmitterchoosepriority: '1',
  login_token_lifetime_days: '30',
  mail_delivery_method: 'None',
  mailfrom: 'tracker-daemon',
  maintainer: 'admin@example.com',
  makeproductgroups: '0',
  markdown_enabled: '1',
  max_login_attempts: '5',
  max_search_results: '10000',
  maxattachmentsize: '1000',
  maxlocalattachment: '0',
  maxusermatches: '1000',
  musthavemilestoneonaccept: '0',
  noresolveonopenblockers: '0',
  or_groups: '0',
  password_complexity: 'no_constraints',
  querysharegroup: 'editbugs',
  rememberlogin: 'on',
  require_bug_type: '0',
  requirelogin: '0',
  search_allow_no_criteria: '1',
  shutdownhtml: '',
  strict_isolation: '0',
  timetrackinggroup: 'admin',
  urlbase: '',
  use_regression_fields: '1',
  use_see_also: '1',
  useclassification: '0',
  usemenuforusers: '0',
  useqacontact: '1',
  usestatuswhiteboard: '1',
  usetargetmilestone: '1',
  usevisibilitygroups: '0',
  webservice_email_filter: '0',
});

const ANONYMOUS_VISIBLE = ['maintainer', 'requirelogin'];

const USER_VISIBLE = [
  'allowemailchange', 'attachment_base', 'commentonchange_resolution', 'commentonduplicate', 'cookiepath',
  'defaultopsys', 'defaultplatform', 'defaultpriority', 'defaultseverity', 'default_bug_type',
  'duplicate_or_move_bug_status', 'emailregexpdesc', 'emailsuffix', 'letsubmitterchoosemilestone',
  'letsubmitterchoosepriority', 'mailfrom', 'maintainer', 'maxattachmentsize', 'maxlocalattachment',
  'musthavemilestoneonaccept', 'noresolveonopenblockers', 'password_complexity', 'rememberlogin',
  'require_bug_type', 'requirelogin', 'search_allow_no_criteria', 'urlbase', 'use_regression_fields',
  'use_see_also', 'useclassification', 'usemenuforusers', 'useqacontact', 'usestatuswhiteboard',
  'usetargetmilestone',
];

export const TWEAKPARAMS_GROUP = 'tweakparams';

const pick = (parameters: Parameters, names: readonly string[]): Parameters =>
  Object.fromEntries(names.filter((name) => name in parameters).map((name) => [name, parameters[name]]));

/** What `GET /rest/parameters` shows this caller. */
export function visibleParameters(caller: Caller, parameters: Parameters): Parameters {
  if (!isLoggedIn(caller)) return pick(parameters, ANONYMOUS_VISIBLE);
  if (inGroup(caller, TWEAKPARAMS_GROUP)) return { ...parameters };
  return pick(parameters, USER_VISIBLE);
}

type Rule = (value: string) => string | null;

const oneOf = (...choices: string[]): Rule => (value) =>
  choices.includes(value) ? null : `must be one of: ${choices.join(', ')}`;
const BOOLEAN: Rule = oneOf('0', '1');
/** Bugzilla stores its numeric parameters in 32-bit integers; a larger one is a mistake (or an attack). */
const MAX_INTEGER = 2_147_483_647;
const withinInteger = (value: string) => Number(value) <= MAX_INTEGER;
const NON_NEGATIVE_INTEGER: Rule = (value) => (/^\d{1,10}$/.test(value) && withinInteger(value) ? null : `must be a whole number from 0 to ${MAX_INTEGER}`);
const POSITIVE_INTEGER: Rule = (value) => (/^[1-9]\d{0,9}$/.test(value) && withinInteger(value) ? null : `must be a whole number from 1 to ${MAX_INTEGER}`);
const EMAIL: Rule = (value) => (/^[^@\s]+@[^@\s]+$/.test(value) ? null : 'must be an e-mail address');
const REGEXP: Rule = (value) => (regexpProblem(value) === null ? null : 'must be a valid regular expression without backreferences or lookaround');
const URL_OR_EMPTY: Rule = (value) => (value === '' || /^https?:\/\/\S+\/$/.test(value) ? null : 'must be an http(s) URL ending in /');

const RULES: Record<string, Rule> = {
  ...Object.fromEntries(
    [
      'allow_attachment_deletion', 'allow_attachment_display', 'allowbugdeletion', 'allowemailchange', 'allowuserdeletion',
      'commentonchange_resolution', 'commentonduplicate', 'confirmuniqueusermatch', 'letsubmitterchoosemilestone',
      'letsubmitterchoosepriority', 'makeproductgroups', 'markdown_enabled', 'musthavemilestoneonaccept',
      'noresolveonopenblockers', 'or_groups', 'require_bug_type', 'requirelogin', 'search_allow_no_criteria',
      'strict_isolation', 'use_regression_fields', 'use_see_also', 'useclassification', 'usemenuforusers',
      'useqacontact', 'usestatuswhiteboard', 'usetargetmilestone', 'usevisibilitygroups', 'webservice_email_filter',
    ].map((name) => [name, BOOLEAN]),
  ),
  default_search_limit: POSITIVE_INTEGER,
  last_visit_keep_days: NON_NEGATIVE_INTEGER,
  login_token_lifetime_days: POSITIVE_INTEGER,
  max_login_attempts: POSITIVE_INTEGER,
  max_search_results: POSITIVE_INTEGER,
  maxattachmentsize: NON_NEGATIVE_INTEGER,
  maxlocalattachment: NON_NEGATIVE_INTEGER,
  maxusermatches: NON_NEGATIVE_INTEGER,
  createemailregexp: REGEXP,
  emailregexp: REGEXP,
  password_complexity: oneOf('no_constraints', 'mixed_letters', 'letters_numbers', 'letters_numbers_specialchars'),
  rememberlogin: oneOf('on', 'defaulton', 'defaultoff'),
  mail_delivery_method: oneOf('None', 'Test', 'SMTP', 'Sendmail'),
  urlbase: URL_OR_EMPTY,
  attachment_base: URL_OR_EMPTY,
  maintainer: EMAIL,
};

/**
 * Every parameter is one attribute of the single PARAMETERS item (400 KB at most), so each has a
 * length limit: the HTML banners may be long, everything else is a short setting.
 */
const LONG_PARAMETERS = new Set(['announcehtml', 'shutdownhtml']);
export const MAX_LONG_PARAMETER_LENGTH = 16_384;
export const MAX_PARAMETER_LENGTH = 255;

export interface ParameterChange {
  removed: string;
  added: string;
}

/** Normalises JSON values to Bugzilla's strings: booleans become "1"/"0". */
function asParameterValue(name: string, value: unknown): string {
  if (typeof value === 'boolean') return flagText(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return value;
  throw new TrackerError(32000, `The value of the parameter '${name}' must be a string, a number or a boolean.`);
}

/**
 * Checks an administrator's requested changes against the current values. Unknown names and
 * invalid values are refused as a whole: nothing is saved unless everything is valid.
 */
export function planParameterUpdate(current: Parameters, requested: Record<string, unknown>): Record<string, ParameterChange> {
  const names = Object.keys(requested);
  if (names.length === 0) throw new TrackerError(50, 'You must name at least one parameter to change.');
  const changes: Record<string, ParameterChange> = {};
  for (const name of names.sort()) {
    if (!Object.hasOwn(DEFAULT_PARAMETERS, name)) throw new TrackerError(32000, `There is no parameter named '${name}'.`);
    const value = asParameterValue(name, requested[name]);
    const limit = LONG_PARAMETERS.has(name) ? MAX_LONG_PARAMETER_LENGTH : MAX_PARAMETER_LENGTH;
    if (value.length > limit) throw new TrackerError(32000, `The parameter '${name}' can be at most ${limit} characters long (it has ${value.length}).`);
    const problem = Object.hasOwn(RULES, name) ? RULES[name](value) : null;
    if (problem) throw new TrackerError(32000, `The parameter '${name}' ${problem}.`);
    const before = Object.hasOwn(current, name) ? current[name] : DEFAULT_PARAMETERS[name];
    if (before !== value) changes[name] = { removed: before, added: value };
  }
  return changes;
}
