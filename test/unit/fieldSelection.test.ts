import { describe, expect, it } from 'vitest';
import { FieldSelection, type ResourceFields, splitFieldList } from '../../shared/domain/fieldSelection.ts';

/** A product-like resource: `flag_types` is extra, `cf_*` are custom, components are nested with an extra field of their own. */
const PRODUCT_FIELDS: ResourceFields = {
  extra: ['flag_types'],
  isCustom: (name) => name.startsWith('cf_'),
  nested: { components: { extra: ['flag_types'] } },
};

const product = {
  id: 1,
  name: 'Widget',
  cf_team: 'core',
  flag_types: { bug: [], attachment: [] },
  components: [
    { id: 10, name: 'UI', description: 'The UI', flag_types: { bug: [] } },
    { id: 11, name: 'API', description: 'The API', flag_types: { bug: [] } },
  ],
};

const select = (include: string[] = [], exclude: string[] = [], value: unknown = product) =>
  new FieldSelection(include, exclude).apply(value, PRODUCT_FIELDS) as Record<string, unknown>;

describe('default selection', () => {
  it('returns default and custom fields, without extra fields (also in nested resources)', () => {
    expect(select()).toEqual({
      id: 1,
      name: 'Widget',
      cf_team: 'core',
      components: [
        { id: 10, name: 'UI', description: 'The UI' },
        { id: 11, name: 'API', description: 'The API' },
      ],
    });
  });

  it('is the default selection only without include or exclude names, and then keeps every field but extras', () => {
    expect(new FieldSelection().isDefault).toBe(true);
    expect(FieldSelection.fromParams({}).isDefault).toBe(true);
    expect(new FieldSelection(['_default']).isDefault).toBe(true);
    for (const [include, exclude] of [
      [['id']],
      [['_all']],
      [['_default', '_extra']],
      [[], ['cf_team']],
      [[], ['_custom']],
      [['_custom']],
    ])
      expect(new FieldSelection(include, exclude).isDefault, JSON.stringify([include, exclude])).toBe(false);
    const { flag_types, ...withoutExtra } = product;
    void flag_types;
    const plain = { ...withoutExtra, components: withoutExtra.components.map(({ flag_types: _, ...rest }) => rest) };
    expect(select([], [], plain)).toEqual(plain);
  });

  it('does not change the value it filters', () => {
    const copy = structuredClone(product);
    select(['id']);
    expect(product).toEqual(copy);
  });
});

describe('include_fields', () => {
  it('returns only the named fields', () => {
    expect(select(['id', 'name'])).toEqual({ id: 1, name: 'Widget' });
  });

  it('ignores unknown names and is case-sensitive', () => {
    expect(select(['id', 'no_such_field', 'Name'])).toEqual({ id: 1 });
  });

  it('returns an extra field when it is named', () => {
    expect(select(['id', 'flag_types'])).toEqual({ id: 1, flag_types: product.flag_types });
  });

  it('with _default adds the default (and custom) fields to the named ones', () => {
    expect(Object.keys(select(['_default', 'flag_types'])).sort()).toEqual([
      'cf_team',
      'components',
      'flag_types',
      'id',
      'name',
    ]);
  });

  it('with _extra returns the extra fields, nested ones included', () => {
    expect(select(['_extra'])).toEqual({ flag_types: product.flag_types });
    expect(Object.keys(select(['_default', '_extra']))).toContain('flag_types');
    expect((select(['_default', '_extra']).components as Array<object>)[0]).toHaveProperty('flag_types');
  });

  it('with _all returns everything', () => {
    expect(select(['_all'])).toEqual(product);
  });

  it('with _custom returns the custom fields alone, or with the named ones', () => {
    expect(select(['_custom'])).toEqual({ cf_team: 'core' });
    expect(select(['_custom', 'id'])).toEqual({ id: 1, cf_team: 'core' });
  });

  it('does not return custom fields when only other names are given', () => {
    expect(select(['name'])).not.toHaveProperty('cf_team');
  });
});

describe('exclude_fields', () => {
  it('omits the named fields', () => {
    expect(Object.keys(select([], ['components', 'cf_team'])).sort()).toEqual(['id', 'name']);
  });

  it('beats include_fields', () => {
    expect(select(['id', 'name'], ['name'])).toEqual({ id: 1 });
    expect(select(['_all'], ['flag_types', 'components'])).toEqual({ id: 1, name: 'Widget', cf_team: 'core' });
  });

  it('with _custom removes the custom fields', () => {
    expect(select([], ['_custom'])).not.toHaveProperty('cf_team');
    expect(select(['_all'], ['_custom'])).not.toHaveProperty('cf_team');
  });

  it('with _all removes everything not explicitly included', () => {
    expect(select([], ['_all'])).toEqual({});
    expect(select(['id'], ['_all'])).toEqual({ id: 1 });
  });

  it('ignores unknown names', () => {
    expect(select([], ['nope'])).toEqual(select());
  });
});

describe('dotted subfields', () => {
  it('components.name keeps components with only that subfield', () => {
    expect(select(['components.name'])).toEqual({ components: [{ name: 'UI' }, { name: 'API' }] });
  });

  it('a subfield can be combined with top-level names', () => {
    expect(select(['id', 'components.id'])).toEqual({ id: 1, components: [{ id: 10 }, { id: 11 }] });
  });

  it('excluding components.description keeps components without it', () => {
    expect(select([], ['components.description']).components).toEqual([
      { id: 10, name: 'UI' },
      { id: 11, name: 'API' },
    ]);
  });

  it('excluding a parent removes its subfields even when they are included', () => {
    expect(select(['id', 'components.name'], ['components'])).toEqual({ id: 1 });
  });

  it('an extra subfield needs its dotted name', () => {
    expect(select(['components.flag_types']).components).toEqual([
      { flag_types: { bug: [] } },
      { flag_types: { bug: [] } },
    ]);
    expect(select(['components']).components).toEqual([
      { id: 10, name: 'UI', description: 'The UI' },
      { id: 11, name: 'API', description: 'The API' },
    ]);
  });

  it('applies to an array of resources, each filtered the same way', () => {
    const selection = new FieldSelection(['components.name']);
    expect(selection.apply([product, { ...product, id: 2, components: [] }], PRODUCT_FIELDS)).toEqual([
      { components: [{ name: 'UI' }, { name: 'API' }] },
      { components: [] },
    ]);
  });
});

describe('FieldSelection.wants', () => {
  it('answers for top-level and dotted paths with the field kind', () => {
    const selection = new FieldSelection(['components.name']);
    expect(selection.wants('components')).toBe(true);
    expect(selection.wants('components.name')).toBe(true);
    expect(selection.wants('components.id')).toBe(false);
    expect(selection.wants('id')).toBe(false);
    expect(new FieldSelection().wants('flag_types', 'extra')).toBe(false);
    expect(new FieldSelection().wants('cf_team', 'custom')).toBe(true);
  });
});

describe('FieldSelection.fromParams and splitFieldList', () => {
  it('splits comma lists and arrays, trimming and dropping empty names', () => {
    expect(splitFieldList('id, name,,')).toEqual(['id', 'name']);
    expect(splitFieldList(['id', 'components.name,cf_team'])).toEqual(['id', 'components.name', 'cf_team']);
    expect(splitFieldList(undefined)).toEqual([]);
    expect(splitFieldList(null)).toEqual([]);
    expect(splitFieldList('')).toEqual([]);
  });

  it('builds a selection from include_fields and exclude_fields parameters', () => {
    const selection = FieldSelection.fromParams({ include_fields: 'id,name', exclude_fields: ['name'] });
    expect(selection.apply(product, PRODUCT_FIELDS)).toEqual({ id: 1 });
  });

  it('treats an empty include_fields as no selection', () => {
    expect(FieldSelection.fromParams({ include_fields: '' }).apply(product, PRODUCT_FIELDS)).toEqual(select());
  });
});
