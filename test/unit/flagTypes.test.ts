import { describe, expect, it } from 'vitest';
import {
  ANY,
  appliesTo,
  appliesToProduct,
  applyScopeChange,
  checkCcList,
  checkFlagTypeDescription,
  checkFlagTypeName,
  checkSortKey,
  checkTargetType,
  type FlagType,
  flagTypeChanges,
  flagTypesByTarget,
  flagValues,
  parseScopeChange,
  parseScopes,
  type ScopeProduct,
  scopeLabel,
  scopeMap,
} from '../../shared/domain/catalog/flagTypes.ts';
import { TrackerError } from '../../shared/trackerError.ts';

const products: ScopeProduct[] = [
  {
    id: 1,
    name: 'Widgets',
    components: [
      { id: 10, name: 'Frobber' },
      { id: 11, name: 'Gizmo' },
    ],
  },
  { id: 2, name: 'Gadgets', components: [{ id: 20, name: 'Core' }] },
  // A product whose name contains ':' and another that is a prefix of it.
  { id: 3, name: 'Suite', components: [{ id: 30, name: 'Tools:Extra' }] },
  { id: 4, name: 'Suite:Tools', components: [{ id: 40, name: 'Main' }] },
];

const names = {
  productName: (id: number) => products.find((product) => product.id === id)?.name,
  componentName: (productId: number, componentId: number) =>
    products.find((product) => product.id === productId)?.components.find((component) => component.id === componentId)
      ?.name,
  groupName: (id: number | null) => (id === null ? '' : `group${id}`),
};

const codeOf = (action: () => unknown): number | undefined => {
  try {
    action();
  } catch (error) {
    if (error instanceof TrackerError) return error.code;
    throw error;
  }
  return undefined;
};

const flagType = (overrides: Partial<FlagType> = {}): FlagType => ({
  id: 1,
  name: 'review',
  description: 'Review',
  ccList: '',
  sortKey: 1,
  isActive: true,
  isRequestable: true,
  isRequesteeble: true,
  isMultiplicable: true,
  grantGroupId: null,
  requestGroupId: null,
  targetType: 'bug',
  inclusions: [{ productId: 0, componentId: 0 }],
  exclusions: [],
  ...overrides,
});

describe('flag type field checks', () => {
  it('accepts a trimmed name and refuses blank, spaced, comma and over-long names with 1101', () => {
    expect(checkFlagTypeName('  review ')).toBe('review');
    expect(checkFlagTypeName('x'.repeat(50))).toHaveLength(50);
    for (const name of ['', '   ', 'code review', 'a,b', 'tab\there', 'x'.repeat(51)])
      expect(codeOf(() => checkFlagTypeName(name))).toBe(1101);
  });

  it('refuses a blank description with 1102', () => {
    expect(checkFlagTypeDescription(' Needs review ')).toBe('Needs review');
    expect(codeOf(() => checkFlagTypeDescription('  '))).toBe(1102);
  });

  it('normalizes the CC list, refuses over 200 characters with 1103 and bad addresses with 501', () => {
    expect(checkCcList('a@example.com,b@example.com  c@localhost')).toBe('a@example.com, b@example.com, c@localhost');
    expect(checkCcList(['a@example.com', 'b@example.com'])).toBe('a@example.com, b@example.com');
    expect(checkCcList(undefined)).toBe('');
    expect(checkCcList('')).toBe('');
    expect(codeOf(() => checkCcList(`${'a'.repeat(190)}@example.com`))).toBe(1103);
    expect(codeOf(() => checkCcList('not-an-address'))).toBe(501);
    expect(codeOf(() => checkCcList('a@example.com, b@@example.com'))).toBe(501);
    expect(codeOf(() => checkCcList('ünicode@example.com'))).toBe(501);
    expect(codeOf(() => checkCcList(42))).toBe(32000);
  });

  it('takes sort keys from 0 to 32767, as numbers or text, and refuses others with 1104', () => {
    expect(checkSortKey(0)).toBe(0);
    expect(checkSortKey('32767')).toBe(32767);
    for (const value of [-1, 32768, 1.5, 'abc', '', null, true]) expect(codeOf(() => checkSortKey(value))).toBe(1104);
  });

  it('knows the two target types, bug by default', () => {
    expect(checkTargetType(undefined)).toBe('bug');
    expect(checkTargetType('Attachment')).toBe('attachment');
    expect(codeOf(() => checkTargetType('comment'))).toBe(32000);
  });
});

describe('parsing inclusions and exclusions', () => {
  it('reads product names, product:component pairs and __Any__, case-insensitively, sorted and unique', () => {
    expect(parseScopes(['gadgets', 'Widgets:gizmo', 'Widgets:Gizmo', ANY], products)).toEqual([
      { productId: 0, componentId: 0 },
      { productId: 1, componentId: 11 },
      { productId: 2, componentId: 0 },
    ]);
    expect(parseScopes([`${ANY}:${ANY}`, `Widgets:${ANY}`], products)).toEqual([
      { productId: 0, componentId: 0 },
      { productId: 1, componentId: 0 },
    ]);
  });

  it('prefers a whole product name containing a colon, then the first split whose prefix is a product', () => {
    expect(parseScopes(['Suite:Tools'], products)).toEqual([{ productId: 4, componentId: 0 }]);
    expect(parseScopes(['Suite:Tools:Main'], products)).toEqual([{ productId: 4, componentId: 40 }]);
    expect(parseScopes(['Suite:Tools:Extra'], products)).toEqual([{ productId: 3, componentId: 30 }]);
    // No split resolves the component: the first split naming a product reports it (51).
    expect(codeOf(() => parseScopes(['Suite:Nope'], products))).toBe(51);
  });

  it('reads the {product, component} pair and Bugzilla’s {product: [components]} map', () => {
    expect(parseScopes([{ product: 'Widgets', component: 'Frobber' }, { product: 'Gadgets' }], products)).toEqual([
      { productId: 1, componentId: 10 },
      { productId: 2, componentId: 0 },
    ]);
    expect(parseScopes([{ Widgets: ['Frobber', 'Gizmo'], Gadgets: [] }, { Suite: 'Tools:Extra' }], products)).toEqual([
      { productId: 1, componentId: 10 },
      { productId: 1, componentId: 11 },
      { productId: 2, componentId: 0 },
      { productId: 3, componentId: 30 },
    ]);
    expect(parseScopes('Widgets', products)).toEqual([{ productId: 1, componentId: 0 }]);
    expect(parseScopes([], products)).toEqual([]);
  });

  it('answers 106 for an unknown product, 51 for an unknown component, 32000 for a malformed item', () => {
    expect(codeOf(() => parseScopes(['Nothing'], products))).toBe(106);
    expect(codeOf(() => parseScopes(['Nothing:Core'], products))).toBe(106);
    expect(codeOf(() => parseScopes([{ product: 'Nothing' }], products))).toBe(106);
    expect(codeOf(() => parseScopes(['Widgets:Core'], products))).toBe(51);
    expect(codeOf(() => parseScopes([{ Gadgets: ['Frobber'] }], products))).toBe(51);
    expect(codeOf(() => parseScopes([42], products))).toBe(32000);
    expect(codeOf(() => parseScopes([{ Widgets: [1] }], products))).toBe(32000);
    expect(codeOf(() => parseScopes([`${ANY}:Core`], products))).toBe(32000);
  });

  it('tells a replacement list from an {add, remove} or {set} edit', () => {
    expect(parseScopeChange(undefined, products)).toBeUndefined();
    expect(parseScopeChange(['Widgets'], products)).toEqual({
      kind: 'replace',
      scopes: [{ productId: 1, componentId: 0 }],
    });
    expect(parseScopeChange({ Widgets: ['Gizmo'] }, products)).toEqual({
      kind: 'replace',
      scopes: [{ productId: 1, componentId: 11 }],
    });
    expect(parseScopeChange({ set: ['Gadgets'], add: ['Widgets'] }, products)).toEqual({
      kind: 'replace',
      scopes: [{ productId: 2, componentId: 0 }],
    });
    expect(parseScopeChange({ add: ['Widgets'], remove: [ANY] }, products)).toEqual({
      kind: 'edit',
      add: [{ productId: 1, componentId: 0 }],
      remove: [{ productId: 0, componentId: 0 }],
    });
  });

  it('applies edits: removals first, so a scope both added and removed stays', () => {
    const current = [
      { productId: 0, componentId: 0 },
      { productId: 2, componentId: 0 },
    ];
    const edit = {
      kind: 'edit' as const,
      add: [
        { productId: 1, componentId: 10 },
        { productId: 2, componentId: 0 },
      ],
      remove: [
        { productId: 0, componentId: 0 },
        { productId: 2, componentId: 0 },
      ],
    };
    expect(applyScopeChange(current, edit)).toEqual([
      { productId: 1, componentId: 10 },
      { productId: 2, componentId: 0 },
    ]);
    expect(applyScopeChange(current, { kind: 'replace', scopes: [] })).toEqual([]);
    expect(applyScopeChange(current, undefined)).toEqual(current);
  });
});

describe('showing scopes', () => {
  it('labels scopes as Product:Component with __Any__, keeping ids of vanished products', () => {
    expect(scopeLabel({ productId: 0, componentId: 0 }, names)).toBe('__Any__:__Any__');
    expect(scopeLabel({ productId: 1, componentId: 11 }, names)).toBe('Widgets:Gizmo');
    expect(scopeLabel({ productId: 99, componentId: 0 }, names)).toBe('#99:__Any__');
  });

  it('maps scopes to {product: [components]}, __Any__ first, hiding what the caller may not see', () => {
    const scopes = [
      { productId: 1, componentId: 11 },
      { productId: 1, componentId: 10 },
      { productId: 1, componentId: 0 },
      { productId: 2, componentId: 20 },
      { productId: 0, componentId: 0 },
    ];
    expect(scopeMap(scopes, names)).toEqual({
      __Any__: ['__Any__'],
      Widgets: ['__Any__', 'Frobber', 'Gizmo'],
      Gadgets: ['Core'],
    });
    expect(scopeMap(scopes, names, (productId) => productId !== 2)).toEqual({
      __Any__: ['__Any__'],
      Widgets: ['__Any__', 'Frobber', 'Gizmo'],
    });
    // The map parses back to the same scopes.
    expect(parseScopes([scopeMap(scopes, names)], products)).toEqual(
      parseScopes(
        scopes.map((scope) => scopeLabel(scope, names)),
        products,
      ),
    );
  });
});

describe('applicability', () => {
  const type = flagType({
    inclusions: [
      { productId: 1, componentId: 0 },
      { productId: 2, componentId: 20 },
    ],
    exclusions: [{ productId: 1, componentId: 11 }],
  });

  it('applies to included components that are not excluded', () => {
    expect(appliesTo(type, 1, 10)).toBe(true);
    expect(appliesTo(type, 1, 11)).toBe(false);
    expect(appliesTo(type, 2, 20)).toBe(true);
    expect(appliesTo(type, 3, 30)).toBe(false);
  });

  it('applies to a product when it applies to one of its components', () => {
    expect(appliesToProduct(type, 1, [10, 11])).toBe(true);
    expect(appliesToProduct(type, 1, [11])).toBe(false);
    expect(appliesToProduct(type, 1, [])).toBe(false);
    expect(appliesToProduct(flagType({ exclusions: [{ productId: 2, componentId: 0 }] }), 2, [20])).toBe(false);
  });
});

describe('flag values and listings', () => {
  it('offers X always, ? to requesters of requestable types, + and - to granters', () => {
    const member =
      (...ids: number[]) =>
      (id: number) =>
        ids.includes(id);
    expect(flagValues(flagType(), member())).toEqual(['X', '?', '+', '-']);
    expect(flagValues(flagType({ isRequestable: false }), member())).toEqual(['X', '+', '-']);
    expect(flagValues(flagType({ grantGroupId: 5 }), member())).toEqual(['X', '?']);
    expect(flagValues(flagType({ grantGroupId: 5, requestGroupId: 6 }), member())).toEqual(['X']);
    expect(flagValues(flagType({ grantGroupId: 5, requestGroupId: 6 }), member(6))).toEqual(['X', '?']);
    expect(flagValues(flagType({ grantGroupId: 5, requestGroupId: 6 }), member(5))).toEqual(['X', '?', '+', '-']);
  });

  it('splits by target type and orders by sort key, then name', () => {
    const listed = flagTypesByTarget(
      [
        flagType({ id: 1, name: 'zeta', sortKey: 1 }),
        flagType({ id: 2, name: 'alpha', sortKey: 2 }),
        flagType({ id: 3, name: 'beta', sortKey: 1 }),
        flagType({ id: 4, targetType: 'attachment' }),
      ],
      () => false,
    );
    expect(listed.bug.map((type) => type.name)).toEqual(['beta', 'zeta', 'alpha']);
    expect(listed.attachment.map((type) => type.id)).toEqual([4]);
    expect(listed.bug[0]).toMatchObject({
      id: 3,
      type: 'bug',
      is_active: true,
      grant_group: null,
      values: ['X', '?', '+', '-'],
    });
    expect(listed.attachment[0]).toMatchObject({ type: 'attachment' });
  });
});

describe('changes', () => {
  it('reports changed fields as strings, booleans as 1/0, groups by name, scopes as labels', () => {
    const previous = flagType({
      inclusions: [{ productId: 0, componentId: 0 }],
      exclusions: [{ productId: 2, componentId: 0 }],
    });
    const next = flagType({
      name: 'qa',
      isActive: false,
      sortKey: 7,
      grantGroupId: 3,
      inclusions: [
        { productId: 1, componentId: 0 },
        { productId: 2, componentId: 20 },
      ],
      exclusions: [{ productId: 2, componentId: 0 }],
    });
    expect(flagTypeChanges(previous, next, names)).toEqual({
      name: { removed: 'review', added: 'qa' },
      sort_key: { removed: '1', added: '7' },
      is_active: { removed: '1', added: '0' },
      grant_group: { removed: '', added: 'group3' },
      inclusions: { removed: '__Any__:__Any__', added: 'Gadgets:Core, Widgets:__Any__' },
    });
    expect(flagTypeChanges(previous, { ...previous, inclusions: [...previous.inclusions] }, names)).toEqual({});
  });
});
