import type { Bug } from '../bug.ts';
import type { BugEnvironment } from '../bugEnvironment.ts';
import { checkSeeAlso, localBugIdOf, localBugUrl, parseListChange } from '../bugFieldRules.ts';
import { requireVisible, type WorkingSet } from '../bugWorkingSet.ts';
import type { BugUpdateContext } from './updateContext.ts';

/**
 * See Also, as Bugzilla 5.2's add_see_also and remove_see_also: an empty (or null) URL added is
 * ignored, one removed is matched case-insensitively and never checked, so an invalid one removes
 * nothing.
 */
export function applySeeAlso({ env, working, input, current, next }: BugUpdateContext): void {
  if (input.see_also === undefined) return;
  const change = parseListChange('see_also', input.see_also, (entry) => String(entry ?? '').trim());
  const checked = (urls: string[]) => urls.filter((url) => url !== '').map(checkSeeAlso);
  const removed = new Set(change.remove.map((url) => url.toLowerCase()));
  const kept = (change.set ? checked(change.set) : next.seeAlso).filter((url) => !removed.has(url.toLowerCase()));
  for (const url of checked(change.add))
    if (!kept.some((existing) => existing.toLowerCase() === url.toLowerCase())) kept.push(url);
  next.seeAlso = kept.filter(
    (url, index) => kept.findIndex((other) => other.toLowerCase() === url.toLowerCase()) === index,
  );
  mirrorLocalSeeAlso(env, working, current, next);
}

/**
 * A See Also link to another bug of this installation is mirrored on that bug, as Bugzilla 5.2's
 * add_see_also and remove_see_also do: adding `<urlbase>show_bug.cgi?id=A` to bug B adds B's link
 * to A (A must exist and be visible: 101, 102), and removing it removes B's link from A.
 */
function mirrorLocalSeeAlso(env: BugEnvironment, working: WorkingSet, current: Bug, next: Bug): void {
  const { urlbase } = env.parameters;
  if (!urlbase) return;
  const lower = (urls: readonly string[]) => new Set(urls.map((url) => url.toLowerCase()));
  const before = lower(current.seeAlso);
  const after = lower(next.seeAlso);
  const own = localBugUrl(urlbase, next.id);
  for (const url of next.seeAlso.filter((entry) => !before.has(entry.toLowerCase()))) {
    const otherId = localBugIdOf(url, urlbase);
    if (otherId === null || otherId === next.id) continue;
    const other = requireVisible(env, working, otherId, 'see_also');
    if (!lower(other.seeAlso).has(own.toLowerCase()))
      working.set(otherId, { ...other, seeAlso: [...other.seeAlso, own] });
  }
  for (const url of current.seeAlso.filter((entry) => !after.has(entry.toLowerCase()))) {
    const otherId = localBugIdOf(url, urlbase);
    const other = otherId === null ? undefined : working.get(otherId);
    if (!other || otherId === next.id) continue;
    const remaining = other.seeAlso.filter((entry) => entry.toLowerCase() !== own.toLowerCase());
    if (remaining.length !== other.seeAlso.length) working.set(other.id, { ...other, seeAlso: remaining });
  }
}
