import type { Bug, HistoryChange } from '../bug/bug.ts';
import { canSeeBug, type GroupName } from '../bug/bugAccess.ts';
import { commentText } from '../bug/bugComments.ts';
import { storedFieldName } from '../bug/bugFields.ts';
import { isTimeTrackingField } from '../bug/privateActivity.ts';
import type { Caller } from '../identity/caller.ts';
import type { Parameters } from '../instance/parameters.ts';
import { type BugChange, type ChangeComment, identity, isNewBug, type NotificationNames } from './bugChange.ts';
import { changeLabel, fieldLabel, mailFieldName } from './mailFields.ts';
import type { Relationship } from './mailPreferences.ts';
import { type BugMailRecipient, mailAddress } from './mailRecipients.ts';
import { CHANGE_TABLE_HEADING, changeRow, fieldRow, mailDate, wrapComment } from './mailText.ts';
import { recipientView } from './recipientView.ts';

/**
 * Bug mail as Bugzilla 5.2 writes it (bugmail-header.txt.tmpl, header-common.txt.tmpl,
 * bugmail.txt.tmpl), for one recipient: what they may read of the change decides the change
 * table and the comments. The message is data (headers in order, a plain-text body);
 * mimeMessage.ts renders it for the wire.
 */
export interface MailMessage {
  /** The envelope sender: the address of From. */
  from: string;
  /** The envelope recipient: the address of To. */
  to: string;
  headers: ReadonlyArray<readonly [string, string]>;
  /** Plain text, lines ending in `\n`. */
  body: string;
}

export interface BugMailContext {
  parameters: Parameters;
  names: NotificationNames;
  groupName: GroupName;
  /** Custom fields' labels by name (`cf_*`). */
  customFieldLabel?(name: string): string | undefined;
  /** The bugs a dependency change names, so their summaries can be listed to those who may see them. */
  referencedBug?(id: number): Bug | undefined;
}

/** The host of the urlbase parameter (Bugzilla's `//host[:/]`), or localhost. */
const urlHost = (urlbase: string): string => /\/\/([^:/]+)/.exec(urlbase)?.[1] ?? 'localhost';

/**
 * The From address: the mailfrom parameter, completed with urlbase's host when it has no
 * domain, as Bugzilla does for every delivery method but a local sendmail.
 */
export function mailFrom(parameters: Parameters): string {
  const from = (parameters.mailfrom ?? '').trim() || 'tracker-daemon';
  const named = /^(.*)<([^<>]*)>\s*$/s.exec(from);
  const address = named ? named[2]!.trim() : from;
  const complete = address.includes('@') ? address : `${address}@${urlHost(parameters.urlbase ?? '')}`;
  return named ? `${named[1]!.trim()} <${complete}>`.trim() : complete;
}

/** The bare address of a From or To value. */
export const addressOf = (value: string): string => (/<([^<>]*)>\s*$/.exec(value)?.[1] ?? value).trim();

/** What may stand in a message id: RFC 5322's atext and dots. */
const messageIdText = (text: string) => text.replace(/[^A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.]/g, '-');

/**
 * Bugzilla's site part of message ids: `@` and urlbase with `://` turned into a dot and a port
 * moved before the `@` (`https://bugs.example.com:8443/` gives `-8443@https.bugs.example.com/`).
 */
export function siteSpec(urlbase: string): string {
  const dotted = urlbase.replace('://', '.');
  const port = /^([^:/]+):(\d+)/.exec(dotted);
  return port ? `-${port[2]}@${messageIdText(port[1]! + dotted.slice(port[0].length))}` : `@${messageIdText(dotted)}`;
}

/**
 * The threading headers of build_thread_marker: a bug's first mail to a person is
 * `<bug-ID-USERID@site>`, and every later one answers it, so a mail client threads all mail
 * about one bug. Bugzilla makes the later ids unique with random letters; Tracker uses the
 * write's revision (and `variant` for the several mails of one write), so sending the same
 * change again gives the same id and a mail system can drop the repeat.
 */
export function threadHeaders(
  bugId: number,
  userId: number,
  urlbase: string,
  first: { isNew: true } | { isNew: false; revision: number; variant?: string },
): Array<[string, string]> {
  const root = `<bug-${bugId}-${userId}${siteSpec(urlbase)}>`;
  if (first.isNew) return [['Message-ID', root]];
  const unique = messageIdText(`r${first.revision}${first.variant ? `-${first.variant}` : ''}`);
  return [
    ['Message-ID', `<bug-${bugId}-${userId}-${unique}${siteSpec(urlbase)}>`],
    ['In-Reply-To', root],
    ['References', root],
  ];
}

const showBugUrl = (urlbase: string, bugId: number) => `${urlbase}show_bug.cgi?id=${bugId}`;

/** header-common.txt.tmpl: the bug as it is now, for mail filters. */
export function bugStateHeaders(change: BugChange, context: BugMailContext): Array<[string, string]> {
  const { after: bug } = change;
  const { names, parameters } = context;
  return [
    ...(parameters.useclassification === '1'
      ? [['X-Bugzilla-Classification', names.classification(bug.productId)] as [string, string]]
      : []),
    ['X-Bugzilla-Product', names.product(bug.productId)],
    ['X-Bugzilla-Component', names.component(bug.componentId)],
    ['X-Bugzilla-Version', names.version(bug.versionId)],
    ['X-Bugzilla-Keywords', bug.keywordIds.map(names.keyword).join(', ')],
    ['X-Bugzilla-Severity', bug.severity],
    ['X-Bugzilla-ID', String(bug.id)],
    ['X-Bugzilla-Who', names.login(change.whoId)],
    ['X-Bugzilla-Status', bug.status],
    ['X-Bugzilla-Resolution', bug.resolution],
    ['X-Bugzilla-Priority', bug.priority],
    ['X-Bugzilla-Assigned-To', names.login(bug.assigneeId)],
    ...(parameters.usetargetmilestone === '1'
      ? [['X-Bugzilla-Target-Milestone', names.milestone(bug.targetMilestoneId)] as [string, string]]
      : []),
    ['X-Bugzilla-Flags', bug.flags.map((flag) => `${names.flagType(flag.typeId)}${flag.status}`).join(' ')],
  ];
}

/** The headers every Tracker mail ends with (Bugzilla::MIME's as_string). */
export const closingHeaders = (urlbase: string): Array<[string, string]> => [
  ['X-Bugzilla-URL', urlbase],
  ['Auto-Submitted', 'auto-generated'],
];

const REASON_LINES: Readonly<Record<Relationship, string>> = {
  AssignedTo: 'You are the assignee for the bug.',
  Reporter: 'You reported the bug.',
  QAcontact: 'You are the QA Contact for the bug.',
  CC: 'You are on the CC list for the bug.',
  GlobalWatcher: 'You are watching all bug changes.',
};

/** Bugzilla's watch_reason_descs: the footer line of a relationship held by someone the reader watches. */
const WATCH_REASON_LINES: Readonly<Partial<Record<Relationship, string>>> = {
  AssignedTo: 'You are watching the assignee of the bug.',
  Reporter: 'You are watching the reporter of the bug.',
  QAcontact: 'You are watching the QA Contact of the bug.',
  CC: 'You are watching someone on the CC list of the bug.',
};

/** X-Bugzilla-Watch-Reason as Bugzilla writes it: the relationships (or None), then the watched logins. */
const watchReasonHeader = (recipient: BugMailRecipient) =>
  [...(recipient.watchReasons.length > 0 ? recipient.watchReasons : ['None']), ...recipient.watching].join(' ');

/** A row of a new bug's field list: a field and its value (an empty value has no row). */
interface NewBugField {
  field: string;
  value: string;
}

/** _get_new_bugmail_fields: the fields Bugzilla lists in a new bug's mail, in its order, those in use only. */
function newBugFields(bug: Bug, context: BugMailContext): NewBugField[] {
  const { names, parameters } = context;
  const on = (parameter: string) => parameters[parameter] === '1';
  const time = (value: number) => (value === 0 ? '' : value.toFixed(2));
  const fields: Array<[string, string, boolean?]> = [
    ['bug_id', String(bug.id)],
    ['short_desc', bug.summary],
    ['classification', names.classification(bug.productId), on('useclassification')],
    ['product', names.product(bug.productId)],
    ['version', names.version(bug.versionId)],
    ['rep_platform', bug.platform],
    ['bug_file_loc', bug.url],
    ['op_sys', bug.opSys],
    ['bug_status', bug.status],
    ['status_whiteboard', bug.whiteboard, on('usestatuswhiteboard')],
    ['keywords', bug.keywordIds.map(names.keyword).join(', ')],
    ['bug_severity', bug.severity],
    ['priority', bug.priority],
    ['component', names.component(bug.componentId)],
    ['assigned_to', names.login(bug.assigneeId)],
    ['reporter', names.login(bug.reporterId)],
    ['qa_contact', names.login(bug.qaContactId), on('useqacontact')],
    ['cc', bug.ccIds.map((id) => names.login(id)).join(', ')],
    ['dependson', bug.dependsOn.join(', ')],
    ['blocked', bug.blocks.join(', ')],
    ['target_milestone', names.milestone(bug.targetMilestoneId), on('usetargetmilestone')],
    ['bug_group', bug.groupIds.map(names.group).join(', ')],
    ['estimated_time', time(bug.estimatedTime)],
    ['deadline', (bug.deadline ?? '').slice(0, 10)],
  ];
  // Perl's truth: an empty value, or "0", has no row.
  return fields
    .filter(([, value, shown]) => shown !== false && value !== '' && value !== '0')
    .map(([field, value]) => ({ field, value }));
}

const TIME_FIELDS_WITH_DECIMALS = new Set(['estimated_time', 'remaining_time']);

/** Removed and added as the change table prints them: hours with two decimals. */
function shownValues(change: HistoryChange): [string, string] {
  if (!TIME_FIELDS_WITH_DECIMALS.has(change.field_name)) return [change.removed, change.added];
  const hours = (value: string) => (value === '' || Number.isNaN(Number(value)) ? value : Number(value).toFixed(2));
  return [hours(change.removed), hours(change.added)];
}

/**
 * A comment as mail shows it (Comment->body_full with is_bugmail): an attachment's comment
 * links to the attachment and carries its summary, unless the attachment is private and the
 * reader outside the insider group; then wrapped at 80 columns.
 */
function mailCommentBody(comment: ChangeComment, change: BugChange, urlbase: string, insider: boolean): string {
  const attachment = change.attachments.find((entry) => entry.after.id === comment.extraData)?.after;
  const summary = attachment && (insider || !attachment.isPrivate) ? attachment.summary : '';
  const withBody = (heading: string) => (comment.rawText.trim() === '' ? heading : `${heading}\n\n${comment.rawText}`);
  switch (comment.commentType) {
    case 'attachment_created':
      return wrapComment(
        withBody(
          `Created attachment ${comment.extraData}\n  --> ${urlbase}attachment.cgi?id=${comment.extraData}&action=edit\n${summary}`,
        ),
      );
    case 'attachment_updated':
      return wrapComment(
        withBody(
          `Comment on attachment ${comment.extraData}\n  --> ${urlbase}attachment.cgi?id=${comment.extraData}\n${summary}`,
        ),
      );
    default:
      return wrapComment(commentText(comment));
  }
}

/** The comment sections of a mail: a heading for each but the description, then the text. */
export function commentSections(
  comments: readonly ChangeComment[],
  change: BugChange,
  context: Pick<BugMailContext, 'names' | 'parameters'>,
  insider: boolean,
  descriptionHeading = '',
): string[] {
  const urlbase = context.parameters.urlbase ?? '';
  return comments.map((comment) => {
    const heading =
      comment.count > 0
        ? `--- Comment #${comment.count} from ${identity(context.names.user(comment.creatorId))} ---\n`
        : descriptionHeading;
    return `${heading}${mailCommentBody(comment, change, urlbase, insider)}`;
  });
}

/** The bugs a visible dependency change names that this reader may see, each with its summary. */
function referencedSection(
  changes: readonly HistoryChange[],
  reader: Caller,
  context: BugMailContext,
): string | undefined {
  if (!context.referencedBug) return undefined;
  const ids = new Set<number>();
  for (const change of changes) {
    if (!['dependson', 'blocked'].includes(storedFieldName(change.field_name))) continue;
    for (const id of `${change.removed},${change.added}`.split(/[\s,]+/).filter(Boolean)) ids.add(Number(id));
  }
  const orGroups = context.parameters.or_groups === '1';
  const visible = [...ids]
    .sort((a, b) => a - b)
    .map((id) => context.referencedBug!(id))
    .filter((bug): bug is Bug => bug !== undefined && canSeeBug(reader, bug, context.groupName, orGroups));
  if (visible.length === 0) return undefined;
  const urlbase = context.parameters.urlbase ?? '';
  const entries = visible.map(
    (bug) => `${showBugUrl(urlbase, bug.id)}\n${wrapComment(`[Bug ${bug.id}] ${bug.summary}`)}`,
  );
  return `Referenced Bugs:\n\n${entries.join('\n')}`;
}

const unique = (items: readonly string[]) => [...new Set(items)];

/**
 * The bug mail of a change for one recipient, or null when they may read nothing of it.
 * `recipient.reasons` come from bugMailRecipients.
 */
export function bugMailMessage(
  change: BugChange,
  recipient: BugMailRecipient,
  context: BugMailContext,
): MailMessage | null {
  const { parameters, names } = context;
  const bug = change.after;
  const reader = recipient.user.caller;
  const view = recipientView(change, reader, parameters);
  const isNew = isNewBug(change);
  const urlbase = parameters.urlbase ?? '';

  const newFields = isNew
    ? newBugFields(bug, context).filter(({ field }) => view.viewer.timeTracker || !isTimeTrackingField(field))
    : [];
  if (!isNew && view.changes.length === 0 && view.comments.length === 0) return null;

  const sections = [showBugUrl(urlbase, bug.id)];
  if (isNew) sections.push(newFields.map(({ field, value }) => fieldRow(`${fieldLabel(field)}:`, value)).join(''));
  else if (view.changes.length > 0) {
    const rows = view.changes.map((entry) =>
      changeRow(changeLabel(entry, context.customFieldLabel), ...shownValues(entry)),
    );
    sections.push(`${identity(names.user(change.whoId))} changed:\n\n${CHANGE_TABLE_HEADING}${rows.join('')}`);
  }
  sections.push(...commentSections(view.comments, change, context, view.viewer.insider));
  const referenced = referencedSection(view.changes, reader, context);
  if (referenced) sections.push(referenced);
  const reasons = [
    ...recipient.reasons.map((reason) => REASON_LINES[reason]),
    ...recipient.watchReasons.flatMap((reason) => WATCH_REASON_LINES[reason] ?? []),
  ];
  sections.push(`-- \nYou are receiving this mail because:\n${reasons.join('\n')}`);
  const body = `${sections.map((section) => section.replace(/\n+$/, '')).join('\n\n')}\n`;

  const changedNames = isNew
    ? newFields.map(({ field }) => field)
    : view.changes.map((entry) => mailFieldName(entry.field_name));
  const attachmentCreated = view.comments.some((comment) => comment.commentType === 'attachment_created');
  const otherComment = view.comments.some((comment) => comment.commentType !== 'attachment_created');
  const from = mailFrom(parameters);
  const to = mailAddress(recipient.user.caller.user.login, parameters);
  const headers: Array<[string, string]> = [
    ['From', from],
    ['To', to],
    ['Subject', `[Bug ${bug.id}] ${isNew ? 'New: ' : ''}${bug.summary}`],
    ['Date', mailDate(change.when)],
    ['X-Bugzilla-Reason', recipient.reasons.join(' ') || 'None'],
    ['X-Bugzilla-Type', isNew ? 'new' : 'changed'],
    ['X-Bugzilla-Watch-Reason', watchReasonHeader(recipient)],
    ...bugStateHeaders(change, context),
    [
      'X-Bugzilla-Changed-Fields',
      unique([...changedNames, ...(attachmentCreated ? ['attachments.created'] : [])]).join(' '),
    ],
    [
      'X-Bugzilla-Changed-Field-Names',
      unique([
        ...changedNames,
        ...(otherComment ? ['comment'] : []),
        ...(attachmentCreated ? ['attachment.created'] : []),
      ]).join(' '),
    ],
    ...threadHeaders(
      bug.id,
      recipient.user.caller.user.id,
      urlbase,
      isNew ? { isNew: true } : { isNew: false, revision: change.revision },
    ),
    ...closingHeaders(urlbase),
  ];
  return { from: addressOf(from), to, headers, body };
}
