import { type FieldValue, isValueField, type Transition } from '../../../shared/domain/catalog/fieldValues.ts';
import { loadFieldValues, putFieldValues, putWorkflow } from '../../../shared/storage/catalog/fieldValueStore.ts';
import { collectItems } from '../../../shared/storage/itemCollector.ts';
import type { ReportBuilder } from '../report.ts';
import { type FieldRecord, workflowOf } from '../source/index.ts';
import type { TargetWriter } from './targetWriter.ts';

/**
 * The installation's own legal values of the built-in drop-down fields (priorities, severities,
 * platforms, operating systems, resolutions, statuses with open/closed) and the status workflow,
 * as the source lists them, into Tracker's editable values (catalog/fieldValues.ts). The source's
 * values come first with its sort keys; a value only the target has stays, inactive (bugs never
 * carry it; an administrator may delete it), except the empty resolution of open bugs.
 */
export async function writeFieldValues(
  fields: readonly FieldRecord[],
  context: { writer: TargetWriter; report: ReportBuilder },
): Promise<void> {
  const current = await loadFieldValues();
  const puts = [];
  for (const field of fields) {
    if (!isValueField(field.name) || field.values.length === 0) continue;
    const name = field.name;
    const previous = current.list(name);
    const imported: FieldValue[] = field.values.map((value) => {
      const kept = previous.find((entry) => entry.name === value.name);
      return {
        name: value.name,
        sortKey: value.sortKey,
        isActive: value.isActive,
        ...(name === 'bug_status' ? { isOpen: value.isOpen ?? true } : {}),
        ...(kept?.formerNames?.length ? { formerNames: kept.formerNames } : {}),
      };
    });
    for (const value of previous) {
      if (imported.some((entry) => entry.name === value.name)) continue;
      imported.push(value.name === '' ? value : { ...value, isActive: false });
      if (value.name !== '' && value.isActive)
        context.report.skip('legal value', `${name} ${value.name}`, 'only the target had it: kept, inactive');
    }
    puts.push(...collectItems((transaction) => putFieldValues(transaction, name, imported)));
    context.report.count('legal values', field.values.length);
  }
  const workflow = fields.some((field) => field.name === 'bug_status') ? workflowOf(fields) : null;
  if (workflow) {
    const moves: Transition[] = workflow.statuses.flatMap((status) =>
      status.canChangeTo.map((to) => ({ from: status.name, to: to.name, commentRequired: to.commentRequired })),
    );
    const known = new Set(workflow.statuses.map((status) => status.name));
    const initial: Transition[] =
      workflow.initial?.map((to) => ({ from: null, to: to.name, commentRequired: to.commentRequired })) ??
      current.transitions.filter((move) => move.from === null && known.has(move.to));
    if (workflow.initial === null)
      context.report.skip('workflow', 'initial statuses', 'the source does not list them: the target keeps its own');
    puts.push(...collectItems((transaction) => putWorkflow(transaction, [...initial, ...moves])));
    context.report.count('workflow transitions', initial.length + moves.length);
  }
  await context.writer.write(puts);
}
