import { getAttachments, getBug, getComments, getProducts } from '../api/tracker.ts';
import type { Attachment, Bug, Comment, Product } from '../api/types.ts';
import { loadFields, loadProducts } from '../state/catalog.ts';
import { ownerOf } from '../state/keptCatalog.ts';
import { session } from '../state/session.ts';

export interface BugData {
  bug: Bug;
  product: Product | undefined;
  comments: Comment[];
  attachments: Attachment[];
}

/**
 * The bug page's data: the bug, its comments and attachments at once (their routes take the id or
 * the alias as the address has it), with the field definitions and the products the person may
 * file in (the catalogue: at once when the tab kept them). The bug's product comes from those
 * products when it is one of them; only otherwise is it asked for once the bug has named it.
 */
async function readBug(id: string): Promise<BugData> {
  const [bug, , comments, attachments, enterable] = await Promise.all([
    getBug(id),
    loadFields(),
    getComments(id),
    getAttachments(id).catch(() => [] as Attachment[]),
    session.value ? loadProducts('enterable').catch(() => [] as Product[]) : ([] as Product[]),
  ]);
  const product =
    enterable.find((p) => p.name === bug.product) ??
    (await getProducts('accessible', [bug.product]).catch(() => [] as Product[])).find((p) => p.name === bug.product);
  return { bug, product, comments, attachments };
}

/** Loads started before the page asked, by bug and person; each is taken once. */
const started = new Map<string, Promise<BugData>>();
const keyOf = (id: string) => `${ownerOf(session.value)} ${id}`;

/**
 * Starts reading bug `id` now: main.tsx calls it when the app's script runs on a bug's address,
 * so the requests go out before the first render rather than after it. The page takes it with
 * `loadBug` if it is for the same bug and the same person.
 */
export function preloadBug(id: string): Promise<unknown> {
  const load = readBug(id);
  started.set(keyOf(id), load);
  return load;
}

/** The bug page's data: the load started for it, if any, else a new one. */
export function loadBug(id: string): Promise<BugData> {
  const key = keyOf(id);
  const load = started.get(key);
  started.delete(key);
  return load ?? readBug(id);
}
