import { useEffect, useState } from 'preact/hooks';
import { LoginRequired } from '../account/LoginPage.tsx';
import { createBug } from '../api/tracker.ts';
import type { Product } from '../api/types.ts';
import {
  type AttachmentDraft,
  AttachmentFields,
  emptyAttachment,
  sendAttachment,
} from '../attachment/AttachmentUpload.tsx';
import { CustomFieldInputs, visibleCustomFields } from '../components/CustomFields.tsx';
import { splitList } from '../components/format.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { Select, TextField } from '../components/Select.tsx';
import { UserInput } from '../components/UserInput.tsx';
import { useLoad } from '../components/useLoad.ts';
import { bugHref } from '../lib/routes.ts';
import {
  ensureParameters,
  fields as fieldDefs,
  isInsider,
  legalValues,
  loadFields,
  loadProducts,
  parameters,
  productLists,
} from '../state/catalog.ts';
import { announce, navigate } from '../state/router.ts';
import { session } from '../state/session.ts';
import { PossibleDuplicates } from './PossibleDuplicates.tsx';

export function EnterBugPage({ product, component }: { product: string; component: string }) {
  if (!session.value) {
    return (
      <>
        <h1>File a bug</h1>
        <LoginRequired what="file a bug" />
      </>
    );
  }
  return <EnterBug product={product} component={component} />;
}

function EnterBug({ product, component }: { product: string; component: string }) {
  const loaded = useLoad(async () => {
    // The parameters too: the form's defaults (severity, priority, platform, OS) come from them.
    const [products] = await Promise.all([loadProducts('enterable'), loadFields(), ensureParameters()]);
    return products;
  }, [session.value?.login]);
  if (loaded.loading) return <Loading what="products" />;
  if (!loaded.data) return <ErrorMessage error={loaded.error} />;
  // The catalogue's list once it has one: it shows a change found when the app reads it again.
  const products = (productLists.value.enterable ?? loaded.data).filter((p) => p.is_active !== false);
  const chosen = products.find((p) => p.name === product);
  if (!chosen) {
    return (
      <>
        <h1>File a bug: choose a product</h1>
        {products.length === 0 ? (
          <p>There is no product you may file bugs in.</p>
        ) : (
          <ul>
            {products.map((p) => (
              <li key={p.name}>
                <a href={`/enter_bug.cgi?product=${encodeURIComponent(p.name)}`}>{p.name}</a>
                {p.description ? ` — ${p.description}` : ''}
              </li>
            ))}
          </ul>
        )}
      </>
    );
  }
  return <EnterBugForm product={chosen} initialComponent={component} />;
}

function pick(values: readonly string[], preferred: string | undefined): string {
  if (preferred && values.includes(preferred)) return preferred;
  return values[0] ?? '';
}

function EnterBugForm({ product, initialComponent }: { product: Product; initialComponent: string }) {
  const components = product.components.filter((c) => c.is_active);
  const versions = product.versions.filter((v) => v.is_active).map((v) => v.name);
  const params = parameters.value;
  const [form, setForm] = useState(() => ({
    component: pick(
      components.map((c) => c.name),
      initialComponent,
    ),
    version: pick(versions, 'unspecified') || versions[versions.length - 1] || '',
    summary: '',
    description: '',
    priority: pick(legalValues('priority'), params.defaultpriority),
    severity: pick(legalValues('bug_severity'), params.defaultseverity),
    platform: pick(legalValues('rep_platform'), params.defaultplatform),
    op_sys: pick(legalValues('op_sys'), params.defaultopsys),
    assigned_to: '',
    cc: '',
    keywords: '',
    groups: '',
    url: '',
  }));
  const [custom, setCustom] = useState<Record<string, string | string[]>>({});
  const [attachment, setAttachment] = useState<AttachmentDraft>(emptyAttachment);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [filed, setFiled] = useState<number | null>(null);
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const canPrivate = isInsider();

  useEffect(() => {
    document.title = `File a bug in ${product.name}`;
  }, [product.name]);

  const component = components.find((c) => c.name === form.component);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      let id = filed;
      if (id === null) {
        const fields: Record<string, unknown> = {
          product: product.name,
          component: form.component,
          version: form.version,
          summary: form.summary.trim(),
          description: form.description,
          priority: form.priority,
          severity: form.severity,
          platform: form.platform,
          op_sys: form.op_sys,
        };
        if (form.assigned_to.trim()) fields.assigned_to = form.assigned_to.trim();
        if (form.cc.trim()) fields.cc = splitList(form.cc);
        if (form.keywords.trim()) fields.keywords = splitList(form.keywords);
        if (form.groups.trim()) fields.groups = splitList(form.groups);
        if (form.url.trim()) fields.url = form.url.trim();
        for (const [name, value] of Object.entries(custom)) {
          if (Array.isArray(value) ? value.length : value.trim()) fields[name] = value;
        }
        id = (await createBug(fields)).id;
        setFiled(id);
      }
      if (attachment.file) await sendAttachment(id, attachment);
      announce(`Bug ${id} filed.`);
      navigate(bugHref(id));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>File a bug in {product.name}</h1>
      <p>
        <a href="/enter_bug.cgi">Choose another product</a>
      </p>
      <ErrorMessage error={error}>
        {filed === null ? (
          <p>The bug was not filed; everything you typed is still here.</p>
        ) : (
          <p>
            <a href={bugHref(filed)}>Bug {filed}</a> was filed, but the attachment was not added. Try again, or add it
            from the bug's page.
          </p>
        )}
      </ErrorMessage>
      <form
        aria-label="File a bug"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div class="grid">
          <Select
            label="Component"
            id="enter-component"
            value={form.component}
            options={components.map((c) => c.name)}
            onChange={(v) => set({ component: v })}
            required
          />
          <Select
            label="Version"
            id="enter-version"
            value={form.version}
            options={versions}
            onChange={(v) => set({ version: v })}
          />
          <Select
            label="Severity"
            value={form.severity}
            options={legalValues('bug_severity')}
            onChange={(v) => set({ severity: v })}
          />
          <Select
            label="Priority"
            value={form.priority}
            options={legalValues('priority')}
            onChange={(v) => set({ priority: v })}
          />
          <Select
            label="Hardware"
            value={form.platform}
            options={legalValues('rep_platform')}
            onChange={(v) => set({ platform: v })}
          />
          <Select label="OS" value={form.op_sys} options={legalValues('op_sys')} onChange={(v) => set({ op_sys: v })} />
        </div>
        {component?.description && <p class="hint">{component.description}</p>}
        <TextField
          label="Summary"
          id="enter-summary"
          value={form.summary}
          onInput={(v) => set({ summary: v })}
          required
        />
        <PossibleDuplicates summary={form.summary} product={product.name} />
        <div class="field">
          <label for="enter-description">Description</label>
          <textarea
            id="enter-description"
            value={form.description}
            onInput={(e) => set({ description: e.currentTarget.value })}
          />
        </div>
        <details>
          <summary>More fields</summary>
          <div class="grid">
            <UserInput
              label="Assignee"
              value={form.assigned_to}
              onInput={(v) => set({ assigned_to: v })}
              placeholder={component?.default_assigned_to}
            />
            <UserInput label="CC" value={form.cc} onInput={(v) => set({ cc: v })} multiple />
            <TextField label="Keywords" value={form.keywords} onInput={(v) => set({ keywords: v })} />
            <TextField
              label="Groups"
              value={form.groups}
              onInput={(v) => set({ groups: v })}
              hint="Restrict the bug to these groups"
            />
            <TextField label="URL" value={form.url} onInput={(v) => set({ url: v })} />
          </div>
        </details>
        <CustomFieldInputs
          fields={visibleCustomFields(fieldDefs.value ?? [], { product: product.name, ...form, ...custom }, true)}
          values={custom}
          product={product.name}
          onChange={(name, value) => setCustom((c) => ({ ...c, [name]: value }))}
        />
        <fieldset>
          <legend>Attachment (optional)</legend>
          <AttachmentFields value={attachment} onChange={setAttachment} canPrivate={canPrivate} />
        </fieldset>
        <button type="submit" disabled={busy}>
          {filed === null ? 'Submit bug' : 'Add the attachment'}
        </button>
      </form>
    </>
  );
}
