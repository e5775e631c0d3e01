import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GroupSummary } from '../../shared/domain/identity/caller.ts';
import {
  checkUserRegexp,
  regexpMatchesLogin,
  regexpMembershipChanges,
  regexpMembersOf,
} from '../../shared/domain/identity/groupRegexps.ts';
import {
  bitmapHas,
  bitmapIds,
  bitmapOf,
  bitmapWith,
  bitmapWithAll,
} from '../../shared/domain/identity/userIdBitmap.ts';
import { TrackerError } from '../../shared/trackerError.ts';

describe('user id bitmaps', () => {
  it('answers membership exactly as a set of the same ids, for generated sets, changes and probes', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5_000 }), { maxLength: 60 }),
        // Changed one id at a time as user writes change them, sometimes past the highest id held.
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5_200 }), fc.boolean()), { maxLength: 10 }),
        fc.array(fc.integer({ min: 0, max: 5_300 }), { maxLength: 300 }),
        (initial, changes, probes) => {
          const ids = new Set(initial);
          let bitmap = bitmapOf(ids);
          for (const [id, present] of changes) {
            bitmap = bitmapWith(bitmap, id, present);
            if (present) ids.add(id);
            else ids.delete(id);
          }
          const wrong = [...probes, ...ids].filter((id) => bitmapHas(bitmap, id) !== ids.has(id));
          expect(wrong, 'ids the bitmap answers wrongly').toEqual([]);
          expect(bitmapIds(bitmap)).toEqual([...ids].sort((a, b) => a - b));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('adds many ids at once as one set union (a group folding in the users who joined)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5_000 }), { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 5_200 }), { maxLength: 60 }),
        (initial, added) => {
          expect(bitmapWithAll(bitmapOf(initial), added)).toBe(bitmapOf([...initial, ...added]));
        },
      ),
      { numRuns: 200 },
    );
    expect(bitmapWithAll(bitmapOf([3]), [-1, 2.5])).toBe(bitmapOf([3]));
  });

  it('is empty text for no ids, drops trailing empty bytes, and never holds negative or fractional ids', () => {
    expect(bitmapOf([])).toBe('');
    expect(bitmapWith(bitmapOf([3, 900]), 900, false)).toBe(bitmapOf([3]));
    expect(bitmapHas('', 0)).toBe(false);
    expect(bitmapHas(bitmapOf([1]), -1)).toBe(false);
    expect(bitmapHas(bitmapOf([1]), 1.5)).toBe(false);
  });

  it('keeps 100,000 users in under 17 KB of text', () => {
    const everyone = bitmapOf(Array.from({ length: 100_000 }, (_, index) => index + 1));
    expect(everyone.length).toBeLessThan(17_000);
    expect(bitmapHas(everyone, 100_000)).toBe(true);
    expect(bitmapHas(everyone, 100_001)).toBe(false);
  });
});

describe('group regexps (write side)', () => {
  const group = (id: number, userRegexp: string, regexpMembers = ''): GroupSummary => ({
    id,
    name: `g${id}`,
    description: '',
    isActive: true,
    isBugGroup: true,
    userRegexp,
    regexpMembers,
  });

  it('matches logins unanchored and case-insensitively; an empty or invalid pattern matches nothing', () => {
    expect(regexpMatchesLogin('@example\\.com$', 'Jane@EXAMPLE.COM')).toBe(true);
    expect(regexpMatchesLogin('@example\\.com$', 'jane@example.com.evil')).toBe(false);
    expect(regexpMatchesLogin('ample', 'jane@example.com')).toBe(true);
    expect(regexpMatchesLogin('', 'jane@example.com')).toBe(false);
    expect(regexpMatchesLogin('(unclosed', '(unclosed')).toBe(false);
  });

  it('derives the members of a pattern among every user', () => {
    const users = [
      { id: 1, login: 'a@corp.com' },
      { id: 2, login: 'b@else.org' },
      { id: 9, login: 'c@CORP.com' },
    ];
    expect(bitmapIds(regexpMembersOf('@corp\\.com$', users))).toEqual([1, 9]);
    expect(regexpMembersOf('', users)).toBe('');
  });

  it('lists the regexp groups a new or renamed login enters or leaves, with their new members', () => {
    const corp = group(1, '@corp\\.com$', bitmapOf([4]));
    const all = group(2, '.*', bitmapOf([4, 5]));
    const plain = group(3, '');
    // User 5 renamed from x@else.org to x@corp.com: enters corp, stays in all.
    const changes = regexpMembershipChanges([corp, all, plain], 5, 'x@corp.com');
    expect(changes.map(({ group: changed, regexpMembers }) => [changed.id, bitmapIds(regexpMembers)])).toEqual([
      [1, [4, 5]],
    ]);
    // User 4 renamed away from corp: leaves it.
    expect(
      regexpMembershipChanges([corp, all, plain], 4, 'x@else.org').map(({ group: changed, regexpMembers }) => [
        changed.id,
        bitmapIds(regexpMembers),
      ]),
    ).toEqual([[1, []]]);
    // A new user 6 matching both.
    expect(
      regexpMembershipChanges([corp, all, plain], 6, 'n@corp.com').map(({ group: changed }) => changed.id),
    ).toEqual([1, 2]);
  });

  it('refuses patterns RE2 cannot match in linear time with 803, and accepts an empty one', () => {
    expect(checkUserRegexp('  ')).toBe('');
    expect(checkUserRegexp(' ^a.*@corp$ ')).toBe('^a.*@corp$');
    expect(() => checkUserRegexp('(a)\\1')).toThrow(TrackerError);
    try {
      checkUserRegexp('(?=x)');
    } catch (error) {
      expect((error as TrackerError).code).toBe(803);
    }
  });
});
