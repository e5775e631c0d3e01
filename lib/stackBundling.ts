/**
 * The esbuild options the CDK stack's NodejsFunction uses for every handler (BUNDLING in
 * trackerFunction.ts, translated as aws-cdk-lib's bundler translates them into esbuild
 * arguments), for code that bundles handlers itself: the cold-start benchmark and the bundle
 * size test. One translation, so both measure what ships.
 */
import { join, relative, resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';

export interface StackBundling {
  entryFor: (module: string) => string;
  options: (entry: string, outDir: string) => BuildOptions;
  /**
   * The same options for many handlers in one esbuild run (each still its own bundle, written to
   * `<outDir>/<directoryFor(module)>/<outFile>`): esbuild parses the shared code once, which
   * makes bundling every function several times faster than one build per function.
   */
  optionsForMany: (modules: readonly string[], outDir: string) => BuildOptions;
  directoryFor: (module: string) => string;
  outFile: string;
  describe: string;
  unreplicated: string[];
  runtime: string;
  memoryMb: number;
}

/** Keys of NodejsFunction's BundlingOptions translated below; anything else is reported. */
const TRANSLATED = new Set([
  'minify',
  'sourceMap',
  'sourceMapMode',
  'sourcesContent',
  'format',
  'target',
  'banner',
  'footer',
  'mainFields',
  'externalModules',
  'define',
  'loader',
  'keepNames',
  'tsconfig',
  'logLevel',
  'metafile',
  'esbuildArgs',
]);

/**
 * BUNDLING from lib/trackerFunction.ts as esbuild options, following aws-cdk-lib's
 * aws-lambda-nodejs bundler: `esbuild --bundle <entry> --target=… --platform=node --format=…
 * --outfile=<out>/index.mjs --minify --sourcemap --external:… --banner:js=… --main-fields=…`,
 * run from the project root. Imported lazily: it loads aws-cdk-lib.
 */
export async function stackBundling(root: string): Promise<StackBundling> {
  const stack = await import('./trackerFunction.ts');
  const bundling = stack.bundlingFor(root);
  const runtime = stack.FUNCTION_RUNTIME.name;
  const format = String(bundling.format ?? 'cjs') === 'esm' ? 'esm' : 'cjs';
  const outFile = format === 'esm' ? 'index.mjs' : 'index.js';
  const target = bundling.target ?? `node${/nodejs(\d+)/.exec(runtime)?.[1] ?? '22'}`;
  // CDK's default for Node.js 18+ runtimes: the runtime's AWS SDK v3 stays external.
  const external = bundling.externalModules ?? ['@aws-sdk/*'];
  const sourcemapMode = String(bundling.sourceMapMode ?? 'default');
  const sourcemap: BuildOptions['sourcemap'] = !bundling.sourceMap
    ? false
    : sourcemapMode === 'default'
      ? true
      : (sourcemapMode as 'inline' | 'external' | 'both');
  // esbuild arguments the stack passes through: only `--alias` (module=path) entries are used.
  const extraArgs = Object.entries(bundling.esbuildArgs ?? {});
  const alias = Object.fromEntries(
    extraArgs
      .filter(([key]) => key === '--alias')
      .flatMap(([, value]) =>
        (Array.isArray(value) ? value : [String(value)]).map(
          (entry) => entry.split(/=(.*)/s).slice(0, 2) as [string, string],
        ),
      ),
  );
  const unreplicatedArgs = extraArgs.filter(([key]) => key !== '--alias').map(([key]) => `esbuildArgs ${key}`);
  const unreplicated = [
    ...unreplicatedArgs,
    ...Object.keys(bundling).filter(
      (key) => !TRANSLATED.has(key) && (bundling as Record<string, unknown>)[key] !== undefined,
    ),
  ];
  const describe = [
    format.toUpperCase(),
    bundling.minify ? 'minified' : 'not minified',
    sourcemap === true ? 'linked source map' : sourcemap ? `source map ${sourcemap}` : 'no source map',
    `target ${target}`,
    `main fields ${(bundling.mainFields ?? ['(esbuild default)']).join(',')}`,
    bundling.banner ? (bundling.banner.includes('createRequire') ? 'the createRequire banner' : 'a banner') : undefined,
    external.length === 0 ? 'everything bundled (AWS SDK included)' : `external ${external.join(', ')}`,
    Object.keys(alias).length > 0
      ? `${Object.keys(alias).join(', ')} replaced (${Object.values(alias)
          .map((file) => relative(root, file))
          .join(', ')})`
      : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const directoryFor = (module: string) => module.replace(/\//g, '-');
  const single = (entry: string, outDir: string): BuildOptions => ({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format,
    target,
    outfile: join(outDir, outFile),
    minify: bundling.minify ?? false,
    sourcemap,
    sourcesContent: bundling.sourcesContent ?? true,
    external,
    alias: Object.keys(alias).length > 0 ? alias : undefined,
    banner: bundling.banner ? { js: bundling.banner } : undefined,
    footer: bundling.footer ? { js: bundling.footer } : undefined,
    mainFields: bundling.mainFields,
    define: bundling.define,
    loader: bundling.loader as BuildOptions['loader'],
    keepNames: bundling.keepNames,
    tsconfig: bundling.tsconfig ? resolve(root, bundling.tsconfig) : undefined,
    absWorkingDir: root,
    logLevel: 'silent',
    write: true,
  });
  return {
    directoryFor,
    optionsForMany: (modules, outDir) => {
      const { outfile: _outfile, entryPoints: _entryPoints, ...shared } = single('', outDir);
      const stem = outFile.replace(/\.m?js$/, '');
      return {
        ...shared,
        entryPoints: Object.fromEntries(
          modules.map((module) => [`${directoryFor(module)}/${stem}`, stack.entryFor(root, module)]),
        ),
        outdir: outDir,
        outExtension: { '.js': outFile.endsWith('.mjs') ? '.mjs' : '.js' },
      };
    },
    entryFor: (module) => stack.entryFor(root, module),
    outFile,
    describe,
    unreplicated,
    runtime,
    memoryMb: stack.FUNCTION_MEMORY_MB,
    options: single,
  };
}
