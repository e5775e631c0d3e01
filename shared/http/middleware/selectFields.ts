import type { MiddlewareObj } from '@middy/core';
import { FieldSelection, type ResourceFields } from '../../domain/fieldSelection.ts';
import { stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * `include_fields` / `exclude_fields`: read before the handler (which may skip costly fields it
 * is not asked for) and applied after it to each resource collection the endpoint declares.
 */
export interface ResponseCollection {
  fields: ResourceFields;
  /** `list`: an array of resources (the default); `byId`: an object of id → resource or array of
   * resources; `single`: one object whose keys are the fields (as `parameters`). */
  layout?: 'list' | 'byId' | 'single';
}

export type ResponseFields = Readonly<Record<string, ResponseCollection>>;

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
    for (const [name, collection] of Object.entries(responseFields)) {
      if (name in filtered) filtered[name] = filterCollection(filtered[name], collection, fields);
    }
    request.response = filtered;
  },
});

function filterCollection(value: unknown, collection: ResponseCollection, selection: FieldSelection): unknown {
  if (collection.layout === 'byId' && value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([id, item]) => [id, selection.apply(item, collection.fields)]),
    );
  }
  return selection.apply(value, collection.fields);
}
