import { describe, expect, it } from 'vitest';
import { RouteMatcher } from '../../shared/http/routeMatcher.ts';
import type { HttpMethod, RouteDefinition } from '../../shared/routes.ts';

const route = (method: HttpMethod, path: string): RouteDefinition => ({
  method,
  path,
  handler: `${method} ${path}`,
  readOnly: method === 'GET',
});

const matcher = new RouteMatcher([
  // Deliberately listed from least to most specific: the table order must not matter.
  route('GET', '/rest/{proxy+}'),
  route('GET', '/rest/bug/{id}'),
  route('PUT', '/rest/bug/{id}'),
  route('GET', '/rest/bug/count'),
  route('GET', '/rest/bug/{id}/comment'),
  route('POST', '/rest/bug'),
  route('DELETE', '/rest/files/{key+}'),
]);

const handlerFor = (method: HttpMethod | 'HEAD', path: string) => matcher.match(method, path)?.route.handler ?? null;

describe('route matching precedence', () => {
  it('prefers a literal segment over a {param}', () => {
    expect(handlerFor('GET', '/rest/bug/count')).toBe('GET /rest/bug/count');
  });

  it('prefers a {param} over a {proxy+}', () => {
    expect(matcher.match('GET', '/rest/bug/42')).toEqual({
      route: route('GET', '/rest/bug/{id}'),
      pathParameters: { id: '42' },
    });
  });

  it('falls back to {proxy+}, which captures the rest of the path', () => {
    expect(matcher.match('GET', '/rest/product/7/extra')).toEqual({
      route: route('GET', '/rest/{proxy+}'),
      pathParameters: { proxy: 'product/7/extra' },
    });
  });

  it('does not let {proxy+} match an empty remainder', () => {
    expect(handlerFor('GET', '/rest')).toBeNull();
  });

  it('requires every segment to match (no prefix matches)', () => {
    expect(handlerFor('POST', '/rest/bug/1')).toBeNull();
    expect(handlerFor('PUT', '/rest/bug')).toBeNull();
  });

  it('ignores leading, trailing and doubled slashes', () => {
    expect(handlerFor('GET', 'rest//bug/count/')).toBe('GET /rest/bug/count');
  });
});

describe('route matching by method', () => {
  it('chooses among the routes of the request method first', () => {
    // The literal /rest/bug/count exists only for GET, so PUT goes to the {id} route.
    expect(matcher.match('PUT', '/rest/bug/count')).toEqual({
      route: route('PUT', '/rest/bug/{id}'),
      pathParameters: { id: 'count' },
    });
  });

  it('serves HEAD with the GET route', () => {
    expect(handlerFor('HEAD', '/rest/bug/count')).toBe('GET /rest/bug/count');
    expect(new RouteMatcher([route('POST', '/rest/bug')]).match('HEAD', '/rest/bug')).toBeNull();
  });

  it('returns null for a method no route of the path serves', () => {
    expect(handlerFor('POST', '/rest/bug/42/comment')).toBeNull();
  });
});

describe('path parameters', () => {
  it('are URL-decoded after the path is split, so an encoded slash stays in one parameter', () => {
    expect(matcher.match('GET', '/rest/bug/My%20Bug%2F2')?.pathParameters).toEqual({ id: 'My Bug/2' });
  });

  it('are decoded segment by segment in a greedy parameter', () => {
    expect(matcher.match('DELETE', '/rest/files/a%20b/c')?.pathParameters).toEqual({ key: 'a b/c' });
  });

  it('keep a malformed escape as written', () => {
    expect(matcher.match('GET', '/rest/bug/100%')?.pathParameters).toEqual({ id: '100%' });
  });
});

describe('allowedMethods', () => {
  it('lists every method served on the path, HEAD with GET, and OPTIONS', () => {
    expect(matcher.allowedMethods('/rest/bug/42')).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT']);
  });

  it('counts routes that match through a greedy parameter', () => {
    expect(matcher.allowedMethods('/rest/files/x/y')).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS']);
  });

  it('does not add HEAD when no GET route serves the path', () => {
    expect(new RouteMatcher([route('POST', '/rest/bug')]).allowedMethods('/rest/bug')).toEqual(['OPTIONS', 'POST']);
  });

  it('is empty for an unknown path', () => {
    expect(matcher.allowedMethods('/nothing/here')).toEqual([]);
  });
});
