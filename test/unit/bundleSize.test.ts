import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planHandlers } from '../../lib/handlerPlan.ts';
import { stackBundling, type StackBundling } from '../../lib/stackBundling.ts';
import { routes } from '../../shared/routes.ts';

/**
 * Every handler bundled exactly as the stack bundles it (lib/stackBundling.ts translates the
 * stack's BUNDLING into esbuild options), checked against a size budget. Size is what this test
 * can hold deterministically; load time, which size drives, is measured by `npm run bench`.
 *
 * Budget, from measurement (esbuild 0.25, 2026-11-23): after `import * as z from 'zod'` and the
 * lazily imported stores of storeless handlers, the largest bundle was 483 KiB (platform/options)
 * and most were 425–470 KiB; before, every bundle was 815–835 KiB, two thirds of the growth being
 * zod's locale files. The budget leaves ~17 KiB of headroom: a new dependency or an import that
 * pulls a whole namespace back in fails here, not in the next cold-start measurement.
 *
 * Raised to 700 KiB when linear-time regular expressions arrived (issue 7): re2js is 147 KiB
 * minified and every authenticating handler matches group user_regexps with it, so bundles grew
 * to 590–650 KiB. Moving regexp membership out of the request path (grants materialised when a
 * login or a group's regexp changes) would take it out of every bundle but the admin ones.
 */
const BUNDLE_BUDGET_BYTES = 700 * 1024;

/**
 * Functions that carry a deliberate dependency on top of the common chain, each with its own
 * budget, measured (2026-11-23, with re2js) plus ~30 KiB of headroom: the functions that move
 * attachment bodies bundle the S3 client and presigner (~125 KiB with their share of @smithy,
 * 747–771 KiB in all); the render function bundles markdown-it with its HTML entity tables and
 * the js-xss sanitizer (~150 KiB, 776 KiB in all). Every other function stays within the budget.
 */
const BUDGET_EXCEPTIONS: Readonly<Record<string, number>> = {
  'attachment/createAttachment': 800 * 1024,
  'attachment/getAttachments': 800 * 1024,
  'attachment/downloadAttachment': 800 * 1024,
  'comment/renderComment': 810 * 1024,
};
const budgetOf = (module: string) => BUDGET_EXCEPTIONS[module] ?? BUNDLE_BUDGET_BYTES;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modules = planHandlers(routes).map((plan) => plan.module);

let stack: StackBundling;
let outDir: string;
const built = new Map<string, { code: number; map: { sources: string[]; sourcesContent?: unknown } }>();

beforeAll(async () => {
  stack = await stackBundling(ROOT);
  outDir = mkdtempSync(join(os.tmpdir(), 'tracker-bundles-'));
  const result = await esbuild.build(stack.optionsForMany(modules, outDir));
  expect(result.errors).toEqual([]);
  for (const module of modules) {
    const file = join(outDir, stack.directoryFor(module), stack.outFile);
    built.set(module, { code: statSync(file).size, map: JSON.parse(readFileSync(`${file}.map`, 'utf8')) });
  }
}, 300_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('handler bundles, as the stack builds them', () => {
  it('bundles every handler module of the stack', () => {
    expect(modules.length).toBeGreaterThan(40);
    expect([...built.keys()].sort()).toEqual([...modules].sort());
  });

  it(`keeps every bundle within ${BUNDLE_BUDGET_BYTES / 1024} KiB, or its own stated budget`, () => {
    const over = [...built].filter(([module, bundle]) => bundle.code > budgetOf(module)).map(([module, bundle]) => `${module}: ${(bundle.code / 1024).toFixed(1)} KiB`);
    expect(over, 'bundles over budget (check for a namespace import or a new dependency)').toEqual([]);
  });

  it("carries the Lambda credential chain instead of the SDK's default one (profiles, SSO, STS)", () => {
    for (const [module, { map }] of built) {
      expect(map.sources.filter((source) => /credential-provider-(node|sso|ini|web-identity|process|login)|nested-clients/.test(source)), module).toEqual([]);
    }
    const withTable = [...built].filter(([, { map }]) => map.sources.some((source) => source.includes('@aws-sdk/client-dynamodb')));
    expect(withTable.length).toBeGreaterThan(40);
    for (const [module, { map }] of withTable) expect(map.sources.some((source) => source.endsWith('shared/storage/lambdaCredentials.ts')), module).toBe(true);
  });

  it('ships source maps that name the TypeScript sources without carrying their text', () => {
    for (const [module, { map }] of built) {
      expect(map.sourcesContent, module).toBeUndefined();
      expect(map.sources.some((source) => source.endsWith(`functions/${module}.ts`)), module).toBe(true);
    }
  });

  it('turns a stack trace from a deployed bundle into TypeScript files and lines', () => {
    // An unexpected error inside the chain is logged with its stack (errorEnvelope); run the 404
    // handler's bundle with the deployed NODE_OPTIONS and an event that throws when read.
    const bundle = join(outDir, 'platform-notFound', stack.outFile);
    const script = `
      const { handler } = await import(${JSON.stringify(bundle)});
      const event = { headers: {}, requestContext: { requestId: 'r1', http: { method: 'GET' } }, get rawPath() { throw new Error('unreadable path'); } };
      await handler(event, { awsRequestId: 'r1' });`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, NODE_OPTIONS: '--enable-source-maps' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const logged = [...`${run.stdout}\n${run.stderr}`.split('\n')].map((line) => {
      try {
        return JSON.parse(line) as { stack?: string };
      } catch {
        return {};
      }
    });
    const stackTrace = logged.find((entry) => entry.stack?.includes('unreadable path'))?.stack;
    expect(stackTrace, `${run.stdout}\n${run.stderr}`).toBeDefined();
    expect(stackTrace).toMatch(/(functions|shared)\/[\w/]+\.ts:\d+:\d+/);
    expect(stackTrace).not.toMatch(/index\.mjs:\d+/);
  });
});
