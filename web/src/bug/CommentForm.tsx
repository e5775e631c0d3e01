import { useState } from 'preact/hooks';
import { ErrorMessage } from '../components/Messages.tsx';

/** A comment alone (for people who may comment but not edit the bug). */
export function CommentForm({
  text,
  isPrivate,
  canPrivate,
  onChange,
  onSend,
}: {
  text: string;
  isPrivate: boolean;
  canPrivate: boolean;
  onChange: (text: string, isPrivate: boolean) => void;
  onSend: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      aria-label="Add a comment"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          await onSend();
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h2>Add a comment</h2>
      <ErrorMessage error={error}>
        <p>Your comment was not saved; it is still in the box.</p>
      </ErrorMessage>
      <div class="field">
        <label for="bug-comment">Additional comment</label>
        <textarea id="bug-comment" value={text} onInput={(e) => onChange(e.currentTarget.value, isPrivate)} required />
      </div>
      {canPrivate && (
        <label class="checkbox">
          <input type="checkbox" checked={isPrivate} onChange={(e) => onChange(text, e.currentTarget.checked)} />
          Make the comment private
        </label>
      )}
      <button type="submit" disabled={busy || !text.trim()}>
        Add comment
      </button>
    </form>
  );
}
