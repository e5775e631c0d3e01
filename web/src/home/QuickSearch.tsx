import { useState } from 'preact/hooks';
import { quicksearchTarget } from '../lib/buglistQuery.ts';
import { navigate } from '../state/router.ts';

/** Bugzilla's quicksearch box: a bug number opens the bug, anything else searches. */
export function QuickSearchForm({ id, compact, initial = '' }: { id: string; compact?: boolean; initial?: string }) {
  const [text, setText] = useState(initial);
  return (
    <search>
      <form
        class={compact ? 'quicksearch compact' : 'quicksearch'}
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) navigate(quicksearchTarget(text));
        }}
      >
        <label for={id}>Quick search</label>
        <input
          id={id}
          type="search"
          value={text}
          placeholder="Bug number or search terms"
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit">{compact ? 'Search' : 'Quick search'}</button>
      </form>
    </search>
  );
}
