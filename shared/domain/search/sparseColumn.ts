/**
 * A column of the index that most bugs leave empty (alias, URL, whiteboard, see also, flags,
 * personal tags, custom fields): only the bugs holding something are kept, by slot. As arrays of
 * one pointer per bug these cost a cold instance 8 MB each to allocate and fill at a million
 * bugs (about 0.35 s for the seven of them), and every full collection marked them all.
 */
export class SparseColumn<T> {
  private readonly values = new Map<number, T>();

  /** `empty` is what a slot without a value reads as; values `isEmpty` holds for are not kept. */
  constructor(
    readonly empty: T,
    private readonly isEmpty: (value: T) => boolean,
  ) {}

  get(slot: number): T {
    const value = this.values.get(slot);
    return value === undefined ? this.empty : value;
  }

  set(slot: number, value: T | null | undefined): void {
    if (value === null || value === undefined || this.isEmpty(value)) this.values.delete(slot);
    else this.values.set(slot, value);
  }

  /** The slots below `size` that hold a value, in slot order, with it. */
  entries(size: number): Array<[number, T]> {
    const entries: Array<[number, T]> = [];
    for (const [slot, value] of this.values) if (slot < size) entries.push([slot, value]);
    return entries.sort((a, b) => a[0] - b[0]);
  }
}

/** Empty text, list or object. */
export const emptyText = (value: string | null): boolean => !value;
export const emptyList = (value: readonly unknown[]): boolean => value.length === 0;
export const emptyRecord = (value: Record<string, unknown> | null): boolean =>
  value === null || Object.keys(value).length === 0;
