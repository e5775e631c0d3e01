import { useEffect, useRef } from 'preact/hooks';
import { AuthDelegationPage } from './account/AuthDelegationPage.tsx';
import { logOut } from './account/auth.ts';
import { ForgotPasswordPage } from './account/ForgotPasswordPage.tsx';
import { LoginPage } from './account/LoginPage.tsx';
import { MailTokenPage } from './account/MailTokenPage.tsx';
import { PrefsPage } from './account/PrefsPage.tsx';
import { SignUpPage } from './account/SignUpPage.tsx';
import { SignInCallbackPage } from './account/SingleSignOn.tsx';
import { LazyAdminPage } from './admin/LazyAdminPage.tsx';
import { administersSomething } from './admin/sections.ts';
import { AttachmentPage } from './attachment/AttachmentPage.tsx';
import { BugPage } from './bug/BugPage.tsx';
import { BuglistPage } from './buglist/BuglistPage.tsx';
import { EnterBugPage } from './enter/EnterBugPage.tsx';
import { HomePage } from './home/HomePage.tsx';
import { QuickSearchForm } from './home/QuickSearch.tsx';
import { SearchPage } from './search/SearchPage.tsx';
import { announce, announcement, location, navigate, route } from './state/router.ts';
import { rights, session, userGroups } from './state/session.ts';

function Page() {
  const r = route.value;
  switch (r.page) {
    case 'home':
      return <HomePage />;
    case 'buglist':
      return <BuglistPage params={r.params} />;
    case 'query':
      return <SearchPage params={r.params} />;
    case 'bug':
      return <BugPage key={r.id} id={r.id} />;
    case 'enter':
      return <EnterBugPage product={r.product} component={r.component} />;
    case 'attachment':
      return <AttachmentPage key={r.id} id={r.id} edit={r.edit} />;
    case 'prefs':
      return <PrefsPage tab={r.tab} />;
    case 'auth':
      return <AuthDelegationPage callback={r.callback} description={r.description} />;
    case 'login':
      return <LoginPage returnTo={r.returnTo} />;
    case 'admin':
      return <LazyAdminPage cgi={r.cgi} params={r.params} />;
    case 'signup':
      return <SignUpPage />;
    case 'forgotPassword':
      return <ForgotPasswordPage />;
    case 'mailToken':
      return <MailTokenPage key={r.token} token={r.token} action={r.action} />;
    case 'signInCallback':
      return <SignInCallbackPage params={r.params} />;
    default:
      return (
        <>
          <h1>Page not found</h1>
          <p>
            There is no page at {r.path}. <a href="/">Go home</a>.
          </p>
        </>
      );
  }
}

function Header() {
  const s = session.value;
  const here = location.value.pathname === '/login' ? '/' : location.value.pathname + location.value.search;
  return (
    <header class="site-header">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <a class="brand" href="/">
        Tracker
      </a>
      <nav aria-label="Main">
        <ul>
          <li>
            <a href="/">Home</a>
          </li>
          <li>
            <a href="/enter_bug.cgi">New bug</a>
          </li>
          <li>
            <a href="/query.cgi">Search</a>
          </li>
          <li>
            <a href="/report.cgi">Reports</a>
          </li>
          {s && (
            <li>
              <a href="/userprefs.cgi?tab=account">Preferences</a>
            </li>
          )}
          {s && (administersSomething(userGroups.value) || (rights.value?.administeredProducts.length ?? 0) > 0) && (
            <li>
              <a href="/admin.cgi">Administration</a>
            </li>
          )}
        </ul>
      </nav>
      {route.value.page !== 'home' && <QuickSearchForm id="header-quicksearch" compact />}
      <div class="account">
        {s ? (
          <>
            <span class="who">{s.login}</span>
            <button
              type="button"
              onClick={async () => {
                await logOut();
                announce('You are logged out.');
                navigate('/');
              }}
            >
              Log out
            </button>
          </>
        ) : (
          <a href={`/login?return=${encodeURIComponent(here)}`}>Log in</a>
        )}
      </div>
    </header>
  );
}

const TITLES: Record<string, string> = {
  home: 'Tracker',
  buglist: 'Bug list',
  query: 'Search for bugs',
  bug: 'Bug',
  enter: 'File a bug',
  attachment: 'Attachment',
  prefs: 'Preferences',
  auth: 'Authentication delegation',
  login: 'Log in',
  admin: 'Administration',
  signup: 'Create a new account',
  forgotPassword: 'Forgot your password?',
  mailToken: 'Account request',
  notfound: 'Page not found',
};

export function App() {
  const main = useRef<HTMLElement>(null);
  const loc = location.value;
  const page = route.value.page;
  // A title per page (the bug and filing pages refine it once they know more).
  useEffect(() => {
    document.title = page === 'home' ? 'Tracker' : `${TITLES[page]} – Tracker`;
  }, [page, loc.search]);
  // On each page change, move focus to the page so screen readers start at its heading.
  useEffect(() => {
    main.current?.focus({ preventScroll: true });
  }, [loc.pathname, loc.search]);
  return (
    <>
      <Header />
      <main id="main" ref={main} tabIndex={-1}>
        <Page />
      </main>
      <div class="announcer" role="status" aria-live="polite">
        {announcement.value}
      </div>
      <footer class="site-footer">
        <p>
          Tracker — <a href="/rest/openapi.json">REST API</a>
        </p>
      </footer>
    </>
  );
}
