import { arrayOf, boolean, integer, type JsonSchema, nullable, ref, resource, string } from '../jsonSchema.ts';

/**
 * The catalogue as shared/domain/catalog/ renders it: products with their components, versions
 * and milestones (productRules.ts), flag types (flagTypes.ts), field definitions (fieldViews.ts),
 * classifications and keywords.
 */
const strings = arrayOf(string);
const flagTypes = arrayOf(ref('FlagType'));

export const CATALOG_SCHEMAS: Record<string, JsonSchema> = {
  Product: resource({
    id: integer,
    name: string,
    description: string,
    is_active: boolean,
    default_bug_type: string,
    default_milestone: string,
    has_unconfirmed: boolean,
    classification: string,
    components: arrayOf(ref('Component')),
    versions: arrayOf(ref('ProductValue')),
    milestones: arrayOf(ref('ProductValue')),
    group_controls: { ...arrayOf(ref('GroupControl')), description: 'Only for editcomponents.' },
  }),
  Component: resource({
    id: integer,
    name: string,
    description: string,
    default_assigned_to: string,
    default_bug_type: string,
    default_qa_contact: string,
    triage_owner: string,
    sort_key: integer,
    is_active: boolean,
    flag_types: resource({ bug: flagTypes, attachment: flagTypes }),
  }),
  ProductValue: resource(
    { id: integer, name: string, sort_key: integer, is_active: boolean },
    { description: 'A version or a milestone of a product.' },
  ),
  GroupControl: resource({
    group: string,
    entry: boolean,
    membercontrol: { type: 'string', enum: ['NA', 'SHOWN', 'DEFAULT', 'MANDATORY'] },
    othercontrol: { type: 'string', enum: ['NA', 'SHOWN', 'DEFAULT', 'MANDATORY'] },
    canedit: boolean,
    editcomponents: boolean,
    editbugs: boolean,
    canconfirm: boolean,
  }),
  FlagType: resource(
    {
      id: integer,
      name: string,
      description: string,
      cc_list: string,
      sort_key: integer,
      is_active: boolean,
      is_requestable: boolean,
      is_requesteeble: boolean,
      is_multiplicable: boolean,
      grant_group: { ...nullable(integer), description: 'The id of the group that may grant it, or null.' },
      request_group: nullable(integer),
      type: { type: 'string', enum: ['bug', 'attachment'] },
      target_type: { type: 'string', enum: ['bug', 'attachment'] },
      values: { ...strings, description: 'The statuses the caller may set (X clears).' },
      inclusions: { type: 'object', additionalProperties: strings, description: 'Product name → component names.' },
      exclusions: { type: 'object', additionalProperties: strings },
      grant_group_name: { ...string, description: 'GET /rest/flag_type only: the grant group by name ("" for none).' },
      request_group_name: string,
    },
    { description: 'A flag type; `type`/`target_type`, `values` and the scopes only where the call says.' },
  ),
  Field: resource({
    id: integer,
    name: string,
    display_name: string,
    type: { ...integer, description: "Bugzilla's field type (0 unknown, 1 free text, 2 drop-down, 3 multi-select…)." },
    is_custom: boolean,
    is_mandatory: boolean,
    is_on_bug_entry: boolean,
    visibility_field: nullable(string),
    visibility_values: strings,
    value_field: nullable(string),
    values: arrayOf(ref('FieldValue')),
    sort_key: integer,
    is_obsolete: boolean,
  }),
  FieldValue: resource(
    {
      name: {
        ...nullable(string),
        description: "null only in bug_status's first entry: the statuses a new bug may take.",
      },
      sort_key: integer,
      sortkey: integer,
      visibility_values: strings,
      is_active: boolean,
      is_open: boolean,
      can_change_to: arrayOf(
        resource({ name: string, comment_required: boolean }, { required: ['name', 'comment_required'] }),
      ),
      description: string,
    },
    { description: 'A legal value of a field; `is_open` and `can_change_to` for bug_status only.' },
  ),
  Classification: resource({
    id: integer,
    name: string,
    description: string,
    sort_key: integer,
    products: arrayOf(resource({ id: integer, name: string, description: string })),
  }),
  Keyword: resource({ id: integer, name: string, description: string, is_active: boolean }),
};
