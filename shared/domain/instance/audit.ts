/**
 * Audit log entries: who changed which object of which class, when, and how. Classes are named
 * like Bugzilla's (`Bugzilla::Product`) with Tracker's prefix: `Tracker::Product`.
 */
export interface AuditEntry {
  auditClass: string;
  objectId: number | string;
  /** The acting user; null for the installation's own bootstrap. */
  userId: number | null;
  changes: Record<string, { removed: string; added: string }>;
  at: Date;
}

export const AUDIT_CLASS = {
  user: 'Tracker::User',
  group: 'Tracker::Group',
  parameters: 'Tracker::Config',
  product: 'Tracker::Product',
  component: 'Tracker::Component',
  version: 'Tracker::Version',
  milestone: 'Tracker::Milestone',
  classification: 'Tracker::Classification',
  flagType: 'Tracker::FlagType',
  keyword: 'Tracker::Keyword',
  field: 'Tracker::Field',
  /** A legal value of a built-in field, or the workflow (object: the field's name). */
  fieldValue: 'Tracker::Field::Choice',
} as const;

/** The latest time among the requested classes (all classes when none is named). */
export function lastAuditTime(latestByClass: ReadonlyMap<string, string>, classes: readonly string[]): string | null {
  const wanted =
    classes.length > 0
      ? classes.filter((name) => latestByClass.has(name)).map((name) => latestByClass.get(name)!)
      : [...latestByClass.values()];
  if (wanted.length === 0) return null;
  // biome-ignore lint/complexity/useMathMinMax: ISO timestamps, compared as strings
  return wanted.reduce((latest, at) => (at > latest ? at : latest));
}
