import { useEffect, useState } from 'preact/hooks';
import { possibleDuplicates } from '../api/tracker.ts';
import type { Bug } from '../api/types.ts';
import { bugHref } from '../lib/routes.ts';

/** Bugs that may already describe the same problem, updated while the summary is typed. */
export function PossibleDuplicates({ summary, product }: { summary: string; product: string }) {
  const [bugs, setBugs] = useState<Bug[]>([]);
  useEffect(() => {
    if (summary.trim().length < 4) {
      setBugs([]);
      return;
    }
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      possibleDuplicates(summary.trim(), product || undefined, controller.signal).then(setBugs, () => setBugs([]));
    }, 400);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [summary, product]);
  return (
    <div aria-live="polite" class={bugs.length ? 'message' : undefined}>
      {bugs.length > 0 && (
        <>
          <h2>Possible duplicates</h2>
          <ul>
            {bugs.map((b) => (
              <li key={b.id}>
                <a href={bugHref(b.id)} target="_blank" rel="noopener">
                  Bug {b.id}: {b.summary}
                  <span class="visually-hidden"> (opens in a new tab, so this form keeps what you typed)</span>
                </a>{' '}
                ({[b.status, b.resolution].filter(Boolean).join(' ')})
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
