/**
 * The memory of the functions that hold the search index, sized for `expectedBugs`
 * (lib/searchSizing.ts, lib/stackSettings.ts): the rule itself, the setting, and what the
 * synthesized template gets.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BASE_PROCESS_MEMORY_MB,
  COMPACTOR_BYTES_PER_BUG,
  compactorMemoryForBugs,
  MAX_LAMBDA_MEMORY_MB,
  MEMORY_STEP_MB,
  MIN_SEARCH_MEMORY_MB,
  memoryMbForBugs,
  SEARCH_BYTES_PER_BUG,
  SearchTooLargeError,
  searchMemoryForBugs,
} from '../../lib/searchSizing.ts';
import {
  DEFAULT_EXPECTED_BUGS,
  DEFAULT_FUNCTION_SIZING,
  kilobytes,
  MAX_EXPECTED_BUGS,
  readStackSettings,
  SETTINGS,
} from '../../lib/stackSettings.ts';
import { PROJECT_ROOT, SEARCH_INDEX_MODULES } from '../../lib/trackerStack.ts';
import { logicalIdOf, removeStubRoots, SYNTH_TIMEOUT, type Synthesized, synthStack } from './support/stackSynth.ts';

afterAll(removeStubRoots);

const MiB = 1024 * 1024;
const settingsFrom = (context: Record<string, unknown>) => readStackSettings(new App({ context }));

describe('the sizing rule', () => {
  it('is the base process memory plus the bugs, rounded up to 64 MB, at least 1536 MB', () => {
    expect(BASE_PROCESS_MEMORY_MB).toBe(256);
    expect(MEMORY_STEP_MB).toBe(64);
    expect(MIN_SEARCH_MEMORY_MB).toBe(1536);
    expect(MAX_LAMBDA_MEMORY_MB).toBe(10_240);
    for (const bugs of [1_000, 100_000, 1_000_000, 2_500_000, MAX_EXPECTED_BUGS]) {
      for (const [memory, bytesPerBug] of [
        [searchMemoryForBugs(bugs), SEARCH_BYTES_PER_BUG],
        [compactorMemoryForBugs(bugs), COMPACTOR_BYTES_PER_BUG],
      ]) {
        const exact = BASE_PROCESS_MEMORY_MB + (bugs * bytesPerBug) / MiB;
        expect(memory % MEMORY_STEP_MB, `${bugs}`).toBe(0);
        expect(memory).toBeGreaterThanOrEqual(Math.max(exact, MIN_SEARCH_MEMORY_MB));
        expect(memory).toBeLessThan(Math.max(exact + MEMORY_STEP_MB, MIN_SEARCH_MEMORY_MB + 1));
      }
    }
  });

  it("keeps today's 1536 MB for the default 100,000 bugs and grows with the installation", () => {
    expect(searchMemoryForBugs(DEFAULT_EXPECTED_BUGS)).toBe(1536);
    expect(compactorMemoryForBugs(DEFAULT_EXPECTED_BUGS)).toBe(1536);
    // 256 MB + 1,000,000 × 2,000 B (1907.3 MiB) = 2163.3 → 2176; × 1,400 B (1335.1 MiB) = 1591.1 → 1600.
    expect(searchMemoryForBugs(1_000_000)).toBe(2176);
    expect(compactorMemoryForBugs(1_000_000)).toBe(1600);
    expect(searchMemoryForBugs(2_000_000)).toBeGreaterThan(searchMemoryForBugs(1_000_000));
  });

  it('refuses an installation whose index does not fit Lambda, saying where to go instead', () => {
    // The most that fits at a given figure per bug, and one bug more.
    const fits = Math.floor(((MAX_LAMBDA_MEMORY_MB - BASE_PROCESS_MEMORY_MB) * MiB) / SEARCH_BYTES_PER_BUG);
    expect(searchMemoryForBugs(fits)).toBe(MAX_LAMBDA_MEMORY_MB);
    expect(() => searchMemoryForBugs(fits + 1)).toThrow(SearchTooLargeError);
    expect(() => memoryMbForBugs(1_000_000, 20_000)).toThrow(
      /too large for in-memory search in one function.*docs\/data-model\.md/,
    );
  });
});

describe('the expectedBugs setting', () => {
  afterEach(() => {
    vi.doUnmock('../../lib/searchSizing.ts');
    vi.resetModules();
  });

  it('defaults to 100,000 bugs, and sizes the search functions and the compactor, not the others', () => {
    expect(settingsFrom({}).expectedBugs).toBe(100_000);
    expect(settingsFrom({}).functions).toEqual(DEFAULT_FUNCTION_SIZING);
    const large = settingsFrom({ expectedBugs: '1000000' });
    expect(large.expectedBugs).toBe(1_000_000);
    expect(large.functions).toEqual({
      ...DEFAULT_FUNCTION_SIZING,
      search: { ...DEFAULT_FUNCTION_SIZING.search, memoryMb: 2176 },
      compactor: { ...DEFAULT_FUNCTION_SIZING.compactor, memoryMb: 1600 },
    });
    // cdk.json may give a number.
    expect(settingsFrom({ expectedBugs: 1_000_000 })).toEqual(large);
  });

  it('gives way to an explicit searchMemoryMb or compactorMemoryMb', () => {
    const functions = settingsFrom({ expectedBugs: '1000000', searchMemoryMb: '3008' }).functions;
    expect(functions.search.memoryMb).toBe(3008);
    expect(functions.compactor.memoryMb).toBe(1600);
    expect(settingsFrom({ expectedBugs: '5000000', compactorMemoryMb: 1024 }).functions.compactor.memoryMb).toBe(1024);
  });

  it('refuses what is no installation size, as the other settings do', () => {
    const expected = /^Context "expectedBugs" must be an integer from 1000 to 5000000, not '.*'$/;
    for (const value of ['0', 0, 'lots', '100000.5', '999', '5000001', 50_000_000])
      expect(() => settingsFrom({ expectedBugs: value }), String(value)).toThrow(expected);
    // Even when both memories are given: a wrong value is never silently ignored.
    expect(() => settingsFrom({ expectedBugs: 'lots', searchMemoryMb: '3008', compactorMemoryMb: '3008' })).toThrow(
      /expectedBugs/,
    );
  });

  it('stops synth when the index would not fit Lambda, unless the memory is set explicitly', async () => {
    // With today's figures every allowed size fits; a larger figure per bug (as a benchmark may
    // measure) makes the largest installations too large for the compactor.
    vi.doMock('../../lib/searchSizing.ts', async (importOriginal) => {
      const original = await importOriginal<typeof import('../../lib/searchSizing.ts')>();
      return { ...original, compactorMemoryForBugs: (bugs: number) => original.memoryMbForBugs(bugs, 4_000) };
    });
    vi.resetModules();
    const settings = await import('../../lib/stackSettings.ts');
    const read = (context: Record<string, unknown>) => settings.readStackSettings(new App({ context }));
    expect(() => read({ expectedBugs: '5000000' })).toThrow(
      /^Context "expectedBugs": the search compactor: 5000000 bugs need about \d+ MB, more than Lambda's 10240 MB: the installation is too large for in-memory search in one function \(docs\/data-model\.md .*\); or set "compactorMemoryMb" yourself$/,
    );
    expect(read({ expectedBugs: '5000000', compactorMemoryMb: '10240' }).functions.compactor.memoryMb).toBe(10_240);
    expect(read({ expectedBugs: '1000000' }).functions.compactor.memoryMb).toBe(memoryMbForBugs(1_000_000, 4_000));
  });

  it("is documented with the rule's current figures in docs/operations.md and README.md", () => {
    const rowOf = (file: string) => {
      const doc = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
      return doc.split('\n').find((line) => line.startsWith('| `expectedBugs`')) ?? '';
    };
    const setting = SETTINGS.find((candidate) => candidate.key === 'expectedBugs')!;
    const [, , , meaning] = rowOf('docs/operations.md').split('|');
    expect(meaning?.trim().replaceAll('`', '')).toBe(setting.meaning);
    expect(setting.meaning).toContain(`about ${kilobytes(SEARCH_BYTES_PER_BUG)} KB per bug on top of 256 MB`);
    expect(rowOf('README.md')).toContain(`about ${kilobytes(SEARCH_BYTES_PER_BUG)} KB per bug on top of 256 MB`);
  });
});

describe('in the synthesized template', () => {
  const memoryOf = ({ stack, json }: Synthesized) => {
    const size = (fn: { node: { defaultChild?: unknown } }) =>
      json.Resources[logicalIdOf(stack, fn)].Properties.MemorySize;
    return {
      search: SEARCH_INDEX_MODULES.map((module) => size(stack.functions.get(module)!)),
      compactor: size(stack.searchCompactor),
      api: size(stack.functions.get('bug/getBug')!),
    };
  };

  let byDefault: Synthesized;
  let million: Synthesized;
  let explicit: Synthesized;
  beforeAll(() => {
    byDefault = synthStack();
    million = synthStack({ context: { expectedBugs: '1000000' } });
    explicit = synthStack({ context: { expectedBugs: '1000000', searchMemoryMb: '3008' } });
  }, 3 * SYNTH_TIMEOUT);

  it('keeps 1536 MB for the search functions and the compactor by default', () => {
    expect(memoryOf(byDefault)).toEqual({ search: SEARCH_INDEX_MODULES.map(() => 1536), compactor: 1536, api: 512 });
    byDefault.template.resourcePropertiesCountIs(
      'AWS::Lambda::Function',
      { MemorySize: 1536 },
      SEARCH_INDEX_MODULES.length + 1,
    );
  });

  it('gives the search functions and the compactor the computed memory for 1,000,000 bugs', () => {
    expect(memoryOf(million)).toEqual({ search: SEARCH_INDEX_MODULES.map(() => 2176), compactor: 1600, api: 512 });
    million.template.resourcePropertiesCountIs(
      'AWS::Lambda::Function',
      { MemorySize: 2176 },
      SEARCH_INDEX_MODULES.length,
    );
    million.template.resourcePropertiesCountIs('AWS::Lambda::Function', { MemorySize: 1600 }, 1);
    million.template.resourcePropertiesCountIs('AWS::Lambda::Function', { MemorySize: 1536 }, 0);
    million.template.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: 1600,
      Handler: 'index.handler',
      Timeout: DEFAULT_FUNCTION_SIZING.compactor.timeoutSeconds,
    });
  });

  it('lets an explicit searchMemoryMb win over expectedBugs', () => {
    expect(memoryOf(explicit)).toEqual({ search: SEARCH_INDEX_MODULES.map(() => 3008), compactor: 1600, api: 512 });
    explicit.template.resourcePropertiesCountIs('AWS::Lambda::Function', { MemorySize: Match.exact(2176) }, 0);
  });
});
