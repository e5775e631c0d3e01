import type { ChosenRelationship, MailEvent } from './mailPreferences.ts';

/**
 * The names the REST API (GET/PUT /rest/preferences/mail) gives the matrix of Bugzilla's e-mail
 * preferences, with the words of Bugzilla's preferences page (email.html.tmpl) for each row.
 */
export const RELATIONSHIP_NAMES: Readonly<Record<ChosenRelationship, string>> = {
  AssignedTo: 'assignee',
  Reporter: 'reporter',
  QAcontact: 'qa_contact',
  CC: 'cc',
};

export const EVENT_NAMES: Readonly<Record<MailEvent, string>> = {
  addedRemoved: 'added_removed',
  bugCreated: 'bug_created',
  openedClosed: 'opened_closed',
  component: 'component',
  projectManagement: 'project_management',
  comment: 'comment',
  attachment: 'attachment',
  attachmentData: 'attachment_data',
  keyword: 'keywords',
  cc: 'cc',
  dependBlock: 'dependencies',
  other: 'other',
};

/** The "but not when (overrides above)" rows: true means no mail when it applies. */
export const EXCEPTION_NAMES = { unconfirmed: 'not_if_unconfirmed', ownChanges: 'not_if_changed_by_me' } as const;

export const EVENT_DESCRIPTIONS: Readonly<Record<MailEvent, string>> = {
  addedRemoved: "I'm added to or removed from this capacity",
  bugCreated: 'A new bug is created',
  openedClosed: 'The bug is resolved or reopened',
  component: 'The product or component changes',
  projectManagement: 'The priority, status, severity, or milestone changes',
  comment: 'New comments are added',
  attachment: 'New attachments are added',
  attachmentData: 'Attachment details changes',
  keyword: 'The keywords field changes',
  cc: 'The CC field changes',
  dependBlock: 'The dependency tree changes',
  other: 'Any field not mentioned above changes',
};
