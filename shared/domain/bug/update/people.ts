import { truthy } from '../../inputValues.ts';
import { sortedIds } from '../bug.ts';
import { applyListChange, parseListChange } from '../bugFieldRules.ts';
import { type BugUpdateContext, present } from './updateContext.ts';

/** Assignee and QA contact (set, or reset to the component's defaults) and the CC list. */
export function applyPeople({ env, input, record, next }: BugUpdateContext): void {
  const component = record.components.find((candidate) => candidate.id === next.componentId)!;
  if (truthy(input.reset_assigned_to)) next.assigneeId = component.defaultAssigneeId;
  else if (present(input.assigned_to) && input.assigned_to !== '')
    next.assigneeId = env.userId(String(input.assigned_to), 'assigned_to');
  if (truthy(input.reset_qa_contact))
    next.qaContactId = env.parameters.useqacontact === '1' ? component.defaultQaContactId : null;
  else if (input.qa_contact !== undefined)
    next.qaContactId =
      input.qa_contact === null || input.qa_contact === '' ? null : env.userId(String(input.qa_contact), 'qa_contact');
  if (input.cc !== undefined) {
    const change = parseListChange('cc', input.cc, (login) => env.userId(String(login), 'cc'));
    next.ccIds = sortedIds(applyListChange(next.ccIds, change));
  }
}
