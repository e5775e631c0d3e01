import { useState } from 'preact/hooks';
import { type AdminProduct, createProduct, listAdminProducts } from '../../api/adminCatalog.ts';
import { ErrorMessage, Loading, StatusLine } from '../../components/Messages.tsx';
import { TextField } from '../../components/Select.tsx';
import { useLoad } from '../../components/useLoad.ts';
import { adminHref } from '../../lib/routes.ts';
import { rights, userGroups } from '../../state/session.ts';
import { AdminFrame } from '../AdminFrame.tsx';
import { ProductEditor } from './ProductEditor.tsx';
import { useAction } from './useAction.ts';

const inGroup = (name: string) => userGroups.value.includes(name) || userGroups.value.includes('admin');

/**
 * editproducts.cgi: the products the caller administers (all of them for editcomponents, else
 * those where a group of theirs has the editcomponents control) and, for editcomponents, a new
 * product; `?product=` edits one.
 */
export function ProductsPage({ params }: { params: URLSearchParams }) {
  const product = params.get('product');
  if (product) return <ProductEditor key={product} name={product} />;
  return (
    <AdminFrame cgi="editproducts">
      <ProductList />
    </AdminFrame>
  );
}

function ProductList() {
  const administered = rights.value?.administeredProducts ?? [];
  const products = useLoad(() => listAdminProducts(), [administered.join('\n')]);
  if (products.loading && !products.data) return <Loading what="products" />;
  if (products.error) return <ErrorMessage error={products.error} />;
  const mine = (products.data ?? []).filter((p) => inGroup('editcomponents') || administered.includes(p.name));
  const classifications = [...new Set((products.data ?? []).map((p) => p.classification).filter(Boolean))].sort();
  return (
    <>
      <table class="admin-table">
        <caption>Products you administer</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Description</th>
            <th scope="col">Classification</th>
            <th scope="col">Open for bugs</th>
            <th scope="col" class="number">
              Components
            </th>
          </tr>
        </thead>
        <tbody>
          {mine.map((p: AdminProduct) => (
            <tr key={p.id}>
              <th scope="row">
                <a href={adminHref('editproducts', { product: p.name })}>{p.name}</a>
              </th>
              <td>{p.description}</td>
              <td>{p.classification}</td>
              <td>{p.is_active ? 'yes' : 'no'}</td>
              <td class="number">{p.components.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {inGroup('editcomponents') && <NewProduct classifications={classifications} reload={products.reload} />}
      {inGroup('editclassifications') && (
        <p>
          <a href={adminHref('editclassifications')}>Classifications</a> are created and described on their own page.
        </p>
      )}
    </>
  );
}

function NewProduct({ classifications, reload }: { classifications: string[]; reload: () => void }) {
  const action = useAction();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [version, setVersion] = useState('unspecified');
  const [classification, setClassification] = useState('');
  return (
    <section aria-labelledby="new-product">
      <h2 id="new-product">Add a product</h2>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <form
        class="admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          const created = name.trim();
          void action.run(
            () =>
              createProduct({
                name: created,
                description,
                version,
                ...(classification.trim() ? { classification: classification.trim() } : {}),
              }),
            `The product ${created} was created.`,
            () => {
              setName('');
              setDescription('');
              reload();
            },
          );
        }}
      >
        <TextField label="Product name" value={name} onInput={setName} required />
        <TextField label="Product description" value={description} onInput={setDescription} required />
        <TextField label="First version" value={version} onInput={setVersion} required />
        <TextField
          label="Classification"
          value={classification}
          onInput={setClassification}
          hint={`Empty for Unclassified. Known: ${classifications.join(', ') || 'none yet'}.`}
        />
        <button type="submit" disabled={action.busy}>
          Add product
        </button>
      </form>
    </section>
  );
}
