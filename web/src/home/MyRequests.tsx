import { searchBugs } from '../api/tracker.ts';
import type { Bug } from '../api/types.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { pendingRequests } from '../lib/requests.ts';
import { bugHref } from '../lib/routes.ts';

type Request = ReturnType<typeof pendingRequests<Bug>>[number];

export function MyRequests({ login }: { login: string }) {
  const fields = 'id,summary,flags,status';
  const loaded = useLoad(
    () =>
      Promise.all([
        searchBugs({ f1: 'requestees.login_name', o1: 'equals', v1: login, include_fields: fields, limit: 100 }),
        searchBugs({
          f1: 'setters.login_name',
          o1: 'equals',
          v1: login,
          f2: 'flagtypes.name',
          o2: 'substring',
          v2: '?',
          include_fields: fields,
          limit: 100,
        }),
      ]),
    [login],
  );
  return (
    <section aria-labelledby="my-requests-heading">
      <h2 id="my-requests-heading">My requests</h2>
      <ErrorMessage error={loaded.error} />
      {loaded.loading && <Loading what="your requests" />}
      {loaded.data && (
        <>
          <RequestList
            title="Asked of me"
            requests={pendingRequests(loaded.data[0], login, 'requestee')}
            who="setter"
          />
          <RequestList
            title="Asked by me"
            requests={pendingRequests(loaded.data[1], login, 'setter')}
            who="requestee"
          />
        </>
      )}
    </section>
  );
}

function RequestList({ title, requests, who }: { title: string; requests: Request[]; who: 'setter' | 'requestee' }) {
  return (
    <>
      <h3>{title}</h3>
      {requests.length === 0 ? (
        <p>No pending requests.</p>
      ) : (
        <ul>
          {requests.map(({ bug, flag }) => (
            <li key={flag.id}>
              <a href={bugHref(bug.id)}>
                Bug {bug.id}: {bug.summary}
              </a>{' '}
              — {flag.name}?{' '}
              {who === 'setter' ? `from ${flag.setter}` : flag.requestee ? `of ${flag.requestee}` : '(anyone)'}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
