import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { BugCopyCache } from '../../shared/domain/search/page/bugCopyCache.ts';

const copy = (id: number, rev: number, summary = `bug ${id} at ${rev}`) => ({
  bug: { id, summary } as unknown as Bug,
  rev,
});

describe('bug copies of a search instance', () => {
  it('serves a copy only when it is at least at the revision asked for', () => {
    const cache = new BugCopyCache(10);
    cache.offer(copy(1, 3));
    expect(cache.fresh(1, 3)?.rev).toBe(3);
    expect(cache.fresh(1, 2)?.rev).toBe(3);
    expect(cache.fresh(1, 4)).toBeUndefined();
    expect(cache.fresh(2, 1)).toBeUndefined();
  });

  it('never lets an older copy replace a newer one (a slow read landing after the change log)', () => {
    const cache = new BugCopyCache(10);
    cache.offer(copy(1, 5, 'new'));
    cache.offer(copy(1, 4, 'old'));
    cache.offer(copy(1, 5, 'same revision, read again'));
    expect(cache.fresh(1, 5)?.bug.summary).toBe('new');
    cache.offer(copy(1, 6, 'newer'));
    expect(cache.fresh(1, 6)?.bug.summary).toBe('newer');
  });

  it('stays within its capacity, dropping the copies kept longest ago', () => {
    const cache = new BugCopyCache(10);
    for (let id = 1; id <= 11; id++) cache.offer(copy(id, 1));
    expect(cache.size).toBeLessThanOrEqual(10);
    expect(cache.fresh(1, 1)).toBeUndefined();
    expect(cache.fresh(11, 1)).toBeDefined();
    // A newer revision counts as newly kept.
    cache.offer(copy(5, 2));
    for (let id = 12; id <= 20; id++) cache.offer(copy(id, 1));
    expect(cache.fresh(5, 2)).toBeDefined();
  });
});
