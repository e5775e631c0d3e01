/**
 * The index's inverted lists of comment words (word → slots of the bugs whose comments hold it),
 * kept up to date as comments arrive and written to the snapshot as deltas of bug ids.
 */

export function addWords(target: Map<string, number[]>, words: readonly string[] | undefined, slot: number): void {
  for (const word of words ?? []) {
    const slots = target.get(word);
    if (!slots) target.set(word, [slot]);
    // Lists grow in slot order (a new bug takes the next slot), so the common case is one compare;
    // only a comment on an older bug searches the list.
    else if (slots[slots.length - 1] < slot || (slots[slots.length - 1] !== slot && !slots.includes(slot)))
      slots.push(slot);
  }
}

/**
 * Takes a bug out of every posting list: a pass over the whole vocabulary, paid only when a
 * comment's privacy changes, which is rare.
 */
export function removeSlot(target: Map<string, number[]>, slot: number): void {
  for (const [word, slots] of target) {
    const at = slots.indexOf(slot);
    if (at < 0) continue;
    if (slots.length === 1) target.delete(word);
    else slots.splice(at, 1);
  }
}

/**
 * Posting lists hold slots (a search counts matches in arrays indexed by slot, with no lookup per
 * posting); the snapshot keeps bug ids, as deltas of sorted ids: small numbers, so it stays small,
 * and independent of the order an instance happened to apply bugs in.
 */
export const encodePostings = (map: Map<string, number[]>, ids: Int32Array) =>
  Object.fromEntries(
    [...map].map(([word, slots]) => {
      const sorted = slots.map((slot) => ids[slot]!).sort((a, b) => a - b);
      return [word, sorted.map((id, position) => (position === 0 ? id : id - sorted[position - 1]))];
    }),
  );
export function decodePostings(
  encoded: Record<string, number[]> | undefined,
  target: Map<string, number[]>,
  slotOf: (id: number) => number | undefined,
): void {
  for (const [word, deltas] of Object.entries(encoded ?? {})) {
    let id = 0;
    const slots: number[] = [];
    for (const delta of deltas) {
      id += delta;
      const slot = slotOf(id);
      if (slot !== undefined) slots.push(slot);
    }
    target.set(word, slots);
  }
}
