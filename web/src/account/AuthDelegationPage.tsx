import { useState } from 'preact/hooks';
import { createApiKey } from '../api/tracker.ts';
import { ErrorMessage } from '../components/Messages.tsx';
import { checkDelegation, delegationRedirect } from '../lib/authDelegation.ts';
import { session } from '../state/session.ts';
import { LoginRequired } from './LoginPage.tsx';

/**
 * auth.cgi: a third-party site asks for an API key. As Bugzilla: the person must be logged in and
 * agree (an explicit click on this page: another site can neither frame it nor make the click);
 * then a key described by the site's description is created and the browser goes to the callback
 * with `client_api_key` and `client_api_login` (lib/authDelegation.ts says why not a POST).
 */
export function AuthDelegationPage({ callback, description }: { callback: string; description: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const check = checkDelegation(callback, description);
  const current = session.value;
  if (!check.ok) {
    return (
      <>
        <h1>Authentication delegation</h1>
        <div class="message error" role="alert">
          <p>{check.message}</p>
        </div>
      </>
    );
  }
  if (!current) {
    return (
      <>
        <h1>Authentication delegation request</h1>
        <p>
          A site ({check.callbackBase}) asks for access to your Tracker account. Log in first; you will then be asked to
          agree.
        </p>
        <LoginRequired what="answer this request" />
      </>
    );
  }
  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      const key = await createApiKey(current.login, description.trim());
      window.location.assign(delegationRedirect(check.callback, current.login, key.api_key));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <>
      <h1>Authentication delegation request</h1>
      <p>
        A third-party website (<a href={check.callbackBase}>{check.callbackBase}</a>) would like to have{' '}
        <strong>complete</strong> access to your Tracker account ({current.login}).
      </p>
      <p>The description of the site reads:</p>
      <blockquote>{description}</blockquote>
      <p>
        Do you want this website to have <strong>complete</strong> access to your Tracker account? It gets an API key,
        which you can revoke at any time under <a href="/userprefs.cgi?tab=apikey">Preferences → API keys</a>.
      </p>
      <ErrorMessage error={error} />
      <div class="actions">
        <button type="button" onClick={accept} disabled={busy}>
          Accept
        </button>
        <a href="/">Decline</a>
      </div>
    </>
  );
}
