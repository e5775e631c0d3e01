import { FLAG_TYPE_ADMIN_GROUP, listFlagTypes } from '../../shared/application/catalog/flagTypes.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';

/**
 * `GET /rest/flag_type` (Tracker addition, Bugzilla's editflagtypes.cgi list): every flag type with
 * its inclusions and exclusions, for the members of editcomponents who administer them.
 */
const fields = { fields: {} };

export const handler = defineEndpoint({
  access: {
    group: FLAG_TYPE_ADMIN_GROUP,
    denied: () => errors.onlyGroupMembersMay('list every flag type', FLAG_TYPE_ADMIN_GROUP),
  },
  input: noInput(),
  responseFields: { flag_types: fields },
  run: ({ caller }) => listFlagTypes(caller),
});
