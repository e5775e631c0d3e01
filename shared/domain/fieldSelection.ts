import { RawJson } from './rawJson.ts';

/**
 * Bugzilla's `include_fields` / `exclude_fields`, implemented once for every resource.
 *
 * Each resource declares which of its fields are extra (returned only on request) and which are
 * custom; every other field is a default field. Names are case-sensitive, unknown names are
 * ignored, dotted names select subfields (`components.name`), and exclusion beats inclusion.
 */
type FieldKind = 'default' | 'extra' | 'custom';

export interface ResourceFields {
  /** Fields returned only when named or with `_extra` / `_all`. */
  readonly extra?: readonly string[];
  /** Custom fields: returned by default, selectable alone with `_custom`. */
  readonly isCustom?: (name: string) => boolean;
  /** Fields holding nested resources (objects or arrays of objects) with their own metadata. */
  readonly nested?: Readonly<Record<string, ResourceFields>>;
}

const SHORTCUTS = new Set(['_all', '_default', '_extra', '_custom']);

export function splitFieldList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items
    .flatMap((item) => String(item).split(','))
    .map((name) => name.trim())
    .filter(Boolean);
}

export class FieldSelection {
  private readonly include: Set<string>;
  private readonly exclude: Set<string>;
  private readonly includeTypes: Set<string>;
  private readonly excludeTypes: Set<string>;

  constructor(include: readonly string[] = [], exclude: readonly string[] = []) {
    this.include = new Set(include.filter((name) => !SHORTCUTS.has(name)));
    this.exclude = new Set(exclude.filter((name) => !SHORTCUTS.has(name)));
    this.includeTypes = new Set(include.filter((name) => SHORTCUTS.has(name)).map((name) => name.slice(1)));
    this.excludeTypes = new Set(exclude.filter((name) => SHORTCUTS.has(name)).map((name) => name.slice(1)));
    if (include.length === 0) this.includeTypes.add('default');
    this.signature = JSON.stringify([
      [...this.include].sort(),
      [...this.exclude].sort(),
      [...this.includeTypes].sort(),
      [...this.excludeTypes].sort(),
    ]);
  }

  /** Equal for selections that select the same fields: what output rendered under one may be reused for. */
  readonly signature: string;

  /**
   * Neither include_fields nor exclude_fields: every default and custom field, nested objects
   * whole, no extra. Applied to a view that holds no extra, such a selection changes nothing.
   */
  get isDefault(): boolean {
    return (
      this.include.size === 0 &&
      this.exclude.size === 0 &&
      this.excludeTypes.size === 0 &&
      this.includeTypes.size === 1 &&
      this.includeTypes.has('default')
    );
  }

  static fromParams(params: { include_fields?: unknown; exclude_fields?: unknown }): FieldSelection {
    return new FieldSelection(splitFieldList(params.include_fields), splitFieldList(params.exclude_fields));
  }

  /**
   * Answers remembered by prefix, name and kind: a 1,000-bug search page asks the same few dozen
   * questions a thousand times each, and building each dotted path again cost more than the rest
   * of the selection.
   */
  private readonly answers = new Map<string, Map<string, boolean>>();

  /** Whether the field at a dotted path is wanted; handlers ask this before computing costly fields. */
  wants(path: string, kind: FieldKind = 'default'): boolean {
    const dot = path.lastIndexOf('.');
    return this.wantsField(dot < 0 ? '' : path.slice(0, dot), dot < 0 ? path : path.slice(dot + 1), kind);
  }

  private wantsField(prefix: string, name: string, kind: FieldKind): boolean {
    const scope = `${kind}:${prefix}`;
    let known = this.answers.get(scope);
    if (!known) {
      known = new Map();
      this.answers.set(scope, known);
    }
    let answer = known.get(name);
    if (answer === undefined) {
      answer = this.decide(prefix ? `${prefix}.${name}` : name, kind);
      known.set(name, answer);
    }
    return answer;
  }

  private decide(path: string, kind: FieldKind): boolean {
    const segments = path.split('.');
    for (let i = 1; i <= segments.length; i++) {
      if (this.exclude.has(segments.slice(0, i).join('.'))) return false;
    }
    if (this.include.has(path)) return true;
    const descendantPrefix = `${path}.`;
    for (const name of this.include) if (name.startsWith(descendantPrefix)) return true;

    if (segments.length > 1) {
      const parentPrefix = `${segments.slice(0, -1).join('.')}.`;
      for (const name of this.include) if (name.startsWith(parentPrefix)) return false;
    }
    return this.wantsKind(kind, segments.length > 1);
  }

  private wantsKind(kind: FieldKind, isSubfield: boolean): boolean {
    if (this.excludeTypes.has(kind) || this.excludeTypes.has('all')) return false;
    if (this.includeTypes.has('all')) return true;
    // The parent was wanted as a whole, so its default subfields come with it.
    if (isSubfield && kind !== 'extra') return true;
    if (this.includeTypes.has(kind)) return true;
    return kind === 'custom' && this.includeTypes.has('default');
  }

  /**
   * Whether each field of a resource at `prefix` is wanted, by name: a 1,000-bug page applies the
   * selection to the same fifty names a thousand times, and one map lookup is all each needs.
   */
  private readonly decisions = new WeakMap<ResourceFields, Map<string, Map<string, boolean>>>();

  private decisionsFor(fields: ResourceFields, prefix: string): Map<string, boolean> {
    let byPrefix = this.decisions.get(fields);
    if (!byPrefix) {
      byPrefix = new Map();
      this.decisions.set(fields, byPrefix);
    }
    let known = byPrefix.get(prefix);
    if (!known) {
      known = new Map();
      byPrefix.set(prefix, known);
    }
    return known;
  }

  /** A copy of `value` (an object or an array of objects) with only the wanted fields. */
  apply<T>(value: T, fields: ResourceFields, prefix = ''): T {
    if (Array.isArray(value)) return value.map((item) => this.apply(item, fields, prefix)) as T;
    // Serialised text was rendered with this selection already (search pages, renderedBugs.ts).
    if (value === null || typeof value !== 'object' || value instanceof RawJson) return value;
    const result: Record<string, unknown> = {};
    const source = value as Record<string, unknown>;
    const known = this.decisionsFor(fields, prefix);
    for (const name in source) {
      if (!Object.hasOwn(source, name)) continue;
      let wanted = known.get(name);
      if (wanted === undefined) {
        wanted = this.wantsField(prefix, name, kindOf(name, fields));
        known.set(name, wanted);
      }
      if (!wanted) continue;
      const nested = fields.nested?.[name];
      result[name] = nested ? this.apply(source[name], nested, prefix ? `${prefix}.${name}` : name) : source[name];
    }
    return result as T;
  }
}

function kindOf(name: string, fields: ResourceFields): FieldKind {
  if (fields.extra?.includes(name)) return 'extra';
  if (fields.isCustom?.(name)) return 'custom';
  return 'default';
}
