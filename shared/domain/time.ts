/** Bugzilla's wire format for datetimes: `YYYY-MM-DDTHH:MM:SSZ`, UTC, whole seconds. */
export function toBugzillaDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Sortable storage form with milliseconds, so items written in the same second keep their order. */
export function toStorageTime(date: Date): string {
  return date.toISOString();
}

export function storageTimeToBugzilla(value: string): string {
  return toBugzillaDateTime(new Date(value));
}
