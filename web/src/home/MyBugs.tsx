import { searchBugs } from '../api/tracker.ts';
import { BugTable } from '../components/BugTable.tsx';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';

const FIELDS = 'id,summary,status,resolution,is_open,priority,assigned_to,creator,qa_contact,last_change_time';

/** Bugzilla's "involving me" search: assignee, reporter, CC or QA contact. */
export function involvingQuery(login: string, status: '__open__' | '__closed__'): Record<string, string> {
  return {
    email1: login,
    emailtype1: 'equals',
    emailassigned_to1: '1',
    emailreporter1: '1',
    emailcc1: '1',
    emailqa_contact1: '1',
    bug_status: status,
  };
}

function hrefOf(query: Record<string, string>): string {
  return `/buglist.cgi?${new URLSearchParams(query).toString()}`;
}

export function MyBugs({ login }: { login: string }) {
  const open = involvingQuery(login, '__open__');
  const closed = involvingQuery(login, '__closed__');
  const loaded = useLoad(
    () =>
      Promise.all([
        searchBugs({ ...open, include_fields: FIELDS, order: 'changeddate DESC', limit: 50 }),
        searchBugs({ ...closed, include_fields: FIELDS, order: 'changeddate DESC', limit: 10 }),
      ]),
    [login],
  );
  const columns = [
    { field: 'id', heading: 'ID' },
    { field: 'status', heading: 'Status' },
    { field: 'priority', heading: 'Priority' },
    { field: 'assigned_to', heading: 'Assignee' },
    { field: 'summary', heading: 'Summary' },
    { field: 'last_change_time', heading: 'Changed' },
  ];
  return (
    <section aria-labelledby="my-bugs-heading">
      <h2 id="my-bugs-heading">My bugs</h2>
      <p class="hint">Bugs assigned to you, reported by you, with you on CC or as QA contact. Open bugs first.</p>
      <ErrorMessage error={loaded.error} />
      {loaded.loading && <Loading what="your bugs" />}
      {loaded.data && (
        <>
          <h3>
            Open (<a href={hrefOf(open)}>{loaded.data[0].length === 50 ? 'see all' : loaded.data[0].length}</a>)
          </h3>
          {loaded.data[0].length ? (
            <BugTable bugs={loaded.data[0]} columns={columns} caption="My open bugs" />
          ) : (
            <p>No open bugs.</p>
          )}
          <h3>
            Recently closed (<a href={hrefOf(closed)}>see all</a>)
          </h3>
          {loaded.data[1].length ? (
            <BugTable bugs={loaded.data[1]} columns={columns} caption="My recently closed bugs" />
          ) : (
            <p>No closed bugs.</p>
          )}
        </>
      )}
    </section>
  );
}
