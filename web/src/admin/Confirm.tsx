import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * What a destructive change affects, said before it is made: the page shows this box in place of
 * sending the change, and only "confirm" sends it.
 */
export function Confirm({
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false,
}: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, []);
  return (
    <div class="confirm-box" role="alertdialog" aria-labelledby="confirm-title" tabIndex={-1} ref={box}>
      <h2 id="confirm-title">{title}</h2>
      {children}
      <p>
        <button type="button" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>{' '}
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </p>
    </div>
  );
}
