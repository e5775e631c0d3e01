/**
 * Builds the web app into web/dist/: index.html, one JS bundle and one CSS file with hashed names,
 * no inline script or style (the page runs under `script-src 'self'`).
 *
 *   npm run build:web            writes web/dist/
 *   tsx web/build.ts <outdir>    writes elsewhere (the size test)
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const webDir = dirname(fileURLToPath(import.meta.url));

export interface WebBuild {
  outdir: string;
  /** File names (relative to outdir) of the bundle and the stylesheet. */
  script: string;
  stylesheet: string;
  /**
   * Every script the first page loads: the entry and the chunks it imports statically. Chunks
   * only imported dynamically (the administration pages) load when first used.
   */
  firstPageScripts: string[];
}

/**
 * The page: the stylesheet, the entry script, and a modulepreload of each chunk the entry imports
 * statically, so that the browser fetches (or takes from its cache) and compiles them beside the
 * entry instead of discovering them only once the entry is parsed.
 */
export function indexHtml(script: string, stylesheet: string, chunks: readonly string[] = []): string {
  const preloads = chunks.map((chunk) => `<link rel="modulepreload" href="/${chunk}">\n`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Tracker</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/${stylesheet}">
${preloads}<script type="module" src="/${script}"></script>
</head>
<body>
<div id="app"><noscript>Tracker's web pages need JavaScript. The REST API is at /rest.</noscript></div>
</body>
</html>
`;
}

export async function buildWeb(outdir = join(webDir, 'dist')): Promise<WebBuild> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await esbuild.build({
    entryPoints: { app: join(webDir, 'src/main.tsx') },
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    // Code behind a dynamic import() (web/src/admin/) becomes chunks fetched on demand.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
    assetNames: '[name]-[hash]',
    legalComments: 'none',
    sourcemap: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const files = readdirSync(outdir);
  const script = files.find((f) => /^app-.*\.js$/.test(f));
  const stylesheet = files.find((f) => /^app-.*\.css$/.test(f));
  if (!script || !stylesheet) throw new Error(`web build made ${files.join(', ')}: expected app-*.js and app-*.css`);
  const firstPageScripts = staticClosure(result.metafile, script);
  writeFileSync(
    join(outdir, 'index.html'),
    indexHtml(
      script,
      stylesheet,
      firstPageScripts.filter((name) => name !== script),
    ),
  );
  return { outdir, script: basename(script), stylesheet: basename(stylesheet), firstPageScripts };
}

/** The entry script and the chunks it imports statically, transitively (names relative to outdir). */
function staticClosure(metafile: esbuild.Metafile, entry: string): string[] {
  const outputs = Object.entries(metafile.outputs);
  const byName = new Map(outputs.map(([path, output]) => [basename(path), output]));
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const imported of byName.get(name)?.imports ?? []) {
      if (imported.kind === 'import-statement') visit(basename(imported.path));
    }
  };
  visit(entry);
  return [...seen];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2] ? resolve(process.argv[2]) : undefined;
  buildWeb(outdir).then(
    (b) => console.log(`web app built in ${b.outdir}: index.html, ${b.script}, ${b.stylesheet}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
