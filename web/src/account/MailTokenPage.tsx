import { useState } from 'preact/hooks';
import { ErrorMessage, Loading, StatusLine } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { useLoad } from '../components/useLoad.ts';
import {
  cancelMailToken,
  confirmEmailChange,
  createAccount,
  describeMailToken,
  setPasswordWithToken,
} from './accountMail.ts';

/**
 * token.cgi?t=...&a=...: where the links of account mail lead (Bugzilla's actions): create the
 * account (request_new_account), set a password (cfmpw, also an invitation's link), confirm a new
 * e-mail address (cfmem), or cancel the request (cancel_new_account, cxlpw, cxlem).
 */
export function MailTokenPage({ token, action }: { token: string; action: string }) {
  const described = useLoad(() => describeMailToken(token), [token]);
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const cancelling = ['cancel_new_account', 'cxlpw', 'cxlem'].includes(action);

  const run = async (step: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    try {
      setDone(await step());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const heading = cancelling
    ? 'Cancel a request'
    : action === 'request_new_account'
      ? 'Create a new account'
      : action === 'cfmem'
        ? 'Confirm your new email address'
        : 'Choose a new password';

  if (done) {
    return (
      <>
        <h1>{heading}</h1>
        <StatusLine text={done} />
        <p>
          <a href="/login">Log in</a>
        </p>
      </>
    );
  }
  if (described.loading) return <Loading what="the request" />;
  if (described.error || !described.data) {
    return (
      <>
        <h1>{heading}</h1>
        <ErrorMessage error={described.error} />
        <p>
          You can ask for a new link: <a href="/createaccount.cgi">create an account</a> or{' '}
          <a href="/token.cgi?a=reqpw">reset your password</a>.
        </p>
      </>
    );
  }
  const { kind, login } = described.data;
  return (
    <section aria-labelledby="token-heading">
      <h1 id="token-heading">{heading}</h1>
      <ErrorMessage error={error} />
      {cancelling ? (
        <>
          <p>{cancelText(kind, login)}</p>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              run(async () => {
                await cancelMailToken(token);
                return 'The request has been canceled.';
              })
            }
          >
            Cancel the request
          </button>
        </>
      ) : kind === 'emailnew' ? (
        <>
          <p>Your login will become {login}.</p>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              run(async () => `Your login has been changed to ${(await confirmEmailChange(token)).login}.`)
            }
          >
            Confirm the change
          </button>
        </>
      ) : (
        <PasswordForm
          login={login}
          askName={kind === 'account'}
          busy={busy}
          onSubmit={(password, fullName) =>
            run(async () =>
              kind === 'account'
                ? `The user account ${(await createAccount(token, password, fullName)).login} has been created successfully.`
                : `The password of ${(await setPasswordWithToken(token, password)).login} has been changed.`,
            )
          }
        />
      )}
    </section>
  );
}

function cancelText(kind: string, login: string): string {
  if (kind === 'account') return `The request to create an account for ${login} will be canceled.`;
  if (kind === 'emailnew' || kind === 'emailold')
    return `The request to change the email address to ${login} will be canceled (and undone if it was already confirmed).`;
  return `The request to change the password of ${login} will be canceled.`;
}

function PasswordForm({
  login,
  askName,
  busy,
  onSubmit,
}: {
  login: string;
  askName: boolean;
  busy: boolean;
  onSubmit: (password: string, fullName: string) => void;
}) {
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [mismatch, setMismatch] = useState(false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setMismatch(password !== again);
        if (password === again) onSubmit(password, fullName.trim());
      }}
    >
      <p>Account: {login}</p>
      {/* A hidden username lets password managers file the new password under the right login. */}
      <input type="text" autocomplete="username" value={login} hidden readOnly />
      {askName && (
        <TextField
          label="Real name (optional)"
          id="token-real-name"
          value={fullName}
          onInput={setFullName}
          autocomplete="name"
        />
      )}
      <TextField
        label="Password"
        id="token-password"
        type="password"
        value={password}
        onInput={setPassword}
        autocomplete="new-password"
        required
      />
      <TextField
        label="Confirm password"
        id="token-password-again"
        type="password"
        value={again}
        onInput={setAgain}
        autocomplete="new-password"
        required
      />
      {mismatch && (
        <p class="message error" role="alert">
          The two passwords you entered did not match.
        </p>
      )}
      <button type="submit" disabled={busy}>
        {askName ? 'Create' : 'Submit'}
      </button>
    </form>
  );
}
