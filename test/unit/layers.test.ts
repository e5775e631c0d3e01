import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers only import downward: handlers → application → domain and storage; domain knows no
 * AWS and nothing above it; only storage builds keys. A move that breaks this fails here, not in
 * review.
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

  it('finds the imports it checks', () => {
    expect(importsOf('shared/application/bug/bugWriting.ts')).toContain('shared/storage/bug/bugStore.ts');
    expect(importsOf('functions/bug/getBug.ts')).toContain('zod');
  });
});
