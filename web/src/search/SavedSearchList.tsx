import { useState } from 'preact/hooks';
import { forgetSavedSearch, listSavedSearches, type SavedSearch, shareSavedSearch } from '../api/tracker.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { savedSearchHref } from '../lib/savedSearches.ts';
import { parameters } from '../state/catalog.ts';
import { announce } from '../state/router.ts';
import { inGroup, userGroups } from '../state/session.ts';

/**
 * The person's saved searches, to run, share with a group or forget, and the searches others
 * shared with a group the person is in, to run (Bugzilla's saved-searches preferences).
 */
export function SavedSearchList() {
  const loaded = useLoad(listSavedSearches, []);
  const [error, setError] = useState<unknown>(null);
  const act = async (what: () => Promise<unknown>, done: string) => {
    setError(null);
    try {
      await what();
      announce(done);
      loaded.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const shareGroup = parameters.value.querysharegroup;
  const mayShare = userGroups.value.length > 0 && (!shareGroup || inGroup(shareGroup));
  return (
    <section aria-labelledby="saved-searches-heading">
      <h2 id="saved-searches-heading">Saved searches</h2>
      <ErrorMessage error={loaded.error ?? error} />
      {loaded.loading && !loaded.data && <Loading what="saved searches" />}
      {loaded.data &&
        (loaded.data.length === 0 ? (
          <p>No saved searches yet: use "Save this search" under a bug list.</p>
        ) : (
          <ul class="saved-searches">
            {loaded.data.map((search) => (
              <SavedSearchItem
                key={search.id}
                search={search}
                mayShare={mayShare}
                onShare={(group) =>
                  act(
                    () => shareSavedSearch(search.id, group),
                    group ? `${search.name} is shared with ${group}.` : `${search.name} is no longer shared.`,
                  )
                }
                onForget={() => act(() => forgetSavedSearch(search.id), `${search.name} was forgotten.`)}
              />
            ))}
          </ul>
        ))}
    </section>
  );
}

function SavedSearchItem({
  search,
  mayShare,
  onShare,
  onForget,
}: {
  search: SavedSearch;
  mayShare: boolean;
  onShare: (group: string | null) => void;
  onForget: () => void;
}) {
  const [group, setGroup] = useState(search.shared_with_group ?? '');
  const selectId = `share-${search.id}`;
  return (
    <li>
      <a href={savedSearchHref(search)}>{search.name}</a>
      {search.is_own ? (
        search.shared_with_group && <span class="hint"> (shared with {search.shared_with_group})</span>
      ) : (
        <span class="hint"> (shared by {search.owner})</span>
      )}
      {search.is_own && (
        <span class="saved-search-actions">
          {mayShare && (
            <form
              class="inline"
              aria-label={`Share ${search.name}`}
              onSubmit={(e) => {
                e.preventDefault();
                onShare(group === '' ? null : group);
              }}
            >
              <label for={selectId}>Share {search.name} with</label>{' '}
              <select id={selectId} value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
                <option value="">nobody</option>
                {userGroups.value.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>{' '}
              <button type="submit" class="secondary">
                Share
              </button>
            </form>
          )}{' '}
          <button type="button" class="secondary" aria-label={`Forget ${search.name}`} onClick={onForget}>
            Forget
          </button>
        </span>
      )}
    </li>
  );
}
