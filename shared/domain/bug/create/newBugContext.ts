import type { Component, ProductRecord } from '../../catalog/catalog.ts';
import type { BugEnvironment } from '../bugEnvironment.ts';

/** What every rule of a new bug reads: the request, and the product and component it files in. */
export interface NewBugContext {
  readonly env: BugEnvironment;
  readonly input: Record<string, unknown>;
  readonly record: ProductRecord;
  readonly component: Component;
  /** editbugs in the product: may choose the assignee, QA contact, priority and milestone. */
  readonly editbugs: boolean;
}
