import { getAttachments, searchBugs } from '../api/tracker.ts';
import type { Attachment, Bug } from '../api/types.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { pendingRequests } from '../lib/requests.ts';
import { attachmentHref, bugHref } from '../lib/routes.ts';

type Request = ReturnType<typeof pendingRequests<Bug>>[number] & { attachment?: Attachment };

/**
 * The requests on the found bugs: their own flags, and for bugs found through a flag on one of
 * their attachments (the first ten), the attachments' flags.
 */
async function requestsOf(bugs: Bug[], login: string, role: 'requestee' | 'setter'): Promise<Request[]> {
  const out: Request[] = pendingRequests(bugs, login, role);
  const rest = bugs.filter((b) => !out.some((r) => r.bug.id === b.id)).slice(0, 10);
  const lists = await Promise.all(rest.map((b) => getAttachments(b.id).catch(() => [] as Attachment[])));
  rest.forEach((bug, i) => {
    for (const attachment of lists[i]!) {
      for (const { flag } of pendingRequests([attachment], login, role)) out.push({ bug, flag, attachment });
    }
  });
  return out;
}

export function MyRequests({ login }: { login: string }) {
  const fields = 'id,summary,flags,status';
  const loaded = useLoad(
    () =>
      Promise.all([
        searchBugs({ f1: 'requestees.login_name', o1: 'equals', v1: login, include_fields: fields, limit: 100 }).then(
          (bugs) => requestsOf(bugs, login, 'requestee'),
        ),
        searchBugs({
          f1: 'setters.login_name',
          o1: 'equals',
          v1: login,
          f2: 'flagtypes.name',
          o2: 'substring',
          v2: '?',
          include_fields: fields,
          limit: 100,
        }).then((bugs) => requestsOf(bugs, login, 'setter')),
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
          <RequestList title="Asked of me" requests={loaded.data[0]} who="setter" />
          <RequestList title="Asked by me" requests={loaded.data[1]} who="requestee" />
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
          {requests.map(({ bug, flag, attachment }) => (
            <li key={flag.id}>
              <a href={bugHref(bug.id)}>
                Bug {bug.id}: {bug.summary}
              </a>{' '}
              {attachment && (
                <>
                  (on <a href={attachmentHref(attachment.id, true)}>attachment {attachment.id}</a>){' '}
                </>
              )}
              — {flag.name}?{' '}
              {who === 'setter' ? `from ${flag.setter}` : flag.requestee ? `of ${flag.requestee}` : '(anyone)'}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
