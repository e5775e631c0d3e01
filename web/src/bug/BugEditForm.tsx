import { useState } from 'preact/hooks';
import type { Bug, Product } from '../api/types.ts';
import { CustomFieldInputs, visibleCustomFields } from '../components/CustomFields.tsx';
import { Select, TextField } from '../components/Select.tsx';
import { UserInput } from '../components/UserInput.tsx';
import type { Draft } from '../lib/bugDraft.ts';
import type { StatusValue } from '../lib/workflow.ts';
import { fields, legalValues } from '../state/catalog.ts';
import { FlagEditor } from './FlagEditor.tsx';
import { StatusEditor } from './StatusEditor.tsx';

export interface EditContext {
  bug: Bug;
  product: Product | undefined;
  /** Products the person may move the bug to (those they may file in), loaded on demand. */
  products: readonly Product[];
  statuses: readonly StatusValue[];
  canPrivate: boolean;
}

/** Every field an editor may change, in place; one Save sends them with the comment. */
export function BugEditForm({
  ctx,
  draft,
  update,
  busy,
  onSubmit,
}: {
  ctx: EditContext;
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  busy: boolean;
  onSubmit: () => void;
}) {
  const { bug } = ctx;
  const product = ctx.products.find((p) => p.name === draft.product) ?? ctx.product;
  const moveTo = (name: string) => {
    const target = ctx.products.find((p) => p.name === name);
    if (!target) return;
    const names = <T extends { name: string; is_active: boolean }>(list: T[]) =>
      list.filter((x) => x.is_active).map((x) => x.name);
    const versions = names(target.versions);
    update({
      product: name,
      component: names(target.components).includes(draft.component)
        ? draft.component
        : (names(target.components)[0] ?? ''),
      version: versions.includes(draft.version)
        ? draft.version
        : versions.includes('unspecified')
          ? 'unspecified'
          : (versions[0] ?? ''),
      target_milestone: target.default_milestone ?? names(target.milestones)[0] ?? '---',
    });
  };
  const productNames = [...new Set([bug.product, ...ctx.products.map((p) => p.name)])];
  const component = product?.components.find((c) => c.name === draft.component);
  const active = <T extends { name: string; is_active: boolean }>(list: T[] | undefined) =>
    (list ?? []).filter((x) => x.is_active).map((x) => x.name);
  const resolutions = legalValues('resolution').filter(Boolean);
  return (
    <form
      class="bug-edit"
      aria-label={`Edit bug ${bug.id}`}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <TextField
        label="Summary"
        id="bug-summary"
        value={draft.summary}
        onInput={(summary) => update({ summary })}
        required
      />
      <StatusEditor
        current={bug.status}
        draft={draft}
        statuses={ctx.statuses}
        resolutions={resolutions}
        update={update}
      />
      <fieldset>
        <legend>Details</legend>
        <div class="bug-fields">
          <Select label="Product" id="bug-product" value={draft.product} options={productNames} onChange={moveTo} />
          <Select
            label="Component"
            value={draft.component}
            options={active(product?.components)}
            onChange={(v) => update({ component: v })}
          />
          <Select
            label="Version"
            value={draft.version}
            options={active(product?.versions)}
            onChange={(v) => update({ version: v })}
          />
          <Select
            label="Target milestone"
            value={draft.target_milestone}
            options={active(product?.milestones)}
            onChange={(v) => update({ target_milestone: v })}
          />
          <Select
            label="Priority"
            value={draft.priority}
            options={legalValues('priority')}
            onChange={(v) => update({ priority: v })}
          />
          <Select
            label="Severity"
            value={draft.severity}
            options={legalValues('bug_severity')}
            onChange={(v) => update({ severity: v })}
          />
          <Select
            label="Hardware"
            value={draft.platform}
            options={legalValues('rep_platform')}
            onChange={(v) => update({ platform: v })}
          />
          <Select
            label="OS"
            value={draft.op_sys}
            options={legalValues('op_sys')}
            onChange={(v) => update({ op_sys: v })}
          />
          <TextField label="URL" value={draft.url} onInput={(url) => update({ url })} />
          <TextField label="Whiteboard" value={draft.whiteboard} onInput={(whiteboard) => update({ whiteboard })} />
        </div>
      </fieldset>
      <fieldset>
        <legend>People</legend>
        <div class="bug-fields">
          <UserInput
            label="Assignee"
            id="bug-assignee"
            value={draft.assigned_to}
            onInput={(v) => update({ assigned_to: v })}
          />
          <UserInput
            label="QA contact"
            id="bug-qa"
            value={draft.qa_contact}
            onInput={(v) => update({ qa_contact: v })}
          />
          <div>
            {bug.cc.length > 0 && (
              <fieldset>
                <legend>CC list: check to remove</legend>
                {bug.cc.map((login) => (
                  <label key={login} class="checkbox">
                    <input
                      type="checkbox"
                      checked={draft.cc_remove.includes(login)}
                      onChange={(e) =>
                        update({
                          cc_remove: e.currentTarget.checked
                            ? [...draft.cc_remove, login]
                            : draft.cc_remove.filter((x) => x !== login),
                        })
                      }
                    />
                    {login}
                  </label>
                ))}
              </fieldset>
            )}
            <UserInput
              label="Add to CC"
              id="bug-cc-add"
              value={draft.cc_add}
              onInput={(v) => update({ cc_add: v })}
              multiple
            />
          </div>
        </div>
      </fieldset>
      <fieldset>
        <legend>Relations</legend>
        <div class="bug-fields">
          <TextField
            label="Keywords"
            value={draft.keywords}
            onInput={(keywords) => update({ keywords })}
            hint={`Comma-separated. Known: ${legalValues('keywords').join(', ') || 'none'}`}
          />
          <TextField
            label="Depends on"
            value={draft.depends_on}
            onInput={(depends_on) => update({ depends_on })}
            hint="Bug numbers"
          />
          <TextField label="Blocks" value={draft.blocks} onInput={(blocks) => update({ blocks })} hint="Bug numbers" />
          <div>
            {bug.see_also.length > 0 && (
              <fieldset>
                <legend>See also: check to remove</legend>
                {bug.see_also.map((url) => (
                  <label key={url} class="checkbox">
                    <input
                      type="checkbox"
                      checked={draft.see_also_remove.includes(url)}
                      onChange={(e) =>
                        update({
                          see_also_remove: e.currentTarget.checked
                            ? [...draft.see_also_remove, url]
                            : draft.see_also_remove.filter((x) => x !== url),
                        })
                      }
                    />
                    {url}
                  </label>
                ))}
              </fieldset>
            )}
            <TextField
              label="Add see also"
              value={draft.see_also_add}
              onInput={(see_also_add) => update({ see_also_add })}
              hint="URLs"
            />
          </div>
        </div>
      </fieldset>
      <CustomFieldInputs
        fields={visibleCustomFields(fields.value ?? [], { ...bug, ...draft, ...draft.custom }, false)}
        values={draft.custom}
        product={bug.product}
        onChange={(name, value) => update({ custom: { ...draft.custom, [name]: value } })}
      />
      <GroupsEditor bugGroups={bug.groups} draft={draft} update={update} />
      {bug.estimated_time !== undefined && (
        <fieldset>
          <legend>Time tracking</legend>
          <p>Hours worked so far: {bug.actual_time ?? 0}</p>
          <div class="bug-fields">
            <TextField
              label="Orig. est. (hours)"
              value={draft.estimated_time}
              onInput={(v) => update({ estimated_time: v })}
            />
            <TextField label="Hours left" value={draft.remaining_time} onInput={(v) => update({ remaining_time: v })} />
            <TextField label="Hours worked (add)" value={draft.work_time} onInput={(v) => update({ work_time: v })} />
            <TextField label="Deadline" type="date" value={draft.deadline} onInput={(v) => update({ deadline: v })} />
          </div>
        </fieldset>
      )}
      <FlagEditor
        flags={draft.flags}
        types={component?.flag_types?.bug ?? []}
        onChange={(flags) => update({ flags })}
      />
      <div class="field">
        <label for="bug-comment">Additional comment</label>
        <textarea id="bug-comment" value={draft.comment} onInput={(e) => update({ comment: e.currentTarget.value })} />
      </div>
      {ctx.canPrivate && (
        <label class="checkbox">
          <input
            type="checkbox"
            checked={draft.comment_private}
            onChange={(e) => update({ comment_private: e.currentTarget.checked })}
          />
          Make the comment private
        </label>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save changes
        </button>
      </div>
    </form>
  );
}

function GroupsEditor({
  bugGroups,
  draft,
  update,
}: {
  bugGroups: string[];
  draft: Draft;
  update: (p: Partial<Draft>) => void;
}) {
  const names = [...new Set([...bugGroups, ...draft.groups])];
  return (
    <fieldset>
      <legend>Only users in all of these groups can see the bug</legend>
      {names.length === 0 && <p>The bug is in no group: everyone may see it.</p>}
      {names.map((g) => (
        <label key={g} class="checkbox">
          <input
            type="checkbox"
            checked={draft.groups.includes(g)}
            onChange={(e) =>
              update({ groups: e.currentTarget.checked ? [...draft.groups, g] : draft.groups.filter((x) => x !== g) })
            }
          />
          {g}
        </label>
      ))}
      <AddGroup onAdd={(g) => !draft.groups.includes(g) && update({ groups: [...draft.groups, g] })} />
    </fieldset>
  );
}

function AddGroup({ onAdd }: { onAdd: (group: string) => void }) {
  const [name, setName] = useState('');
  const add = () => {
    if (name.trim()) onAdd(name.trim());
    setName('');
  };
  return (
    <div class="custom-row">
      <div class="field">
        <label for="bug-add-group">Group name</label>
        <input
          id="bug-add-group"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
      </div>
      <button type="button" class="secondary" onClick={add}>
        Add to group
      </button>
    </div>
  );
}
