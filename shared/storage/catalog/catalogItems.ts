import * as z from 'zod';
import { FIELD_TYPE } from '../../domain/bug/bugFields.ts';
import type {
  Classification,
  Component,
  ControlValue,
  GroupControl,
  Product,
  ProductValue,
} from '../../domain/catalog/catalog.ts';
import type { CustomField } from '../../domain/catalog/customFields.ts';
import { type Item, parseItem, type ShapeOf } from '../itemParsing.ts';

/**
 * The shapes of the catalogue's items (docs/data-model.md §4) and their parsers
 * (itemParsing.ts). They are read once per catalogue change into the instance cache.
 */

/** The revision two administrators' writes are conditioned on (absent: never revised). */
const rev = z.number().optional();

const classificationSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  sortKey: z.number(),
  rev,
} satisfies ShapeOf<Classification>);

const productSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  isActive: z.boolean(),
  defaultBugType: z.string(),
  defaultMilestone: z.string(),
  hasUnconfirmed: z.boolean(),
  classificationId: z.number(),
  rev,
} satisfies ShapeOf<Product>);

const componentSchema = z.object({
  id: z.number(),
  productId: z.number(),
  name: z.string(),
  description: z.string(),
  defaultAssigneeId: z.number(),
  defaultQaContactId: z.number().nullable(),
  triageOwnerId: z.number().nullable(),
  defaultCcIds: z.array(z.number()),
  defaultBugType: z.string(),
  sortKey: z.number(),
  isActive: z.boolean(),
  rev,
} satisfies ShapeOf<Component>);

const productValueSchema = z.object({
  id: z.number(),
  productId: z.number(),
  name: z.string(),
  sortKey: z.number(),
  isActive: z.boolean(),
  rev,
} satisfies ShapeOf<ProductValue>);

const control = z.enum(['NA', 'SHOWN', 'DEFAULT', 'MANDATORY'] satisfies ControlValue[]);

const groupControlSchema = z.object({
  productId: z.number(),
  groupId: z.number(),
  entry: z.boolean(),
  memberControl: control,
  otherControl: control,
  canEdit: z.boolean(),
  editComponents: z.boolean(),
  editBugs: z.boolean(),
  canConfirm: z.boolean(),
} satisfies ShapeOf<GroupControl>);

export const toClassification = (item: Item): Classification => parseItem(classificationSchema, 'classification', item);
export const toProduct = (item: Item): Product => parseItem(productSchema, 'product', item);
export const toComponent = (item: Item): Component => parseItem(componentSchema, 'component', item);
/** A version or a milestone (`kind`). */
export const toProductValue = (item: Item, kind: 'version' | 'milestone'): ProductValue =>
  parseItem(productValueSchema, kind, item);
export const toGroupControl = (item: Item): GroupControl => parseItem(groupControlSchema, 'group control', item);

const customFieldValueSchema = z.object({
  name: z.string(),
  sortKey: z.number(),
  visibilityValues: z.array(z.string()),
} satisfies ShapeOf<CustomField['values'][number]>);

const { type: fieldType, ...customFieldShape } = {
  id: z.number(),
  name: z.string(),
  displayName: z.string(),
  type: z.literal(Object.values(FIELD_TYPE)),
  isMandatory: z.boolean(),
  isOnBugEntry: z.boolean(),
  visibilityField: z.string().nullable(),
  visibilityValues: z.array(z.string()),
  valueField: z.string().nullable(),
  sortKey: z.number(),
  isObsolete: z.boolean(),
  values: z.array(customFieldValueSchema),
} satisfies ShapeOf<CustomField>;

/** `type` is every item's entity discriminator, so a field's type is stored as `fieldType`; `revision` is its lock. */
const customFieldSchema = z.object({
  ...customFieldShape,
  fieldType,
  revision: z.number().optional(),
});

export const toCustomField = (item: Item): { field: CustomField; revision: number } => {
  const { fieldType, revision, ...field } = parseItem(customFieldSchema, 'custom field', item);
  return { field: { ...field, type: fieldType }, revision: revision ?? 0 };
};
