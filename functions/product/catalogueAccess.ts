import { EDITCLASSIFICATIONS_GROUP, EDITCOMPONENTS_GROUP } from '../../shared/domain/catalog/productRules.ts';
import { errors } from '../../shared/errors.ts';
import type { Access } from '../../shared/http/endpoint.ts';

/** Who may change the catalogue: Bugzilla's editcomponents (products, components, versions, milestones) and editclassifications. */
export const editComponentsAccess = (action: string): Access => ({
  group: EDITCOMPONENTS_GROUP,
  denied: () => errors.onlyGroupMembersMay(action, EDITCOMPONENTS_GROUP),
});

export const editClassificationsAccess = (action: string): Access => ({
  group: EDITCLASSIFICATIONS_GROUP,
  denied: () => errors.onlyGroupMembersMay(action, EDITCLASSIFICATIONS_GROUP),
});
