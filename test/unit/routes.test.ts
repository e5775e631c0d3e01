import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RouteMatcher } from '../../shared/http/routeMatcher.ts';
import { routes } from '../../shared/routes.ts';

const functionsDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'functions');

describe('the route table', () => {
  it('uses one variable name per level of the path tree, as API Gateway requires', () => {
    const namesAtLevel = new Map<string, Set<string>>();
    for (const { path } of routes) {
      const parts = path.split('/').filter(Boolean);
      parts.forEach((part, index) => {
        if (!part.startsWith('{')) return;
        const parent = parts
          .slice(0, index)
          .map((segment) => (segment.startsWith('{') ? '{}' : segment))
          .join('/');
        namesAtLevel.set(parent, (namesAtLevel.get(parent) ?? new Set()).add(part));
      });
    }
    const conflicts = [...namesAtLevel]
      .filter(([, names]) => names.size > 1)
      .map(([parent, names]) => `${parent}: ${[...names].join(' ')}`);
    expect(conflicts).toEqual([]);
  });

  it('has no two rows for one method and path', () => {
    const keys = routes.map((route) => `${route.method} ${route.path}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it('points every row at a handler module that exists', () => {
    const missing = routes
      .filter((route) => !existsSync(join(functionsDir, `${route.handler}.ts`)))
      .map((route) => route.handler);
    expect(missing).toEqual([]);
  });

  it('marks every GET row read-only except those that write (login, logout), and only the POSTs that merely read', () => {
    const writingGets = routes.filter((route) => route.method === 'GET' && !route.readOnly).map((route) => route.path);
    expect(writingGets.sort()).toEqual(['/rest/login', '/rest/logout']);
    expect(routes.filter((route) => route.method !== 'GET' && route.readOnly).map((route) => route.path)).toEqual([
      '/rest/account/token',
      '/rest/bug/comment/render',
    ]);
  });

  it('gives the bucket to exactly the functions that move attachment bodies', () => {
    const withBucket = [...new Set(routes.filter((route) => route.attachments).map((route) => route.handler))].sort();
    expect(withBucket).toEqual([
      'attachment/createAttachment',
      'attachment/downloadAttachment',
      'attachment/getAttachments',
      // XML-RPC and JSON-RPC serve every method, Bug.add_attachment and Bug.attachments included.
      'rpc/rpcEndpoint',
    ]);
  });

  it('tells comment and attachment paths apart from bug paths', () => {
    const matcher = new RouteMatcher(routes);
    expect(matcher.match('GET', '/rest/bug/comment/7')?.route.handler).toBe('comment/getComments');
    expect(matcher.match('GET', '/rest/bug/7/comment')?.pathParameters).toEqual({ id_or_alias: '7' });
    expect(matcher.match('GET', '/rest/bug/comment/tags/spa')?.pathParameters).toEqual({ query: 'spa' });
    expect(matcher.match('PUT', '/rest/bug/comment/7/tags')?.pathParameters).toEqual({ comment_id: '7' });
    expect(matcher.match('POST', '/rest/bug/comment/render')?.route.handler).toBe('comment/renderComment');
    expect(matcher.match('GET', '/rest/bug/attachment/3')?.route.handler).toBe('attachment/getAttachments');
    expect(matcher.match('GET', '/rest/bug/attachment/3/download')?.route.handler).toBe(
      'attachment/downloadAttachment',
    );
    expect(matcher.match('POST', '/rest/bug/my-alias/attachment')?.pathParameters).toEqual({ id_or_alias: 'my-alias' });
  });

  it("routes python-bugzilla's paths to the endpoints it expects", () => {
    const matcher = new RouteMatcher(routes);
    expect(matcher.match('GET', '/rest/product/get')?.route.handler).toBe('product/getProducts');
    expect(matcher.match('GET', '/rest/product_accessible')?.route.handler).toBe('product/accessibleProducts');
    expect(matcher.match('PUT', '/rest/component/TestProduct/TestComponent')?.pathParameters).toEqual({
      id_or_product: 'TestProduct',
      component: 'TestComponent',
    });
    expect(matcher.match('GET', '/rest/field/bug/bug_status/values')?.route.handler).toBe('field/legalValues');
  });
});
