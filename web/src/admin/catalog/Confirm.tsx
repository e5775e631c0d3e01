import { useEffect, useRef } from 'preact/hooks';

/**
 * Bugzilla's "are you sure" page, in place: what a destructive change affects (a count of bugs,
 * from a count_only search) before it is made, with the change and a way back.
 */
export function Confirm({
  question,
  effect,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
}: {
  question: string;
  /** What the change affects, in words ("3 bugs are in this component."), or null while counting. */
  effect: string | null;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div class="message confirm" role="alertdialog" aria-label={question} tabIndex={-1} ref={ref}>
      <p>
        <strong>{question}</strong>
      </p>
      <p>{effect ?? 'Counting the bugs this affects…'}</p>
      <p>
        <button type="button" class="danger" disabled={busy || effect === null} onClick={onConfirm}>
          {confirmLabel}
        </button>{' '}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </div>
  );
}

/** "1 bug" / "3 bugs". */
export const bugCount = (n: number) => `${n} ${n === 1 ? 'bug' : 'bugs'}`;
