import { useId, useState } from 'preact/hooks';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { MultiSelect, Select, TextField } from '../components/Select.tsx';
import { useLoad } from '../components/useLoad.ts';
import {
  type CustomRow,
  EMAIL_ROLES,
  OPERATORS,
  queryToSearchForm,
  type SearchForm,
  searchFormToQuery,
} from '../lib/searchForm.ts';
import { fields, legalValues, loadFields, loadProducts, productLists } from '../state/catalog.ts';
import { navigate } from '../state/router.ts';
import { session } from '../state/session.ts';
import { SavedSearchList } from './SavedSearchList.tsx';

const ROLE_LABELS: Record<(typeof EMAIL_ROLES)[number], string> = {
  assigned_to: 'the assignee',
  reporter: 'the reporter',
  qa_contact: 'the QA contact',
  cc: 'a CC list member',
  longdesc: 'a commenter',
};

const TEXT_TYPES: [string, string][] = [
  ['allwordssubstr', 'contains all of the strings'],
  ['anywordssubstr', 'contains any of the strings'],
  ['substring', 'contains the string'],
  ['casesubstring', 'contains the string (exact case)'],
  ['allwords', 'contains all of the words'],
  ['anywords', 'contains any of the words'],
  ['regexp', 'matches the regular expression'],
  ['notregexp', 'does not match the regular expression'],
];

export function SearchPage({ params }: { params: URLSearchParams }) {
  const loaded = useLoad(async () => {
    const [products] = await Promise.all([loadProducts('selectable'), loadFields()]);
    return products;
  }, [session.value?.login]);
  if (loaded.loading) return <Loading what="the search form" />;
  if (!loaded.data) return <ErrorMessage error={loaded.error} />;
  // The catalogue's list once it has one: it shows a change found when the app reads it again.
  const products = productLists.value.selectable ?? loaded.data;
  return <SearchFormView products={products} initial={queryToSearchForm(params)} />;
}

function SearchFormView({
  products,
  initial,
}: {
  products: { name: string; components: { name: string }[] }[];
  initial: SearchForm;
}) {
  const [form, setForm] = useState<SearchForm>(initial);
  const set = (patch: Partial<SearchForm>) => setForm((f) => ({ ...f, ...patch }));
  const id = useId();
  const chosenProducts = form.product.length ? products.filter((p) => form.product.includes(p.name)) : products;
  const components = [...new Set(chosenProducts.flatMap((p) => p.components.map((c) => c.name)))].sort();
  const href = `/buglist.cgi?${searchFormToQuery(form).toString()}`;
  const searchable = (fields.value ?? [])
    .map((f) => [f.name, f.display_name] as [string, string])
    .sort((a, b) => a[1].localeCompare(b[1]));

  return (
    <>
      <h1>Search for bugs</h1>
      <form
        aria-label="Advanced search"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(href);
        }}
      >
        <fieldset>
          <legend>Text</legend>
          <div class="custom-row">
            <TextField
              label="Summary"
              id="search-summary"
              value={form.summary}
              onInput={(summary) => set({ summary })}
            />
            <Select
              label="Summary match"
              value={form.summaryType}
              options={TEXT_TYPES.map(([v]) => v)}
              labels={Object.fromEntries(TEXT_TYPES)}
              onChange={(summaryType) => set({ summaryType })}
            />
          </div>
          <TextField
            label="Comment text"
            id="search-comment"
            value={form.longdesc}
            onInput={(longdesc) => set({ longdesc })}
          />
          <div class="custom-row">
            <TextField
              label="Keywords"
              id="search-keywords"
              value={form.keywords}
              onInput={(keywords) => set({ keywords })}
            />
            <Select
              label="Keywords match"
              value={form.keywordsType}
              options={['allwords', 'anywords', 'nowords']}
              labels={{
                allwords: 'contains all of the keywords',
                anywords: 'contains any of the keywords',
                nowords: 'contains none of the keywords',
              }}
              onChange={(keywordsType) => set({ keywordsType })}
            />
          </div>
        </fieldset>
        <fieldset>
          <legend>Bug fields</legend>
          <div class="grid">
            <MultiSelect
              label="Product"
              values={form.product}
              options={products.map((p) => p.name)}
              onChange={(product) => set({ product })}
            />
            <MultiSelect
              label="Component"
              values={form.component}
              options={components}
              onChange={(component) => set({ component })}
            />
            <MultiSelect
              label="Status"
              values={form.status}
              options={legalValues('bug_status')}
              onChange={(status) => set({ status })}
            />
            <MultiSelect
              label="Resolution"
              values={form.resolution}
              options={legalValues('resolution').filter(Boolean)}
              onChange={(resolution) => set({ resolution })}
            />
            <MultiSelect
              label="Priority"
              values={form.priority}
              options={legalValues('priority')}
              onChange={(priority) => set({ priority })}
            />
            <MultiSelect
              label="Severity"
              values={form.severity}
              options={legalValues('bug_severity')}
              onChange={(severity) => set({ severity })}
            />
          </div>
        </fieldset>
        <fieldset>
          <legend>People</legend>
          <div class="custom-row">
            <TextField
              label="Person (login)"
              id="search-email"
              value={form.email}
              onInput={(email) => set({ email })}
            />
            <Select
              label="Person match"
              value={form.emailType}
              options={['substring', 'equals', 'notequals', 'regexp']}
              labels={{
                substring: 'contains',
                equals: 'is',
                notequals: 'is not',
                regexp: 'matches the regular expression',
              }}
              onChange={(emailType) => set({ emailType })}
            />
          </div>
          <fieldset>
            <legend>Who is</legend>
            {EMAIL_ROLES.map((role) => (
              <label key={role} class="checkbox">
                <input
                  type="checkbox"
                  checked={form.emailRoles.includes(role)}
                  onChange={(e) =>
                    set({
                      emailRoles: e.currentTarget.checked
                        ? [...form.emailRoles, role]
                        : form.emailRoles.filter((r) => r !== role),
                    })
                  }
                />
                {ROLE_LABELS[role]}
              </label>
            ))}
          </fieldset>
        </fieldset>
        <fieldset>
          <legend>Dates and flags</legend>
          <div class="grid">
            <TextField
              label="Changed after"
              id="search-changed-from"
              value={form.changedFrom}
              onInput={(changedFrom) => set({ changedFrom })}
              hint="YYYY-MM-DD or relative: -1d, -2w"
            />
            <TextField
              label="Changed before"
              id="search-changed-to"
              value={form.changedTo}
              onInput={(changedTo) => set({ changedTo })}
              hint="YYYY-MM-DD, empty for now"
            />
            <TextField
              label="Flag"
              id="search-flag"
              value={form.flag}
              onInput={(flag) => set({ flag })}
              hint="For example review?"
            />
          </div>
        </fieldset>
        <fieldset>
          <legend>Custom search</legend>
          {form.rows.map((row, i) => (
            <CustomRowView
              key={i}
              index={i}
              row={row}
              fields={searchable}
              onChange={(r) => set({ rows: form.rows.map((x, j) => (j === i ? r : x)) })}
              onRemove={() => set({ rows: form.rows.filter((_, j) => j !== i) })}
            />
          ))}
          <button
            type="button"
            class="secondary"
            onClick={() => set({ rows: [...form.rows, { field: '', operator: 'substring', value: '' }] })}
          >
            Add a condition
          </button>
        </fieldset>
        <div class="actions">
          <button type="submit">Search</button>
          <a href={href} id={`share-${id}`}>
            Link to this search
          </a>
        </div>
      </form>
      {session.value && <SavedSearchList />}
    </>
  );
}

function CustomRowView({
  index,
  row,
  fields,
  onChange,
  onRemove,
}: {
  index: number;
  row: CustomRow;
  fields: [string, string][];
  onChange: (row: CustomRow) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  return (
    <div class="custom-row">
      <div class="field">
        <label for={`f${n}`}>Field {n}</label>
        <select id={`f${n}`} value={row.field} onChange={(e) => onChange({ ...row, field: e.currentTarget.value })}>
          <option value="">---</option>
          {fields.map(([name, label]) => (
            <option key={name} value={name}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`o${n}`}>Operator {n}</label>
        <select
          id={`o${n}`}
          value={row.operator}
          onChange={(e) => onChange({ ...row, operator: e.currentTarget.value })}
        >
          {OPERATORS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`v${n}`}>Value {n}</label>
        <input id={`v${n}`} value={row.value} onInput={(e) => onChange({ ...row, value: e.currentTarget.value })} />
      </div>
      <button type="button" class="secondary" onClick={onRemove} aria-label={`Remove condition ${n}`}>
        Remove
      </button>
    </div>
  );
}
