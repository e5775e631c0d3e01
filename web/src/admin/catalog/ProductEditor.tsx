import { useState } from 'preact/hooks';
import {
  type AdminProduct,
  countMatching,
  createProductValue,
  deleteProduct,
  deleteProductValue,
  getAdminProduct,
  updateProduct,
  updateProductValue,
  type ValueKind,
} from '../../api/adminCatalog.ts';
import { ErrorMessage, Loading, StatusLine } from '../../components/Messages.tsx';
import { Select, TextField } from '../../components/Select.tsx';
import { useLoad } from '../../components/useLoad.ts';
import { adminHref } from '../../lib/routes.ts';
import { navigate } from '../../state/router.ts';
import { userGroups } from '../../state/session.ts';
import { AdminFrame } from '../AdminFrame.tsx';
import { ComponentsSection } from './ComponentsSection.tsx';
import { bugCount, Confirm } from './Confirm.tsx';
import { GroupControlsSection } from './GroupControlsSection.tsx';
import { useAction } from './useAction.ts';
import { ValueTable } from './ValueTable.tsx';

/**
 * One product, as editproducts.cgi?action=edit shows it with the pages it links to: its details,
 * components (editcomponents.cgi), versions, milestones and, for editcomponents, its group
 * controls (the SHOWN/NA/MANDATORY matrix) and classification.
 */
export function ProductEditor({ name }: { name: string }) {
  const loaded = useLoad(() => getAdminProduct(name), [name]);
  const product = loaded.data;
  const global = userGroups.value.includes('editcomponents') || userGroups.value.includes('admin');
  return (
    <AdminFrame cgi="editproducts" title={`Product ${name}`}>
      <p>
        <a href={adminHref('editproducts')}>All products</a>
      </p>
      {loaded.loading && !product && <Loading what="the product" />}
      <ErrorMessage error={loaded.error} />
      {!loaded.loading && !loaded.error && !product && (
        <p class="message" role="alert">
          There is no product named {name} that you may see.
        </p>
      )}
      {product && (
        <>
          <ProductDetails product={product} global={global} reload={loaded.reload} />
          <ComponentsSection product={product} reload={loaded.reload} />
          <ProductValues product={product} kind="version" reload={loaded.reload} />
          <ProductValues product={product} kind="milestone" reload={loaded.reload} />
          {global && <GroupControlsSection product={product} reload={loaded.reload} />}
          {global && <DeleteProduct product={product} />}
        </>
      )}
    </AdminFrame>
  );
}

function ProductDetails({ product, global, reload }: { product: AdminProduct; global: boolean; reload: () => void }) {
  const action = useAction();
  const [name, setName] = useState(product.name);
  const [description, setDescription] = useState(product.description);
  const [open, setOpen] = useState(product.is_active);
  const [unconfirmed, setUnconfirmed] = useState(product.has_unconfirmed);
  const [milestone, setMilestone] = useState(product.default_milestone);
  const [classification, setClassification] = useState(product.classification);
  return (
    <section aria-labelledby="product-details">
      <h2 id="product-details">Details</h2>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <form
        class="admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          const changes: Record<string, unknown> = {};
          if (name.trim() !== product.name) changes.name = name.trim();
          if (description !== product.description) changes.description = description;
          if (open !== product.is_active) changes.is_open = open;
          if (unconfirmed !== product.has_unconfirmed) changes.has_unconfirmed = unconfirmed;
          if (milestone !== product.default_milestone) changes.default_milestone = milestone;
          if (global && classification.trim() !== product.classification)
            changes.classification = classification.trim();
          void action.run(
            () => updateProduct(product.name, changes),
            `The product ${product.name} was saved.`,
            () => {
              if (changes.name) navigate(adminHref('editproducts', { product: String(changes.name) }), true);
              else reload();
            },
          );
        }}
      >
        <TextField label="Name" value={name} onInput={setName} required />
        <TextField label="Description" value={description} onInput={setDescription} required />
        <Select
          label="Default milestone"
          value={milestone}
          options={product.milestones.filter((m) => m.is_active).map((m) => m.name)}
          onChange={setMilestone}
        />
        {global && <TextField label="Classification" value={classification} onInput={setClassification} />}
        <label class="check">
          <input type="checkbox" checked={open} onChange={(e) => setOpen(e.currentTarget.checked)} /> Open for bug entry
        </label>
        <label class="check">
          <input type="checkbox" checked={unconfirmed} onChange={(e) => setUnconfirmed(e.currentTarget.checked)} /> New
          bugs may start UNCONFIRMED
        </label>
        <button type="submit" disabled={action.busy}>
          Save product
        </button>
      </form>
    </section>
  );
}

const TITLES: Record<ValueKind, string> = { version: 'Versions', milestone: 'Milestones' };
const SEARCH_FIELD: Record<ValueKind, string> = { version: 'version', milestone: 'target_milestone' };

function ProductValues({ product, kind, reload }: { product: AdminProduct; kind: ValueKind; reload: () => void }) {
  const values = kind === 'version' ? product.versions : product.milestones;
  return (
    <section aria-labelledby={`product-${kind}s`}>
      <h2 id={`product-${kind}s`}>{TITLES[kind]}</h2>
      <ValueTable
        noun={kind}
        values={values.map((v) => ({
          ...v,
          ...(kind === 'milestone' && v.name === product.default_milestone
            ? { note: 'the default', locked: 'The default milestone cannot be renamed or disabled.' }
            : {}),
        }))}
        count={(name) => countMatching({ product: product.name, [SEARCH_FIELD[kind]]: name })}
        create={(value) => createProductValue(product.name, kind, value)}
        update={(name, changes) => updateProductValue(product.name, kind, name, changes)}
        remove={(name) => deleteProductValue(product.name, kind, name)}
        reload={reload}
      />
    </section>
  );
}

/**
 * editproducts.cgi?action=del for editcomponents: says first what goes with the product (its
 * components, versions, milestones) and how many bugs it has; Tracker refuses while it has any,
 * as Bugzilla does with allowbugdeletion off.
 */
function DeleteProduct({ product }: { product: AdminProduct }) {
  const action = useAction();
  const [effect, setEffect] = useState<string | null | undefined>(undefined);
  const parts = `${product.components.length} components, ${product.versions.length} versions and ${product.milestones.length} milestones`;
  const start = () => {
    setEffect(null);
    countMatching({ product: product.name }).then(
      (n) =>
        setEffect(
          n === 0
            ? `No bug is in ${product.name}. It goes with its ${parts}.`
            : `${bugCount(n)} ${n === 1 ? 'is' : 'are'} in ${product.name}: Tracker refuses to delete a product with bugs (move them to another product first).`,
        ),
      (e) => {
        setEffect(undefined);
        void action.run(() => Promise.reject(e), '');
      },
    );
  };
  return (
    <section aria-labelledby="product-delete">
      <h2 id="product-delete">Delete the product</h2>
      <ErrorMessage error={action.error} />
      {effect === undefined ? (
        <button type="button" class="danger" onClick={start}>
          Delete {product.name}
        </button>
      ) : (
        <Confirm
          question={`Delete the product ${product.name}?`}
          effect={effect}
          confirmLabel={`Delete ${product.name} for good`}
          busy={action.busy}
          onCancel={() => setEffect(undefined)}
          onConfirm={() =>
            void action
              .run(
                () => deleteProduct(product.name),
                `The product ${product.name} was deleted.`,
                () => navigate(adminHref('editproducts'), true),
              )
              .then(() => setEffect(undefined))
          }
        />
      )}
    </section>
  );
}
