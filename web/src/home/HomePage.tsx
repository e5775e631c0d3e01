import { SavedSearchList } from '../search/SavedSearchList.tsx';
import { session } from '../state/session.ts';
import { MyBugs } from './MyBugs.tsx';
import { MyRequests } from './MyRequests.tsx';
import { QuickSearchForm } from './QuickSearch.tsx';
import { RecentBugs } from './RecentBugs.tsx';

export function HomePage() {
  const s = session.value;
  return (
    <>
      <h1>Tracker</h1>
      <section aria-labelledby="qs-heading">
        <h2 id="qs-heading">Find a bug</h2>
        <QuickSearchForm id="home-quicksearch" />
        <p class="hint">
          Bugzilla's quicksearch language: words, <code>product:Foo</code>, <code>assignee:me@example.com</code>,{' '}
          <code>ALL</code>, <code>flag:review?</code>… Or use the <a href="/query.cgi">advanced search</a>, or{' '}
          <a href="/enter_bug.cgi">file a bug</a>.
        </p>
      </section>
      {s ? (
        <>
          <MyBugs login={s.login} />
          <MyRequests login={s.login} />
          <SavedSearchList />
          <RecentBugs />
        </>
      ) : (
        <p>
          <a href="/login?return=%2F">Log in</a> to see your bugs, your requests and the bugs you visited.
        </p>
      )}
    </>
  );
}
