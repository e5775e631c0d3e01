import { describe, expect, it } from 'vitest';
import { cachedCatalogRead, touchesCachedItem } from '../../shared/storage/catalog/catalogCache.ts';
import { catalogKeys, keys } from '../../shared/storage/keys.ts';

describe('which writes move the catalogue stamp', () => {
  it('counts items of the cached partitions and the parameters', () => {
    for (const key of [
      catalogKeys.product(3),
      catalogKeys.classification(1),
      catalogKeys.keyword(2),
      catalogKeys.flagType(4),
      catalogKeys.field('cf_colour'),
      catalogKeys.fieldValues('priority'),
      catalogKeys.workflow(),
      keys.group(5),
      keys.parameters(),
    ]) {
      expect(touchesCachedItem(key), JSON.stringify(key)).toBe(true);
    }
  });

  it('ignores name guards, users, memberships, the installation marker and the stamp itself', () => {
    for (const key of [
      catalogKeys.productNameGuard('Widgets'),
      keys.groupNameGuard('testers'),
      keys.user(7),
      keys.membership(7, 5),
      keys.installation(),
      keys.catalogStamp(),
      keys.counter('product'),
    ]) {
      expect(touchesCachedItem(key), JSON.stringify(key)).toBe(false);
    }
  });
});

describe('outside a request', () => {
  it('reads afresh every time (bootstrap and scripts cache nothing)', async () => {
    let reads = 0;
    const load = async () => ({ read: ++reads });
    expect(await cachedCatalogRead('unit', load)).toEqual({ read: 1 });
    expect(await cachedCatalogRead('unit', load)).toEqual({ read: 2 });
  });
});
