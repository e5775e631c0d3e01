import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { errors } from '../../shared/errors.ts';
import { INTERNAL_ERROR } from '../../shared/trackerError.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The error codes each handler module can answer, read from its code rather than written down:
 * every error goes through a constructor of shared/errors.ts (`errors.bugNotFound(…)`), so the
 * constructors named in the module's bundle, as esbuild tree-shakes it (the handler, the
 * middleware chain and whatever application and domain code they reach), are the errors it can
 * raise. It over-counts a little (a rule reached by one route of a shared module counts for all
 * its routes), never under-counts, and stays true as the code changes. INTERNAL_ERROR (-32000),
 * which the error envelope answers for any unexpected failure, is every route's.
 */
export async function errorCodesByModule(modules: readonly string[]): Promise<Map<string, number[]>> {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(modules.map((module) => [module, `functions/${module}.ts`])),
    outdir: 'openapi-error-scan',
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
  });
  const codeOf = constructorCodes();
  const codes = new Map<string, number[]>();
  for (const module of modules) {
    const output = result.outputFiles.find((file) => file.path === join(ROOT, 'openapi-error-scan', `${module}.js`));
    if (!output) throw new Error(`esbuild produced no bundle for functions/${module}.ts`);
    const named = [...output.text.matchAll(/\berrors\d*\.(\w+)/g)].map((match) => codeOf.get(match[1]));
    const found = new Set([INTERNAL_ERROR, ...named.filter((code): code is number => code !== undefined)]);
    codes.set(
      module,
      [...found].sort((a, b) => a - b),
    );
  }
  return codes;
}

/**
 * Each constructor of the registry and the code it gives, found by calling it: a constructor
 * only builds a message from its arguments, so placeholders do.
 */
export function constructorCodes(): Map<string, number> {
  const placeholders = ['x', 'x', 'x', 'x'];
  return new Map(
    Object.entries(errors).map(([name, make]) => [
      name,
      (make as (...args: string[]) => { code: number })(...placeholders).code,
    ]),
  );
}
