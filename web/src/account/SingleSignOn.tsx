import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorMessage } from '../components/Messages.tsx';
import { announce, location, navigate, route } from '../state/router.ts';
import { beginSignIn, completeSignIn, loadSignInProvider, signInProvider } from './signInFlow.ts';

/** "Sign in with <issuer>" on the login form, when the installation has single sign-on. */
export function SingleSignOnButton() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(loadSignInProvider, []);
  const provider = signInProvider.value;
  if (!provider) return null;
  const r = route.value;
  const returnTo = r.page === 'login' ? r.returnTo : location.value.pathname + location.value.search;
  return (
    <div class="single-sign-on">
      <ErrorMessage error={error} />
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          beginSignIn(returnTo).catch((e: unknown) => {
            setError(e);
            setBusy(false);
          });
        }}
      >
        Sign in with {provider}
      </button>
    </div>
  );
}

/** /oidc/callback: where the issuer sends the browser back. */
export function SignInCallbackPage({ params }: { params: URLSearchParams }) {
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    completeSignIn(params)
      .then((returnTo) => {
        announce('You are logged in.');
        // Replaces the callback's address (its code is spent) in the history.
        navigate(returnTo, true);
      })
      .catch(setError);
  }, [params]);
  return (
    <>
      <h1>Signing in</h1>
      {error ? (
        <>
          <ErrorMessage error={error} />
          <p>
            <a href="/login">Back to the login form</a>
          </p>
        </>
      ) : (
        <p>Signing you in…</p>
      )}
    </>
  );
}
