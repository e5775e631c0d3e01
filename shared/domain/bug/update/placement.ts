import { errors } from '../../../errors.ts';
import { sortedIds } from '../bug.ts';
import { productGroupRules } from '../bugGroups.ts';
import { type BugUpdateContext, present } from './updateContext.ts';

/**
 * Product, component, version and milestone. A move to another product takes the bug to a product
 * the caller may file in, keeps only the groups that product allows and adds its mandatory ones,
 * and chooses the component, version and milestone again by name (the old name where the new
 * product has it).
 */
export function applyPlacement(context: BugUpdateContext): void {
  const { env, input, current, next, oldRecord } = context;
  if (present(input.product) && String(input.product).trim().toLowerCase() !== oldRecord.product.name.toLowerCase()) {
    const wanted = String(input.product).trim();
    const target = env.products.find((candidate) => candidate.product.name.toLowerCase() === wanted.toLowerCase());
    if (!target || !env.enterableProductIds.has(target.product.id))
      throw errors.invalidProduct(`The product '${wanted}' does not exist, or you may not move bugs into it.`);
    context.record = target;
    next.productId = target.product.id;
    const rules = productGroupRules(env.caller, target, env.groups);
    next.groupIds = sortedIds([...next.groupIds.filter((groupId) => rules.allows(groupId)), ...rules.mandatory]);
  }
  const { record } = context;
  const moved = record !== oldRecord;
  const pickNamed = <T extends { name: string; isActive: boolean }>(
    values: readonly T[],
    wanted: unknown,
    keep: string,
    what: string,
  ): T => {
    const name = present(wanted) ? String(wanted).trim() : keep;
    const found = values.find((value) => value.name.toLowerCase() === name.toLowerCase());
    if (!found) {
      if (present(wanted)) throw errors.notFoundInProduct(what, name, record.product.name);
      const field = what === 'milestone' ? 'target_milestone' : what;
      throw errors.invalidParameter(
        `The product '${record.product.name}' has no ${what} named '${keep}': choose one for the bug with '${field}'.`,
      );
    }
    if (!found.isActive && found.name !== keep)
      throw errors.notFound(`The ${what} '${found.name}' of the product '${record.product.name}' is inactive.`);
    return found;
  };
  const oldComponentName = oldRecord.components.find((component) => component.id === current.componentId)?.name ?? '';
  if (present(input.component) || moved) {
    const component = pickNamed(record.components, input.component, oldComponentName, 'component');
    next.componentId = component.id;
    // Bugzilla's set_component: a bug that changes component takes on its default CC list (before
    // the request's own CC changes, which may remove them again).
    if (component.id !== current.componentId)
      next.ccIds = sortedIds([...new Set([...next.ccIds, ...component.defaultCcIds])]);
  }
  // Versions and milestones are kept by id (catalog/bugValues.ts), and chosen or kept by name.
  const oldVersionName = oldRecord.versions.find((value) => value.id === current.versionId)?.name ?? '';
  if (present(input.version) || moved)
    next.versionId = pickNamed(record.versions, input.version, oldVersionName, 'version').id;
  if (present(input.target_milestone) || moved) {
    const oldMilestoneName = oldRecord.milestones.find((value) => value.id === current.targetMilestoneId)?.name ?? '';
    const keep =
      moved && !record.milestones.some((value) => value.name === oldMilestoneName)
        ? record.product.defaultMilestone
        : oldMilestoneName;
    next.targetMilestoneId = pickNamed(record.milestones, input.target_milestone, keep, 'milestone').id;
  }
}
