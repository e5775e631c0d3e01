import { ANONYMOUS } from '../identity/caller.ts';
import { type BugChange, type FlagAction, identity } from './bugChange.ts';
import {
  addressOf,
  type BugMailContext,
  bugStateHeaders,
  closingHeaders,
  commentSections,
  type MailMessage,
  mailFrom,
  threadHeaders,
} from './bugMailMessage.ts';
import { type FlagMailRecipient, mailAddress } from './mailRecipients.ts';
import { mailDate, wrapParagraph } from './mailText.ts';
import { recipientView } from './recipientView.ts';

/**
 * The request mail Bugzilla sends about a flag (flagmail.txt.tmpl, X-Bugzilla-Type: request):
 * to the person asked, to the person who asked once it is answered or withdrawn, and to the
 * flag type's CC list. It threads with the bug's mail.
 */
const SUBJECT_STATUS: Readonly<Record<FlagAction, string>> = {
  requested: 'requested',
  granted: 'granted',
  denied: 'denied',
  cleared: 'canceled',
};

const VERB: Readonly<Record<FlagAction, string>> = {
  requested: 'asked',
  granted: 'granted',
  denied: 'denied',
  cleared: 'canceled',
};

export function flagMailMessage(change: BugChange, recipient: FlagMailRecipient, context: BugMailContext): MailMessage {
  const { names, parameters } = context;
  const { transition } = recipient;
  const bug = change.after;
  const flag = transition.after ?? transition.before!;
  const typeName = names.flagType(flag.typeId);
  const urlbase = parameters.urlbase ?? '';
  const attachment = change.attachments.find((entry) => entry.after.id === transition.attachmentId)?.after;
  const person = (id: number | null) => (id === null ? '' : identity(names.user(id)));

  let target = '';
  if (transition.action === 'requested' && transition.after!.requesteeId !== null)
    target = `${person(transition.after!.requesteeId)} for `;
  else if (transition.requesterId !== null) target = `${person(transition.requesterId)}'s request for `;
  const summaryLine = `${person(change.whoId)} has ${VERB[transition.action]} ${target}${typeName}:`;

  const view = recipientView(change, recipient.user?.caller ?? ANONYMOUS, parameters);
  const sections = [
    `${wrapParagraph(summaryLine)}\n\n${wrapParagraph(`Bug ${bug.id}: ${bug.summary}`)}\n${urlbase}show_bug.cgi?id=${bug.id}`,
  ];
  if (attachment)
    sections.push(
      `${wrapParagraph(`Attachment ${attachment.id}: ${attachment.summary}`)}\n${urlbase}attachment.cgi?id=${attachment.id}&action=edit`,
    );
  sections.push(...commentSections(view.comments, change, context, view.viewer.insider, '--- Description ---\n'));
  const body = `${sections.map((section) => section.replace(/\n+$/, '')).join('\n\n')}\n`;

  const subject =
    `${typeName} ${SUBJECT_STATUS[transition.action]}: [Bug ${bug.id}] ${bug.summary}` +
    (attachment ? ` : [Attachment ${attachment.id}] ${attachment.summary}` : '');
  const requesteeId = transition.after?.requesteeId ?? null;
  const from = mailFrom(parameters);
  const headers: Array<[string, string]> = [
    ['From', from],
    ['To', recipient.address],
    ['Subject', subject],
    ['Date', mailDate(change.when)],
    ['X-Bugzilla-Reason', recipient.reason],
    ['X-Bugzilla-Type', 'request'],
    ...(requesteeId !== null
      ? [['X-Bugzilla-Flag-Requestee', mailAddress(names.login(requesteeId), parameters)] as [string, string]]
      : []),
    ...bugStateHeaders(change, context),
    ...threadHeaders(bug.id, recipient.user?.caller.user.id ?? 0, urlbase, {
      isNew: false,
      revision: change.revision,
      variant: `flag${flag.id}`,
    }),
    ...closingHeaders(urlbase),
  ];
  return { from: addressOf(from), to: recipient.address, headers, body };
}
