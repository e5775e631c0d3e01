import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * A logged stack trace with the deployed bundle's positions turned into TypeScript files and
 * lines, read from the source map shipped beside the bundle only when an unexpected error is
 * logged. `--enable-source-maps` would do the same for every trace, but it reads and indexes the
 * whole map at every cold start (about 20 ms of a ~100 ms module load, measured here), for traces
 * that are rare; Node's own SourceMap class does the lookup. Without a map beside the file (local
 * runs from TypeScript source) or with Node's source maps on, the stack is left as it is.
 */
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    try {
      const path = file.startsWith('file://') ? fileURLToPath(file) : file;
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return maps.get(file)!;
}

/** `../../functions/bug/getBug.ts` as the map names it becomes `functions/bug/getBug.ts`. */
const sourceName = (source: string) =>
  source.replace(/^(?:file:\/\/)?(?:\.\.\/)+/, '').replace(/^.*?\/(?=(?:functions|shared|node_modules)\/)/, '');

const FRAME_POSITION = /((?:file:\/\/)?\/[^\s()]+\.m?js):(\d+):(\d+)/g;

export function sourceMappedStack(stack: string | undefined): string | undefined {
  return !stack || process.sourceMapsEnabled ? stack : mapStackPositions(stack);
}

/** Every `file.mjs:line:column` with a map beside the file, as its source position. */
export function mapStackPositions(stack: string): string {
  return stack.replace(FRAME_POSITION, (position: string, file: string, line: string, column: string) => {
    const map = mapOf(file);
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1) as
      | { originalSource?: string; originalLine?: number; originalColumn?: number }
      | undefined;
    if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined)
      return position;
    return `${sourceName(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
