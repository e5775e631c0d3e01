/**
 * The catalogue's slow-changing start-up data (field definitions, parameters, the person's rights,
 * the products they may file in or search), kept in the tab's sessionStorage between page loads:
 * a bug opened from a mail link, a reload or a full navigation shows at once with what the tab
 * already knew, and the app reads it all again once the page's own data has come (catalog.ts,
 * `revalidateCatalog`), showing any change. The signals of catalog.ts stay the one store; this
 * is only their copy across page loads.
 *
 * The copy belongs to one person: each part is stored with the user id and login that read it
 * and used only for the same ones, and it is all dropped whenever someone logs in or out and
 * whenever the app resets the catalogue (an administrator changed it). It lives beside the
 * credential, in the same tab's storage (docs/web-security.md).
 *
 * Each part has a key of its own, so that keeping one does not rewrite the others (storage writes
 * are synchronous), and each is read from storage at most once per page load.
 */

export type KeptPart =
  | 'fields'
  | 'parameters'
  | 'whoami'
  | 'products.enterable'
  | 'products.selectable'
  | 'products.accessible';

const PREFIX = 'tracker.catalog.';
const PARTS: readonly KeptPart[] = [
  'fields',
  'parameters',
  'whoami',
  'products.enterable',
  'products.selectable',
  'products.accessible',
];

/** The stored text of each part, as read or written by this page (null: none). */
const stored = new Map<KeptPart, string | null>();

function storedText(part: KeptPart): string | null {
  if (!stored.has(part)) {
    let text: string | null = null;
    try {
      text = sessionStorage.getItem(PREFIX + part);
    } catch {
      // Storage refused (private mode): nothing kept.
    }
    stored.set(part, text);
  }
  return stored.get(part) ?? null;
}

/** Whose copy it is: a logged-in person by id and login, or the anonymous visitor. */
export function ownerOf(person: { userId: number; login: string } | null): string {
  return person ? `${person.userId}:${person.login}` : 'anonymous';
}

/** What the tab kept of `part` for `owner`; nothing when it kept another person's. */
export function keptPart<T>(owner: string, part: KeptPart): T | undefined {
  const text = storedText(part);
  if (!text) return undefined;
  try {
    const entry = JSON.parse(text) as { owner: string; value: T };
    return entry.owner === owner ? entry.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps `value` as `owner`'s `part`. False when the tab already kept exactly that: a read that
 * changed nothing need not be shown again.
 */
export function keepPart(owner: string, part: KeptPart, value: unknown): boolean {
  const text = JSON.stringify({ owner, value });
  if (storedText(part) === text) return false;
  stored.set(part, text);
  try {
    sessionStorage.setItem(PREFIX + part, text);
  } catch {
    // Storage full or refused: the next page load reads it again.
  }
  return true;
}

export function dropKeptCatalog(): void {
  for (const part of PARTS) {
    stored.set(part, null);
    try {
      sessionStorage.removeItem(PREFIX + part);
    } catch {
      // Nothing kept where storage is refused.
    }
  }
}
