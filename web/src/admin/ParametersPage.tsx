import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorMessage, Loading, StatusLine } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { adminHref } from '../lib/routes.ts';
import { loadUserContext } from '../state/catalog.ts';
import { AdminFrame } from './AdminFrame.tsx';
import { Confirm } from './Confirm.tsx';
import { type ParameterInfo, type ParameterPanel, panelsFor, parameterChanges } from './parameterCatalog.ts';
import { changeParameters, getAllParameters } from './peopleApi.ts';
import { useAction } from './useAction.ts';

/** editparams.cgi?section=...: the parameters, one of Bugzilla's panels at a time (tweakparams). */
export function ParametersPage({ params }: { params: URLSearchParams }) {
  return (
    <AdminFrame cgi="editparams">
      <Parameters section={params.get('section') ?? 'core'} />
    </AdminFrame>
  );
}

function Parameters({ section }: { section: string }) {
  const values = useLoad(getAllParameters, []);
  if (values.error) return <ErrorMessage error={values.error} />;
  if (!values.data) return <Loading what="the parameters" />;
  const panels = panelsFor(values.data);
  const panel = panels.find((x) => x.id === section) ?? panels[0]!;
  return (
    <>
      <nav aria-label="Parameter sections">
        <ul class="tags">
          {panels.map((x) => (
            <li key={x.id}>
              <a
                href={adminHref('editparams', { section: x.id })}
                aria-current={x.id === panel.id ? 'page' : undefined}
              >
                {x.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <PanelForm key={panel.id} panel={panel} stored={values.data} onSaved={values.reload} />
    </>
  );
}

/** Changes that close the installation or lock visitors out are confirmed first. */
function warningsFor(changes: Record<string, string>): string[] {
  const warnings: string[] = [];
  if (changes.shutdownhtml) warnings.push('Tracker closes: every page and API call shows the shutdown text instead.');
  if (changes.requirelogin === '1') warnings.push('Visitors who are not logged in can no longer read any bug.');
  if (changes.mail_delivery_method === 'None') warnings.push('No bug mail is sent any more.');
  return warnings;
}

function PanelForm({
  panel,
  stored,
  onSaved,
}: {
  panel: ParameterPanel;
  stored: Record<string, unknown>;
  onSaved: () => void;
}) {
  const [form, setForm] = useState<Record<string, string>>(() =>
    Object.fromEntries(panel.parameters.map((x) => [x.name, String(stored[x.name] ?? '')])),
  );
  const [confirming, setConfirming] = useState(false);
  const act = useAction();
  const changes = parameterChanges(stored, form);
  const warnings = warningsFor(changes);
  const save = async () => {
    setConfirming(false);
    const names = Object.keys(changes).join(', ');
    if (await act.run(() => changeParameters(changes), `Saved: ${names}.`)) {
      onSaved();
      // The pages everyone uses read some parameters (the defaults of a new bug): read them again.
      void loadUserContext();
    }
  };
  return (
    <form
      class="admin-form"
      aria-labelledby="panel-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (Object.keys(changes).length === 0) return;
        if (warnings.length > 0) setConfirming(true);
        else void save();
      }}
    >
      <h2 id="panel-title">{panel.title}</h2>
      <p class="hint">{panel.description}</p>
      {panel.parameters.map((x) => (
        <ParameterInput
          key={x.name}
          info={x}
          value={form[x.name] ?? ''}
          onChange={(v) => setForm({ ...form, [x.name]: v })}
        />
      ))}
      {confirming && (
        <Confirm
          title="Save these parameters?"
          confirmLabel="Save the parameters"
          onConfirm={() => void save()}
          onCancel={() => setConfirming(false)}
          busy={act.busy}
        >
          <ul>
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Confirm>
      )}
      <ErrorMessage error={act.error}>
        <p>Nothing was changed.</p>
      </ErrorMessage>
      {act.done && <StatusLine text={act.done} />}
      <p>
        <button type="submit" disabled={act.busy || confirming || Object.keys(changes).length === 0}>
          Save changes
        </button>
      </p>
    </form>
  );
}

function ParameterInput({
  info,
  value,
  onChange,
}: {
  info: ParameterInfo;
  value: string;
  onChange: (v: string) => void;
}) {
  const id = `param-${info.name}`;
  const hint = info.description ? (
    <p class="hint" id={`${id}-hint`}>
      {info.description}
    </p>
  ) : null;
  const describedBy = info.description ? `${id}-hint` : undefined;
  if (info.kind === 'boolean') {
    return (
      <div>
        <label class="check">
          <input
            type="checkbox"
            aria-describedby={describedBy}
            checked={value === '1'}
            onChange={(e) => onChange(e.currentTarget.checked ? '1' : '0')}
          />
          {info.name}
        </label>
        {hint}
      </div>
    );
  }
  let input: JSX.Element;
  if (typeof info.kind === 'object') {
    input = (
      <select id={id} aria-describedby={describedBy} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {info.kind.choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  } else if (info.kind === 'long') {
    input = (
      <textarea
        id={id}
        rows={3}
        aria-describedby={describedBy}
        value={value}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  } else {
    input = (
      <input
        id={id}
        inputMode={info.kind === 'number' ? 'numeric' : undefined}
        aria-describedby={describedBy}
        value={value}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    );
  }
  return (
    <div>
      <label for={id}>{info.name}</label>
      {input}
      {hint}
    </div>
  );
}
