export type ControlValue = 'NA' | 'SHOWN' | 'DEFAULT' | 'MANDATORY';

/** A group's control on a product, as the API shows and takes it (`group_controls`). */
export interface GroupControl {
  group: string;
  entry: boolean;
  membercontrol: ControlValue;
  othercontrol: ControlValue;
  canedit: boolean;
  editcomponents: boolean;
  editbugs: boolean;
  canconfirm: boolean;
}

/** The four controls of Bugzilla's group-controls matrix, loosest first. */
export const CONTROL_VALUES: readonly ControlValue[] = ['NA', 'SHOWN', 'DEFAULT', 'MANDATORY'];

/** A group without a control on the product: what the matrix shows for it. */
export const noControl = (group: string): GroupControl => ({
  group,
  entry: false,
  membercontrol: 'NA',
  othercontrol: 'NA',
  canedit: false,
  editcomponents: false,
  editbugs: false,
  canconfirm: false,
});

/** One row per group: the product's controls, then every other bug group with none, by name. */
export function controlRows(stored: readonly GroupControl[], bugGroups: readonly string[]): GroupControl[] {
  const rows = new Map(stored.map((control) => [control.group, control]));
  for (const group of bugGroups) if (!rows.has(group)) rows.set(group, noControl(group));
  return [...rows.values()].sort((a, b) => a.group.localeCompare(b.group));
}

export function sameControl(a: GroupControl, b: GroupControl): boolean {
  return (
    a.entry === b.entry &&
    a.membercontrol === b.membercontrol &&
    a.othercontrol === b.othercontrol &&
    a.canedit === b.canedit &&
    a.editcomponents === b.editcomponents &&
    a.editbugs === b.editbugs &&
    a.canconfirm === b.canconfirm
  );
}

/** Whether saving `control` removes a control the product has (all NA, no flag: the API drops it). */
export function isRemoval(control: GroupControl, stored: readonly GroupControl[]): boolean {
  return stored.some((s) => s.group === control.group) && sameControl(control, noControl(control.group));
}

/**
 * A flag type's inclusions or exclusions (`{"Product": ["Component", "__Any__"]}`) as the labels
 * the API also accepts: "Product:Component", "Product" for every component, "__Any__" for all.
 */
export function scopeLabels(scopes: Readonly<Record<string, readonly string[]>>): string[] {
  const labels: string[] = [];
  for (const [product, components] of Object.entries(scopes)) {
    for (const component of components) {
      if (product === '__Any__') labels.push('__Any__');
      else labels.push(component === '__Any__' ? product : `${product}:${component}`);
    }
  }
  return labels;
}

/** Labels typed one per line or comma-separated. */
export const parseScopeLabels = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
