import type { Comment, HistoryEntry } from '../api/types.ts';
import { formatTime } from '../components/format.ts';

export interface CollisionInfo {
  lastChangeTime: string;
  history: HistoryEntry[];
  comments: Comment[];
}

/** Mid-air collision: someone changed the bug since this page loaded it. The person decides. */
export function Collision({
  info,
  onOverwrite,
  onReload,
  busy,
}: {
  info: CollisionInfo;
  onOverwrite: () => void;
  onReload: () => void;
  busy: boolean;
}) {
  return (
    <section class="collision" role="alert" aria-labelledby="collision-heading">
      <h2 id="collision-heading">Mid-air collision</h2>
      <p>Someone else changed this bug (at {formatTime(info.lastChangeTime)}) while you were editing it.</p>
      {info.history.length > 0 && (
        <>
          <h3>Their changes</h3>
          <ul>
            {info.history.map((h) =>
              h.changes.map((c, i) => (
                <li key={`${h.when}-${c.field_name}-${i}`}>
                  {h.who} changed {c.field_name}: “{c.removed}” → “{c.added}”
                </li>
              )),
            )}
          </ul>
        </>
      )}
      {info.comments.length > 0 && (
        <>
          <h3>Their comments</h3>
          {info.comments.map((c) => (
            <blockquote key={c.id}>
              <p>
                {c.creator}, {formatTime(c.creation_time)}:
              </p>
              <pre class="text-body">{c.text}</pre>
            </blockquote>
          ))}
        </>
      )}
      <p>Your changes are still in the form. What do you want to do?</p>
      <div class="actions">
        <button type="button" onClick={onOverwrite} disabled={busy}>
          Submit my changes anyway
        </button>
        <button type="button" class="secondary" onClick={onReload} disabled={busy}>
          Show the bug as it is now (keep my comment)
        </button>
      </div>
    </section>
  );
}
