import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { type FieldRecord, fieldSchema, type TransitionRecord } from '../sourceRecords.ts';

/**
 * Every bug field with its legal values: the installation's own priorities, severities,
 * platforms, operating systems, resolutions, statuses with their workflow, and custom fields.
 * `_all` also brings Tracker's sort key and obsolete flag of custom fields.
 */
export async function readFields(client: BugzillaClient): Promise<FieldRecord[]> {
  const answer = await client.get('/field/bug', { include_fields: '_all' });
  return z.object({ fields: z.array(fieldSchema) }).parse(answer).fields;
}

export interface StatusRecord {
  name: string;
  isOpen: boolean;
  sortKey: number;
  canChangeTo: TransitionRecord[];
}

export interface WorkflowRecord {
  statuses: StatusRecord[];
  /** The statuses a new bug may have; null when the source does not say (Harmony). */
  initial: TransitionRecord[] | null;
}

/** The status workflow, as `bug_status`'s values describe it. */
export function workflowOf(fields: readonly FieldRecord[]): WorkflowRecord {
  const status = fields.find((field) => field.name === 'bug_status');
  if (!status) throw new Error('the source has no bug_status field');
  return {
    statuses: status.values.map((value) => ({
      name: value.name,
      isOpen: value.isOpen ?? true,
      sortKey: value.sortKey,
      canChangeTo: value.canChangeTo ?? [],
    })),
    initial: status.initialStatuses,
  };
}

/** A select field's values by name (`priority`, `bug_severity`, `rep_platform`, `op_sys`, `resolution`, `cf_*`). */
export const legalValuesOf = (fields: readonly FieldRecord[], name: string) =>
  fields.find((field) => field.name === name)?.values ?? [];
