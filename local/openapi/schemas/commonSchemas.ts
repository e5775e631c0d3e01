import { boolean, bugzillaTime, integer, type JsonSchema, nullable, resource, string } from '../jsonSchema.ts';

/** Objects several families share: a user as embedded in other objects, change reports, flags. */
export const COMMON_SCHEMAS: Record<string, JsonSchema> = {
  UserDetail: resource(
    { id: integer, real_name: string, nick: string, name: string, email: string },
    { description: 'A user embedded in another object (`assigned_to_detail`…); `email` only for logged-in callers.' },
  ),
  FieldChange: {
    type: 'object',
    description: 'One field of an update: what it was and what it became, as text ("1"/"0" for booleans).',
    properties: { removed: string, added: string },
    required: ['removed', 'added'],
    additionalProperties: false,
  },
  Changes: {
    type: 'object',
    description: 'The fields an update changed, by field name.',
    additionalProperties: { $ref: '#/components/schemas/FieldChange' },
  },
  Flag: resource(
    {
      id: integer,
      name: string,
      type_id: integer,
      creation_date: bugzillaTime,
      modification_date: bugzillaTime,
      status: { type: 'string', enum: ['?', '+', '-'] },
      setter: string,
      requestee: { type: 'string', description: 'Only on a request made of someone.' },
    },
    { description: 'A flag set on a bug or an attachment.' },
  ),
  UpdateResult: {
    type: 'object',
    description: 'One object an update changed: its id (and name, for some kinds) and the changes.',
    properties: { id: integer, name: string, changes: { $ref: '#/components/schemas/Changes' } },
    required: ['id', 'changes'],
    additionalProperties: false,
  },
  CreatedId: {
    type: 'object',
    properties: { id: integer },
    required: ['id'],
    additionalProperties: false,
  },
  Parameters: {
    type: 'object',
    description: "The installation's parameters by name, as text (what a caller sees of them depends on their groups).",
    additionalProperties: string,
  },
  WorkflowTransition: {
    type: 'object',
    description: 'A move of the status workflow; `from` null is a new bug.',
    properties: { from: nullable(string), to: string, comment_required: boolean },
    required: ['from', 'to', 'comment_required'],
    additionalProperties: false,
  },
};
