import { navigate } from '../state/router.ts';
import { session } from '../state/session.ts';
import { LoginForm } from './LoginForm.tsx';

export function LoginPage({ returnTo }: { returnTo: string }) {
  if (session.value) {
    return (
      <>
        <h1>Log in</h1>
        <p>
          You are logged in as {session.value.login}. <a href={returnTo}>Continue</a>
        </p>
      </>
    );
  }
  return <LoginForm headingLevel={1} onDone={() => navigate(returnTo, true)} />;
}

/** What a page shows in place of itself when it needs a login. */
export function LoginRequired({ what }: { what: string }) {
  return (
    <>
      <p class="message">You must log in to {what}.</p>
      <LoginForm />
    </>
  );
}
