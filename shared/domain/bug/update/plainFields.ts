import { errors } from '../../../errors.ts';
import { asList, truthy } from '../../inputValues.ts';
import { checkAlias, checkCustomValue, checkSummary, checkUrl, checkWhiteboard } from '../bugFieldRules.ts';
import type { BugUpdateContext } from './updateContext.ts';

function aliasInput(value: unknown): string | null {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const change = value as Record<string, unknown>;
    if (change.set !== undefined) return checkAlias(asList(change.set)[0]);
    if (change.add !== undefined && asList(change.add).length > 0) return checkAlias(asList(change.add)[0]);
    return null;
  }
  return checkAlias(Array.isArray(value) ? value[0] : value);
}

/** Summary, alias, the fields with legal values, URL, whiteboard and the access checkboxes. */
export function applyPlainFields({ env, input, current, next }: BugUpdateContext): void {
  if (input.summary !== undefined) next.summary = checkSummary(input.summary);
  if (input.alias !== undefined) next.alias = aliasInput(input.alias);
  // The installation's legal values: a disabled one may stay on the bug, not be chosen anew.
  const { values } = env;
  if (input.type !== undefined) next.bugType = values.check('bug_type', 'bug type', input.type, current.bugType);
  if (input.priority !== undefined)
    next.priority = values.check('priority', 'priority', input.priority, current.priority);
  if (input.severity !== undefined)
    next.severity = values.check('bug_severity', 'severity', input.severity, current.severity);
  const platform = input.platform ?? input.rep_platform;
  if (platform !== undefined) next.platform = values.check('rep_platform', 'platform', platform, current.platform);
  if (input.op_sys !== undefined) next.opSys = values.check('op_sys', 'operating system', input.op_sys, current.opSys);
  if (input.url !== undefined) next.url = checkUrl(input.url);
  if (input.whiteboard !== undefined) next.whiteboard = checkWhiteboard(input.whiteboard);
  if (input.is_cc_accessible !== undefined) next.isCcAccessible = truthy(input.is_cc_accessible);
  if (input.is_creator_accessible !== undefined) next.isCreatorAccessible = truthy(input.is_creator_accessible);
}

/** Custom fields: an obsolete one is left as it is; one that does not exist is refused. */
export function applyCustomFields({ env, input, next }: BugUpdateContext): void {
  for (const field of env.customFields) {
    if (input[field.name] !== undefined && !field.isObsolete)
      next.custom[field.name] = checkCustomValue(field, input[field.name]);
  }
  for (const name of Object.keys(input)) {
    if (name.startsWith('cf_') && !env.customFields.some((field) => field.name === name && !field.isObsolete))
      throw errors.notFoundByName('custom field', name);
  }
}
