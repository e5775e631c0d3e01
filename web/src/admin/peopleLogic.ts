/** Pure logic of the people pages (unit-tested in test/unit/adminLogic.test.ts). */

export interface UserForm {
  login: string;
  realName: string;
  password: string;
  mail: boolean;
  disabledText: string;
}

/** The body of PUT /rest/user/{id}: only what differs from the stored account. */
export function userChanges(
  stored: { name: string; real_name?: string; email_enabled?: boolean; login_denied_text?: string },
  form: UserForm,
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (form.login.trim() !== stored.name) changes.email = form.login.trim();
  if (form.realName !== (stored.real_name ?? '')) changes.full_name = form.realName;
  if (form.password) changes.password = form.password;
  if (form.mail !== (stored.email_enabled !== false)) changes.email_enabled = form.mail;
  if (form.disabledText.trim() !== (stored.login_denied_text ?? ''))
    changes.login_denied_text = form.disabledText.trim();
  return changes;
}

type Change = { add?: string[]; remove?: string[] };

function diff(before: ReadonlySet<string>, after: ReadonlySet<string>): Change | undefined {
  const add = [...after].filter((g) => !before.has(g)).sort();
  const remove = [...before].filter((g) => !after.has(g)).sort();
  if (add.length === 0 && remove.length === 0) return undefined;
  return { ...(add.length ? { add } : {}), ...(remove.length ? { remove } : {}) };
}

/** `groups` and `bless_groups` changes of PUT /rest/user/{id} from the checkboxes. */
export function groupChanges(
  memberBefore: ReadonlySet<string>,
  memberAfter: ReadonlySet<string>,
  blessBefore: ReadonlySet<string>,
  blessAfter: ReadonlySet<string>,
): { groups?: Change; bless_groups?: Change } {
  const groups = diff(memberBefore, memberAfter);
  const bless = diff(blessBefore, blessAfter);
  return { ...(groups ? { groups } : {}), ...(bless ? { bless_groups: bless } : {}) };
}
