import { useState } from 'preact/hooks';
import {
  type AdminProduct,
  type ControlValue,
  countMatching,
  type GroupControl,
  listGroupNames,
  updateProduct,
} from '../../api/adminCatalog.ts';
import { ErrorMessage, StatusLine } from '../../components/Messages.tsx';
import { useLoad } from '../../components/useLoad.ts';
import { CONTROL_VALUES, controlRows, isRemoval, sameControl } from '../../lib/groupControls.ts';
import { bugCount, Confirm } from './Confirm.tsx';
import { useAction } from './useAction.ts';

const FLAGS = [
  ['entry', 'Entry'],
  ['canedit', 'Canedit'],
  ['editcomponents', 'editcomponents'],
  ['canconfirm', 'canconfirm'],
  ['editbugs', 'editbugs'],
] as const;

/**
 * editproducts.cgi?action=editgroupcontrols: one row per bug group, with Entry, MemberControl,
 * OtherControl, Canedit, editcomponents, canconfirm and editbugs, and how many of the product's
 * bugs are in the group. A control set back to NA/NA with no flag is removed: that is said first,
 * with the bugs it affects.
 */
export function GroupControlsSection({ product, reload }: { product: AdminProduct; reload: () => void }) {
  const groups = useLoad(() => listGroupNames(), []);
  const stored = product.group_controls ?? [];
  const rows = controlRows(
    stored,
    (groups.data ?? []).filter((g) => g.is_bug_group && g.is_active !== false).map((g) => g.name),
  );
  const [draft, setDraft] = useState<Record<string, GroupControl>>({});
  const [confirming, setConfirming] = useState<{ groups: string[]; effect: string | null } | null>(null);
  const action = useAction();
  const counts = useLoad(
    () =>
      Promise.all(
        rows.map((row) =>
          countMatching({ product: product.name, f1: 'bug_group', o1: 'equals', v1: row.group }).catch(() => -1),
        ),
      ),
    [product.name, rows.map((row) => row.group).join('\n')],
  );
  const current = (group: string) => draft[group] ?? rows.find((row) => row.group === group)!;
  const change = (group: string, patch: Partial<GroupControl>) =>
    setDraft({ ...draft, [group]: { ...current(group), ...patch } });
  const changed = Object.values(draft).filter(
    (control) => !sameControl(control, rows.find((row) => row.group === control.group)!),
  );
  const save = () =>
    void action
      .run(
        () => updateProduct(product.name, { group_controls: changed }),
        'The group controls were saved.',
        () => {
          setDraft({});
          setConfirming(null);
          reload();
        },
      )
      .then((ok) => {
        if (!ok) setConfirming(null);
      });

  return (
    <section aria-labelledby="product-group-controls">
      <h2 id="product-group-controls">Group controls</h2>
      <p class="hint">
        MemberControl and OtherControl say whether a bug of this product is put in the group (Mandatory: always;
        Default: unless unchecked; Shown: when checked; NA: never) for members of the group and for everyone else.
        Entry: only members may file bugs here. Canedit: only members may change its bugs. editcomponents, canconfirm,
        editbugs: members get that right for this product only.
      </p>
      <ErrorMessage error={action.error} />
      <ErrorMessage error={groups.error} />
      {action.done && <StatusLine text={action.done} />}
      <form
        aria-label="Group controls"
        onSubmit={(e) => {
          e.preventDefault();
          const removed = changed.filter((control) => isRemoval(control, stored));
          if (removed.length === 0) return save();
          setConfirming({ groups: removed.map((c) => c.group), effect: null });
          const indexOf = (group: string) => rows.findIndex((row) => row.group === group);
          const affected = removed.reduce((sum, c) => sum + Math.max(0, counts.data?.[indexOf(c.group)] ?? 0), 0);
          setConfirming({
            groups: removed.map((c) => c.group),
            effect: `${bugCount(affected)} of ${product.name} ${affected === 1 ? 'is' : 'are'} in ${removed
              .map((c) => c.group)
              .join(', ')}. They stay in the group, but the group no longer applies to new bugs of this product.`,
          });
        }}
      >
        <div class="table-wrap">
          <table class="admin-table">
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">{FLAGS[0][1]}</th>
                <th scope="col">MemberControl</th>
                <th scope="col">OtherControl</th>
                {FLAGS.slice(1).map(([, label]) => (
                  <th scope="col" key={label}>
                    {label}
                  </th>
                ))}
                <th scope="col" class="number">
                  Bugs
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const control = current(row.group);
                const flag = ([key, label]: (typeof FLAGS)[number]) => (
                  <td key={key}>
                    <input
                      type="checkbox"
                      aria-label={`${label} for ${row.group}`}
                      checked={control[key]}
                      onChange={(e) => change(row.group, { [key]: e.currentTarget.checked })}
                    />
                  </td>
                );
                const select = (key: 'membercontrol' | 'othercontrol', label: string) => (
                  <td>
                    <select
                      aria-label={`${label} for ${row.group}`}
                      value={control[key]}
                      onChange={(e) => change(row.group, { [key]: e.currentTarget.value as ControlValue })}
                    >
                      {CONTROL_VALUES.map((value) => (
                        <option key={value} value={value}>
                          {value}
                        </option>
                      ))}
                    </select>
                  </td>
                );
                const count = counts.data?.[index];
                return (
                  <tr key={row.group}>
                    <th scope="row">{row.group}</th>
                    {flag(FLAGS[0])}
                    {select('membercontrol', 'MemberControl')}
                    {select('othercontrol', 'OtherControl')}
                    {FLAGS.slice(1).map(flag)}
                    <td class="number">{count === undefined || count < 0 ? '' : count}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {rows.length === 0 && <p>No bug groups exist yet.</p>}
        <button type="submit" disabled={action.busy || changed.length === 0}>
          Save group controls
        </button>
      </form>
      {confirming && (
        <Confirm
          question={`Remove the control of ${confirming.groups.join(', ')} on ${product.name}?`}
          effect={confirming.effect}
          confirmLabel="Remove the control"
          busy={action.busy}
          onCancel={() => setConfirming(null)}
          onConfirm={save}
        />
      )}
    </section>
  );
}
