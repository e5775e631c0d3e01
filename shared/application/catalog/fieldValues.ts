import { findBuiltInField, storedFieldName } from '../../domain/bug/bugFields.ts';
import {
  planNewValue,
  planValueUpdate,
  planWorkflow,
  type ValueEdit,
  type ValueInput,
  type WorkflowInput,
} from '../../domain/catalog/fieldValueRules.ts';
import { isValueField, type Transition, type ValueField } from '../../domain/catalog/fieldValues.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { currentStamp } from '../../storage/catalog/catalogCache.ts';
import { loadCustomFields } from '../../storage/catalog/fieldStore.ts';
import { loadFieldValues, putFieldValues, putWorkflow } from '../../storage/catalog/fieldValueStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { loadParametersForUpdate, updateParameters } from '../../storage/instance/parameterStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';

/**
 * The installation's legal values of the built-in drop-down fields and its workflow, edited as
 * Bugzilla's editvalues.cgi and editworkflow.cgi do (rules: catalog/fieldValueRules.ts):
 * `POST /rest/field/bug/{field}/values`, `PUT /rest/field/bug/{field}/values/{value}` and
 * `PUT /rest/field/bug/bug_status/workflow`, for administrators.
 *
 * Each change reads the values, the workflow and the parameters, and is written only if the
 * catalogue stamp has not moved since (WriteTransaction.requireStamp): a value's rules depend on
 * all three (a default cannot be disabled, the duplicates' status cannot be renamed), so a
 * concurrent change of any of them makes this one be read, checked and applied again.
 */

/** The field a path names: as the fields list names it, as bug calls do (`status`, `platform`...), or by id. */
async function valueField(reference: string): Promise<ValueField> {
  const name = storedFieldName(reference.trim());
  const builtIn = /^\d+$/.test(name) ? findBuiltInField(Number(name)) : findBuiltInField(name);
  if (builtIn && isValueField(builtIn.name)) return builtIn.name;
  if (builtIn)
    throw errors.invalidParameter(
      `The values of ${builtIn.name} are not edited here: only bug_status, resolution, priority, bug_severity, rep_platform, op_sys and bug_type have values of their own.`,
    );
  const custom = (await loadCustomFields()).find(
    ({ field }) => field.name === name || (/^\d+$/.test(name) && field.id === Number(name)),
  );
  if (custom)
    throw errors.invalidParameter(
      `${custom.field.name} is a custom field: its values change with PUT /rest/field/bug/${custom.field.name} and {"values": {"add": [...], "remove": [...]}}.`,
    );
  throw errors.notFoundByIdOrName('bug field', reference);
}

/** What an edit reads, under the stamp its write will require. */
async function readForEdit() {
  const stamp = await currentStamp();
  const [values, parameters] = await Promise.all([loadFieldValues(), loadParametersForUpdate()]);
  return { stamp: stamp.catalog, values, parameters };
}

async function commitValueEdit(caller: Caller, edit: ValueEdit, read: Awaited<ReturnType<typeof readForEdit>>) {
  const now = new Date();
  const transaction = new WriteTransaction().requireStamp({ catalog: read.stamp });
  putFieldValues(transaction, edit.field, edit.list);
  if (edit.transitions) putWorkflow(transaction, edit.transitions);
  if (Object.keys(edit.parameters).length > 0) {
    // Bugzilla's SetParam on renaming a default: the parameter names the value by its new name.
    updateParameters(transaction, edit.parameters, read.parameters.rev);
    recordAudit(transaction, {
      auditClass: AUDIT_CLASS.parameters,
      objectId: 'parameters',
      userId: caller.user!.id,
      changes: edit.parameters,
      at: now,
    });
  }
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.fieldValue,
    objectId: edit.field,
    userId: caller.user!.id,
    changes: edit.changes,
    at: now,
  });
  await transaction.commit();
}

/** `POST /rest/field/bug/{field}/values`: answers `{field, name}`. */
export async function addFieldValue(caller: Caller, fieldReference: string, input: ValueInput) {
  const field = await valueField(fieldReference);
  return retryOnConflict(async () => {
    const read = await readForEdit();
    const edit = planNewValue(read.values, field, input, read.parameters.values);
    await commitValueEdit(caller, edit, read);
    return { field, name: edit.name };
  });
}

/** `PUT /rest/field/bug/{field}/values/{value}`: answers `{values: [{field, name, changes}]}` (`name` as it is now). */
export async function updateFieldValue(caller: Caller, fieldReference: string, reference: string, input: ValueInput) {
  const field = await valueField(fieldReference);
  return retryOnConflict(async () => {
    const read = await readForEdit();
    const edit = planValueUpdate(read.values, field, reference, input, read.parameters.values);
    if (Object.keys(edit.changes).length > 0) await commitValueEdit(caller, edit, read);
    return { values: [{ field, name: edit.name, changes: edit.changes }] };
  });
}

const transitionView = (move: Transition) => ({ from: move.from, to: move.to, comment_required: move.commentRequired });

/**
 * `PUT /rest/field/bug/bug_status/workflow`: answers `{transitions, changes: {added, removed}}`,
 * every move as `{from, to, comment_required}` (`from` null: a bug being filed).
 */
export async function updateWorkflow(caller: Caller, fieldReference: string, input: WorkflowInput) {
  if ((await valueField(fieldReference)) !== 'bug_status')
    throw errors.invalidParameter('Only bug_status has a workflow: PUT /rest/field/bug/bug_status/workflow.');
  return retryOnConflict(async () => {
    const read = await readForEdit();
    const edit = planWorkflow(read.values, input, read.parameters.values);
    if (edit.added.length > 0 || edit.removed.length > 0) {
      const transaction = new WriteTransaction().requireStamp({ catalog: read.stamp });
      putWorkflow(transaction, edit.transitions);
      const label = (moves: Transition[]) =>
        moves
          .map((move) => `${move.from ?? '(new bug)'} → ${move.to}${move.commentRequired ? ' (comment required)' : ''}`)
          .join(', ');
      recordAudit(transaction, {
        auditClass: AUDIT_CLASS.fieldValue,
        objectId: 'bug_status',
        userId: caller.user!.id,
        changes: { workflow: { removed: label(edit.removed), added: label(edit.added) } },
        at: new Date(),
      });
      await transaction.commit();
    }
    return {
      transitions: edit.transitions.map(transitionView),
      changes: { added: edit.added.map(transitionView), removed: edit.removed.map(transitionView) },
    };
  });
}
