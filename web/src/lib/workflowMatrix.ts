import type { FieldValue } from '../api/types.ts';

/** A move of the status workflow; `from` null is a bug being filed. */
export interface Move {
  from: string | null;
  to: string;
  comment_required: boolean;
}

export const moveKey = (from: string | null, to: string) => `${from ?? ''}\u0000${to}`;

/** The moves GET /rest/field/bug/bug_status lists (the pseudo-value named null: a new bug). */
export function movesOf(values: readonly FieldValue[]): Map<string, Move> {
  const moves = new Map<string, Move>();
  for (const value of values) {
    for (const target of value.can_change_to ?? []) {
      moves.set(moveKey(value.name, target.name), {
        from: value.name,
        to: target.name,
        comment_required: target.comment_required === true,
      });
    }
  }
  return moves;
}

/** The statuses of the matrix, in sort order (disabled ones too: their moves stay editable). */
export function statusesOf(values: readonly FieldValue[]): FieldValue[] {
  return values.filter((value) => value.name !== null && value.name !== '');
}

/** What changes between two sets of moves, in words for the confirmation and the status line. */
export function describeMoveChanges(before: ReadonlyMap<string, Move>, after: ReadonlyMap<string, Move>): string[] {
  const label = (move: Move) => `${move.from ?? '(new bug)'} → ${move.to}`;
  const lines: string[] = [];
  for (const [key, move] of after) {
    const old = before.get(key);
    if (!old) lines.push(`add ${label(move)}${move.comment_required ? ' (comment required)' : ''}`);
    else if (old.comment_required !== move.comment_required)
      lines.push(`${move.comment_required ? 'require' : 'no longer require'} a comment for ${label(move)}`);
  }
  for (const [key, move] of before) if (!after.has(key)) lines.push(`remove ${label(move)}`);
  return lines;
}
