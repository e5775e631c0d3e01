import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { mapStackPositions, sourceMappedStack } from '../../shared/http/sourceMappedStack.ts';

describe('stack traces of deployed bundles', () => {
  it('names the TypeScript file and line of each bundle frame, from the map beside the bundle', async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'stack-'));
    const source = join(dir, 'shared', 'thrower.ts');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'shared'));
    writeFileSync(
      source,
      [
        'export function thrower(): never {',
        '  const answer: number = 42;',
        '  throw new Error(`boom $' + '{answer}`);',
        '}',
        '',
      ].join('\n'),
    );
    const bundle = join(dir, 'out', 'index.mjs');
    await esbuild.build({
      entryPoints: [source],
      bundle: true,
      minify: true,
      format: 'esm',
      sourcemap: true,
      sourcesContent: false,
      outfile: bundle,
      logLevel: 'silent',
    });
    // A stack as Node prints it without source maps (the test runner maps stacks itself).
    const code = (await import('node:fs')).readFileSync(bundle, 'utf8');
    const stack = `Error: boom 42\n    at e (${bundle}:1:${code.indexOf('throw') + 1})\n    at node:internal/modules/esm/module_job:271:25`;
    const mapped = mapStackPositions(stack);
    expect(mapped).toMatch(/shared\/thrower\.ts:3:\d+/);
    expect(mapped).not.toMatch(/index\.mjs:1:\d+/);
    expect(mapped.split('\n')[0]).toBe('Error: boom 42');
    expect(mapped.split('\n')[2]).toBe('    at node:internal/modules/esm/module_job:271:25');
  });

  it('leaves frames without a map beside their file as they are', () => {
    const stack =
      'Error: x\n    at run (/nowhere/at/all/index.mjs:1:200)\n    at node:internal/process/task_queues:95:5';
    expect(mapStackPositions(stack)).toBe(stack);
    expect(sourceMappedStack(undefined)).toBeUndefined();
  });
});
