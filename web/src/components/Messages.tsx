import type { ComponentChildren } from 'preact';
import { describeError } from '../api/client.ts';

/** A failure in words (the API's message), announced to screen readers. */
export function ErrorMessage({ error, children }: { error: unknown; children?: ComponentChildren }) {
  if (!error) return null;
  return (
    <div class="message error" role="alert">
      {children}
      <p>{describeError(error)}</p>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

/** A polite status line (saved, sent...): announced without moving focus. */
export function StatusLine({ text }: { text: string }) {
  return (
    <p class="status-line" role="status" aria-live="polite">
      {text}
    </p>
  );
}
