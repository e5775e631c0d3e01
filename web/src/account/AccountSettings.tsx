import { useEffect, useState } from 'preact/hooks';
import { updateOwnAccount } from '../api/tracker.ts';
import { ErrorMessage, StatusLine } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { ownAccountChanges, rightsFrom } from '../lib/rights.ts';
import { ensureParameters, parameters } from '../state/catalog.ts';
import { announce } from '../state/router.ts';
import { rights, type Session, setSession } from '../state/session.ts';

/**
 * Real name, password, bug mail and, with the allowemailchange parameter on, a new login
 * (PUT /rest/preferences/account: anyone logged in, for their own account, as Bugzilla's account
 * preferences). A new password needs the current one and ends the person's other login sessions;
 * this one goes on with the token the answer carries. A new login changes nothing yet: the new
 * address is mailed a link that makes it the login when opened (the old one a link to cancel).
 */
export function AccountSettings({ current }: { current: Session }) {
  const [realName, setRealName] = useState(current.realName ?? '');
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [email, setEmail] = useState('');
  const [pendingEmail, setPendingEmail] = useState('');
  // Bugzilla shows the new address field only while allowemailchange is on (the API answers 304 otherwise).
  const emailChangeAllowed = parameters.value.allowemailchange === '1';
  useEffect(() => {
    void ensureParameters();
  }, []);
  // Until GET /rest/whoami has answered, the box shows mail on and is sent only if changed.
  const mailNow = rights.value?.emailEnabled ?? true;
  const [mail, setMail] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const planned = ownAccountChanges(
      { realName, mail: mail ?? mailNow, currentPassword, password, confirm, email: emailChangeAllowed ? email : '' },
      { realName: current.realName ?? '', mail: mailNow, login: current.login },
    );
    if ('problem' in planned) {
      setError(new Error(planned.problem));
      return;
    }
    const { changes } = planned;
    if (!Object.keys(changes).length) {
      announce('Nothing changed: nothing to save.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await updateOwnAccount(changes);
      setPassword('');
      setConfirm('');
      setCurrentPassword('');
      setEmail('');
      if (answer.email_change_pending) setPendingEmail(answer.email_change_pending);
      // A new password ended every login token, this one too: the answer carries its successor.
      setSession({ ...current, realName, ...(answer.token ? { token: answer.token } : {}) });
      if (changes.email_enabled !== undefined) {
        rights.value = { ...(rights.value ?? rightsFrom({})), emailEnabled: changes.email_enabled };
      }
      setMail(null);
      const saved = password ? 'Account saved. Your new password ended your other login sessions.' : 'Account saved.';
      announce(answer.email_change_pending ? `${saved} ${emailPendingText(answer.email_change_pending)}` : saved);
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
      {pendingEmail && <StatusLine text={emailPendingText(pendingEmail)} />}
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
        <label class="checkbox">
          <input type="checkbox" checked={mail ?? mailNow} onChange={(e) => setMail(e.currentTarget.checked)} />
          Send me bug mail
        </label>
        {emailChangeAllowed && (
          <TextField
            label="New email address"
            id="account-new-email"
            type="email"
            value={email}
            onInput={setEmail}
            autocomplete="email"
            hint="Your login changes only when you open the link mailed to the new address."
          />
        )}
        <TextField
          label="Current password"
          id="account-current-password"
          type="password"
          value={currentPassword}
          onInput={setCurrentPassword}
          autocomplete="current-password"
          hint="Needed only to set a new password or email address."
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

function emailPendingText(address: string): string {
  return `A link to confirm ${address} has been mailed there; your login changes to it when the link is opened. Your current address got a link that cancels the change.`;
}
