import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_FIELDS,
  CUSTOM_FIELD_ID_OFFSET,
  FIELD_TYPE,
  FIXED_VALUES,
  findBuiltInField,
  isProductSpecific,
  storedFieldName,
} from '../../shared/domain/bug/bugFields.ts';
import type { ProductRecord } from '../../shared/domain/catalog/catalog.ts';
import {
  type ControllerValues,
  type CustomField,
  newCustomField,
  updateCustomField,
} from '../../shared/domain/catalog/customFields.ts';
import { DEFAULT_FIELD_VALUES } from '../../shared/domain/catalog/fieldValues.ts';
import {
  allFields,
  controllerValues,
  type FieldCatalog,
  fieldView,
  findField,
  legalValueNames,
  needsProduct,
} from '../../shared/domain/catalog/fieldViews.ts';
import { checkKeywordName, resolveKeyword } from '../../shared/domain/catalog/keywords.ts';
import { DEFAULT_PARAMETERS } from '../../shared/domain/instance/parameters.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';

const product = (
  id: number,
  name: string,
  components: string[],
  versions: string[] = ['unspecified'],
): ProductRecord => ({
  product: {
    id,
    name,
    description: name,
    isActive: true,
    defaultBugType: 'defect',
    defaultMilestone: '---',
    hasUnconfirmed: true,
    classificationId: 1,
  },
  components: components.map((component, index) => ({
    id: id * 10 + index,
    productId: id,
    name: component,
    description: component,
    defaultAssigneeId: 1,
    defaultQaContactId: null,
    triageOwnerId: null,
    defaultCcIds: [],
    defaultBugType: '',
    sortKey: 0,
    isActive: index === 0 || !component.startsWith('Old'),
  })),
  versions: versions.map((version, index) => ({
    id: id * 10 + index,
    productId: id,
    name: version,
    sortKey: 0,
    isActive: true,
  })),
  milestones: [{ id: id * 10, productId: id, name: '---', sortKey: 0, isActive: true }],
  groupControls: [],
});

const catalog: FieldCatalog = {
  classifications: [{ id: 1, name: 'Unclassified', description: '', sortKey: 0 }],
  products: [product(1, 'Widget', ['Gears', 'Bolts', 'OldParts']), product(2, 'Gadget', ['Gears'])],
  keywords: [
    { id: 1, name: 'regression', description: 'It used to work', isActive: true },
    { id: 2, name: 'crash', description: 'It crashes', isActive: true },
    { id: 3, name: 'retired', description: 'No longer used', isActive: false },
  ],
  values: DEFAULT_FIELD_VALUES,
};

/** GET /rest/field/bug on a stock Bugzilla 5.2 (test/fixtures/bugzilla-5.2/README.md). */
const REFERENCE = new URL('../fixtures/bugzilla-5.2/field-bug.json', import.meta.url);

describe('built-in bug fields', () => {
  it('has unique ids and names, all below the custom id offset, in id order', () => {
    const ids = BUILT_IN_FIELDS.map((field) => field.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(BUILT_IN_FIELDS.map((field) => field.name)).size).toBe(ids.length);
    expect(Math.max(...ids)).toBeLessThan(CUSTOM_FIELD_ID_OFFSET);
    expect(BUILT_IN_FIELDS.some((field) => field.name.startsWith('cf_'))).toBe(false);
  });

  it("adds Harmony's bug_type, regressed_by and regresses after the 59 fields of 5.2", () => {
    expect(BUILT_IN_FIELDS).toHaveLength(62);
    expect(BUILT_IN_FIELDS.slice(59).map((field) => [field.id, field.name, field.displayName])).toEqual([
      [60, 'bug_type', 'Type'],
      [61, 'regressed_by', 'Regressed by'],
      [62, 'regresses', 'Regressions'],
    ]);
  });

  it('matches the reference Bugzilla 5.2 field list (ids, names, display names, types, mandatory)', () => {
    const reference = JSON.parse(readFileSync(REFERENCE, 'utf8')).fields as Array<Record<string, unknown>>;
    const views = BUILT_IN_FIELDS.slice(0, 59).map((field) => fieldView(field, catalog));
    const pick = (field: Record<string, unknown>) => [
      field.id,
      field.name,
      field.display_name,
      field.type,
      field.is_mandatory,
      field.is_custom,
      field.is_on_bug_entry,
    ];
    expect(views.map(pick)).toEqual(reference.map(pick));
    for (const name of ['rep_platform', 'op_sys', 'bug_status', 'resolution', 'bug_severity', 'priority']) {
      const ours = views.find((view) => view.name === name)!;
      expect(ours.values, name).toEqual(reference.find((field) => field.name === name)!.values);
    }
  });

  it("knows the default legal values and that the parameters' defaults are among them", () => {
    expect(FIXED_VALUES.priority.map((value) => value.name)).toEqual([
      'Highest',
      'High',
      'Normal',
      'Low',
      'Lowest',
      '---',
    ]);
    expect(FIXED_VALUES.bug_severity.map((value) => value.name)).toEqual([
      'blocker',
      'critical',
      'major',
      'normal',
      'minor',
      'trivial',
      'enhancement',
    ]);
    expect(FIXED_VALUES.op_sys.map((value) => value.name)).toEqual(['All', 'Windows', 'Mac OS', 'Linux', 'Other']);
    expect(FIXED_VALUES.rep_platform.map((value) => value.name)).toEqual(['All', 'PC', 'Macintosh', 'Other']);
    expect(FIXED_VALUES.bug_type.map((value) => value.name)).toEqual(['defect', 'enhancement', 'task']);
    expect(FIXED_VALUES.priority.map((value) => value.name)).toContain(DEFAULT_PARAMETERS.defaultpriority);
    expect(FIXED_VALUES.bug_severity.map((value) => value.name)).toContain(DEFAULT_PARAMETERS.defaultseverity);
    expect(FIXED_VALUES.bug_type.map((value) => value.name)).toContain(DEFAULT_PARAMETERS.default_bug_type);
  });

  it('maps the names bug calls use to stored field names', () => {
    expect(storedFieldName('status')).toBe('bug_status');
    expect(storedFieldName('platform')).toBe('rep_platform');
    expect(storedFieldName('severity')).toBe('bug_severity');
    expect(storedFieldName('type')).toBe('bug_type');
    expect(storedFieldName('priority')).toBe('priority');
    expect(findBuiltInField(storedFieldName('summary'))?.id).toBe(2);
    expect(isProductSpecific('component')).toBe(true);
    expect(isProductSpecific('product')).toBe(false);
  });
});

describe('field definitions', () => {
  const fields = allFields([]);
  const view = (name: string) => fieldView(findField(fields, name)!, catalog);

  it('renders bug_status with the pseudo-value first and the workflow', () => {
    const values = view('bug_status').values as Array<Record<string, unknown>>;
    expect(values[0]).toEqual({
      name: null,
      sort_key: 0,
      sortkey: 0,
      visibility_values: [],
      is_open: true,
      can_change_to: ['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS'].map((name) => ({ name, comment_required: false })),
    });
    expect(values.slice(1).map((value) => [value.name, value.is_open])).toEqual([
      ['UNCONFIRMED', true],
      ['CONFIRMED', true],
      ['IN_PROGRESS', true],
      ['RESOLVED', false],
      ['VERIFIED', false],
    ]);
  });

  it('gives per-product fields value_field product and one value per product', () => {
    const component = view('component');
    expect(component.value_field).toBe('product');
    expect(component.values).toEqual([
      { name: 'Bolts', sort_key: 0, sortkey: 0, visibility_values: ['Widget'], is_active: true },
      { name: 'Gears', sort_key: 0, sortkey: 0, visibility_values: ['Widget'], is_active: true },
      { name: 'OldParts', sort_key: 0, sortkey: 0, visibility_values: ['Widget'], is_active: false },
      { name: 'Gears', sort_key: 0, sortkey: 0, visibility_values: ['Gadget'], is_active: true },
    ]);
    expect(view('product')).toMatchObject({ values: [], value_field: null });
    expect(view('bug_id')).toMatchObject({
      values: [],
      value_field: null,
      visibility_field: null,
      visibility_values: [],
      is_on_bug_entry: false,
    });
  });

  it('lists active keywords by name, with descriptions', () => {
    expect(
      (view('keywords').values as Array<Record<string, unknown>>).map((value) => [value.name, value.description]),
    ).toEqual([
      ['crash', 'It crashes'],
      ['regression', 'It used to work'],
    ]);
  });

  it('answers legal values: per product, active only; undefined for non-drop-downs', () => {
    const component = findField(fields, 'component')!;
    expect(needsProduct(component)).toBe(true);
    expect(legalValueNames(component, catalog)).toBeUndefined();
    expect(legalValueNames(component, catalog, catalog.products[0])).toEqual(['Bolts', 'Gears']);
    expect(legalValueNames(findField(fields, 'resolution')!, catalog)).toEqual([
      '',
      'FIXED',
      'INVALID',
      'WONTFIX',
      'DUPLICATE',
      'WORKSFORME',
    ]);
    expect(legalValueNames(findField(fields, 'product')!, catalog)).toEqual(['Gadget', 'Widget']);
    expect(legalValueNames(findField(fields, 'keywords')!, catalog)).toBeUndefined();
    expect(legalValueNames(findField(fields, 'short_desc')!, catalog)).toBeUndefined();
  });
});

describe('custom fields', () => {
  const controllers: ControllerValues = controllerValues(allFields([]), catalog);
  const create = (input: Parameters<typeof newCustomField>[1]) => newCustomField(1001, input, controllers);

  it('refuses names that are not cf_ plus lowercase letters, digits and _', () => {
    for (const name of ['cf_', 'cf_has space', 'cf_dash-ed', `cf_${'x'.repeat(62)}`]) {
      expect(trackerErrorOf(() => create({ name, display_name: 'X', type: 1 })).code, name).toBe(32000);
    }
    expect(create({ name: 'cf_rank_2', display_name: 'Rank', type: FIELD_TYPE.INTEGER }).name).toBe('cf_rank_2');
    // As Bugzilla 5.2's Field::_check_name: lower-cased, with the cf_ prefix it lacks.
    expect(create({ name: 'cf_Rank', display_name: 'Rank', type: 1 }).name).toBe('cf_rank');
    expect(create({ name: 'Rank', display_name: 'Rank', type: 1 }).name).toBe('cf_rank');
  });

  it('accepts only the custom types, and values only for drop-downs', () => {
    for (const type of [0, 7, 8, 11, undefined])
      expect(trackerErrorOf(() => create({ name: 'cf_x', display_name: 'X', type })).code).toBe(32000);
    expect(trackerErrorOf(() => create({ name: 'cf_x', display_name: 'X', type: 1, values: ['a'] })).code).toBe(32000);
    expect(trackerErrorOf(() => create({ name: 'cf_x', display_name: ' ', type: 1 })).code).toBe(32000);
  });

  it('gives a single-select field the value ---, refuses duplicate values, and sorts new ones last', () => {
    const field = create({
      name: 'cf_os',
      display_name: 'OS',
      type: 2,
      values: ['Linux', { name: 'BSD', sort_key: 5 }, '---'],
    });
    expect(field.values.map((value) => [value.name, value.sortKey])).toEqual([
      ['---', 0],
      ['Linux', 10],
      ['BSD', 5],
    ]);
    expect(legalValueNames(field, catalog)).toEqual(['---', 'BSD', 'Linux']);
    expect(trackerErrorOf(() => create({ name: 'cf_os', display_name: 'OS', type: 3, values: ['a', 'A'] })).code).toBe(
      32000,
    );
    expect(trackerErrorOf(() => create({ name: 'cf_os', display_name: 'OS', type: 3, values: ['a,b'] })).code).toBe(
      32000,
    );
    expect(
      create({ name: 'cf_tags', display_name: 'Tags', type: 3, values: ['a'] }).values.map((value) => value.name),
    ).toEqual(['a']);
  });

  it('checks visibility_field and value_field against drop-down fields and their values', () => {
    const field = create({
      name: 'cf_x',
      display_name: 'X',
      type: 3,
      visibility_field: 'product',
      visibility_values: ['Widget'],
      value_field: 'component',
      values: [{ name: 'v', visibility_values: ['Bolts'] }],
    });
    expect(field).toMatchObject({ visibilityField: 'product', visibilityValues: ['Widget'], valueField: 'component' });
    expect(field.values[0].visibilityValues).toEqual(['Bolts']);
    const refused = [
      { visibility_field: 'product', visibility_values: ['Nope'] },
      { visibility_field: 'product', visibility_values: [] },
      { visibility_field: 'short_desc', visibility_values: ['x'] },
      { visibility_values: ['Widget'] },
      { visibility_field: 'cf_x', visibility_values: ['a'] },
      { values: [{ name: 'v', visibility_values: ['Bolts'] }] },
    ];
    for (const extra of refused) {
      expect(
        trackerErrorOf(() => create({ name: 'cf_x', display_name: 'X', type: 3, ...extra })).code,
        JSON.stringify(extra),
      ).toBe(32000);
    }
  });

  it('updates properties and values, reporting changes as text, and refuses renames, type changes and removing ---', () => {
    const previous: CustomField = create({ name: 'cf_os', display_name: 'OS', type: 2, values: ['Linux', 'BSD'] });
    const { next, changes } = updateCustomField(
      previous,
      { display_name: 'Operating system', is_mandatory: true, values: { add: ['Hurd'], remove: ['BSD'] } },
      controllers,
    );
    expect(next.values.map((value) => value.name)).toEqual(['---', 'Linux', 'Hurd']);
    expect(changes).toEqual({
      display_name: { removed: 'OS', added: 'Operating system' },
      is_mandatory: { removed: '0', added: '1' },
      values: { removed: 'BSD', added: 'Hurd' },
    });
    expect(updateCustomField(previous, { display_name: 'OS' }, controllers).changes).toEqual({});
    expect(trackerErrorOf(() => updateCustomField(previous, { name: 'cf_other' }, controllers)).code).toBe(32000);
    expect(trackerErrorOf(() => updateCustomField(previous, { type: 3 }, controllers)).code).toBe(32000);
    expect(trackerErrorOf(() => updateCustomField(previous, { values: { remove: ['---'] } }, controllers)).code).toBe(
      32000,
    );
    expect(trackerErrorOf(() => updateCustomField(previous, { values: { remove: ['Nope'] } }, controllers)).code).toBe(
      32000,
    );
    expect(trackerErrorOf(() => updateCustomField(previous, { values: { add: ['linux'] } }, controllers)).code).toBe(
      32000,
    );
  });

  it('renders custom fields after built-ins with their values and extra properties', () => {
    const field = create({ name: 'cf_os', display_name: 'OS', type: 2, values: ['Linux'], sort_key: 5 });
    const fields = allFields([field]);
    expect(fields.at(-1)).toBe(field);
    expect(findField(fields, 1001)).toBe(field);
    expect(fieldView(field, catalog)).toEqual({
      id: 1001,
      name: 'cf_os',
      display_name: 'OS',
      type: 2,
      is_custom: true,
      is_mandatory: false,
      is_on_bug_entry: false,
      visibility_field: null,
      visibility_values: [],
      value_field: null,
      values: [
        { name: '---', sort_key: 0, sortkey: 0, visibility_values: [] },
        { name: 'Linux', sort_key: 10, sortkey: 10, visibility_values: [] },
      ],
      sort_key: 5,
      is_obsolete: false,
    });
  });
});

describe('keyword names', () => {
  it('refuses blanks, spaces, commas and names over 64 characters', () => {
    for (const name of ['', '  ', 'two words', 'a,b', 'x'.repeat(65)])
      expect(trackerErrorOf(() => checkKeywordName(name)).code, name).toBe(32000);
    expect(checkKeywordName('  regression ')).toBe('regression');
  });

  it('resolves by id, then by name without regard to case', () => {
    const keywords = [
      { id: 1, name: 'crash', description: '', isActive: true },
      { id: 2, name: '1', description: '', isActive: true },
    ];
    expect(resolveKeyword('CRASH', keywords)?.id).toBe(1);
    expect(resolveKeyword(1, keywords)?.id).toBe(1);
    expect(resolveKeyword('nope', keywords)).toBeUndefined();
  });
});
