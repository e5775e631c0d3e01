import { errors } from '../../errors.ts';
import type { FieldValues, ValueField } from '../catalog/fieldValues.ts';
import { flagText } from '../changeReport.ts';
import { characterCount } from '../inputLimits.ts';
import { regexpProblem } from '../safeRegexp.ts';
import { DEFAULT_PARAMETERS, type ParameterChange, type Parameters } from './parameters.ts';

/**
 * The rules an administrator's change of parameters must follow. Apart from parameters.ts (the
 * defaults and who sees what, which every function reads) because the regexp parameters are
 * checked with the linear-time regexp engine, which only the function that changes them carries.
 */

/** A parameter's rule: the problem with a value, or null; some read the installation's legal values. */
type Rule = (value: string, values: FieldValues) => string | null;

const oneOf =
  (...choices: string[]): Rule =>
  (value) =>
    choices.includes(value) ? null : `must be one of: ${choices.join(', ')}`;
const BOOLEAN: Rule = oneOf('0', '1');
/** Bugzilla stores its numeric parameters in 32-bit integers; a larger one is a mistake (or an attack). */
const MAX_INTEGER = 2_147_483_647;
const withinInteger = (value: string) => Number(value) <= MAX_INTEGER;
const NON_NEGATIVE_INTEGER: Rule = (value) =>
  /^\d{1,10}$/.test(value) && withinInteger(value) ? null : `must be a whole number from 0 to ${MAX_INTEGER}`;
const POSITIVE_INTEGER: Rule = (value) =>
  /^[1-9]\d{0,9}$/.test(value) && withinInteger(value) ? null : `must be a whole number from 1 to ${MAX_INTEGER}`;
const EMAIL: Rule = (value) => (/^[^@\s]+@[^@\s]+$/.test(value) ? null : 'must be an e-mail address');
const REGEXP: Rule = (value) =>
  regexpProblem(value) === null ? null : 'must be a valid regular expression without backreferences or lookaround';
/**
 * One of the installation's active values of a field, as Bugzilla's check_priority and friends
 * (Config/BugFields.pm) require.
 */
const legalValue =
  (label: string, field: ValueField, orEmpty = false): Rule =>
  (value, values) => {
    const legal = values.active(field).map((entry) => entry.name);
    return (orEmpty && value === '') || legal.includes(value)
      ? null
      : `must be ${orEmpty ? 'empty or ' : ''}a legal ${label}: one of ${legal.join(', ')}`;
  };
/**
 * Bugzilla's check_bug_status (Config/Common.pm), narrowed to the closed statuses every open
 * status may move to (the workflow editor keeps every move to the one chosen).
 */
const DUPLICATE_STATUS: Rule = (value, values) => {
  const allowed = values.duplicateStatuses();
  return allowed.includes(value)
    ? null
    : `must be a closed status every open status may move to: ${allowed.join(', ')}`;
};
const URL_OR_EMPTY: Rule = (value) =>
  value === '' || /^https?:\/\/\S+\/$/.test(value) ? null : 'must be an http(s) URL ending in /';

const RULES: Record<string, Rule> = {
  ...Object.fromEntries(
    [
      'allow_attachment_deletion',
      'allow_attachment_display',
      'allowbugdeletion',
      'allowemailchange',
      'allowuserdeletion',
      'commentonchange_resolution',
      'commentonduplicate',
      'confirmuniqueusermatch',
      'letsubmitterchoosemilestone',
      'letsubmitterchoosepriority',
      'makeproductgroups',
      'markdown_enabled',
      'musthavemilestoneonaccept',
      'noresolveonopenblockers',
      'or_groups',
      'require_bug_type',
      'requirelogin',
      'search_allow_no_criteria',
      'strict_isolation',
      'use_regression_fields',
      'use_see_also',
      'useclassification',
      'usemenuforusers',
      'useqacontact',
      'usestatuswhiteboard',
      'usetargetmilestone',
      'usevisibilitygroups',
      'webservice_email_filter',
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
  defaultpriority: legalValue('priority', 'priority'),
  defaultseverity: legalValue('severity', 'bug_severity'),
  defaultplatform: legalValue('platform', 'rep_platform', true),
  defaultopsys: legalValue('operating system', 'op_sys', true),
  default_bug_type: legalValue('bug type', 'bug_type'),
  duplicate_or_move_bug_status: DUPLICATE_STATUS,
};

/**
 * Every parameter is one attribute of the single PARAMETERS item (400 KB at most), so each has a
 * length limit: the HTML banners may be long, everything else is a short setting.
 */
const LONG_PARAMETERS = new Set(['announcehtml', 'shutdownhtml']);
export const MAX_LONG_PARAMETER_LENGTH = 16_384;
export const MAX_PARAMETER_LENGTH = 255;

/** Normalises JSON values to Bugzilla's strings: booleans become "1"/"0". */
function asParameterValue(name: string, value: unknown): string {
  if (typeof value === 'boolean') return flagText(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return value;
  throw errors.invalidParameter(`The value of the parameter '${name}' must be a string, a number or a boolean.`);
}

/**
 * Checks an administrator's requested changes against the current values (and the parameters that
 * name a legal value against the installation's `values`). Unknown names and invalid values are
 * refused as a whole: nothing is saved unless everything is valid.
 */
export function planParameterUpdate(
  current: Parameters,
  requested: Record<string, unknown>,
  values: FieldValues,
): Record<string, ParameterChange> {
  const names = Object.keys(requested);
  if (names.length === 0) throw errors.missingParameter('You must name at least one parameter to change.');
  const changes: Record<string, ParameterChange> = {};
  for (const name of names.sort()) {
    if (!Object.hasOwn(DEFAULT_PARAMETERS, name))
      throw errors.invalidParameter(`There is no parameter named '${name}'.`);
    const value = asParameterValue(name, requested[name]);
    const limit = LONG_PARAMETERS.has(name) ? MAX_LONG_PARAMETER_LENGTH : MAX_PARAMETER_LENGTH;
    const characters = characterCount(value);
    if (characters > limit)
      throw errors.invalidParameter(
        `The parameter '${name}' can be at most ${limit} characters long (it has ${characters}).`,
      );
    const problem = Object.hasOwn(RULES, name) ? RULES[name](value, values) : null;
    if (problem) throw errors.invalidParameter(`The parameter '${name}' ${problem}.`);
    const before = Object.hasOwn(current, name) ? current[name] : DEFAULT_PARAMETERS[name];
    if (before !== value) changes[name] = { removed: before, added: value };
  }
  return changes;
}
