/** The advanced search form's values to a shareable buglist.cgi address, and back. */

export interface CustomRow {
  field: string;
  operator: string;
  value: string;
}

export interface SearchForm {
  summary: string;
  summaryType: string;
  product: string[];
  component: string[];
  status: string[];
  resolution: string[];
  priority: string[];
  severity: string[];
  keywords: string;
  keywordsType: string;
  longdesc: string;
  /** People: an address, and which roles it must have. */
  email: string;
  emailRoles: string[];
  emailType: string;
  changedFrom: string;
  changedTo: string;
  flag: string;
  rows: CustomRow[];
}

export const EMAIL_ROLES = ['assigned_to', 'reporter', 'qa_contact', 'cc', 'longdesc'] as const;

export function emptySearchForm(): SearchForm {
  return {
    summary: '',
    summaryType: 'allwordssubstr',
    product: [],
    component: [],
    status: [],
    resolution: [],
    priority: [],
    severity: [],
    keywords: '',
    keywordsType: 'allwords',
    longdesc: '',
    email: '',
    emailRoles: ['assigned_to', 'reporter', 'cc'],
    emailType: 'substring',
    changedFrom: '',
    changedTo: '',
    flag: '',
    rows: [],
  };
}

export function searchFormToQuery(form: SearchForm): URLSearchParams {
  const q = new URLSearchParams();
  q.set('query_format', 'advanced');
  if (form.summary.trim()) {
    q.set('short_desc', form.summary.trim());
    q.set('short_desc_type', form.summaryType);
  }
  for (const p of form.product) q.append('product', p);
  for (const c of form.component) q.append('component', c);
  for (const s of form.status) q.append('bug_status', s);
  for (const r of form.resolution) q.append('resolution', r);
  for (const p of form.priority) q.append('priority', p);
  for (const s of form.severity) q.append('bug_severity', s);
  if (form.keywords.trim()) {
    q.set('keywords', form.keywords.trim());
    q.set('keywords_type', form.keywordsType);
  }
  if (form.longdesc.trim()) {
    q.set('longdesc', form.longdesc.trim());
    q.set('longdesc_type', 'allwordssubstr');
  }
  if (form.email.trim() && form.emailRoles.length > 0) {
    q.set('email1', form.email.trim());
    q.set('emailtype1', form.emailType);
    for (const role of form.emailRoles) q.set(`email${role}1`, '1');
  }
  if (form.changedFrom.trim() || form.changedTo.trim()) {
    q.set('chfieldfrom', form.changedFrom.trim());
    q.set('chfieldto', form.changedTo.trim() || 'Now');
  }
  let n = 1;
  if (form.flag.trim()) {
    q.set(`f${n}`, 'flagtypes.name');
    q.set(`o${n}`, 'substring');
    q.set(`v${n}`, form.flag.trim());
    n++;
  }
  for (const row of form.rows) {
    if (!row.field || !row.operator) continue;
    q.set(`f${n}`, row.field);
    q.set(`o${n}`, row.operator);
    q.set(`v${n}`, row.value);
    n++;
  }
  return q;
}

/** Reads a query back into the form (for "edit this search"). Unknown parameters are dropped. */
export function queryToSearchForm(q: URLSearchParams): SearchForm {
  const form = emptySearchForm();
  form.summary = q.get('short_desc') ?? q.get('summary') ?? '';
  form.summaryType = q.get('short_desc_type') ?? form.summaryType;
  form.product = q.getAll('product');
  form.component = q.getAll('component');
  form.status = [...q.getAll('bug_status'), ...q.getAll('status')];
  form.resolution = q.getAll('resolution');
  form.priority = q.getAll('priority');
  form.severity = [...q.getAll('bug_severity'), ...q.getAll('severity')];
  form.keywords = q.get('keywords') ?? '';
  form.keywordsType = q.get('keywords_type') ?? form.keywordsType;
  form.longdesc = q.get('longdesc') ?? '';
  form.email = q.get('email1') ?? '';
  form.emailType = q.get('emailtype1') ?? form.emailType;
  if (form.email) form.emailRoles = EMAIL_ROLES.filter((r) => q.get(`email${r}1`) === '1');
  form.changedFrom = q.get('chfieldfrom') ?? '';
  form.changedTo = q.get('chfieldto') === 'Now' ? '' : (q.get('chfieldto') ?? '');
  for (let n = 1; n < 100; n++) {
    const field = q.get(`f${n}`);
    if (field === null) continue;
    const operator = q.get(`o${n}`) ?? '';
    const value = q.get(`v${n}`) ?? '';
    if (field === 'flagtypes.name' && operator === 'substring' && !form.flag) form.flag = value;
    else form.rows.push({ field, operator, value });
  }
  return form;
}

/** Bugzilla's advanced-search operators. */
export const OPERATORS: readonly [string, string][] = [
  ['equals', 'is equal to'],
  ['notequals', 'is not equal to'],
  ['anyexact', 'is equal to any of the strings'],
  ['substring', 'contains the string'],
  ['casesubstring', 'contains the string (exact case)'],
  ['notsubstring', 'does not contain the string'],
  ['anywordssubstr', 'contains any of the strings'],
  ['allwordssubstr', 'contains all of the strings'],
  ['nowordssubstr', 'contains none of the strings'],
  ['regexp', 'matches regular expression'],
  ['notregexp', 'does not match regular expression'],
  ['lessthan', 'is less than'],
  ['lessthaneq', 'is less than or equal to'],
  ['greaterthan', 'is greater than'],
  ['greaterthaneq', 'is greater than or equal to'],
  ['anywords', 'contains any of the words'],
  ['allwords', 'contains all of the words'],
  ['nowords', 'contains none of the words'],
  ['changedbefore', 'changed before'],
  ['changedafter', 'changed after'],
  ['changedfrom', 'changed from'],
  ['changedto', 'changed to'],
  ['changedby', 'changed by'],
  ['isempty', 'is empty'],
  ['isnotempty', 'is not empty'],
];
