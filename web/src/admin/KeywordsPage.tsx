import { useState } from 'preact/hooks';
import { countBugs } from '../api/tracker.ts';
import { ErrorMessage, Loading, StatusLine } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { AdminFrame } from './AdminFrame.tsx';
import { Confirm } from './Confirm.tsx';
import { changeKeyword, createKeyword, deleteKeyword, type Keyword, listKeywords } from './peopleApi.ts';
import { useAction } from './useAction.ts';

/** editkeywords.cgi: the keywords bugs may carry, with how many bugs carry each (editkeywords). */
export function KeywordsPage() {
  return (
    <AdminFrame cgi="editkeywords">
      <Keywords />
    </AdminFrame>
  );
}

const bugsWith = (name: string) => `/buglist.cgi?keywords=${encodeURIComponent(name)}&keywords_type=allwords`;

async function keywordsWithCounts(): Promise<Keyword[]> {
  const keywords = await listKeywords();
  return Promise.all(
    keywords.map(async (k) => ({
      ...k,
      bug_count: await countBugs(
        new URLSearchParams({ keywords: k.name, keywords_type: 'allwords', count_only: '1' }),
      ).catch(() => undefined),
    })),
  );
}

function Keywords() {
  const keywords = useLoad(keywordsWithCounts, []);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Keyword | null>(null);
  const removal = useAction();
  return (
    <>
      <ErrorMessage error={keywords.error} />
      <ErrorMessage error={removal.error}>
        <p>The keyword was not deleted.</p>
      </ErrorMessage>
      {removal.done && <StatusLine text={removal.done} />}
      {keywords.loading && !keywords.data && <Loading what="keywords" />}
      {keywords.data && (
        <table class="admin-table">
          <caption>{keywords.data.length} keywords</caption>
          <thead>
            <tr>
              <th scope="col">Keyword</th>
              <th scope="col">Description</th>
              <th scope="col">Bugs</th>
              <th scope="col">Active</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {keywords.data.map((k) =>
              editing === k.id ? (
                <tr key={k.id}>
                  <td colSpan={5}>
                    <KeywordForm
                      keyword={k}
                      onDone={() => {
                        setEditing(null);
                        keywords.reload();
                      }}
                    />
                  </td>
                </tr>
              ) : (
                <tr key={k.id}>
                  <th scope="row">{k.name}</th>
                  <td>{k.description}</td>
                  <td class="number">
                    {k.bug_count === undefined ? '' : <a href={bugsWith(k.name)}>{k.bug_count}</a>}
                  </td>
                  <td>{k.is_active === false ? 'no' : 'yes'}</td>
                  <td>
                    <button type="button" onClick={() => setEditing(k.id)}>
                      Edit {k.name}
                    </button>{' '}
                    <button
                      type="button"
                      onClick={() => {
                        removal.clear();
                        setDeleting(k);
                      }}
                    >
                      Delete {k.name}
                    </button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
      {deleting && (
        <Confirm
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete the keyword"
          busy={removal.busy}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            void removal
              .run(() => deleteKeyword(deleting.id), `The keyword ${deleting.name} is deleted.`)
              .then((ok) => {
                setDeleting(null);
                if (ok) keywords.reload();
              })
          }
        >
          <p>
            {deleting.bug_count === undefined
              ? `Tracker could not count the bugs that carry ${deleting.name}.`
              : deleting.bug_count === 0
                ? `No bug carries ${deleting.name}; it goes for good.`
                : `${deleting.bug_count} ${deleting.bug_count === 1 ? 'bug carries' : 'bugs carry'} ${deleting.name}: Tracker refuses to delete a keyword bugs still have (remove it from them, or deactivate it instead).`}
          </p>
        </Confirm>
      )}
      <KeywordForm onDone={keywords.reload} />
    </>
  );
}

/** A new keyword (no `keyword`) or the one being edited, in its table row. */
function KeywordForm({ keyword, onDone }: { keyword?: Keyword; onDone: () => void }) {
  const [name, setName] = useState(keyword?.name ?? '');
  const [description, setDescription] = useState(keyword?.description ?? '');
  const [active, setActive] = useState(keyword?.is_active !== false);
  const [confirming, setConfirming] = useState(false);
  const act = useAction();
  const prefix = keyword ? `keyword-${keyword.id}` : 'keyword-new';
  const deactivating = keyword !== undefined && keyword.is_active !== false && !active;
  const save = async () => {
    setConfirming(false);
    const ok = keyword
      ? await act.run(
          () =>
            changeKeyword(keyword.id, {
              ...(name !== keyword.name ? { name } : {}),
              ...(description !== keyword.description ? { description } : {}),
              ...(active !== (keyword.is_active !== false) ? { is_active: active } : {}),
            }),
          'The keyword is saved.',
        )
      : await act.run(
          () => createKeyword({ name: name.trim(), description }),
          `The keyword ${name.trim()} is created.`,
        );
    if (ok) {
      if (!keyword) {
        setName('');
        setDescription('');
      }
      onDone();
    }
  };
  return (
    <form
      class="admin-form"
      aria-labelledby={`${prefix}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        if (deactivating) setConfirming(true);
        else void save();
      }}
    >
      <h2 id={`${prefix}-title`}>{keyword ? `Edit ${keyword.name}` : 'Add a keyword'}</h2>
      <label>
        Name
        <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Description
        <input required value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      {keyword && (
        <label class="check">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          Active: may be added to bugs
        </label>
      )}
      {confirming && keyword && (
        <Confirm
          title={`Deactivate ${keyword.name}?`}
          confirmLabel="Deactivate the keyword"
          busy={act.busy}
          onConfirm={() => void save()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {keyword.bug_count ?? 'Some'} bugs carry {keyword.name}; they keep it, but it can no longer be added to a
            bug.
          </p>
        </Confirm>
      )}
      <ErrorMessage error={act.error}>
        <p>{keyword ? 'The keyword was not changed.' : 'The keyword was not created.'}</p>
      </ErrorMessage>
      {act.done && <StatusLine text={act.done} />}
      <p>
        <button type="submit" disabled={act.busy || confirming}>
          {keyword ? 'Save the keyword' : 'Add keyword'}
        </button>
        {keyword && (
          <>
            {' '}
            <button type="button" onClick={onDone}>
              Cancel
            </button>
          </>
        )}
      </p>
    </form>
  );
}
