import { useState } from 'preact/hooks';
import { ErrorMessage, StatusLine } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { requestPasswordReset } from './accountMail.ts';

/** token.cgi?a=reqpw: a login, and (if it has an account) a mail with a link that sets a new password. */
export function ForgotPasswordPage() {
  const [login, setLogin] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState(false);

  return (
    <section aria-labelledby="reqpw-heading">
      <h1 id="reqpw-heading">Forgot your password?</h1>
      {sent ? (
        <StatusLine text="If an account has that login, a token for changing its password has been emailed to it. Follow the instructions in that email to change your password." />
      ) : (
        <>
          <p>Enter your login name; a link that lets you choose a new password will be mailed to you.</p>
          <ErrorMessage error={error} />
          <form
            onSubmit={async (e) => {
              e.preventDefault();
              setBusy(true);
              setError(null);
              try {
                await requestPasswordReset(login.trim());
                setSent(true);
              } catch (failure) {
                setError(failure);
              } finally {
                setBusy(false);
              }
            }}
          >
            <TextField
              label="Login"
              id="reqpw-login"
              value={login}
              onInput={setLogin}
              autocomplete="username"
              required
            />
            <button type="submit" disabled={busy}>
              Reset Password
            </button>
          </form>
        </>
      )}
      <p>
        <a href="/login">Back to log in</a>
      </p>
    </section>
  );
}
