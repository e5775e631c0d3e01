import type { MiddlewareObj } from '@middy/core';
import { FieldSelection, type ResourceFields } from '../../domain/fieldSelection.ts';
import { stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * `include_fields` / `exclude_fields`: read before the handler (which may skip costly fields it
 * is not asked for) and applied after it to each resource collection the endpoint declares.
 */
export type ResponseFields = Readonly<Record<string, ResourceFields>>;

export const selectFields = (responseFields?: ResponseFields): MiddlewareObj => ({
  before: (request) => {
    const state = stateOf(request as TrackerRequest);
    const { include_fields, exclude_fields, ...rest } = state.params;
    state.fields = FieldSelection.fromParams({ include_fields, exclude_fields });
    state.params = rest;
  },
  after: (request) => {
    if (!responseFields) return;
    const response = request.response as Record<string, unknown> | null;
    if (!response || typeof response !== 'object') return;
    const { fields } = stateOf(request as TrackerRequest);
    const filtered: Record<string, unknown> = { ...response };
    for (const [collection, resource] of Object.entries(responseFields)) {
      if (collection in filtered) filtered[collection] = filterCollection(filtered[collection], resource, fields);
    }
    request.response = filtered;
  },
});

/** Collections are arrays of resources, or objects keyed by id whose values are a resource or an array of them. */
function filterCollection(value: unknown, resource: ResourceFields, fields: FieldSelection): unknown {
  if (Array.isArray(value)) return fields.apply(value, resource);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fields.apply(item, resource)]));
  }
  return value;
}
