import { isInsider, isTimeTracker } from '../../domain/bug/bugAccess.ts';
import { mayTagComments } from '../../domain/bug/commentTags.ts';
import { mayAdministerProduct } from '../../domain/catalog/productRules.ts';
import { type Caller, nickFor } from '../../domain/identity/caller.ts';
import { loadProducts } from '../../storage/catalog/productStore.ts';
import { listGroups } from '../../storage/identity/groupStore.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';

/**
 * GET /rest/whoami: Bugzilla's fields, then Tracker's additions, each from the very function that
 * enforces that right, so that a client offers exactly what the API then allows: the web app's
 * admin pages show a control only when these say the API will accept it.
 */
export async function describeCaller(caller: Caller) {
  const user = caller.user!;
  const [parameters, products, groups] = await Promise.all([loadParameters(), loadProducts(), listGroups()]);
  const groupNames = new Map(groups.map((group) => [group.id, group.name]));
  const groupName = (id: number) => groupNames.get(id);
  return {
    id: user.id,
    name: user.login,
    real_name: user.realName,
    nick: nickFor(user),
    email_enabled: user.emailEnabled,
    is_insider: isInsider(caller, parameters),
    is_timetracker: isTimeTracker(caller, parameters),
    can_tag_comments: mayTagComments(caller, parameters),
    // Every group the caller is in (directly, by regexp, implied, or through admin), by name.
    groups: [...caller.groups].sort(),
    // Products whose components, versions and milestones the caller may manage: all of them for
    // editcomponents, else those where a group of theirs has the editcomponents control (5.2's rule).
    administered_products: products
      .filter((record) => mayAdministerProduct(caller, record, groupName))
      .map((record) => record.product.name)
      .sort((a, b) => a.localeCompare(b)),
  };
}
