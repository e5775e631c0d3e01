import type { HttpMethod, RouteDefinition } from '../routes.ts';

/**
 * Matches request paths against route-table paths with API Gateway HTTP API semantics:
 * `{name}` matches one segment, `{name+}` the rest of the path, and at each segment a literal
 * beats a parameter, which beats a greedy parameter.
 */
export interface RouteMatch {
  route: RouteDefinition;
  pathParameters: Record<string, string>;
}

type Segment = { kind: 'literal'; value: string } | { kind: 'param'; name: string } | { kind: 'greedy'; name: string };

const parseTemplate = (path: string): Segment[] =>
  path
    .split('/')
    .filter(Boolean)
    .map((part) => {
      const param = /^\{([^}+]+)(\+)?\}$/.exec(part);
      if (!param) return { kind: 'literal', value: part };
      return param[2] ? { kind: 'greedy', name: param[1] } : { kind: 'param', name: param[1] };
    });

const RANK = { literal: 0, param: 1, greedy: 2 } as const;

interface CompiledRoute {
  route: RouteDefinition;
  segments: Segment[];
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.kind === 'greedy') {
      if (i >= parts.length) return null;
      params[segment.name] = parts.slice(i).join('/');
      return params;
    }
    if (i >= parts.length) return null;
    if (segment.kind === 'literal') {
      if (segment.value !== parts[i]) return null;
    } else {
      params[segment.name] = parts[i];
    }
  }
  return segments.length === parts.length ? params : null;
}

/** Negative when `a` is more specific than `b` (API Gateway's precedence). */
function compareSpecificity(a: Segment[], b: Segment[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const rankA = a[i] ? RANK[a[i].kind] : -1;
    const rankB = b[i] ? RANK[b[i].kind] : -1;
    if (rankA !== rankB) return rankA - rankB;
  }
  return 0;
}

const decode = (part: string): string => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

export class RouteMatcher {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly RouteDefinition[]) {
    this.compiled = routes
      .map((route) => ({ route, segments: parseTemplate(route.path) }))
      .sort((a, b) => compareSpecificity(a.segments, b.segments));
  }

  /** Every route whose path matches, most specific path first. */
  private candidates(path: string): Array<{ compiled: CompiledRoute; params: Record<string, string> }> {
    const parts = path.split('/').filter(Boolean).map(decode);
    const found: Array<{ compiled: CompiledRoute; params: Record<string, string> }> = [];
    for (const compiled of this.compiled) {
      const params = matchSegments(compiled.segments, parts);
      if (params) found.push({ compiled, params });
    }
    return found;
  }

  /** The most specific route for this method, as API Gateway chooses among `METHOD path` routes. */
  match(method: HttpMethod | 'HEAD', path: string): RouteMatch | null {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const found = this.candidates(path).find(({ compiled }) => compiled.route.method === wanted);
    return found ? { route: found.compiled.route, pathParameters: found.params } : null;
  }

  /** Methods served on a path, for `OPTIONS` and its `Allow` header; empty for an unknown path. */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const { compiled } of this.candidates(path)) {
      methods.add(compiled.route.method);
      if (compiled.route.method === 'GET') methods.add('HEAD');
    }
    if (methods.size > 0) methods.add('OPTIONS');
    return [...methods].sort();
  }
}
