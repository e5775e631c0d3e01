/** The bug workflow as GET /rest/field/bug/bug_status describes it. */

export interface StatusValue {
  name: string | null;
  is_open?: boolean;
  sort_key?: number;
  can_change_to?: { name: string; comment_required?: boolean }[];
}

export interface Transition {
  name: string;
  isOpen: boolean;
  commentRequired: boolean;
}

/**
 * The statuses a bug in `current` may move to, the current one first (staying is always
 * allowed). `current` null gives the statuses a new bug may start in.
 */
export function transitionsFrom(values: readonly StatusValue[], current: string | null): Transition[] {
  const openness = new Map(values.filter((v) => v.name !== null).map((v) => [v.name!, v.is_open !== false]));
  const from = values.find((v) => v.name === current);
  const out: Transition[] = [];
  if (current !== null) out.push({ name: current, isOpen: openness.get(current) ?? true, commentRequired: false });
  for (const move of from?.can_change_to ?? []) {
    if (move.name === current) continue;
    out.push({
      name: move.name,
      isOpen: openness.get(move.name) ?? true,
      commentRequired: Boolean(move.comment_required),
    });
  }
  return out;
}

export function isOpenStatus(values: readonly StatusValue[], status: string): boolean {
  return values.find((v) => v.name === status)?.is_open !== false;
}

/** Whether a comment is needed to move from `current` to `target`. */
export function commentRequired(values: readonly StatusValue[], current: string, target: string): boolean {
  if (current === target) return false;
  return transitionsFrom(values, current).find((t) => t.name === target)?.commentRequired ?? false;
}
