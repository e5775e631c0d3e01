import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StackBundling, stackBundling } from '../../lib/stackBundling.ts';

/**
 * Which parts of Powertools the deployed bundles carry: Logger and Metrics in every one, the
 * Tracer and its X-Ray SDK only in a stack built with tracing on (shared/observability/tracing.ts).
 * Two handlers are bundled as the stack bundles them, an API route and the scheduled compactor.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MODULES = ['instance/version', 'search/compactSearchIndex'];

let stack: StackBundling;
let outDir: string;

beforeAll(async () => {
  stack = await stackBundling(ROOT);
  outDir = mkdtempSync(join(os.tmpdir(), 'tracker-observability-bundles-'));
}, 120_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

/** The sources of each module's bundle, built with `define` on top of the stack's. */
async function bundledSources(directory: string, define?: Record<string, string>): Promise<Map<string, string[]>> {
  const options = stack.optionsForMany(MODULES, join(outDir, directory));
  const result = await esbuild.build({ ...options, define: { ...options.define, ...define } });
  expect(result.errors).toEqual([]);
  return new Map(
    MODULES.map((module) => {
      const file = join(outDir, directory, stack.directoryFor(module), `${stack.outFile}.map`);
      return [module, (JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] }).sources];
    }),
  );
}

const fromPackage = (sources: string[], name: string) =>
  sources.some((source) => source.includes(`node_modules/${name}/`));

describe('Powertools in the deployed bundles', () => {
  it('carries Logger and Metrics, and neither the Tracer nor the X-Ray SDK, by default', async () => {
    for (const [module, sources] of await bundledSources('default')) {
      expect(fromPackage(sources, '@aws-lambda-powertools/logger'), module).toBe(true);
      expect(fromPackage(sources, '@aws-lambda-powertools/metrics'), module).toBe(true);
      expect(fromPackage(sources, '@aws-lambda-powertools/tracer'), module).toBe(false);
      expect(fromPackage(sources, 'aws-xray-sdk-core'), module).toBe(false);
    }
  }, 300_000);

  it('carries the Tracer and the X-Ray SDK when built with TRACKER_TRACING on', async () => {
    for (const [module, sources] of await bundledSources('tracing', {
      'process.env.TRACKER_TRACING': JSON.stringify('on'),
    })) {
      expect(fromPackage(sources, '@aws-lambda-powertools/tracer'), module).toBe(true);
      expect(fromPackage(sources, 'aws-xray-sdk-core'), module).toBe(true);
    }
  }, 300_000);
});
