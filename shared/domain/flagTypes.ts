/**
 * Flag types: what can be requested, granted or denied on bugs or attachments, and in which
 * products and components (inclusions minus exclusions; 0 stands for "any").
 */
export interface FlagScope {
  productId: number;
  componentId: number;
}

export interface FlagType {
  id: number;
  name: string;
  description: string;
  ccList: string;
  sortKey: number;
  isActive: boolean;
  isRequestable: boolean;
  isRequesteeble: boolean;
  isMultiplicable: boolean;
  grantGroupId: number | null;
  requestGroupId: number | null;
  targetType: 'bug' | 'attachment';
  inclusions: FlagScope[];
  exclusions: FlagScope[];
}

const covers = (scope: FlagScope, productId: number, componentId: number) =>
  (scope.productId === 0 || scope.productId === productId) && (scope.componentId === 0 || scope.componentId === componentId);

export function appliesTo(type: FlagType, productId: number, componentId: number): boolean {
  return type.inclusions.some((scope) => covers(scope, productId, componentId)) && !type.exclusions.some((scope) => covers(scope, productId, componentId));
}

/** The spec's Flagtype object. */
export function flagTypeView(type: FlagType) {
  return {
    id: type.id,
    name: type.name,
    description: type.description,
    cc_list: type.ccList,
    sort_key: type.sortKey,
    is_active: type.isActive,
    is_requestable: type.isRequestable,
    is_requesteeble: type.isRequesteeble,
    is_multiplicable: type.isMultiplicable,
    grant_group: type.grantGroupId,
    request_group: type.requestGroupId,
  };
}

/** A component's `flag_types`: `{bug: [...], attachment: [...]}`, in sort-key then name order. */
export function flagTypesOfComponent(types: readonly FlagType[], productId: number, componentId: number) {
  const applicable = types
    .filter((type) => appliesTo(type, productId, componentId))
    .sort((a, b) => a.sortKey - b.sortKey || a.name.localeCompare(b.name));
  return {
    bug: applicable.filter((type) => type.targetType === 'bug').map(flagTypeView),
    attachment: applicable.filter((type) => type.targetType === 'attachment').map(flagTypeView),
  };
}
