/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) or an OpenAPI object, as plain data. */
export type JsonSchema = { [key: string]: unknown };

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Bugzilla's wire time: UTC, whole seconds (`2026-11-25T01:23:07Z`). */
export const bugzillaTime: JsonSchema = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$',
};

export const nullable = (schema: JsonSchema): JsonSchema =>
  typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };

export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** Keyed by id (`{"12": …}`), as Bugzilla answers comments and attachments. */
export const byId = (value: JsonSchema): JsonSchema => ({
  type: 'object',
  propertyNames: { pattern: '^[0-9]+$' },
  additionalProperties: value,
});

/**
 * An object whose properties are all optional: resources that `include_fields` and
 * `exclude_fields` may cut down to any subset. Nothing else may appear (`additionalProperties:
 * false`), so a field the handlers add without a word here fails the integration test.
 */
export const resource = (properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...extra,
});

/** An envelope: the top level of an answer, which field selection never changes. */
export const envelope = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const string: JsonSchema = { type: 'string' };
export const integer: JsonSchema = { type: 'integer' };
export const number: JsonSchema = { type: 'number' };
export const boolean: JsonSchema = { type: 'boolean' };
