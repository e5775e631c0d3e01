import { useState } from 'preact/hooks';
import {
  type Classification,
  createClassification,
  getClassifications,
  listAdminProducts,
  updateClassification,
} from '../../api/adminCatalog.ts';
import { ErrorMessage, Loading, StatusLine } from '../../components/Messages.tsx';
import { TextField } from '../../components/Select.tsx';
import { useLoad } from '../../components/useLoad.ts';
import { adminHref } from '../../lib/routes.ts';
import { AdminFrame } from '../AdminFrame.tsx';
import { useAction } from './useAction.ts';

/**
 * editclassifications.cgi: the classifications (those the products name, and those created here
 * since the page opened: the API lists classifications by name only), each with its description,
 * sort key and products; a new one. Products move between them from their own page.
 */
export function ClassificationsPage() {
  const [created, setCreated] = useState<string[]>([]);
  const loaded = useLoad(async () => {
    const products = await listAdminProducts();
    const names = [...new Set(['Unclassified', ...products.map((p) => p.classification).filter(Boolean), ...created])];
    return getClassifications(names);
  }, [created.join('\n')]);
  return (
    <AdminFrame cgi="editclassifications">
      {loaded.loading && !loaded.data && <Loading what="classifications" />}
      <ErrorMessage error={loaded.error} />
      {loaded.data?.map((c) => (
        <ClassificationEditor key={`${c.id}-${c.name}`} classification={c} reload={loaded.reload} />
      ))}
      <NewClassification onCreated={(name) => setCreated([...created, name])} />
    </AdminFrame>
  );
}

function ClassificationEditor({ classification, reload }: { classification: Classification; reload: () => void }) {
  const action = useAction();
  const [name, setName] = useState(classification.name);
  const [description, setDescription] = useState(classification.description);
  const [sortKey, setSortKey] = useState(String(classification.sort_key));
  return (
    <section aria-labelledby={`classification-${classification.id}`}>
      <h2 id={`classification-${classification.id}`}>{classification.name}</h2>
      <p>
        Products:{' '}
        {classification.products.length === 0
          ? 'none'
          : classification.products.map((p, i) => (
              <span key={p.name}>
                {i > 0 && ', '}
                <a href={adminHref('editproducts', { product: p.name })}>{p.name}</a>
              </span>
            ))}
      </p>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <form
        class="admin-form"
        aria-label={`Edit classification ${classification.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          const changes: { name?: string; description?: string; sort_key?: number } = {};
          if (name.trim() !== classification.name) changes.name = name.trim();
          if (description !== classification.description) changes.description = description;
          if (Number(sortKey) !== classification.sort_key) changes.sort_key = Number(sortKey);
          void action.run(
            () => updateClassification(classification.name, changes),
            `The classification ${name.trim()} was saved.`,
            reload,
          );
        }}
      >
        <TextField label={`Name of ${classification.name}`} value={name} onInput={setName} required />
        <TextField label={`Description of ${classification.name}`} value={description} onInput={setDescription} />
        <TextField label={`Sort key of ${classification.name}`} type="number" value={sortKey} onInput={setSortKey} />
        <button type="submit" disabled={action.busy}>
          Save {classification.name}
        </button>
      </form>
    </section>
  );
}

function NewClassification({ onCreated }: { onCreated: (name: string) => void }) {
  const action = useAction();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  return (
    <section aria-labelledby="new-classification">
      <h2 id="new-classification">Add a classification</h2>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <form
        class="admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          const created = name.trim();
          void action.run(
            () => createClassification({ name: created, description }),
            `The classification ${created} was created.`,
            () => {
              setName('');
              setDescription('');
              onCreated(created);
            },
          );
        }}
      >
        <TextField label="Classification name" value={name} onInput={setName} required />
        <TextField label="Classification description" value={description} onInput={setDescription} required />
        <button type="submit" disabled={action.busy}>
          Add classification
        </button>
      </form>
    </section>
  );
}
