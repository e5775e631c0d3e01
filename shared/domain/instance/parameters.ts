import type { Caller } from '../identity/caller.ts';
import { inGroup, isLoggedIn } from '../identity/caller.ts';

/**
 * Configuration parameters: Bugzilla 5.2's defaults (observed on a fresh installation), who may
 * see which (the rules for changing them: parameterChanges.ts). Values are strings on the wire,
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
  'allowemailchange',
  'attachment_base',
  'commentonchange_resolution',
  'commentonduplicate',
  'cookiepath',
  'defaultopsys',
  'defaultplatform',
  'defaultpriority',
  'defaultseverity',
  'default_bug_type',
  'duplicate_or_move_bug_status',
  'emailregexpdesc',
  'emailsuffix',
  'letsubmitterchoosemilestone',
  'letsubmitterchoosepriority',
  'mailfrom',
  'maintainer',
  'maxattachmentsize',
  'maxlocalattachment',
  'musthavemilestoneonaccept',
  'noresolveonopenblockers',
  'password_complexity',
  'rememberlogin',
  'require_bug_type',
  'requirelogin',
  'search_allow_no_criteria',
  'urlbase',
  'use_regression_fields',
  'use_see_also',
  'useclassification',
  'usemenuforusers',
  'useqacontact',
  'usestatuswhiteboard',
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

export interface ParameterChange {
  removed: string;
  added: string;
}
