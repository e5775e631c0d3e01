import { DEFAULT_COLUMNS, normaliseColumns } from '../lib/columns.ts';

const KEY = 'tracker.buglist.columns';

/** The person's chosen bug list columns, kept in localStorage (not a secret). */
export function storedColumns(): string[] {
  try {
    const raw = localStorage.getItem(KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : null;
    if (Array.isArray(list) && list.every((x) => typeof x === 'string') && list.length > 0)
      return normaliseColumns(list);
  } catch {
    // Unreadable: the defaults.
  }
  return [...DEFAULT_COLUMNS];
}

export function storeColumns(columns: readonly string[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(columns));
  } catch {
    // Storage refused: the choice lasts for this page.
  }
}
