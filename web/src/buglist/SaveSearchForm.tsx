import { useState } from 'preact/hooks';
import { saveSearch } from '../api/tracker.ts';
import { ErrorMessage } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { searchParams } from '../lib/buglistQuery.ts';
import { savedSearchHref } from '../lib/savedSearches.ts';

/**
 * "Save this search" under a bug list (Bugzilla's "Remember search"): the list's criteria are
 * kept under a name; a name already used gets the new criteria.
 */
export function SaveSearchForm({ params }: { params: URLSearchParams }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<{ name: string; href: string } | null>(null);
  return (
    <form
      class="save-search"
      aria-label="Save this search"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        setSaved(null);
        try {
          const search = await saveSearch(name, searchParams(params).toString());
          setSaved({ name: search.name, href: savedSearchHref(search) });
          setName('');
        } catch (failure) {
          setError(failure);
        }
      }}
    >
      <TextField label="Name of the search" id="save-search-name" value={name} onInput={setName} required />
      <button type="submit">Save this search</button>
      <p class="status-line" role="status">
        {saved && (
          <>
            Saved as <a href={saved.href}>{saved.name}</a>.
          </>
        )}
      </p>
      <ErrorMessage error={error} />
    </form>
  );
}
