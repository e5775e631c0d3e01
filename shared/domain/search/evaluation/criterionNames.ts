/**
 * Names in criteria (logins, products, components, keywords, groups) resolved to ids once per
 * criterion, so that testing a row is a set or table lookup of the id the index holds.
 */
import { type SearchEnvironment, TRUE } from './searchEnvironment.ts';
import { textMatcher } from './valueMatchers.ts';

/** Exact logins (`%user%` is the caller) by id; a pattern over every user's login, and real name for some operators. */
export function userIdTest(env: SearchEnvironment, op: string, value: string): (id: number) => boolean {
  if (op === 'isempty') return (id) => id === 0;
  if (op === 'isnotempty') return (id) => id !== 0;
  const resolved = value.trim() === '%user%' ? env.callerLogin : value.trim();
  if (op === 'equals' || op === 'anyexact') {
    const logins = op === 'equals' ? [resolved] : resolved.split(',').map((part) => part.trim());
    const ids = new Set(
      logins
        .map((login) =>
          login === env.callerLogin && env.callerId ? env.callerId : env.loginIds.get(login.toLowerCase()),
        )
        .filter((id): id is number => id !== undefined),
    );
    return (id) => ids.has(id);
  }
  const text = textMatcher(op, resolved);
  const ids = new Set(
    (env.allUsers ?? [])
      .filter(
        (user) =>
          text(user.login) || ((op === 'substring' || op === 'regexp') && user.realName !== '' && text(user.realName)),
      )
      .map((user) => user.id),
  );
  return (id) => ids.has(id);
}

/** A test of an id among named objects: the names the operator matches. */
export function idSetTest(
  names: ReadonlyArray<{ id: number; name: string }>,
  op: string,
  value: string,
): (id: number) => boolean {
  const text = textMatcher(op, value);
  const ids = new Set(names.filter((entry) => text(entry.name)).map((entry) => entry.id));
  return (id) => ids.has(id);
}

/** A 0/1 table indexed by id: TRUE at each of `ids`. */
export const idTable = (ids: Iterable<number>): Uint8Array => {
  const list = [...ids];
  const table = new Uint8Array(list.length === 0 ? 0 : Math.max(...list) + 1);
  for (const id of list) table[id] = TRUE;
  return table;
};
