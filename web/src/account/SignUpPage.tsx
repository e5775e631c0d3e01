import { useState } from 'preact/hooks';
import { ErrorMessage, StatusLine } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { offerAccount } from './accountMail.ts';

/** createaccount.cgi: an address, and a mail with the link that creates the account. */
export function SignUpPage() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [sentTo, setSentTo] = useState('');

  if (sentTo) {
    return (
      <>
        <h1>Create a new account</h1>
        <StatusLine
          text={`A confirmation email has been sent to ${sentTo} containing a link to continue creating an account. The link will expire if an account is not created within 3 days.`}
        />
      </>
    );
  }
  return (
    <section aria-labelledby="signup-heading">
      <h1 id="signup-heading">Create a new account</h1>
      <p>
        To create an account, enter your email address. A link to confirm it, choose a password and finish creating the
        account will be mailed to you.
      </p>
      <ErrorMessage error={error} />
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            await offerAccount(email.trim());
            setSentTo(email.trim());
          } catch (failure) {
            setError(failure);
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField
          label="Email address"
          id="signup-email"
          type="email"
          value={email}
          onInput={setEmail}
          autocomplete="email"
          required
        />
        <button type="submit" disabled={busy}>
          Send
        </button>
      </form>
      <p>
        Already have an account? <a href="/login">Log in</a>.
      </p>
    </section>
  );
}
