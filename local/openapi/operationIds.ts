import type { RouteDefinition } from '../../shared/routes.ts';
import { pathVariables } from './inputParameters.ts';

const pascal = (name: string) =>
  name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * A stable, unique id per route: the handler's name (`getBug`), with the path variables when the
 * handler serves several paths (`getUsersByIdOrName`), or the last segment of fixed ones
 * (`rpcEndpointXmlrpc`), and the method when it serves one path by several methods
 * (`loginGet`, `loginPost`).
 */
export function operationIds(routes: readonly RouteDefinition[]): Map<RouteDefinition, string> {
  const routesOf = new Map<string, RouteDefinition[]>();
  for (const route of routes) routesOf.set(route.handler, [...(routesOf.get(route.handler) ?? []), route]);
  const candidates = routes.map((route) => {
    const base = route.handler.split('/').pop() ?? route.handler;
    const variables = pathVariables(route.path);
    const distinctPaths = new Set(routesOf.get(route.handler)?.map((sibling) => sibling.path)).size;
    if (distinctPaths <= 1) return base;
    if (variables.length > 0) return `${base}By${variables.map(pascal).join('And')}`;
    // Several fixed paths (`/xmlrpc.cgi`, `/jsonrpc.cgi`): the last segment, without its extension.
    const segment = route.path.split('/').pop()?.replace(/\..*$/, '') ?? '';
    return `${base}${pascal(segment)}`;
  });
  const counts = new Map<string, number>();
  for (const id of candidates) counts.set(id, (counts.get(id) ?? 0) + 1);
  return new Map(
    routes.map((route, index) => {
      const id = candidates[index];
      return [route, (counts.get(id) ?? 0) > 1 ? `${id}${pascal(route.method.toLowerCase())}` : id];
    }),
  );
}
