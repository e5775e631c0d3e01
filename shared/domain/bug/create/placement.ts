import { errors } from '../../../errors.ts';
import { valueNamed } from '../../catalog/bugValues.ts';
import { type Component, PLACEHOLDER_MILESTONE, type ProductRecord, type ProductValue } from '../../catalog/catalog.ts';
import type { BugEnvironment } from '../bugEnvironment.ts';
import type { NewBugContext } from './newBugContext.ts';
import { present, required } from './newBugInput.ts';

/** The product (first: every other value is checked against it), which the caller may file in. */
export function productOf(env: BugEnvironment, input: Record<string, unknown>): ProductRecord {
  const productName = required(input, 'product', 'a product');
  const record = env.products.find((candidate) => candidate.product.name.toLowerCase() === productName.toLowerCase());
  if (!record || !env.enterableProductIds.has(record.product.id)) {
    throw errors.invalidProduct(`The product '${productName}' does not exist, or you may not file bugs in it.`);
  }
  if (!record.product.isActive)
    throw errors.invalidProduct(`The product '${record.product.name}' is closed for new bugs.`);
  return record;
}

export function componentOf(record: ProductRecord, input: Record<string, unknown>): Component {
  if (!present(input.component)) throw errors.invalidComponent('You must select a component for the bug.');
  const componentName = String(input.component).trim();
  const component = record.components.find((candidate) => candidate.name.toLowerCase() === componentName.toLowerCase());
  if (!component?.isActive) throw errors.notFoundInProduct('component', componentName, record.product.name);
  return component;
}

export function versionOf(record: ProductRecord, input: Record<string, unknown>): ProductValue {
  const versionName = required(input, 'version', 'a version');
  const version = record.versions.find(
    (candidate) => candidate.name.toLowerCase() === versionName.toLowerCase() && candidate.isActive,
  );
  if (!version) throw errors.notFoundInProduct('version', versionName, record.product.name);
  return version;
}

/** The product's default milestone, or the one asked for by those who may choose it. */
export function targetMilestoneOf({ env, input, record, editbugs }: NewBugContext): number {
  const { parameters } = env;
  const defaultMilestone = record.product.defaultMilestone || PLACEHOLDER_MILESTONE;
  const mayChooseMilestone = editbugs || parameters.letsubmitterchoosemilestone === '1';
  if (!present(input.target_milestone) || !mayChooseMilestone || parameters.usetargetmilestone !== '1')
    return valueNamed(record.milestones, defaultMilestone)?.id ?? 0;
  const wanted = String(input.target_milestone).trim();
  const milestone = record.milestones.find(
    (candidate) => candidate.name.toLowerCase() === wanted.toLowerCase() && candidate.isActive,
  );
  if (!milestone) throw errors.notFoundInProduct('milestone', wanted, record.product.name);
  return milestone.id;
}
