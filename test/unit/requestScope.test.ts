import { describe, expect, it } from 'vitest';
import { forgetRequestReads, inRequestScope, oncePerRequest } from '../../shared/runtime/requestScope.ts';

const counter = () => {
  let calls = 0;
  return { load: async () => ++calls, calls: () => calls };
};

describe('request-scoped reads', () => {
  it('reads once per request and afresh in the next request', async () => {
    const source = counter();
    await inRequestScope(async () => {
      expect(await oncePerRequest('parameters', source.load)).toBe(1);
      expect(await oncePerRequest('parameters', source.load)).toBe(1);
    });
    await inRequestScope(async () => {
      expect(await oncePerRequest('parameters', source.load)).toBe(2);
    });
  });

  it('shares one pending read between concurrent callers', async () => {
    const source = counter();
    await inRequestScope(async () => {
      await Promise.all([oncePerRequest('groups', source.load), oncePerRequest('groups', source.load)]);
    });
    expect(source.calls()).toBe(1);
  });

  it('reads again after a write in the same request', async () => {
    const source = counter();
    await inRequestScope(async () => {
      await oncePerRequest('groups', source.load);
      forgetRequestReads();
      expect(await oncePerRequest('groups', source.load)).toBe(2);
    });
  });

  it('does not remember a failed read', async () => {
    let attempt = 0;
    const flaky = async () => {
      attempt++;
      if (attempt === 1) throw new Error('throttled');
      return attempt;
    };
    await inRequestScope(async () => {
      await expect(oncePerRequest('parameters', flaky)).rejects.toThrow('throttled');
      expect(await oncePerRequest('parameters', flaky)).toBe(2);
    });
  });

  it('never memoizes outside a request', async () => {
    const source = counter();
    await oncePerRequest('parameters', source.load);
    await oncePerRequest('parameters', source.load);
    expect(source.calls()).toBe(2);
  });
});
