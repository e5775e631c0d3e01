import { errors } from '../../../errors.ts';
import { sortedIds } from '../bug.ts';
import type { NewBugContext } from './newBugContext.ts';
import { present, presentList } from './newBugInput.ts';

/** Assignee and QA contact: the component's, unless editbugs chooses; CC: the component's and the request's. */
export function peopleOf({ env, input, component, editbugs }: NewBugContext) {
  const { parameters } = env;
  let assigneeId = component.defaultAssigneeId;
  if (present(input.assigned_to) && editbugs) assigneeId = env.userId(String(input.assigned_to), 'assigned_to');
  let qaContactId = parameters.useqacontact === '1' ? component.defaultQaContactId : null;
  if (present(input.qa_contact) && editbugs && parameters.useqacontact === '1')
    qaContactId = env.userId(String(input.qa_contact), 'qa_contact');
  const ccIds = sortedIds([
    ...component.defaultCcIds,
    ...presentList(input.cc).map((login) => env.userId(String(login), 'cc', 'invalidUser')),
  ]);
  return { assigneeId, qaContactId, ccIds };
}

/** Keywords by name: only active ones. */
export function keywordIdsOf({ env, input }: NewBugContext): number[] {
  return sortedIds(
    presentList(input.keywords).map((name) => {
      const text = String(name).trim();
      const keyword = env.keywords.find(
        (candidate) => candidate.isActive && candidate.name.toLowerCase() === text.toLowerCase(),
      );
      if (!keyword) throw errors.notFoundByName('keyword', text);
      return keyword.id;
    }),
  );
}
