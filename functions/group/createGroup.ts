import * as z from 'zod';
import { createGroup } from '../../shared/application/identity/groups.ts';
import { CREATEGROUPS_GROUP } from '../../shared/domain/identity/groupRules.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, text } from '../../shared/http/inputSchemas.ts';
import { TrackerError } from '../../shared/trackerError.ts';

export const groupInput = {
  name: text().optional(),
  description: text().optional(),
  user_regexp: text().optional(),
  is_active: flag().optional(),
  icon_url: text().optional(),
};

export const handler = defineEndpoint({
  access: {
    group: CREATEGROUPS_GROUP,
    denied: () =>
      new TrackerError(
        304,
        'Sorry, you are not authorized to create groups: only members of the creategroups group may.',
      ),
  },
  input: z.object(groupInput),
  run: ({ input, caller }) => createGroup(caller, input),
});
