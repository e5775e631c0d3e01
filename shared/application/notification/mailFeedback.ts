import { flagText } from '../../domain/changeReport.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { loginOfAddress, type MailFeedback } from '../../domain/notification/mailFeedback.ts';
import { addUserUpdate, findUserIdByLogin, loadUserWithMembership } from '../../storage/identity/userStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';

/** What became of one address SES reported. */
export interface FeedbackOutcome {
  address: string;
  /** `disabled`: mail turned off now; `already`: it was off; `unknown`: no account has that address. */
  outcome: 'disabled' | 'already' | 'unknown';
  userId?: number;
}

/**
 * Turns mail off for each account SES says must get no more (mailFeedback.ts), as an update of
 * that user: the same `disable_mail` change an administrator's `PUT /rest/user` reports, kept
 * in the audit log as the user's own change (nobody else made it). Each account is its own
 * transaction, so one that cannot be written does not hold the others back; a repeated
 * message finds mail already off and writes nothing.
 */
export async function stopMailFor(feedback: MailFeedback): Promise<FeedbackOutcome[]> {
  const { emailsuffix } = await loadParameters();
  const outcomes: FeedbackOutcome[] = [];
  for (const address of new Set(feedback.addresses)) {
    const login = loginOfAddress(address, emailsuffix ?? '');
    const userId = login === undefined ? null : await findUserIdByLogin(login);
    if (userId === null) {
      outcomes.push({ address, outcome: 'unknown' });
      continue;
    }
    const outcome = await retryOnConflict(() => turnMailOff(userId));
    outcomes.push({ address, outcome, userId });
  }
  return outcomes;
}

async function turnMailOff(userId: number): Promise<'disabled' | 'already' | 'unknown'> {
  const record = await loadUserWithMembership(userId, { consistent: true });
  if (!record) return 'unknown';
  if (!record.user.emailEnabled) return 'already';
  const transaction = new WriteTransaction();
  addUserUpdate(transaction, {
    userId,
    rev: record.rev,
    previousLogin: record.user.login,
    emailEnabled: false,
    addGroups: [],
    removeGroups: [],
    addBless: [],
    removeBless: [],
  });
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.user,
    objectId: userId,
    userId,
    changes: { disable_mail: { removed: flagText(false), added: flagText(true) } },
    at: new Date(),
  });
  await transaction.commit();
  return 'disabled';
}
