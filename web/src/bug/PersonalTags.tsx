import { useState } from 'preact/hooks';
import { updateTags } from '../api/tracker.ts';
import type { Bug } from '../api/types.ts';
import { ErrorMessage } from '../components/Messages.tsx';
import { announce } from '../state/router.ts';

/** The person's own tags on the bug (PUT /rest/bug/{id}/tags). */
export function PersonalTags({ bug }: { bug: Bug }) {
  const [tags, setTags] = useState<string[]>(bug.tags ?? []);
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const change = async (c: { add?: string[]; remove?: string[] }) => {
    setError(null);
    try {
      await updateTags(bug.id, c);
      const next = new Set(tags);
      for (const t of c.add ?? []) next.add(t);
      for (const t of c.remove ?? []) next.delete(t);
      setTags([...next]);
      setText('');
      announce('Tags saved.');
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section aria-labelledby="tags-heading">
      <h2 id="tags-heading">My tags</h2>
      <ul class="tags" aria-label="My tags">
        {tags.map((t) => (
          <li key={t}>
            {t}{' '}
            <button
              type="button"
              class="secondary"
              aria-label={`Remove my tag ${t}`}
              onClick={() => change({ remove: [t] })}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <form
        class="custom-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) void change({ add: [text.trim()] });
        }}
      >
        <div class="field">
          <label for="personal-tag">New tag</label>
          <input id="personal-tag" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </div>
        <button type="submit" class="secondary">
          Add tag
        </button>
      </form>
      <ErrorMessage error={error} />
    </section>
  );
}
