import { useState } from 'preact/hooks';
import { updateUser } from '../api/tracker.ts';
import { ErrorMessage } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { announce } from '../state/router.ts';
import { inGroup, type Session, setSession } from '../state/session.ts';

/** Real name and password (PUT /rest/user/{login}). */
export function AccountSettings({ current }: { current: Session }) {
  const [realName, setRealName] = useState(current.realName ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (password && password !== confirm) {
      setError(new Error('The two new passwords differ.'));
      return;
    }
    const changes: Record<string, unknown> = {};
    if (realName !== (current.realName ?? '')) changes.full_name = realName;
    if (password) changes.password = password;
    if (!Object.keys(changes).length) {
      announce('Nothing changed: nothing to save.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await updateUser(current.login, changes);
      setPassword('');
      setConfirm('');
      setSession({ ...current, realName });
      announce(password ? 'Account saved. A new password ends your other login sessions.' : 'Account saved.');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">Account</h2>
      <p>Login: {current.login}</p>
      {!inGroup('editusers') && (
        <p class="message">
          Tracker's API lets only user administrators (the editusers group) change an account, so ask one to change your
          real name or password; the form below will be refused for you.
        </p>
      )}
      <ErrorMessage error={error} />
      <form
        aria-label="Account settings"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          label="Real name"
          id="account-real-name"
          value={realName}
          onInput={setRealName}
          autocomplete="name"
        />
        <TextField
          label="New password"
          id="account-password"
          type="password"
          value={password}
          onInput={setPassword}
          autocomplete="new-password"
        />
        <TextField
          label="Confirm new password"
          id="account-password-confirm"
          type="password"
          value={confirm}
          onInput={setConfirm}
          autocomplete="new-password"
        />
        <button type="submit" disabled={busy}>
          Save account
        </button>
      </form>
    </section>
  );
}
