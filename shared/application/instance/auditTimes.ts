/** Bugzilla's `last_audit_time`: when anything of the named classes (or of any class) last changed. */
import { lastAuditTime } from '../../domain/instance/audit.ts';
import { storageTimeToBugzilla } from '../../domain/time.ts';
import { latestAuditTimes } from '../../storage/instance/auditStore.ts';

export async function lastAuditTimeOf(classes: readonly string[]) {
  const latest = lastAuditTime(await latestAuditTimes(), classes);
  return { last_audit_time: latest === null ? null : storageTimeToBugzilla(latest) };
}
