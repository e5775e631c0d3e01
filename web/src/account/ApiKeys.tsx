import { useState } from 'preact/hooks';
import { createApiKey, listApiKeys, updateApiKey } from '../api/tracker.ts';
import type { ApiKey } from '../api/types.ts';
import { formatTime } from '../components/format.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { useLoad } from '../components/useLoad.ts';
import { announce } from '../state/router.ts';

export function keysOf(answer: { api_keys?: ApiKey[]; keys?: ApiKey[] } | ApiKey[]): ApiKey[] {
  if (Array.isArray(answer)) return answer;
  return answer.api_keys ?? answer.keys ?? [];
}

/** API keys: create (shown once), describe, revoke or re-enable. */
export function ApiKeys({ login }: { login: string }) {
  const loaded = useLoad(async () => keysOf(await listApiKeys(login)), [login]);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      loaded.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="apikeys-heading">
      <h2 id="apikeys-heading">API keys</h2>
      <p>
        An API key lets a program use Tracker as you (header <code>X-BUGZILLA-API-KEY</code>). Revoke a key you no
        longer use.
      </p>
      <ErrorMessage error={error} />
      {created && (
        <div class="message ok" role="status">
          <p>Your new API key (it is shown only this once, copy it now):</p>
          <p>
            <code class="api-key">{created}</code>
          </p>
        </div>
      )}
      {loaded.loading && <Loading what="API keys" />}
      <ErrorMessage error={loaded.error} />
      {loaded.data && loaded.data.length > 0 && (
        <div class="table-wrap">
          <table class="responsive">
            <caption class="visually-hidden">Your API keys</caption>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.map((k) => (
                <KeyRow
                  key={k.id}
                  apiKey={k}
                  busy={busy}
                  onChange={(c) => run(() => updateApiKey(login, k.id, c).then(() => announce('API key saved.')))}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form
        aria-label="New API key"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const r = await createApiKey(login, description.trim());
            setCreated(r.api_key);
            setDescription('');
            announce('API key created.');
          });
        }}
      >
        <h3>New API key</h3>
        <TextField
          label="Description of the new key"
          id="new-key-description"
          value={description}
          onInput={setDescription}
        />
        <button type="submit" disabled={busy}>
          Create API key
        </button>
      </form>
    </section>
  );
}

function KeyRow({
  apiKey,
  busy,
  onChange,
}: {
  apiKey: ApiKey;
  busy: boolean;
  onChange: (c: { revoked?: boolean; description?: string }) => void;
}) {
  const [description, setDescription] = useState(apiKey.description);
  const inputId = `key-desc-${apiKey.id}`;
  return (
    <tr>
      <td data-label="Description">
        <label for={inputId} class="visually-hidden">
          Description of key {apiKey.id}
        </label>
        <input id={inputId} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        {description !== apiKey.description && (
          <button type="button" class="secondary" disabled={busy} onClick={() => onChange({ description })}>
            Save description
          </button>
        )}
      </td>
      <td data-label="Created">{formatTime(apiKey.creation_time)}</td>
      <td data-label="Last used">{apiKey.last_used ? formatTime(apiKey.last_used) : 'never'}</td>
      <td data-label="State">{apiKey.revoked ? 'revoked' : 'active'}</td>
      <td data-label="Actions">
        <button
          type="button"
          class="secondary"
          disabled={busy}
          aria-label={`${apiKey.revoked ? 'Re-enable' : 'Revoke'} key ${apiKey.description || apiKey.id}`}
          onClick={() => onChange({ revoked: !apiKey.revoked })}
        >
          {apiKey.revoked ? 'Re-enable' : 'Revoke'}
        </button>
      </td>
    </tr>
  );
}
