import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers only import downward: handlers → application → domain and storage; domain knows no
 * AWS and nothing above it; only storage builds keys; the search engine's rooms (index, snapshot,
 * query, evaluation, page) import only the rooms below them; and no files import one another in a
 * circle. A move that breaks this fails here, not in review.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** Every module a file imports: repository paths for relative imports, package names otherwise. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
  const dynamic = [...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
  return [...specifiers, ...dynamic].map((specifier) =>
    specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : specifier,
  );
}

const violations = (files: string[], forbidden: (target: string) => boolean) =>
  files.flatMap((file) =>
    importsOf(file)
      .filter(forbidden)
      .map((target) => `${file} → ${target}`),
  );

describe('layers', () => {
  it('domain imports only domain, the error registry and plain libraries (no AWS)', () => {
    const allowed = (target: string) =>
      target.startsWith('shared/domain/') ||
      target === 'shared/errors.ts' ||
      target === 'shared/trackerError.ts' ||
      !(target.startsWith('shared/') || target.startsWith('functions/') || target.startsWith('lib/'));
    const aws = (target: string) => target.startsWith('@aws-sdk/') || target.startsWith('aws-cdk-lib');
    expect(violations(sourcesUnder('shared/domain'), (target) => !allowed(target) || aws(target))).toEqual([]);
  });

  it('application never imports handlers or the HTTP layer', () => {
    const above = (target: string) => target.startsWith('functions/') || target.startsWith('shared/http/');
    expect(violations(sourcesUnder('shared/application'), above)).toEqual([]);
  });

  it('storage never imports application, handlers or the HTTP layer', () => {
    const above = (target: string) =>
      target.startsWith('shared/application/') || target.startsWith('functions/') || target.startsWith('shared/http/');
    expect(violations(sourcesUnder('shared/storage'), above)).toEqual([]);
  });

  it('only storage knows the table keys', () => {
    const keys = (target: string) => target === 'shared/storage/keys.ts' || target === 'shared/storage/tableSchema.ts';
    const outside = ['shared/domain', 'shared/application', 'shared/http', 'functions'].flatMap(sourcesUnder);
    expect(violations(outside, keys)).toEqual([]);
  });

  it('shared code never imports handlers or local tools (the RPC dispatcher is handed the handlers by functions/rpc/)', () => {
    const outside = (target: string) => target.startsWith('functions/') || target.startsWith('local/');
    expect(violations(sourcesUnder('shared'), outside)).toEqual([]);
    expect(importsOf('functions/rpc/restHandlers.ts')).toContain('functions/bug/getBug.ts');
  });

  it('handlers reach storage only through application code', () => {
    expect(violations(sourcesUnder('functions'), (target) => target.startsWith('shared/storage/'))).toEqual([]);
  });

  it('the request scope is runtime, below observability, which is below storage: nothing runs back up', () => {
    const shared = (target: string) => target.startsWith('shared/');
    expect(violations(sourcesUnder('shared/runtime'), shared)).toEqual([]);
    expect(
      violations(
        sourcesUnder('shared/observability'),
        (target) =>
          shared(target) && !target.startsWith('shared/runtime/') && !target.startsWith('shared/observability/'),
      ),
    ).toEqual([]);
    expect(importsOf('shared/storage/itemReads.ts')).toContain('shared/runtime/requestScope.ts');
  });

  it('the stack (lib/) never imports a use case: the settings it shares with the functions are domain', () => {
    expect(violations(sourcesUnder('lib'), (target) => target.startsWith('shared/application/'))).toEqual([]);
    expect(importsOf('lib/notifications.ts')).toContain('shared/domain/notification/notificationSettings.ts');
  });

  it('search rooms import only the rooms below them: index, snapshot over it; query, evaluation, page', () => {
    // What each room of shared/domain/search may import of the others (its own files aside).
    const below: Record<string, string[]> = {
      index: [],
      snapshot: ['index'],
      query: ['index'],
      evaluation: ['index', 'query'],
      page: ['index', 'query', 'evaluation'],
    };
    const SEARCH = 'shared/domain/search/';
    const roomOf = (file: string) => (file.startsWith(SEARCH) ? file.slice(SEARCH.length).split('/')[0] : undefined);
    const files = sourcesUnder('shared/domain/search');
    expect(files.filter((file) => !(roomOf(file)! in below))).toEqual([]);
    const upward = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => {
          const room = roomOf(target);
          return room !== undefined && room !== roomOf(file) && !below[roomOf(file)!]!.includes(room);
        })
        .map((target) => `${file} → ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('has no circle of imports between files, type imports included', () => {
    const files = ['shared', 'functions', 'bench', 'local', 'lib', 'web/src'].flatMap(sourcesUnder);
    const known = new Set(files);
    const edges = new Map(files.map((file) => [file, importsOf(file).filter((target) => known.has(target))]));
    // Tarjan's strongly connected components: any of more than one file is a circle.
    const order = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (file: string) => {
      order.set(file, order.size);
      low.set(file, order.get(file)!);
      stack.push(file);
      onStack.add(file);
      for (const target of edges.get(file)!) {
        if (!order.has(target)) {
          visit(target);
          low.set(file, Math.min(low.get(file)!, low.get(target)!));
        } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!));
      }
      if (low.get(file) !== order.get(file)) return;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) circles.push(component.sort());
    };
    for (const file of files) if (!order.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it('finds the imports it checks', () => {
    expect(importsOf('shared/application/bug/bugWriting.ts')).toContain('shared/storage/bug/bugStore.ts');
    expect(importsOf('functions/bug/getBug.ts')).toContain('zod');
  });
});
