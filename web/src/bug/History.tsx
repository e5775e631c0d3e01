import { useState } from 'preact/hooks';
import { getHistory } from '../api/tracker.ts';
import type { HistoryEntry } from '../api/types.ts';
import { formatTime } from '../components/format.ts';
import { ErrorMessage } from '../components/Messages.tsx';

/** The bug's change history, read when asked for. */
export function History({ bugId }: { bugId: number }) {
  const [history, setHistory] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {history === null ? (
        <button
          type="button"
          class="secondary"
          onClick={() =>
            getHistory(bugId).then(setHistory, (e) => {
              setError(e);
            })
          }
        >
          Show history
        </button>
      ) : history.length === 0 ? (
        <p>No changes since the bug was filed.</p>
      ) : (
        <div class="table-wrap">
          <table class="responsive">
            <caption class="visually-hidden">Changes to bug {bugId}</caption>
            <thead>
              <tr>
                <th scope="col">Who</th>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Removed</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {history.flatMap((h) =>
                h.changes.map((c, i) => (
                  <tr key={`${h.when}-${h.who}-${i}`}>
                    <td data-label="Who">{h.who}</td>
                    <td data-label="When">{formatTime(h.when)}</td>
                    <td data-label="What">
                      {c.attachment_id ? `Attachment ${c.attachment_id} ` : ''}
                      {c.field_name}
                    </td>
                    <td data-label="Removed">{c.removed}</td>
                    <td data-label="Added">{c.added}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      )}
      <ErrorMessage error={error} />
    </section>
  );
}
