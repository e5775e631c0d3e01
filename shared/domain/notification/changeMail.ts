import type { BugChange } from './bugChange.ts';
import { type BugMailContext, bugMailMessage, type MailMessage } from './bugMailMessage.ts';
import { flagMailMessage } from './flagMailMessage.ts';
import { bugMailRecipients, type FlagRecipientContext, flagMailRecipients, mailDelivery } from './mailRecipients.ts';

/** Everything that decides the mail of a change: parameters, names, people and flag types. */
export type ChangeMailContext = BugMailContext & FlagRecipientContext;

/**
 * Every mail one change sends: the bug mail to each person it concerns, then the request mail
 * of each flag transition. None when the installation's mail_delivery_method is None (what to
 * do with the rest, send or keep for Test, is mailDelivery's answer to the sender).
 */
export function changeMail(change: BugChange, context: ChangeMailContext): MailMessage[] {
  if (mailDelivery(context.parameters) === 'none') return [];
  const bugMail = bugMailRecipients(change, context)
    .map((recipient) => bugMailMessage(change, recipient, context))
    .filter((message): message is MailMessage => message !== null);
  const flagMail = flagMailRecipients(change, context).map((recipient) => flagMailMessage(change, recipient, context));
  return [...bugMail, ...flagMail];
}
