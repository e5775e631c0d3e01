/**
 * What the API lets the logged-in person do, as GET /rest/whoami says it: Tracker's additions
 * there come from the checks the API enforces, so the app offers exactly what will be allowed,
 * never guessing from group names.
 */
export interface Rights {
  /** May see and write private comments and attachments. */
  insider: boolean;
  /** Sees and sets the time-tracking fields. */
  timetracker: boolean;
  /** May tag comments. */
  tagsComments: boolean;
  /** Bug mail is sent to them. */
  emailEnabled: boolean;
  /** Every group they are in, by name (admin pages offer what these groups allow). */
  groups: readonly string[];
  /** Products whose components, versions and milestones they may manage. */
  administeredProducts: readonly string[];
}

/** GET /rest/whoami's answer as Rights; a flag missing (an older server) is a right not held. */
export function rightsFrom(whoami: {
  is_insider?: boolean;
  is_timetracker?: boolean;
  can_tag_comments?: boolean;
  email_enabled?: boolean;
  groups?: readonly string[];
  administered_products?: readonly string[];
}): Rights {
  return {
    insider: whoami.is_insider === true,
    timetracker: whoami.is_timetracker === true,
    tagsComments: whoami.can_tag_comments === true,
    emailEnabled: whoami.email_enabled !== false,
    groups: whoami.groups ?? [],
    administeredProducts: whoami.administered_products ?? [],
  };
}

/** What the account form holds (the preferences' Account tab). */
export interface AccountForm {
  realName: string;
  /** Bug mail as the box shows it. */
  mail: boolean;
  currentPassword: string;
  password: string;
  confirm: string;
  /** A new login (allowemailchange); empty to keep the current one. */
  email: string;
}

export interface OwnAccountChanges {
  full_name?: string;
  email_enabled?: boolean;
  current_password?: string;
  new_password?: string;
  /** A new login: it changes only when the link mailed to it is opened. */
  email?: string;
}

/**
 * The body of PUT /rest/preferences/account for what the person changed, or the problem to show
 * before sending anything: only fields that differ from what is stored are sent.
 */
export function ownAccountChanges(
  form: AccountForm,
  stored: { realName: string; mail: boolean; login: string },
): { changes: OwnAccountChanges } | { problem: string } {
  if (form.password && form.password !== form.confirm) return { problem: 'The two new passwords differ.' };
  if (form.password && !form.currentPassword) return { problem: 'Type your current password to set a new one.' };
  const changes: OwnAccountChanges = {};
  if (form.realName !== stored.realName) changes.full_name = form.realName;
  if (form.mail !== stored.mail) changes.email_enabled = form.mail;
  const email = form.email.trim();
  if (email && email.toLowerCase() !== stored.login.toLowerCase()) {
    if (!form.currentPassword) return { problem: 'Type your current password to change your email address.' };
    changes.email = email;
  }
  if (form.password) changes.new_password = form.password;
  if (changes.new_password !== undefined || changes.email !== undefined)
    changes.current_password = form.currentPassword;
  return { changes };
}
