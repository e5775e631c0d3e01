import { EDITCLASSIFICATIONS_GROUP, EDITCOMPONENTS_GROUP } from '../../shared/domain/catalog/productRules.ts';
import type { Access } from '../../shared/http/endpoint.ts';
import { TrackerError } from '../../shared/trackerError.ts';

/** Who may change the catalogue: Bugzilla's editcomponents (products, components, versions, milestones) and editclassifications. */
export const editComponentsAccess = (action: string): Access => ({
  group: EDITCOMPONENTS_GROUP,
  denied: () =>
    new TrackerError(304, `Sorry, you are not authorized to ${action}: only members of the editcomponents group may.`),
});

export const editClassificationsAccess = (action: string): Access => ({
  group: EDITCLASSIFICATIONS_GROUP,
  denied: () =>
    new TrackerError(
      304,
      `Sorry, you are not authorized to ${action}: only members of the editclassifications group may.`,
    ),
});
