import type { RouteDefinition } from '../../shared/routes.ts';
import type { AnyEndpointDefinition } from './endpointDefinitions.ts';
import type { JsonSchema } from './jsonSchema.ts';
import { inputJsonSchema } from './zodJsonSchema.ts';

/**
 * A route's input from its handler's zod schema. Path variables come from the route's path;
 * GET and DELETE take the other parameters in the query string, POST and PUT in a JSON body (the
 * query string works there too: parseInput.ts merges body, query and path, in that order of
 * precedence). A schema open to any parameter (search, possible_duplicates, bug create and
 * update) gets a free-form `params` query parameter, or an open body.
 */
export interface RouteInput {
  parameters: JsonSchema[];
  requestBody?: JsonSchema;
}

const REPEATABLE = 'Several values: repeat the parameter (most list parameters also take comma-separated values).';

/** Parameters every field-selecting GET takes (shared/http/middleware/selectFields.ts). */
export const FIELD_SELECTION_PARAMETERS: Record<string, JsonSchema> = {
  IncludeFields: {
    name: 'include_fields',
    in: 'query',
    description:
      'Only these fields of each resource (`_default`, `_extra`, `_all`, `_custom` and dotted nested names too); comma-separated or repeated.',
    schema: { type: 'array', items: { type: 'string' } },
  },
  ExcludeFields: {
    name: 'exclude_fields',
    in: 'query',
    description: 'Leave these fields out of each resource; comma-separated or repeated.',
    schema: { type: 'array', items: { type: 'string' } },
  },
};

export const pathVariables = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

export function routeInput(
  route: RouteDefinition,
  definition: AnyEndpointDefinition,
  options: { selectsFields: boolean },
): RouteInput {
  const schema = inputJsonSchema(definition.input);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const inPath = pathVariables(route.path);
  const parameters: JsonSchema[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? { type: 'string' },
  }));
  const others = Object.entries(properties).filter(([name]) => !inPath.includes(name));
  const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  const queryInput = route.method === 'GET' || route.method === 'DELETE';

  if (queryInput) {
    for (const [name, property] of others) {
      parameters.push({
        name,
        in: 'query',
        ...(required.has(name) ? { required: true } : {}),
        ...(property.type === 'array' ? { description: REPEATABLE } : {}),
        schema: property,
      });
    }
    if (open) {
      parameters.push({
        name: 'params',
        in: 'query',
        description: 'Any other parameters, each as its own query parameter (see the operation description).',
        style: 'form',
        explode: true,
        schema: { type: 'object', additionalProperties: true },
      });
    }
  }
  if (options.selectsFields && route.method === 'GET') {
    parameters.push(
      ...Object.keys(FIELD_SELECTION_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
    );
  }
  if (queryInput) return { parameters };

  const bodyRequired = [...required].filter((name) => !inPath.includes(name));
  const { required: _required, properties: _properties, ...rest } = schema;
  const body: JsonSchema = {
    ...rest,
    ...(schema.properties ? { properties: Object.fromEntries(others) } : {}),
    ...(bodyRequired.length > 0 ? { required: bodyRequired } : {}),
  };
  return {
    parameters,
    requestBody: {
      required: bodyRequired.length > 0,
      description: 'A JSON object; the same parameters may come in the query string instead.',
      content: { 'application/json': { schema: body } },
    },
  };
}
