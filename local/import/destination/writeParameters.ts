import { AUDIT_CLASS } from '../../../shared/domain/instance/audit.ts';
import { planParameterUpdate } from '../../../shared/domain/instance/parameterChanges.ts';
import type { ParameterChange } from '../../../shared/domain/instance/parameters.ts';
import { loadFieldValues } from '../../../shared/storage/catalog/fieldValueStore.ts';
import { recordAudit } from '../../../shared/storage/instance/auditStore.ts';
import { loadParametersForUpdate, updateParameters } from '../../../shared/storage/instance/parameterStore.ts';
import { WriteTransaction } from '../../../shared/storage/transaction.ts';
import type { ReportBuilder } from '../report.ts';
import type { TargetWriter } from './targetWriter.ts';

/**
 * The source's parameters that Tracker knows, checked by the same rules as an administrator's
 * change (one at a time: a value Tracker refuses is skipped, not the lot). Some stay the
 * target's own: where it is (urlbase, cookiepath, attachment_base), how it sends mail, and a
 * shutdown banner a source may show while it is being moved. The group parameters matter
 * most: `insidergroup` and `timetrackinggroup` decide who sees private comments and hours.
 */
const TARGET_OWN = new Set([
  'urlbase',
  'cookiepath',
  'attachment_base',
  'shutdownhtml',
  'mail_delivery_method',
  'mailfrom',
]);

export async function writeParameters(
  source: Readonly<Record<string, string>> | null,
  context: { writer: TargetWriter; report: ReportBuilder; accountId: number },
): Promise<void> {
  if (!source) {
    context.report.skip('parameters', 'all', 'the account may not read them (tweakparams): the target keeps its own');
    return;
  }
  const [{ values, rev }, legalValues] = await Promise.all([loadParametersForUpdate(), loadFieldValues()]);
  const changes: Record<string, ParameterChange> = {};
  for (const [name, value] of Object.entries(source)) {
    if (!Object.hasOwn(values, name) || TARGET_OWN.has(name)) continue;
    try {
      Object.assign(
        changes,
        planParameterUpdate({ ...values, ...changedValues(changes) }, { [name]: value }, legalValues),
      );
    } catch (error) {
      context.report.skip('parameter', `${name}=${value}`, error instanceof Error ? error.message : String(error));
    }
  }
  context.report.count('parameters changed', Object.keys(changes).length);
  if (context.writer.dryRun || Object.keys(changes).length === 0) return;
  const transaction = new WriteTransaction();
  updateParameters(transaction, changes, rev);
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.parameters,
    objectId: 0,
    userId: context.accountId,
    changes,
    at: new Date(),
  });
  await transaction.commit();
}

const changedValues = (changes: Record<string, ParameterChange>) =>
  Object.fromEntries(Object.entries(changes).map(([name, change]) => [name, change.added]));
