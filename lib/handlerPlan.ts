/**
 * Derives the stack's Lambda functions from the route table: one function per distinct handler
 * module, plus the platform handlers (OPTIONS, catch-all) and the deploy-time bootstrap. Pure
 * (no CDK), so the tests can check the derivation on its own.
 */
import { platformHandlers, type RouteDefinition } from '../shared/routes.ts';

/** Module under functions/ invoked by the deploy-time custom resource; never routed. */
export const BOOTSTRAP_HANDLER = 'platform/bootstrap';

/** What a function may do with the table and the attachment bucket. */
export type DataAccess = 'none' | 'read' | 'readWrite';

export type HandlerKind = 'route' | 'platform' | 'bootstrap';

export interface HandlerPlan {
  /** Module under functions/, without extension (e.g. `instance/version`). */
  module: string;
  /** Construct id of its function (e.g. `InstanceVersion`); unique within the plan. */
  constructId: string;
  kind: HandlerKind;
  access: DataAccess;
  /** Whether the function may use the attachment bucket (read or write, as `access` says). */
  bucket: boolean;
  /** Whether the function sends account mail (SES, and Test mail kept in the bucket). */
  mail: boolean;
  /** The route-table rows served by this module (empty for platform and bootstrap). */
  routes: RouteDefinition[];
}

/** `instance/getParameters` -> `InstanceGetParameters`. */
export function constructIdFor(module: string): string {
  const id = module
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
  if (!/^[A-Z]/.test(id)) throw new Error(`Cannot derive a construct id from handler module '${module}'`);
  return id;
}

/**
 * A module used by any writing row gets read/write access (least privilege is per function, and a
 * function serving a write must be able to write); a module used only by read-only rows gets read
 * access. Platform handlers get none; the bootstrap writes the first administrator.
 */
export function planHandlers(routes: readonly RouteDefinition[]): HandlerPlan[] {
  const plans = new Map<string, HandlerPlan>();
  const seenRouteKeys = new Set<string>();

  for (const row of routes) {
    const routeKey = `${row.method} ${row.path}`;
    if (seenRouteKeys.has(routeKey)) throw new Error(`Duplicate route '${routeKey}' in the route table`);
    seenRouteKeys.add(routeKey);
    if (row.handler === BOOTSTRAP_HANDLER) throw new Error(`The bootstrap handler must not be routed (${routeKey})`);

    const plan = plans.get(row.handler) ?? {
      module: row.handler,
      constructId: constructIdFor(row.handler),
      kind: 'route' as const,
      access: 'read' as DataAccess,
      bucket: false,
      mail: false,
      routes: [],
    };
    plan.routes.push(row);
    if (!row.readOnly) plan.access = 'readWrite';
    if (row.attachments === true) plan.bucket = true;
    if (row.mail === true) plan.mail = true;
    plans.set(row.handler, plan);
  }

  for (const module of Object.values(platformHandlers)) {
    // A platform module that is also routed keeps the routes' grants.
    if (!plans.has(module)) {
      plans.set(module, {
        module,
        constructId: constructIdFor(module),
        kind: 'platform',
        access: 'none',
        bucket: false,
        mail: false,
        routes: [],
      });
    }
  }

  plans.set(BOOTSTRAP_HANDLER, {
    module: BOOTSTRAP_HANDLER,
    constructId: constructIdFor(BOOTSTRAP_HANDLER),
    kind: 'bootstrap',
    access: 'readWrite',
    bucket: false,
    mail: false,
    routes: [],
  });

  const byId = new Map<string, string>();
  for (const plan of plans.values()) {
    const other = byId.get(plan.constructId);
    if (other)
      throw new Error(
        `Handler modules '${other}' and '${plan.module}' map to the same construct id '${plan.constructId}'`,
      );
    byId.set(plan.constructId, plan.module);
  }

  return [...plans.values()];
}
