import { useState } from 'preact/hooks';
import { ErrorMessage } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { announce } from '../state/router.ts';
import { logInWithApiKey, logInWithPassword } from './auth.ts';
import { SingleSignOnButton } from './SingleSignOn.tsx';

/** Log in with a login and password (a session token), or with an API key. */
export function LoginForm({ onDone, headingLevel = 2 }: { onDone?: () => void; headingLevel?: 1 | 2 }) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      setPassword('');
      setApiKey('');
      announce('You are logged in.');
      onDone?.();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="login" aria-labelledby="login-heading">
      <Heading id="login-heading">Log in</Heading>
      <ErrorMessage error={error} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => logInWithPassword(login.trim(), password));
        }}
      >
        <TextField label="Login" id="login-name" value={login} onInput={setLogin} autocomplete="username" required />
        <TextField
          label="Password"
          id="login-password"
          type="password"
          value={password}
          onInput={setPassword}
          autocomplete="current-password"
          required
        />
        <button type="submit" disabled={busy}>
          Log in
        </button>
      </form>
      <p class="login-links">
        <a href="/token.cgi?a=reqpw">Forgot your password?</a> · <a href="/createaccount.cgi">Create a new account</a>
      </p>
      <SingleSignOnButton />
      <details>
        <summary>Log in with an API key</summary>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => logInWithApiKey(apiKey.trim()));
          }}
        >
          <TextField label="API key" id="login-api-key" type="password" value={apiKey} onInput={setApiKey} required />
          <button type="submit" disabled={busy}>
            Log in with API key
          </button>
        </form>
      </details>
    </section>
  );
}
