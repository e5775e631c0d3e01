/**
 * The first `limit` items in `order`: a page of ten from tens of thousands of summaries sharing a
 * common word is picked in one pass instead of sorting them all.
 */
export function best<T>(items: readonly T[], limit: number, order: (a: T, b: T) => number): T[] {
  if (limit <= 0) return [];
  if (limit * 8 >= items.length) return [...items].sort(order).slice(0, limit);
  const kept: T[] = [];
  for (const item of items) {
    if (kept.length === limit && order(item, kept[limit - 1]!) >= 0) continue;
    let at = kept.length === limit ? limit - 1 : kept.length;
    while (at > 0 && order(item, kept[at - 1]!) < 0) at--;
    kept.splice(at, 0, item);
    if (kept.length > limit) kept.pop();
  }
  return kept;
}
