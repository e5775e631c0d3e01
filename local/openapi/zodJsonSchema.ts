import * as z from 'zod';
import type { JsonSchema } from './jsonSchema.ts';

/**
 * A handler's zod input schema as JSON Schema, as clients send it (`io: 'input'`). The building
 * blocks of shared/http/inputSchemas.ts are preprocessors, which zod describes by their target
 * (`list(integer())` is an array of integers; the comma-separated text it also takes is told in
 * the parameter's description). What zod cannot express (a refinement written in code, a date, a
 * recursive type) does not fail the document: the property, or the whole input, is described as
 * "any value, checked by the handler", and its description says so.
 */
const OPTIONS = { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw', cycles: 'throw' } as const;

export const UNCONVERTIBLE_NOTE =
  'Its zod schema cannot be expressed in JSON Schema; the handler checks the value and answers error 32000 when it is wrong.';

export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  try {
    return tidy(z.toJSONSchema(schema, OPTIONS) as JsonSchema);
  } catch {
    if (!(schema instanceof z.ZodObject)) return { type: 'object', description: UNCONVERTIBLE_NOTE };
    const properties: Record<string, JsonSchema> = {};
    for (const [name, property] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      properties[name] = propertySchema(property);
    }
    return { type: 'object', properties, description: `Some parameters: ${UNCONVERTIBLE_NOTE}` };
  }
}

function propertySchema(property: z.ZodType): JsonSchema {
  try {
    return tidy(z.toJSONSchema(property, OPTIONS) as JsonSchema);
  } catch {
    return { description: UNCONVERTIBLE_NOTE };
  }
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/** Drops what says nothing: the dialect (the document's own) and zod's safe-integer bounds on every integer. */
function tidy(value: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const entries = Object.entries(node as JsonSchema).filter(
      ([key, item]) =>
        key !== '$schema' && !((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(item as number)),
    );
    return Object.fromEntries(entries.map(([key, item]) => [key, walk(item)]));
  };
  return walk(value) as JsonSchema;
}
