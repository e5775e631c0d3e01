/**
 * The parameters page's catalogue: Bugzilla's editparams panels (Bugzilla/Config/*.pm) in their
 * order, each parameter with a description in Tracker's words and the kind of input it takes.
 * Parameters Tracker has that Bugzilla does not (or that no panel lists) come last, under
 * "Tracker"; any parameter the API shows that is not listed here is shown there too.
 */

export type ParameterKind = 'boolean' | 'text' | 'long' | 'number' | { choices: readonly string[] };

export interface ParameterInfo {
  name: string;
  kind: ParameterKind;
  description: string;
}

export interface ParameterPanel {
  id: string;
  title: string;
  description: string;
  parameters: readonly ParameterInfo[];
}

const p = (name: string, kind: ParameterKind, description: string): ParameterInfo => ({ name, kind, description });

export const PARAMETER_PANELS: readonly ParameterPanel[] = [
  {
    id: 'core',
    title: 'Required settings',
    description: 'Where the installation lives; set these first.',
    parameters: [
      p('urlbase', 'text', 'The address people reach Tracker at, ending in a slash; links in mail start with it.'),
      p('cookiepath', 'text', 'The path below the host the web pages live under.'),
    ],
  },
  {
    id: 'general',
    title: 'General',
    description: 'Settings that do not belong anywhere else.',
    parameters: [
      p('maintainer', 'text', 'The e-mail address of whoever looks after this installation; error pages name it.'),
      p('shutdownhtml', 'long', 'When not empty, Tracker is closed: every page and call shows this text instead.'),
      p('announcehtml', 'long', 'When not empty, this announcement is shown at the top of every page.'),
    ],
  },
  {
    id: 'admin',
    title: 'Administrative policies',
    description: 'What administrators may delete, and what users may change about themselves.',
    parameters: [
      p('allowbugdeletion', 'boolean', 'Administrators may delete bugs for good.'),
      p('allowemailchange', 'boolean', 'Users may change their own login (e-mail address).'),
      p('allowuserdeletion', 'boolean', 'Administrators may delete accounts (otherwise they are disabled).'),
      p('last_visit_keep_days', 'number', 'How many days a "last visited" mark on a bug is kept.'),
    ],
  },
  {
    id: 'auth',
    title: 'User authentication',
    description: 'Who may log in, how, and what a login or password must look like.',
    parameters: [
      p('requirelogin', 'boolean', 'Nothing can be read without logging in.'),
      p('rememberlogin', { choices: ['on', 'defaulton', 'defaultoff'] }, 'Whether logins may be remembered.'),
      p('webservice_email_filter', 'boolean', 'Hide e-mail addresses from callers of the API who are not logged in.'),
      p('emailregexp', 'text', 'A regular expression every login must match.'),
      p('emailregexpdesc', 'long', 'What the login expression above asks for, in words shown to people.'),
      p(
        'emailsuffix',
        'text',
        'Text added to every login to make its e-mail address (for logins that are not addresses).',
      ),
      p('createemailregexp', 'text', 'Who may create their own account: addresses matching this expression.'),
      p(
        'password_complexity',
        { choices: ['no_constraints', 'mixed_letters', 'letters_numbers', 'letters_numbers_specialchars'] },
        'Which kinds of characters a new password must mix.',
      ),
    ],
  },
  {
    id: 'attachment',
    title: 'Attachments',
    description: 'How attachments are stored and shown.',
    parameters: [
      p('allow_attachment_display', 'boolean', 'Attachments may be shown in the browser rather than only downloaded.'),
      p('attachment_base', 'text', 'A separate address attachments are served from, to keep them off the main origin.'),
      p('allow_attachment_deletion', 'boolean', 'Administrators may delete the content of attachments.'),
      p('maxattachmentsize', 'number', 'The largest attachment accepted, in kilobytes.'),
      p('maxlocalattachment', 'number', 'The largest attachment kept outside the database, in megabytes.'),
    ],
  },
  {
    id: 'bugchange',
    title: 'Bug change policies',
    description: 'What a change to a bug must include, and what it may not do.',
    parameters: [
      p('duplicate_or_move_bug_status', 'text', 'The status a bug takes when it is marked as a duplicate.'),
      p('letsubmitterchoosepriority', 'boolean', 'People filing a bug may set its priority.'),
      p('letsubmitterchoosemilestone', 'boolean', 'People filing a bug may set its target milestone.'),
      p('musthavemilestoneonaccept', 'boolean', 'A bug needs a target milestone before it is accepted.'),
      p('commentonchange_resolution', 'boolean', 'Changing the resolution requires a comment.'),
      p('commentonduplicate', 'boolean', 'Marking a bug as a duplicate requires a comment.'),
      p('noresolveonopenblockers', 'boolean', 'A bug cannot be resolved FIXED while bugs it depends on are open.'),
    ],
  },
  {
    id: 'bugfields',
    title: 'Bug fields',
    description: 'Which optional fields are used, and the defaults of new bugs.',
    parameters: [
      p('useclassification', 'boolean', 'Products are grouped into classifications.'),
      p('usetargetmilestone', 'boolean', 'Bugs have a target milestone.'),
      p('useqacontact', 'boolean', 'Bugs have a QA contact.'),
      p('usestatuswhiteboard', 'boolean', 'Bugs have a status whiteboard for free-form notes.'),
      p('use_see_also', 'boolean', 'Bugs have "see also" links to other bugs, here or elsewhere.'),
      p('defaultpriority', 'text', 'The priority of a new bug.'),
      p('defaultseverity', 'text', 'The severity of a new bug.'),
      p('defaultplatform', 'text', 'The hardware of a new bug (empty: the first one).'),
      p('defaultopsys', 'text', 'The operating system of a new bug (empty: the first one).'),
      p('collapsed_comment_tags', 'text', 'Comments with any of these tags (comma-separated) are shown collapsed.'),
    ],
  },
  {
    id: 'groupsecurity',
    title: 'Group security',
    description: 'Which groups may do what, and how groups restrict bugs.',
    parameters: [
      p('makeproductgroups', 'boolean', 'Creating a product also creates a group of the same name for its bugs.'),
      p('chartgroup', 'text', 'Members of this group may use the charts (empty: nobody).'),
      p('insidergroup', 'text', 'Members of this group see and write private comments and attachments.'),
      p('timetrackinggroup', 'text', 'Members of this group see and change the time-tracking fields.'),
      p('querysharegroup', 'text', 'Members of this group may share their saved searches.'),
      p('comment_taggers_group', 'text', 'Members of this group may tag comments.'),
      p('debug_group', 'text', 'Members of this group may see how searches are run.'),
      p('usevisibilitygroups', 'boolean', 'People only see the accounts of people in groups they may see.'),
      p('strict_isolation', 'boolean', "Only people who may edit a product's bugs can be assigned or CC'd on them."),
      p('or_groups', 'boolean', 'A bug in several groups is visible to members of any of them (otherwise of all).'),
    ],
  },
  {
    id: 'mta',
    title: 'Email',
    description: 'How and from whom bug mail is sent.',
    parameters: [
      p('mail_delivery_method', { choices: ['None', 'Test', 'SMTP', 'Sendmail'] }, 'How mail leaves (None: no mail).'),
      p('mailfrom', 'text', 'The sender of the mail Tracker sends.'),
      p('globalwatchers', 'text', 'Logins (comma-separated) that get the mail of every bug change.'),
    ],
  },
  {
    id: 'query',
    title: 'Query',
    description: 'Limits and defaults of searches.',
    parameters: [
      p('search_allow_no_criteria', 'boolean', 'A search without any criterion (every bug) is allowed.'),
      p('default_search_limit', 'number', 'How many bugs a search returns when the caller sets no limit.'),
      p('max_search_results', 'number', 'The most bugs any search returns.'),
    ],
  },
  {
    id: 'usermatch',
    title: 'User matching',
    description: 'How people are found from part of their name or login.',
    parameters: [
      p('usemenuforusers', 'boolean', 'Offer a list of all users instead of a text box where a user is chosen.'),
      p('maxusermatches', 'number', 'The most users a search for people returns (0: no limit).'),
      p('confirmuniqueusermatch', 'boolean', 'Ask to confirm even when part of a name matches only one person.'),
    ],
  },
  {
    id: 'tracker',
    title: 'Tracker',
    description: "Settings Tracker adds to Bugzilla's.",
    parameters: [
      p('markdown_enabled', 'boolean', 'Comments may be written in Markdown.'),
      p('default_bug_type', 'text', 'The type of a new bug.'),
      p('require_bug_type', 'boolean', 'A new bug must be given a type.'),
      p('use_regression_fields', 'boolean', 'Bugs have "regressed by" and "regressions" fields.'),
      p('login_token_lifetime_days', 'number', 'How many days a login token stays valid.'),
      p('max_login_attempts', 'number', 'Failed logins allowed before an account is locked for a while.'),
    ],
  },
];

/** The panels with the parameters the API shows; unknown ones join the last panel. */
export function panelsFor(values: Record<string, unknown>): ParameterPanel[] {
  const known = new Set(PARAMETER_PANELS.flatMap((panel) => panel.parameters.map((x) => x.name)));
  const extra = Object.keys(values)
    .filter((name) => !known.has(name))
    .sort()
    .map((name) => p(name, 'text', ''));
  return PARAMETER_PANELS.map((panel, index) => ({
    ...panel,
    parameters: [
      ...panel.parameters.filter((x) => x.name in values),
      ...(index === PARAMETER_PANELS.length - 1 ? extra : []),
    ],
  })).filter((panel) => panel.parameters.length > 0);
}

/** The parameters whose value the form changed, as PUT /rest/parameters takes them. */
export function parameterChanges(
  stored: Record<string, unknown>,
  form: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter(([name, value]) => String(stored[name] ?? '') !== value));
}
