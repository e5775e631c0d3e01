import { lastVisits, searchBugs } from '../api/tracker.ts';
import { formatTime } from '../components/format.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { bugHref } from '../lib/routes.ts';

/** The bugs the person visited last (recorded when a bug page opens). */
export function RecentBugs() {
  const loaded = useLoad(async () => {
    const visits = (await lastVisits()).sort((a, b) => b.last_visit_ts.localeCompare(a.last_visit_ts)).slice(0, 20);
    if (visits.length === 0) return [];
    const bugs = await searchBugs({ id: visits.map((v) => v.id).join(','), include_fields: 'id,summary,status' });
    const byId = new Map(bugs.map((b) => [b.id, b]));
    return visits.filter((v) => byId.has(v.id)).map((v) => ({ visit: v, bug: byId.get(v.id)! }));
  }, []);
  return (
    <section aria-labelledby="recent-heading">
      <h2 id="recent-heading">Recently visited</h2>
      <ErrorMessage error={loaded.error} />
      {loaded.loading && <Loading what="recently visited bugs" />}
      {loaded.data &&
        (loaded.data.length === 0 ? (
          <p>No visits recorded yet.</p>
        ) : (
          <ul>
            {loaded.data.map(({ visit, bug }) => (
              <li key={bug.id}>
                <a href={bugHref(bug.id)}>
                  Bug {bug.id}: {bug.summary}
                </a>{' '}
                ({bug.status}, visited {formatTime(visit.last_visit_ts)})
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
